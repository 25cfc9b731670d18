/**
 * Sessions, users and memberships are resolved from memory in every server process (issue 21,
 * src/server/auth/auth-cache.ts), and a change made in one process applies on the very next
 * request in the other: a role change, a sign-out, a deactivation, a removal from a corporate.
 * When a process's LISTEN connection is lost and comes back, it drops its whole cache (changes
 * in between were not heard). Two real processes on one PostgreSQL database.
 */
import { createHash, randomUUID } from 'node:crypto';
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

  /**
   * Keeps process B busy: `loops` clients reading the development list back to back, so that a
   * shared revision read (auth/revisions.ts) is nearly always in flight when a request arrives.
   * Answers the function that stops them and resolves when they are done.
   */
  const keepBusy = (server: ServerProcess, cookie: string, loops: number) => {
    let running = true;
    const inB = client(remoteApp(server), cookie);
    const done = Promise.all(
      Array.from({ length: loops }, async () => {
        while (running) expect((await inB.get(developments())).status).toBe(200);
      }),
    );
    return async () => {
      running = false;
      await done;
    };
  };

  it('under concurrent requests in B, a session ended by hand in the database (no event) is refused by B on the next request, every time', async () => {
    const busy = keepBusy(b, await login(remoteApp(b), 'gerente@vitrina.demo'), 12);
    try {
      for (let i = 0; i < 12; i++) {
        const cookie = await login(remoteApp(b), 'asesor@vitrina.demo');
        const inB = client(remoteApp(b), cookie);
        expect((await inB.get('/api/auth/session')).status).toBe(200);
        // Committed outside both processes, with no event (so no notification): only the auth
        // revision (migration 028) tells B, through a read that started after its next request.
        const hash = createHash('sha256').update(cookie.slice(cookie.indexOf('=') + 1));
        const { rows } = await runtime.deps.db.query<{ user_id: string }>(
          'UPDATE auth_sessions SET revoked_at = now() WHERE token_hash = $1 RETURNING user_id',
          [hash.digest('base64url')],
        );
        expect(rows).toHaveLength(1);
        expect((await inB.get('/api/auth/session')).status).toBe(401);
      }
    } finally {
      await busy();
    }
  }, 60_000);

  it("under concurrent requests in B, a catalogue change committed elsewhere changes B's ETag on the next request, every time", async () => {
    const cookie = await login(remoteApp(b), 'gerente@vitrina.demo');
    const busy = keepBusy(b, cookie, 12);
    const inB = client(remoteApp(b), cookie);
    try {
      for (let i = 0; i < 12; i++) {
        const before = await inB.get(developments());
        const etag = before.headers.get('etag')!;
        expect((await inB.get(developments(), { 'if-none-match': etag })).status).toBe(304);
        // A revision moved by hand: no event, no notification; B reads it after this commit.
        await runtime.deps.db.query(
          'UPDATE rm_catalogue_revisions SET revision = revision + 1 WHERE corporate_id = $1',
          [corpId],
        );
        const after = await inB.get(developments(), { 'if-none-match': etag });
        expect(after.status).toBe(200);
        expect(after.headers.get('etag')).not.toBe(etag);
      }
    } finally {
      await busy();
    }
  }, 60_000);

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
