/**
 * Per-request cost (issue 21, target 1): the real server under autocannon (50 connections,
 * BENCH_API_SECONDS s, default 10, median of BENCH_API_RUNS runs, default 3) against a bare Hono
 * app on @hono/node-server answering a fixed JSON body of the same size as the call measured —
 * the baseline, measured in the same run, one per call.
 *
 * Calls, signed in as the demo adviser (asesor@vitrina.demo) of grupo-horizonte:
 * - the development list (`wsObtenerDesarrollos`);
 * - the clusters of torre-alameda (`wsObtenerClusters`, every cluster and unit);
 * - a mix: 90 % development lists, 10 % lead creates (each a new e-mail).
 *
 * Servers (`node --import tsx src/server/main.ts`, demo seeded by the first start): PGlite (a
 * data directory under /tmp/h1-bench-*), PostgreSQL (a database created and dropped; needs
 * `VITRINA_TEST_PG` or DATABASE_URL) with one process, and two processes on that database (two
 * ports, 25 connections on each at the same time, req/s summed).
 *
 * Recorded per call and server: req/s (ratio to bare; targets on PostgreSQL: development list
 * ≥ 0.25× with p99 ≤ 50 ms, clusters ≥ 0.15×, mix ≥ 0.15×; PGlite half of those), p99 latency,
 * and server CPU per request (utime + stime of the server processes from /proc/<pid>/stat over
 * the run, divided by the answers). Non-2xx answers are counted and printed.
 *
 * Run: `npm run bench -- api-cost` (ports 44000–44003, or from BENCH_API_PORT_BASE);
 * BENCH_API_CALLS=lead (a part of a call's name) runs only that call; BENCH_API_BACKENDS=pglite
 * or postgresql only that store.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { recordResult } from './support/results';
import { median, startUntilHealthy, stopProcess, type HealthyServer } from './support/server';

const RUNS = Number(process.env.BENCH_API_RUNS ?? 3);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const CONNECTIONS = 50;
const PORT_BASE = Number(process.env.BENCH_API_PORT_BASE ?? 44000);
const PORTS = { bare: PORT_BASE, pglite: PORT_BASE + 1, pgA: PORT_BASE + 2, pgB: PORT_BASE + 3 };
const pgAdmin = process.env.VITRINA_TEST_PG ?? process.env.DATABASE_URL;
/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: AutocannonRequest) => AutocannonRequest;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number; p50: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  '2xx': number;
  statusCodeStats?: Record<string, { count: number }>;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  headers?: Record<string, string>;
  requests?: AutocannonRequest[];
}) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const BARE_SERVER = `
import('@hono/node-server').then(async ({ serve }) => {
  const { Hono } = await import('hono');
  const n = Number(process.env.BODY_BYTES);
  const body = '{"x":"' + 'a'.repeat(Math.max(0, n - 8)) + '"}';
  const app = new Hono();
  app.all('*', (c) => c.body(body, 200, { 'content-type': 'application/json; charset=UTF-8' }));
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
});`;

type Server = HealthyServer;

/** A server answering `/api/health` (the first start also seeds the demo: up to 300 s). */
const start = (args: string[], env: Record<string, string>, port: number): Promise<Server> =>
  startUntilHealthy(args, env, port, { pollMs: 50, timeoutMs: 300_000 });

const stop = (server: Server | undefined) => stopProcess(server?.child);

/** utime + stime of a process (and its threads), in milliseconds. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces), from field 3 on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

interface Call {
  name: string;
  /** The request(s) autocannon repeats against one server. */
  requests: (ctx: Ctx) => AutocannonRequest[];
}

interface Ctx {
  cookie: string;
  corpId: string;
  devId: string;
}

let leadCounter = 0;
const ALL_CALLS: Call[] = [
  {
    name: 'development list',
    requests: (x) => [
      { method: 'GET', path: `/api/wsObtenerDesarrollos?idCorporativo=${x.corpId}` },
    ],
  },
  {
    name: 'torre-alameda clusters',
    requests: (x) => [
      {
        method: 'GET',
        path: `/api/wsObtenerClusters?idCorporativo=${x.corpId}&idDesarrollo=${x.devId}`,
      },
    ],
  },
  {
    name: '90 % reads / 10 % lead creates',
    requests: (x) => {
      const read = `/api/wsObtenerDesarrollos?idCorporativo=${x.corpId}`;
      const run = randomBytes(3).toString('hex');
      return [
        {
          setupRequest: (req) => {
            leadCounter += 1;
            if (leadCounter % 10 !== 0)
              return { ...req, method: 'GET', path: read, body: undefined };
            return {
              ...req,
              method: 'POST',
              path: `/api/corporativos/${x.corpId}/leads`,
              headers: { ...req.headers, 'content-type': 'application/json' },
              body: JSON.stringify({
                nombre: `Bench ${leadCounter}`,
                email: `bench-${run}-${leadCounter}@example.com`,
              }),
            };
          },
        },
      ];
    },
  },
];

/** `BENCH_API_CALLS=lead` (a part of the calls' names: the mix is "90 % reads / 10 % lead creates") runs only those. */
const CALLS = ALL_CALLS.filter((c) => c.name.includes(process.env.BENCH_API_CALLS ?? ''));
/** `BENCH_API_BACKENDS=pglite` or `postgresql` measures only that store (default: both). */
const BACKENDS = (process.env.BENCH_API_BACKENDS ?? 'pglite,postgresql').split(',');

interface Measured {
  rps: number;
  p99: number;
  cpuPerRequest: number;
  non2xx: number;
  /** Answers by status other than 2xx, and errors and timeouts, e.g. `{ 409: 3, timeouts: 2 }`. */
  failures: Record<string, number>;
}

/** One autocannon run per server at once (connections split evenly), summed. */
async function runOnce(servers: Server[], ctx: Ctx | null, call: Call): Promise<Measured> {
  const before = servers.map((s) => cpuMs(s.child.pid!));
  const results = await Promise.all(
    servers.map((s) =>
      autocannon({
        url: `http://127.0.0.1:${s.port}`,
        connections: Math.floor(CONNECTIONS / servers.length),
        duration: SECONDS,
        headers: ctx ? { cookie: ctx.cookie } : {},
        requests: ctx ? call.requests(ctx) : [{ method: 'GET', path: '/api/wsObtenerDesarrollos' }],
      }),
    ),
  );
  const failures: Record<string, number> = {};
  const add = (key: string, n: number) => {
    if (n > 0) failures[key] = (failures[key] ?? 0) + n;
  };
  for (const r of results) {
    for (const [status, { count }] of Object.entries(r.statusCodeStats ?? {}))
      if (!status.startsWith('2')) add(status, count);
    add('errors', Math.max(0, r.errors - r.timeouts));
    add('timeouts', r.timeouts);
  }
  const cpu = servers.reduce((sum, s, i) => sum + cpuMs(s.child.pid!) - before[i]!, 0);
  const answered = results.reduce((sum, r) => sum + r.requests.total, 0);
  return {
    rps: results.reduce((sum, r) => sum + r.requests.average, 0),
    p99: Math.max(...results.map((r) => r.latency.p99)),
    cpuPerRequest: answered > 0 ? cpu / answered : NaN,
    non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    failures,
  };
}

async function measure(
  label: string,
  servers: Server[],
  ctx: Ctx | null,
  call: Call,
): Promise<Measured> {
  const runs: Measured[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runOnce(servers, ctx, call));
  const m: Measured = {
    rps: median(runs.map((r) => r.rps)),
    p99: median(runs.map((r) => r.p99)),
    cpuPerRequest: median(runs.map((r) => r.cpuPerRequest)),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    failures: {},
  };
  for (const r of runs)
    for (const [k, n] of Object.entries(r.failures)) m.failures[k] = (m.failures[k] ?? 0) + n;
  console.log(
    `${call.name} — ${label}: ${runs.map((r) => r.rps.toFixed(0)).join(', ')} req/s (median ${m.rps.toFixed(0)}), p99 ${m.p99} ms, CPU ${m.cpuPerRequest.toFixed(3)} ms/request${m.non2xx ? `, ${m.non2xx} non-2xx or errors ${JSON.stringify(m.failures)}` : ''}`,
  );
  return m;
}

async function signIn(port: number): Promise<Ctx> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'asesor@vitrina.demo', password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
  const get = async <T>(path: string) =>
    (await (await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie } })).json()) as T;
  const corporates = await get<{ id: string; slug: string }[]>('/api/wsObtenerCorporativos');
  const corpId = corporates.find((c) => c.slug === 'grupo-horizonte')!.id;
  const developments = await get<{ id: string; slug: string }[]>(
    `/api/wsObtenerDesarrollos?idCorporativo=${corpId}`,
  );
  const devId = developments.find((d) => d.slug === 'torre-alameda')!.id;
  return { cookie, corpId, devId };
}

/** The size of the body a call answers (the read's; the mix's reads are development lists). */
async function bodyBytes(port: number, ctx: Ctx, call: Call): Promise<number> {
  const first = call.requests(ctx)[0]!;
  const path = first.path ?? `/api/wsObtenerDesarrollos?idCorporativo=${ctx.corpId}`;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { cookie: ctx.cookie } });
  return (await res.arrayBuffer()).byteLength;
}

interface Target {
  ratio: number;
  p99?: number;
}
const TARGETS: Record<string, Target> = {
  'development list': { ratio: 0.25, p99: 50 },
  'torre-alameda clusters': { ratio: 0.15 },
  '90 % reads / 10 % lead creates': { ratio: 0.15 },
};

function record(call: Call, backend: string, m: Measured, bare: Measured, half: boolean) {
  const target = TARGETS[call.name]!;
  const ratio = target.ratio * (half ? 0.5 : 1);
  const p99 = target.p99 ? target.p99 * (half ? 2 : 1) : undefined;
  const baseline = (value: number) => ({ label: 'bare Hono, same body size', value });
  const met = m.rps >= ratio * bare.rps && (p99 === undefined || m.p99 <= p99);
  recordResult({
    bench: 'api-cost',
    measure: `${call.name}, ${backend}, req/s at ${CONNECTIONS} connections`,
    value: m.rps,
    unit: 'req/s',
    baseline: baseline(bare.rps),
    target: {
      text: `≥ ${ratio}× bare${p99 !== undefined ? ` and p99 ≤ ${p99} ms` : ''}`,
      met,
    },
  });
  recordResult({
    bench: 'api-cost',
    measure: `${call.name}, ${backend}, p99 latency`,
    value: m.p99,
    unit: 'ms',
    baseline: baseline(bare.p99),
    ...(p99 !== undefined ? { target: { text: `≤ ${p99} ms`, met: m.p99 <= p99 } } : {}),
  });
  recordResult({
    bench: 'api-cost',
    measure: `${call.name}, ${backend}, server CPU per request`,
    value: m.cpuPerRequest,
    unit: 'ms',
    baseline: baseline(bare.cpuPerRequest),
  });
}

const SERVER_ARGS = ['--import', 'tsx', 'src/server/main.ts'];
const COMMON_ENV = { VITRINA_DIST_DIR: '/nonexistent', VITRINA_SECRET: 'api-cost-bench' };

async function main() {
  // One bare app per call, answering the same number of bytes as the real call.
  const bareFor = new Map<string, Measured>();
  const dataDir = mkdtempSync(join(tmpdir(), 'h1-bench-pglite-'));
  const pgName = `vitrina_bench_api_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client | undefined;
  const running: Server[] = [];
  try {
    const baseline = async (port: number, ctx: Ctx, call: Call) => {
      if (bareFor.has(call.name)) return bareFor.get(call.name)!;
      const bytes = await bodyBytes(port, ctx, call);
      const bare = await start(['-e', BARE_SERVER], { BODY_BYTES: String(bytes) }, PORTS.bare);
      try {
        bareFor.set(call.name, await measure(`bare Hono, ${bytes} B`, [bare], null, call));
      } finally {
        await stop(bare);
      }
      return bareFor.get(call.name)!;
    };
    if (BACKENDS.includes('pglite')) {
      console.log('PGlite: starting (and seeding) the server…');
      const pglite = await start(
        SERVER_ARGS,
        { ...COMMON_ENV, VITRINA_DATA_DIR: dataDir },
        PORTS.pglite,
      );
      running.push(pglite);
      const ctx = await signIn(PORTS.pglite);
      for (const call of CALLS) {
        const bare = await baseline(PORTS.pglite, ctx, call);
        const m = await measure('PGlite, 1 process', [pglite], ctx, call);
        record(call, 'PGlite', m, bare, true);
      }
      await stop(pglite);
      running.length = 0;
    }

    if (!BACKENDS.includes('postgresql')) return;
    if (!pgAdmin) {
      console.log('VITRINA_TEST_PG is not set: PostgreSQL skipped');
      return;
    }
    admin = new pg.Client({ connectionString: pgAdmin });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgName}`);
    const url = new URL(pgAdmin);
    url.pathname = `/${pgName}`;
    const env = {
      ...COMMON_ENV,
      DATABASE_URL: url.toString(),
      VITRINA_DATA_DIR: mkdtempSync(join(tmpdir(), 'h1-bench-pg-')),
    };
    console.log('PostgreSQL: starting (and seeding) the first server…');
    const a = await start(SERVER_ARGS, env, PORTS.pgA);
    running.push(a);
    const b = await start(SERVER_ARGS, env, PORTS.pgB);
    running.push(b);
    const pgCtx = await signIn(PORTS.pgA);
    for (const call of CALLS) {
      const bare = await baseline(PORTS.pgA, pgCtx, call);
      const one = await measure('PostgreSQL, 1 process', [a], pgCtx, call);
      record(call, 'PostgreSQL', one, bare, false);
      const two = await measure('PostgreSQL, 2 processes', [a, b], pgCtx, call);
      record(call, 'PostgreSQL 2 processes', two, bare, false);
      recordResult({
        bench: 'api-cost',
        measure: `${call.name}, PostgreSQL, 2 processes over 1`,
        value: two.rps / one.rps,
        unit: '×',
      });
    }
    rmSync(env.VITRINA_DATA_DIR, { recursive: true, force: true });
  } finally {
    await Promise.all(running.map(stop));
    rmSync(dataDir, { recursive: true, force: true });
    if (admin) {
      await admin.query(`DROP DATABASE IF EXISTS ${pgName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
