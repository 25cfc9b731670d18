/**
 * Start and memory (issue 21, target 5): the server as `npm start` runs it (compiled by
 * scripts/build-server.mjs, `node --enable-source-maps build/server/main.js`), on an existing
 * data directory (PGlite) and on an existing PostgreSQL database, both seeded by a first start
 * that is not measured.
 *
 * 1. Start: from spawn to the first 200 of `/api/health`, median of BENCH_START_RUNS (default 5).
 *    Target ≤ 1 s.
 * 2. Idle memory: the resident set (VmRSS) after the first 200 and 10 s of idle. Target ≤ 120 MB
 *    on PostgreSQL; PGlite reported.
 *
 * Baseline, in the same run: a bare Hono app on @hono/node-server started with `node -e`,
 * answering `/api/health`, measured the same way.
 *
 * PostgreSQL: `VITRINA_TEST_PG` (or DATABASE_URL) names a server whose database this bench
 * creates and drops; without it only PGlite runs. Ports 44301–44302.
 *
 * Run: `npm run bench start-memory` (or `npx tsx tests/bench/start-memory.bench.ts`).
 */
import { type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { buildServer } from '../../scripts/build-server.mjs';
import { recordResult } from './support/results';
import { median, startUntilHealthy, stopProcess } from './support/server';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 5);
const IDLE_MS = 10_000;
const PORT = 44301;
const BARE_PORT = 44302;
const OUT_DIR = 'build/bench-start-memory';
const pgAdmin = process.env.VITRINA_TEST_PG ?? process.env.DATABASE_URL;

const BARE_SERVER = `
import('@hono/node-server').then(async ({ serve }) => {
  const { Hono } = await import('hono');
  const app = new Hono();
  app.get('/api/health', (c) => c.json({ ok: true }));
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' });
});`;

/** Spawns `args` and polls /api/health every 5 ms; `ms` is spawn to the first 200. */
const startAndWait = (args: string[], env: Record<string, string>, port: number) =>
  startUntilHealthy(args, env, port, { pollMs: 5, timeoutMs: 120_000 });

const stop = (child: ChildProcess) => stopProcess(child);

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

/** RUNS timed starts (the last one also idles and has its RSS read). */
async function measure(label: string, args: string[], env: Record<string, string>, port: number) {
  const times: number[] = [];
  let rss = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = await startAndWait(args, env, port);
    times.push(started.ms);
    if (i === RUNS - 1) {
      await sleep(IDLE_MS);
      rss = rssMb(started.child.pid!);
    }
    await stop(started.child);
  }
  const ms = median(times);
  console.log(
    `${label}: start ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${ms.toFixed(0)}); idle RSS ${rss.toFixed(0)} MB`,
  );
  return { ms, rss };
}

async function main() {
  console.log('building the server…');
  await buildServer(OUT_DIR);
  const serverArgs = ['--enable-source-maps', join(OUT_DIR, 'main.js')];
  const bare = await measure('bare Hono (node -e)', ['-e', BARE_SERVER], {}, BARE_PORT);
  const baseline = (value: number) => ({ label: 'bare Hono app', value });

  const dataDir = mkdtempSync(join(tmpdir(), 'vitrina-bench-start-'));
  const common = { VITRINA_DIST_DIR: '/nonexistent', VITRINA_SECRET: 'start-memory-bench' };
  try {
    // The first start creates and seeds the store: not measured.
    await stop(
      (await startAndWait(serverArgs, { ...common, VITRINA_DATA_DIR: dataDir }, PORT)).child,
    );
    const pglite = await measure(
      'server, PGlite (existing data directory)',
      serverArgs,
      { ...common, VITRINA_DATA_DIR: dataDir },
      PORT,
    );
    recordResult({
      bench: 'start-memory',
      measure: 'start to first 200, PGlite existing data dir, median',
      value: pglite.ms,
      unit: 'ms',
      baseline: baseline(bare.ms),
      target: { text: '≤ 1000 ms', met: pglite.ms <= 1000 },
    });
    recordResult({
      bench: 'start-memory',
      measure: 'idle RSS after start + 10 s, PGlite',
      value: pglite.rss,
      unit: 'MB',
      baseline: baseline(bare.rss),
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  if (!pgAdmin) {
    console.log('VITRINA_TEST_PG is not set: PostgreSQL skipped');
    return;
  }
  const name = `vitrina_bench_start_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdmin });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgAdmin);
  url.pathname = `/${name}`;
  const env = {
    ...common,
    DATABASE_URL: url.toString(),
    VITRINA_DATA_DIR: mkdtempSync(join(tmpdir(), 'vitrina-bench-start-pg-')),
  };
  try {
    await stop((await startAndWait(serverArgs, env, PORT)).child);
    const postgres = await measure('server, PostgreSQL (existing database)', serverArgs, env, PORT);
    recordResult({
      bench: 'start-memory',
      measure: 'start to first 200, PostgreSQL, median',
      value: postgres.ms,
      unit: 'ms',
      baseline: baseline(bare.ms),
      target: { text: '≤ 1000 ms', met: postgres.ms <= 1000 },
    });
    recordResult({
      bench: 'start-memory',
      measure: 'idle RSS after start + 10 s, PostgreSQL',
      value: postgres.rss,
      unit: 'MB',
      baseline: baseline(bare.rss),
      target: { text: '≤ 120 MB', met: postgres.rss <= 120 },
    });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(env.VITRINA_DATA_DIR, { recursive: true, force: true });
    rmSync(OUT_DIR, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
