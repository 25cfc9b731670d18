/**
 * Growth (issue 21, target 4): every interactive call of an adviser at three sizes of one
 * developer's data, on PostgreSQL, through the real server (compiled as `npm start` runs it).
 *
 * Sizes (`seed:large --scale xK`, K in BENCH_GROWTH_SIZES, default 1,10,100): gran-torre with
 * 248·K units and 1,000·K quotations this week over 250·K leads, beside the demo tenant. Each
 * size is seeded into its own database, then the server starts on it and the demo adviser
 * (asesor@vitrina.demo) signs in.
 *
 * Each call: BENCH_GROWTH_RUNS sequential requests (default 30) after 3 warm-ups; median, p95 and
 * bytes of the body. Between the smallest and the largest size, each call's growth exponent
 * log(t_large / t_small) / log(K_large / K_small), beside the same exponent of the bytes it
 * returns: a call whose time grows faster than what it returns (time exponent > bytes exponent
 * + 0.15, the noise allowance) does work that the answer does not need. Targets: that, and a
 * median under 50 ms at the largest size (baseline: the same call at the smallest size).
 *
 * Needs `VITRINA_TEST_PG` (or DATABASE_URL): a server where it creates and drops its databases.
 * Port 44305. Run: `npm run bench growth`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Agent, get as httpGet } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildServer } from '../../scripts/build-server.mjs';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { recordResult } from './support/results';

const SIZES = (process.env.BENCH_GROWTH_SIZES ?? '1,10,100').split(',').map(Number);
const RUNS = Number(process.env.BENCH_GROWTH_RUNS ?? 30);
const PORT = 44305;
const OUT_DIR = 'build/bench-growth';
const pgAdmin = process.env.VITRINA_TEST_PG ?? process.env.DATABASE_URL;
const NOISE = 0.15;

interface Measure {
  median: number;
  p95: number;
  bytes: number;
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

async function startServer(databaseUrl: string, dataDir: string): Promise<ChildProcess> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--enable-source-maps', join(OUT_DIR, 'main.js')], {
    env: {
      ...inherited,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      VITRINA_DATA_DIR: dataDir,
      VITRINA_DIST_DIR: '/nonexistent',
      VITRINA_SECRET: 'growth-bench',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let waited = 0; waited < 120_000; waited += 20) {
    if (child.exitCode !== null) throw new Error('the server exited');
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return child;
    } catch {
      // Not yet listening.
    }
    await sleep(20);
  }
  throw new Error('the server did not answer in 120 s');
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** The adviser's calls, as paths, once signed in at one size. */
async function adviserCalls(cookie: string): Promise<Record<string, string>> {
  const get = async <T>(path: string): Promise<T> => {
    const res = await fetch(`http://127.0.0.1:${PORT}${path}`, { headers: { cookie } });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  const user = await get<{ id: string }>('/api/auth/session');
  const corporate = await get<{ id: string }>('/api/wsObtenerCorporativo?slug=grupo-horizonte');
  const corp = corporate.id;
  const development = await get<{ id: string }>(
    `/api/wsObtenerDesarrollo?${q({ idCorporativo: corp, slug: 'gran-torre' })}`,
  );
  const leads = await get<{ id: string }[]>(`/api/wsObtenerLeads?${q({ idCorporativo: corp })}`);
  const leadId = leads[0]?.id;
  if (!leadId) throw new Error('the adviser has no lead');
  return {
    'development list': `/api/wsObtenerDesarrollos?${q({ idCorporativo: corp })}`,
    'one development': `/api/wsObtenerDesarrollo?${q({ idCorporativo: corp, slug: 'gran-torre' })}`,
    'clusters of the largest development': `/api/wsObtenerClusters?${q({ idCorporativo: corp, idDesarrollo: development.id })}`,
    // What the availability grid reads first (its first two clusters, the rest behind them).
    'clusters, first screen (limite=2)': `/api/wsObtenerClusters?${q({ idCorporativo: corp, idDesarrollo: development.id, limite: '2' })}`,
    prototypes: `/api/wsObtenerPrototipos?${q({ idCorporativo: corp, idDesarrollo: development.id })}`,
    'lead list, first page': `/api/wsObtenerLeads?${q({ idCorporativo: corp })}`,
    'lead search keystroke': `/api/wsObtenerLeads?${q({ idCorporativo: corp, q: 'mar' })}`,
    'lead detail': `/api/corporativos/${corp}/leads/${leadId}`,
    'lead history': `/api/wsObtenerHistorialCambios?${q({ idCorporativo: corp, idLead: leadId })}`,
    "a lead's quotations": `/api/wsObtenerCotizacionesLocales?${q({ idCorporativo: corp, idLead: leadId })}`,
    notifications: `/api/wsObtenerNotificaciones?${q({ idCorporativo: corp, idUsuario: user.id })}`,
    session: '/api/auth/session',
  };
}

/**
 * One call as a browser makes it: the Accept-Encoding a browser sends, the whole answer read,
 * then decompressed in one native call as a browser's network stack does. Node's `fetch` is not
 * used here: its streamed decompression (undici) takes ~65 ms for the x100 clusters' 10 MB that
 * curl's and a browser's zlib decompress in under 10 ms, and it measured that instead of the call.
 */
function browserGet(path: string, cookie: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(
      {
        host: '127.0.0.1',
        port: PORT,
        path,
        agent: keepAlive,
        headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const raw = Buffer.concat(chunks);
          const encoding = res.headers['content-encoding'];
          const body =
            encoding === 'br'
              ? brotliDecompressSync(raw)
              : encoding === 'gzip'
                ? gunzipSync(raw)
                : raw;
          resolve({ status: res.statusCode ?? 0, body });
        });
      },
    );
    req.on('error', reject);
  });
}
const keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });

async function measureCall(path: string, cookie: string): Promise<Measure> {
  const once = async () => {
    const t0 = performance.now();
    const res = await browserGet(path, cookie);
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    return { ms: performance.now() - t0, bytes: res.body.byteLength };
  };
  for (let i = 0; i < 3; i++) await once();
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const r = await once();
    times.push(r.ms);
    bytes = r.bytes;
  }
  times.sort((a, b) => a - b);
  return { median: quantile(times, 0.5), p95: quantile(times, 0.95), bytes };
}

/** Seeds one size into a new database, starts the server and measures every call. */
async function measureSize(admin: pg.Client, k: number) {
  const name = `vitrina_bench_growth_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdmin!);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrina-bench-growth-'));
  let server: ChildProcess | undefined;
  try {
    const t0 = performance.now();
    const seeded = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/server/seed/large.ts', '--scale', `x${k}`],
      {
        env: { ...process.env, DATABASE_URL: url.toString() },
        stdio: ['ignore', 'ignore', 'inherit'],
      },
    );
    if (seeded.status !== 0) throw new Error(`seed:large --scale x${k} failed`);
    const seedSeconds = (performance.now() - t0) / 1000;
    server = await startServer(url.toString(), dataDir);
    const login = await fetch(`http://127.0.0.1:${PORT}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'asesor@vitrina.demo', password: DEMO_PASSWORD }),
    });
    if (!login.ok) throw new Error(`sign-in: ${login.status}`);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const calls = await adviserCalls(cookie);
    const results = new Map<string, Measure>();
    for (const [label, path] of Object.entries(calls)) {
      results.set(label, await measureCall(path, cookie));
    }
    console.log(
      `\nx${k} (${248 * k} units, ${1000 * k} quotations; seeded in ${seedSeconds.toFixed(1)} s)`,
    );
    for (const [label, m] of results) {
      console.log(
        `  ${label.padEnd(36)} median ${m.median.toFixed(1).padStart(7)} ms  p95 ${m.p95.toFixed(1).padStart(7)} ms  ${m.bytes.toLocaleString('en').padStart(11)} B`,
      );
    }
    return results;
  } finally {
    if (server) await stopServer(server);
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!pgAdmin) {
    console.log('growth: VITRINA_TEST_PG is not set, skipped (it needs PostgreSQL)');
    return;
  }
  console.log('building the server…');
  await buildServer(OUT_DIR);
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  try {
    const bySize = new Map<number, Map<string, Measure>>();
    for (const k of SIZES) bySize.set(k, await measureSize(admin, k));
    const small = Math.min(...SIZES);
    const large = Math.max(...SIZES);
    const first = bySize.get(small)!;
    const last = bySize.get(large)!;
    const span = Math.log(large / small);
    console.log(`\ngrowth exponents from x${small} to x${large} (1 = linear in the data)`);
    for (const [label, m] of last) {
      const base = first.get(label)!;
      const timeExp = span > 0 ? Math.log(m.median / base.median) / span : 0;
      const bytesExp = span > 0 ? Math.log(m.bytes / base.bytes) / span : 0;
      const faster = timeExp > Math.max(bytesExp, 0) + NOISE;
      console.log(
        `  ${label.padEnd(36)} time ${timeExp.toFixed(2).padStart(5)}  bytes ${bytesExp.toFixed(2).padStart(5)}${faster ? '  ← grows faster than what it returns' : ''}`,
      );
      recordResult({
        bench: 'growth',
        measure: `${label}, PostgreSQL x${large}, median (p95 ${m.p95.toFixed(1)} ms, ${m.bytes.toLocaleString('en')} B)`,
        value: m.median,
        unit: 'ms',
        baseline: { label: `x${small}`, value: base.median },
        target: { text: '< 50 ms', met: m.median < 50 },
      });
      recordResult({
        bench: 'growth',
        measure: `${label}, time growth exponent x${small}→x${large} (bytes ${bytesExp.toFixed(2)})`,
        value: timeExp,
        unit: '',
        baseline: { label: 'bytes exponent', value: bytesExp },
        target: { text: `≤ bytes exponent + ${NOISE}`, met: !faster },
      });
    }
  } finally {
    await admin.end();
    rmSync(OUT_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
