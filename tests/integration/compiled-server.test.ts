/**
 * The server as `npm start` runs it (issue 21, start and memory): compiled at build into one
 * JavaScript bundle (scripts/build-server.mjs), started with plain `node`, no TypeScript compiler.
 * What the bundle reads beside itself must travel with it: the migrations (a fresh embedded
 * store is migrated) and the demo seed's assets (a fresh store is seeded).
 *
 * It also loads only what its store needs: on PostgreSQL it never imports PGlite (store/db.ts
 * imports it when the embedded store opens; the bundle keeps it outside). A resolve hook
 * (support/module-probe.mjs) lists every ES module the process resolves; the embedded store's
 * run is the probe's control. One build and one process per backend serve both checks.
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
import { DEMO_PASSWORD } from '../../src/server/seed/demo';

const outDir = `.vitrina-test-build-${process.pid}`;
const probe = resolve('tests/integration/support/module-probe.mjs');

beforeAll(async () => {
  await buildServer(outDir);
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describeBackends('the compiled server', (backend) => {
  let server: ServerProcess | undefined;
  let dir: string | undefined;
  let dispose: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vitrina-compiled-'));
    let databaseUrl: string | null = null;
    if (backend.name === 'postgres') {
      const runtime = await openSeeded(postgresBackend);
      databaseUrl = runtime.databaseUrl!;
      dispose = () => runtime.dispose();
    }
    server = await startServerProcess(
      databaseUrl,
      {
        VITRINA_DATA_DIR: join(dir, 'data'),
        VITRINA_SECRET: 'compiled-server-test',
        VITRINA_MODULE_PROBE: join(dir, 'modules.txt'),
      },
      ['--import', probe, join(outDir, 'main.js')],
    );
  }, 180_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await dispose?.();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves: health, a demo sign-in and the seeded catalogue (migrated and seeded from the files beside the bundle)', async () => {
    const s = server!;
    expect(s.child.spawnargs.join(' ')).not.toContain('tsx');
    expect((await s.fetch('/api/health')).status).toBe(200);
    const login = await s.fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'asesor@vitrina.demo', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const corporate = (await (
      await s.fetch('/api/wsObtenerCorporativo?slug=grupo-horizonte', { headers: { cookie } })
    ).json()) as { id: string };
    const developments = (await (
      await s.fetch(`/api/wsObtenerDesarrollos?idCorporativo=${corporate.id}`, {
        headers: { cookie },
      })
    ).json()) as { slug: string }[];
    expect(developments.map((d) => d.slug)).toContain('torre-alameda');
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
