/**
 * The server as `npm start` runs it (issue 21, start and memory): compiled at build into one
 * JavaScript bundle (scripts/build-server.mjs), started with plain `node`, no TypeScript compiler.
 * What the bundle reads beside itself must travel with it: the migrations (a fresh embedded
 * store is migrated) and the demo seed's assets (a fresh store is seeded).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

beforeAll(async () => {
  await buildServer(outDir);
}, 60_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describeBackends('the compiled server', (backend) => {
  let server: ServerProcess | undefined;
  let dataDir: string | undefined;
  let dispose: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'vitrina-compiled-'));
    let databaseUrl: string | null = null;
    if (backend.name === 'postgres') {
      const runtime = await openSeeded(postgresBackend);
      databaseUrl = runtime.databaseUrl!;
      dispose = () => runtime.dispose();
    }
    server = await startServerProcess(
      databaseUrl,
      { VITRINA_DATA_DIR: dataDir, VITRINA_SECRET: 'compiled-server-test' },
      [join(outDir, 'main.js')],
    );
  }, 180_000);

  afterAll(async () => {
    await stopServerProcess(server);
    await dispose?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
});
