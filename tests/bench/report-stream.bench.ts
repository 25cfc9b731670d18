/**
 * The weekly report streamed and the lead list paged (issue 21), on PostgreSQL and PGlite, with
 * 100,000 quotations in one week and 25,000 leads in the demo corporate:
 *
 * - the report through the real HTTP server (`wsObtenerCotizacionesSemanales`): time to the first
 *   row's first byte (target ≤ 100 ms; the array's '[' goes out before any row is read), total
 *   time against a bare `COPY (SELECT …the same rows…) TO STDOUT` of the same run (target ≥ 0.5×
 *   its speed), the process's RSS growth while
 *   it streams against the whole-week query's (the answer before streaming), and how long a light
 *   call (`/api/auth/session`, made every 20 ms while it streams) waits: its latency less the
 *   same call's median latency on the idle server, measured just before in the same run (target:
 *   the longest wait ≤ 50 ms). The report is read by a thread of its own, as a browser is
 *   another process: the server's event loop, where the light calls are answered, is not also
 *   the report's client;
 * - the lead list's first page with its total at 25,000 leads, against the first page and the
 *   `count(*)` it used to run.
 *
 * The rows are written straight into the read models (quotations shaped as the projection writes
 * them, leads through `leadRow`, then the counters recounted): `seed:large` writes them as
 * events, which takes many minutes at this size. Data in a throw-away PostgreSQL database and in
 * `/tmp/h3-bench-*` (PGlite), both removed at the end.
 * Run: `npm run bench -- report-stream` (`BENCH_QUOTATIONS`, `BENCH_LEADS`, `BENCH_BACKENDS`;
 * ports 44203–44204, or from `BENCH_REPORT_PORT_BASE`).
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { serve, type ServerType } from '@hono/node-server';
import pg from 'pg';
import { normalizeLeadFields, type Lead } from '../../src/core/lead';
import { createApp } from '../../src/server/app';
import { findCorporate } from '../../src/server/http/context';
import { LEAD_COLUMNS, leadRow, recountLeadCounts } from '../../src/server/leads/projection';
import { weeklyReport } from '../../src/server/quotations/queries';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../src/server/runtime';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { recordResult } from './support/results';

const QUOTATIONS = Number(process.env.BENCH_QUOTATIONS ?? 100_000);
const LEADS = Number(process.env.BENCH_LEADS ?? 25_000);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'postgres,pglite').split(',');
const PG_ADMIN = process.env.VITRINA_TEST_PG ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PORT_BASE = Number(process.env.BENCH_REPORT_PORT_BASE ?? 44203);
const PORT = { postgres: PORT_BASE, pglite: PORT_BASE + 1 } as const;
/** Wednesday noon of a week, in Mexico City: the report's `now`. */
const NOW = new Date('2026-11-18T18:00:00Z');
const WEEK_START = new Date('2026-11-16T06:00:00Z');

const quantile = (xs: readonly number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? NaN;
};
const median = (xs: readonly number[]) => quantile(xs, 0.5);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const gc = () => (globalThis as { gc?: () => void }).gc?.();

/** The report's rows, as the stream and the old query read them, for the bare COPY. */
const COPY_ROWS = `SELECT (q.reporte || jsonb_build_object(
    'divisa', q.doc->'divisa'->>'codigo',
    'nombreAsesor', coalesce(nullif(trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos')), ''), q.reporte->>'nombreAsesor'),
    'nombreCliente', coalesce(nullif(trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos')), ''), q.reporte->>'nombreCliente')))::text
  FROM rm_quotations q
  LEFT JOIN rm_users u ON u.id = q.id_asesor
  LEFT JOIN rm_leads l ON l.id = q.id_lead AND l.corporate_id = q.corporate_id
 WHERE q.corporate_id = '$CORP' AND q.fecha_alta >= '${WEEK_START.toISOString()}'
   AND q.fecha_alta < '2026-11-23T06:00:00.000Z'
 ORDER BY q.fecha_alta, q.posicion`;

async function seed(rt: Runtime, corporateId: string) {
  const db = rt.deps.db;
  const { rows: users } = await db.query<{ id: string }>(
    `SELECT id FROM rm_users ORDER BY id LIMIT 8`,
  );
  // Leads of the corporate, through the projection's own row shape.
  let state = 42;
  const rand = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const names = ['María', 'José', 'Ana', 'Luis', 'Carmen', 'Jorge', 'Lucía', 'Sofía'];
  const surnames = ['García', 'López', 'Hernández', 'Martínez', 'Pérez', 'Sánchez'];
  const BATCH = 1000;
  for (let start = 0; start < LEADS; start += BATCH) {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (let i = start; i < Math.min(LEADS, start + BATCH); i++) {
      const fields = normalizeLeadFields({
        nombre: names[Math.floor(rand() * names.length)]!,
        apellidos: surnames[Math.floor(rand() * surnames.length)]!,
        email: `bench${i}@example.com`,
        telefono: `55 ${String(10_000_000 + i)}`,
      });
      const lead = {
        ...fields,
        id: `bench-lead-${i}`,
        idCorporativo: corporateId,
        idVendedor: users[i % users.length]!.id,
        status: i % 3 === 0 ? 'contactado' : 'nuevo',
        desarrollo: null,
        fechaAlta: 1_763_000_000 + i,
        eliminado: false,
      } as unknown as Lead;
      const row = leadRow(lead);
      tuples.push(`(${row.map((_, c) => `$${values.length + c + 1}`).join(', ')})`);
      values.push(...row);
    }
    await db.query(
      `INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`,
      values,
    );
  }
  await recountLeadCounts(db, corporateId);
  // The week's quotations, shaped as the projection writes them, several to a second.
  await db.query(
    `INSERT INTO rm_quotations (id, corporate_id, id_asesor, id_lead, fecha_alta, posicion, es_favorito, doc, reporte, numero)
     SELECT 'bench-q-' || g, $1, ($2::text[])[1 + g % array_length($2::text[], 1)],
            'bench-lead-' || (g % $5::int),
            $3::timestamptz + (g * interval '1 second') * (400000.0 / $4::int), 1000000 + g, false,
            jsonb_build_object('id', 'bench-q-' || g, 'divisa', jsonb_build_object('codigo', CASE WHEN g % 50 = 0 THEN 'USD' ELSE 'MXN' END)),
            jsonb_build_object(
              'fechaAlta', extract(epoch from $3::timestamptz)::bigint + g * 4,
              'idAsesor', ($2::text[])[1 + g % array_length($2::text[], 1)],
              'nombreAsesor', 'Asesor', 'nombreCliente', 'Cliente',
              'nombreDesarrollo', 'Gran Torre', 'nombreCluster', 'Torre ' || (g % 7),
              'nombreUnidad', 'U-' || g, 'nombrePrototipo', 'Tipo ' || (g % 5),
              'precioLista', 350000000 + g, 'descuento', 17500000, 'precioFinal', 332500000 + g,
              'enganche', 99750000, 'diferido', 0, 'mensualidades', 166250000,
              'escrituracion', CASE WHEN g % 10 = 0 THEN 1000000 ELSE 0 END,
              'contraEntrega', 66500000 + g, 'divisa', 'MXN'),
            100000 + g
       FROM generate_series(1, $4::int) g`,
    [corporateId, users.map((u) => u.id), WEEK_START.toISOString(), QUOTATIONS, LEADS],
  );
  if (rt.deps.db.kind === 'postgres') await db.query('VACUUM ANALYZE');
  else await db.query('ANALYZE');
}

async function timeCopy(rt: Runtime, corporateId: string, databaseUrl?: string) {
  const sql = COPY_ROWS.replace('$CORP', corporateId);
  if (databaseUrl) {
    // psql's own timing of the COPY (server and transfer to psql, whose output we drop).
    const run = () => {
      const r = spawnSync(
        'psql',
        ['-X', '-q', '-d', databaseUrl, '-c', '\\timing on', '-c', `COPY (${sql}) TO STDOUT`],
        { maxBuffer: 1 << 30 },
      );
      if (r.status !== 0) throw new Error(String(r.stderr));
      const out = r.stdout.toString('utf8');
      const timing = /Time: ([\d.]+) ms[^\n]*\n?$/.exec(out);
      if (!timing) throw new Error('no timing from psql');
      return { ms: Number(timing[1]), bytes: out.length - timing[0].length };
    };
    const copies = [1, 2, 3].map(() => run());
    return { ms: median(copies.map((c) => c.ms)), bytes: copies[0]!.bytes };
  }
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    await rt.deps.db.query(`COPY (${sql}) TO '/dev/blob'`);
    times.push(performance.now() - t0);
  }
  return { ms: median(times), bytes: NaN };
}

/**
 * The report's reader: a thread of its own, as a browser is another process, so the server's
 * event loop (where the light calls are answered and timed) is not also the client's. It reads
 * the whole body, counting bytes, and answers its timings.
 */
const READER = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', async ({ url, headers }) => {
  const t0 = performance.now();
  const res = await fetch(url, { headers });
  const reader = res.body.getReader();
  let ttfb = NaN;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    // The first byte of the first row: the JSON array's '[' goes out before any row is read.
    if (Number.isNaN(ttfb) && bytes + value.length > 1) ttfb = performance.now() - t0;
    bytes += value.length;
  }
  parentPort.postMessage({ ttfb, total: performance.now() - t0, bytes });
});
`;

/**
 * The light calls' client: a thread of its own too (an adviser's browser is another process), so
 * a call's latency is the server's answer, not also the wait for the server's event loop to run
 * the client's side of the fetch. `idle`: 30 calls, 20 ms apart; `start`: a call every 20 ms until
 * `stop`. Answers the latencies.
 */
const LIGHT = `
const { parentPort } = require('node:worker_threads');
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let running = false;
parentPort.on('message', async ({ kind, base, cookie }) => {
  if (kind === 'stop') { running = false; return; }
  running = true;
  const latencies = [];
  while (running && (kind === 'start' || latencies.length < 30)) {
    const t0 = performance.now();
    const res = await fetch(base + '/api/auth/session', { headers: { cookie } });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    await sleep(20);
  }
  running = false;
  parentPort.postMessage(latencies);
});
`;

/** Streams the report over HTTP, sampling RSS and making a light call every 20 ms meanwhile. */
async function streamOnce(
  reader: Worker,
  caller: Worker,
  base: string,
  cookie: string,
  corporateId: string,
  light: boolean,
) {
  gc();
  await sleep(50);
  const rss0 = process.memoryUsage().rss;
  let rssMax = rss0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  }, 10);
  const done = new Promise<{ ttfb: number; total: number; bytes: number }>((resolve) =>
    reader.once('message', resolve),
  );
  reader.postMessage({
    url: `${base}/api/wsObtenerCotizacionesSemanales?idCorporativo=${corporateId}`,
    headers: { cookie, 'accept-encoding': 'identity' },
  });
  const lightCalls = light
    ? new Promise<number[]>((resolve) => caller.once('message', resolve))
    : Promise.resolve([]);
  if (light) caller.postMessage({ kind: 'start', base, cookie });
  const { ttfb, total, bytes } = await done;
  if (light) caller.postMessage({ kind: 'stop' });
  const latencies = await lightCalls;
  clearInterval(sampler);
  return { ttfb, total, bytes, rssGrowth: rssMax - rss0, latencies };
}

function idleLatencies(caller: Worker, base: string, cookie: string) {
  const out = new Promise<number[]>((resolve) => caller.once('message', resolve));
  caller.postMessage({ kind: 'idle', base, cookie });
  return out;
}

async function benchBackend(name: 'postgres' | 'pglite') {
  let databaseUrl: string | undefined;
  let dataDir: string | undefined;
  const dbName = `h3_bench_${randomBytes(4).toString('hex')}`;
  if (name === 'postgres') {
    const admin = new pg.Client({ connectionString: PG_ADMIN });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(PG_ADMIN);
    u.pathname = `/${dbName}`;
    databaseUrl = u.toString();
  } else {
    dataDir = mkdtempSync('/tmp/h3-bench-pglite-');
  }
  const label = name === 'postgres' ? 'PostgreSQL' : 'PGlite';
  const rt = await openRuntime({ databaseUrl, dataDir, clock: () => NOW });
  let server: ServerType | undefined;
  let reader: Worker | undefined;
  let caller: Worker | undefined;
  try {
    await seedDemoIfEmpty(rt.deps.store);
    const corporate = (await findCorporate(rt.deps.db, { slug: 'grupo-horizonte' }))!;
    const t0 = performance.now();
    await seed(rt, corporate.id);
    console.log(
      `${label}: seeded ${QUOTATIONS} quotations, ${LEADS} leads in ${Math.round(performance.now() - t0)} ms`,
    );
    const app = createApp(rt.deps);
    const port = PORT[name];
    server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(s));
    });
    const base = `http://127.0.0.1:${port}`;
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'gerente@vitrina.demo', password: DEMO_PASSWORD }),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;

    // Baselines: the bare COPY, the whole-week query (the answer before streaming), idle calls.
    const copy = await timeCopy(rt, corporate.id, databaseUrl);
    const gerente = await rt.deps.db.query<{ id: string }>(
      `SELECT id FROM rm_users WHERE doc->>'email' = 'gerente@vitrina.demo'`,
    );
    const role = corporate.roles.find((r) => r.permisosLeads.alcanceLeads === 'Todos')!;
    const member = { corporate, role, user: { id: gerente.rows[0]!.id } } as never;
    gc();
    await sleep(50);
    const rssOld0 = process.memoryUsage().rss;
    let rssOldMax = rssOld0;
    const oldSampler = setInterval(() => {
      rssOldMax = Math.max(rssOldMax, process.memoryUsage().rss);
    }, 10);
    const tOld = performance.now();
    const old = await weeklyReport(rt.deps.db, member, NOW);
    const oldMs = performance.now() - tOld;
    clearInterval(oldSampler);
    const oldBytes = old.body.length;
    caller = new Worker(LIGHT, { eval: true });
    await idleLatencies(caller, base, cookie);
    const idle = await idleLatencies(caller, base, cookie);

    // The stream: alone (speed), then with a light call every 20 ms.
    reader = new Worker(READER, { eval: true });
    await streamOnce(reader, caller, base, cookie, corporate.id, false);
    const runs = [];
    for (let i = 0; i < 3; i++)
      runs.push(await streamOnce(reader, caller, base, cookie, corporate.id, false));
    const run = runs.sort((a, b) => a.total - b.total)[1]!;
    const busy = await streamOnce(reader, caller, base, cookie, corporate.id, true);
    console.log(
      `${label}: stream ${run.bytes} bytes (old ${oldBytes}, COPY ${copy.bytes}); old query ${Math.round(oldMs)} ms; ${busy.latencies.length} light calls`,
    );

    recordResult({
      bench: 'report-stream',
      measure: `weekly report ${QUOTATIONS / 1000}k, ${label}, time to first byte`,
      value: median(runs.map((r) => r.ttfb)),
      unit: 'ms',
      baseline: { label: 'whole-week query', value: oldMs },
      target: { text: '≤ 100 ms', met: median(runs.map((r) => r.ttfb)) <= 100 },
    });
    const speed = copy.ms / run.total;
    recordResult({
      bench: 'report-stream',
      measure: `weekly report ${QUOTATIONS / 1000}k, ${label}, whole week streamed`,
      value: run.total,
      unit: 'ms',
      baseline: { label: 'bare COPY TO STDOUT', value: copy.ms },
      target: { text: '≥ 0.5× COPY speed (≤ 2× its time)', met: speed >= 0.5 },
    });
    recordResult({
      bench: 'report-stream',
      measure: `weekly report ${QUOTATIONS / 1000}k, ${label}, server RSS growth while streaming`,
      value: run.rssGrowth / 1e6,
      unit: 'MB',
      baseline: { label: 'whole-week query', value: (rssOldMax - rssOld0) / 1e6 },
    });
    // A light call's wait: its latency while the report streams less the same call's median
    // latency on the idle server, measured just before in the same run.
    const idleMedian = median(idle);
    const waits = busy.latencies.map((ms) => ms - idleMedian);
    const maxWait = Math.max(...waits);
    recordResult({
      bench: 'report-stream',
      measure: `light call every 20 ms during the report, ${label}, longest wait (latency − idle median)`,
      value: maxWait,
      unit: 'ms',
      baseline: { label: 'idle server, max − median', value: Math.max(...idle) - idleMedian },
      target: { text: '≤ 50 ms', met: maxWait <= 50 },
    });
    recordResult({
      bench: 'report-stream',
      measure: `light call every 20 ms during the report, ${label}, 95th percentile wait`,
      value: quantile(waits, 0.95),
      unit: 'ms',
      baseline: {
        label: 'idle server, 95th percentile − median',
        value: quantile(idle, 0.95) - idleMedian,
      },
    });
    recordResult({
      bench: 'report-stream',
      measure: `light call every 20 ms during the report, ${label}, median latency (${busy.latencies.length} calls)`,
      value: median(busy.latencies),
      unit: 'ms',
      baseline: { label: 'idle server, median', value: idleMedian },
    });

    // The lead list's first page with its total, at LEADS leads.
    const pageTimes: number[] = [];
    const oldTimes: number[] = [];
    for (let i = 0; i < 20; i++) {
      let t = performance.now();
      const res = await fetch(`${base}/api/wsObtenerLeads?idCorporativo=${corporate.id}&limit=50`, {
        headers: { cookie, 'accept-encoding': 'identity' },
      });
      await res.arrayBuffer();
      if (!res.headers.get('x-total-count')) throw new Error('no total');
      pageTimes.push(performance.now() - t);
      // Before: the same page query and a count(*) of every matching lead.
      t = performance.now();
      await rt.deps.db.query(
        `SELECT doc FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado
          ORDER BY fecha_alta DESC, id DESC LIMIT 51`,
        [corporate.id],
      );
      await rt.deps.db.query(
        'SELECT count(*)::int FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado',
        [corporate.id],
      );
      oldTimes.push(performance.now() - t);
    }
    recordResult({
      bench: 'report-stream',
      measure: `lead list first page (50) with total at ${LEADS / 1000}k leads, ${label}`,
      value: median(pageTimes),
      unit: 'ms',
      baseline: { label: 'page + count(*) in the database alone', value: median(oldTimes) },
      target: { text: '< 50 ms', met: median(pageTimes) < 50 },
    });
  } finally {
    await reader?.terminate();
    await caller?.terminate();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await rt.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (name === 'postgres') {
      const admin = new pg.Client({ connectionString: PG_ADMIN });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

async function main() {
  console.log(
    `report stream bench: ${QUOTATIONS} quotations, ${LEADS} leads, node ${process.version}`,
  );
  for (const name of BACKENDS) await benchBackend(name as 'postgres' | 'pglite');
}

await main();
