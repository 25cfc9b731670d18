/**
 * The compiled server loads only what its store needs (issue 21, start and memory): on
 * PostgreSQL it never imports PGlite (store/db.ts imports it when the embedded store opens; the
 * bundle keeps it outside, scripts/build-server.mjs). A resolve hook (support/module-probe.mjs)
 * lists every ES module the process resolves; the embedded store's run is the probe's control.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildServer } from '../../scripts/build-server.mjs';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import {
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

const outDir = `.vitrina-test-build-lazy-${process.pid}`;
const probe = resolve('tests/integration/support/module-probe.mjs');

beforeAll(async () => {
  await buildServer(outDir);
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describeBackends('the compiled server’s modules', (backend) => {
  let server: ServerProcess | undefined;
  let dir: string | undefined;
  let dispose: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vitrina-lazy-'));
    let databaseUrl: string | null = null;
    if (backend.name === 'postgres') {
      const runtime = await openSeeded(postgresBackend);
      databaseUrl = runtime.databaseUrl!;
      dispose = () => runtime.dispose();
    }
    server = await startServerProcess(
      databaseUrl,
      { VITRINA_DATA_DIR: join(dir, 'data'), VITRINA_MODULE_PROBE: join(dir, 'modules.txt') },
      ['--import', probe, join(outDir, 'main.js')],
    );
  }, 180_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await dispose?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it(
    backend.name === 'postgres'
      ? 'on PostgreSQL: serves without loading PGlite'
      : 'on the embedded store: loads PGlite (the probe sees it)',
    async () => {
      expect((await server!.fetch('/api/health')).status).toBe(200);
      const modules = readFileSync(join(dir!, 'modules.txt'), 'utf8').split('\n');
      expect(modules.some((url) => url.endsWith('/main.js'))).toBe(true);
      const pglite = modules.filter((url) => url.includes('@electric-sql/pglite'));
      if (backend.name === 'postgres') expect(pglite).toEqual([]);
      else expect(pglite.length).toBeGreaterThan(0);
    },
  );
});
