/**
 * Sessions, users and memberships are resolved from memory in every server process (issue 21,
 * src/server/auth/auth-cache.ts), and a change made in one process applies on the very next
 * request in the other: a role change, a sign-out, a deactivation, a removal from a corporate.
 * When a process's LISTEN connection is lost and comes back, it drops its whole cache (changes
 * in between were not heard). Two real processes on one PostgreSQL database.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import {
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

describeBackends('auth cache across two server processes', (backend) => {
  if (backend.name !== 'postgres') {
    it('needs PostgreSQL (PGlite is one process by design; see auth-cache.test.ts)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let a: ServerProcess;
  let b: ServerProcess;
  let corpId = '';
  let adminA: ReturnType<typeof client>;

  const userId = async (email: string) =>
    (
      await runtime.deps.db.query<{ id: string }>('SELECT id FROM rm_users WHERE email = $1', [
        email,
      ])
    ).rows[0]!.id;
  const peoplePage = () => `/api/users/indices/users?corporateId=${corpId}`;
  const developments = () => `/api/wsObtenerDesarrollos?idCorporativo=${corpId}`;

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    const servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess(runtime.databaseUrl!, { VITRINA_SECRET: 'auth-cache-test' }),
      ),
    );
    [a, b] = [servers[0]!, servers[1]!];
    const { rows } = await runtime.deps.db.query<{ id: string }>(
      "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
    );
    corpId = rows[0]!.id;
    adminA = client(remoteApp(a), await login(remoteApp(a), 'admin@vitrina.demo'));
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].map(stopServerProcess));
    await runtime?.dispose();
  });

  it("a role change in process A applies on the next request in process B, which had the adviser's role in memory", async () => {
    const cookie = await login(remoteApp(b), 'asesor2@vitrina.demo');
    const inB = client(remoteApp(b), cookie);
    // An adviser does not manage users: 403, twice (the second from memory).
    expect((await inB.get(peoplePage())).status).toBe(403);
    expect((await inB.get(peoplePage())).status).toBe(403);
    const id = await userId('asesor2@vitrina.demo');
    const roles = (
      await runtime.deps.db.query<{ id: string }>(
        "SELECT r->>'id' AS id FROM rm_corporates, jsonb_array_elements(doc->'roles') r WHERE rm_corporates.id = $1",
        [corpId],
      )
    ).rows.map((r) => r.id);
    const manager = roles.find((r) => r.endsWith('-gerente'))!;
    const changed = await adminA.put(`/api/users/${id}`, { id, roles: { [corpId]: manager } });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect((await inB.get(peoplePage())).status).toBe(200);
  });

  it('a sign-out in process A: process B refuses the token on the next request', async () => {
    const cookie = await login(remoteApp(a), 'asesor@vitrina.demo');
    const inA = client(remoteApp(a), cookie);
    const inB = client(remoteApp(b), cookie);
    expect((await inB.get('/api/auth/session')).status).toBe(200);
    expect((await inB.get(developments())).status).toBe(200);
    expect((await inA.post('/api/auth/logout')).status).toBe(200);
    expect((await inB.get('/api/auth/session')).status).toBe(401);
    expect((await inB.get(developments())).status).toBe(401);
    // The sign-out is in the log, naming the user only.
    const { rows } = await runtime.deps.db.query<{ type: string; data: unknown }>(
      'SELECT type, data FROM events WHERE stream_id = $1',
      [`session:${await userId('asesor@vitrina.demo')}`],
    );
    expect(rows).toEqual([{ type: 'SessionEnded', data: { motivo: 'logout' } }]);
  });

  it('a deactivation in process A: process B refuses the user on the next request', async () => {
    const cookie = await login(remoteApp(b), 'hostess@vitrina.demo');
    const inB = client(remoteApp(b), cookie);
    expect((await inB.get('/api/auth/session')).status).toBe(200);
    expect((await inB.get(developments())).status).toBe(200);
    const id = await userId('hostess@vitrina.demo');
    const done = await adminA.post(`/api/corporativos/${corpId}/usuarios/${id}/desactivar`, {});
    expect(done.status, JSON.stringify(done.json)).toBe(200);
    expect((await inB.get('/api/auth/session')).status).toBe(401);
    expect((await inB.get(developments())).status).toBe(401);
  });

  it('a removal from the corporate (in a third process): both processes refuse the corporate on the next request', async () => {
    const cookie = await login(remoteApp(a), 'broker@vitrina.demo');
    const inA = client(remoteApp(a), cookie);
    const inB = client(remoteApp(b), cookie);
    expect((await inA.get(developments())).status).toBe(200);
    expect((await inB.get(developments())).status).toBe(200);
    const id = await userId('broker@vitrina.demo');
    await runtime.deps.store.append(`user:${id}`, 'any', [
      {
        id: randomUUID(),
        type: 'MembershipRevoked',
        data: { idUsuario: id, idCorporativo: corpId },
        occurredAt: new Date(),
      },
    ]);
    expect((await inB.get(developments())).status).toBe(403);
    expect((await inA.get(developments())).status).toBe(403);
  });

  it('after pg_terminate_backend of the listeners, each process drops its whole cache once it listens again', async () => {
    const cookie = await login(remoteApp(a), 'gerente@vitrina.demo');
    const inA = client(remoteApp(a), cookie);
    const inB = client(remoteApp(b), cookie);
    expect((await inA.get('/api/auth/session')).status).toBe(200);
    expect((await inB.get('/api/auth/session')).status).toBe(200);
    // A change nothing announces (a row ended by hand, with no event and the revision's trigger
    // off, migration 028): both processes still believe memory.
    const id = await userId('gerente@vitrina.demo');
    await runtime.deps.db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        'UPDATE auth_sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL',
        [id],
      );
    });
    expect((await inA.get('/api/auth/session')).status).toBe(200);
    expect((await inB.get('/api/auth/session')).status).toBe(200);
    const reconnects = async (server: ServerProcess) =>
      ((await (await server.fetch('/api/health')).json()) as { listener: Listener }).listener;
    type Listener = { state: string; reconnects: number };
    const before = await Promise.all([a, b].map(reconnects));
    const admin = new pg.Client({ connectionString: runtime.databaseUrl });
    await admin.connect();
    try {
      const killed = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'vitrina-listener'`,
      );
      expect(killed.rowCount).toBeGreaterThanOrEqual(2);
    } finally {
      await admin.end();
    }
    for (const [i, server] of [a, b].entries()) {
      await vi.waitFor(
        async () => {
          const now = await reconnects(server);
          expect(now.state).toBe('connected');
          expect(now.reconnects).toBeGreaterThan(before[i]!.reconnects);
        },
        { timeout: 20_000, interval: 100 },
      );
    }
    expect((await inA.get('/api/auth/session')).status).toBe(401);
    expect((await inB.get('/api/auth/session')).status).toBe(401);
  }, 60_000);
});
