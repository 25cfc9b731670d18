/**
 * Sessions, users and corporates resolved from memory in one process (issue 21,
 * src/server/auth/auth-cache.ts), on both backends: what memory holds is believed (no query),
 * every change made through an event applies on the next request, a session's expiry and the
 * 60-second safety TTL follow the injected clock; and the cache's own rules (bounded maps,
 * frozen documents, a read racing an invalidation not stored).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { AuthCache } from '../../src/server/auth/auth-cache';
import type { Corporate, User } from '../../src/core/types';
import type { StoredEvent } from '../../src/server/store/event-store';
import { describeBackends, openSeeded } from './support/backends';
import { client, login } from './support/http';

const DAY_MS = 24 * 3600 * 1000;

describeBackends('auth cache in one process', (backend) => {
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let now = new Date('2026-03-02T15:00:00Z');
  let corpId = '';

  const userId = async (email: string) =>
    (
      await runtime.deps.db.query<{ id: string }>('SELECT id FROM rm_users WHERE email = $1', [
        email,
      ])
    ).rows[0]!.id;
  const developments = () => `/api/wsObtenerDesarrollos?idCorporativo=${corpId}`;

  beforeAll(async () => {
    runtime = await openSeeded(backend, { clock: () => now });
    app = createApp(runtime.deps);
    const { rows } = await runtime.deps.db.query<{ id: string }>(
      "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
    );
    corpId = rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await runtime?.dispose();
  });

  it('is on by default, and what it holds is believed until the 60 s safety TTL of the injected clock', async () => {
    expect(runtime.deps.authCache).toBeDefined();
    const me = client(app, await login(app, 'asesor2@vitrina.demo'));
    expect((await me.get(developments())).status).toBe(200);
    // Ended by hand, with no event and the revision's trigger off (migration 028; a change
    // nothing announces): memory still answers…
    const id = await userId('asesor2@vitrina.demo');
    await runtime.deps.db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query('UPDATE auth_sessions SET revoked_at = $2 WHERE user_id = $1', [
        id,
        now.toISOString(),
      ]);
    });
    now = new Date(now.getTime() + 59_000);
    expect((await me.get(developments())).status).toBe(200);
    // …until its entry is 60 s old: read again, refused.
    now = new Date(now.getTime() + 1_000);
    expect((await me.get(developments())).status).toBe(401);
  });

  it.runIf(backend.name === 'postgres')(
    'on PostgreSQL a change that no event announces still applies on the next request (the auth revision, migration 028)',
    async () => {
      const me = client(app, await login(app, 'broker@vitrina.demo'));
      expect((await me.get('/api/auth/session')).status).toBe(200);
      // By hand, trigger on: no event, no notification, only the revision moves.
      await runtime.deps.db.query('UPDATE auth_sessions SET revoked_at = $2 WHERE user_id = $1', [
        await userId('broker@vitrina.demo'),
        now.toISOString(),
      ]);
      expect((await me.get('/api/auth/session')).status).toBe(401);
    },
  );

  it("honours a session's expiry (7 days) from memory", async () => {
    const me = client(app, await login(app, 'gerente@vitrina.demo'));
    expect((await me.get('/api/auth/session')).status).toBe(200);
    now = new Date(now.getTime() + 7 * DAY_MS - 1);
    // The safety TTL would read it again anyway; the expiry is what refuses it at 7 days.
    expect((await me.get('/api/auth/session')).status).toBe(200);
    now = new Date(now.getTime() + 1);
    expect((await me.get('/api/auth/session')).status).toBe(401);
  });

  it('a sign-out, a role change, a deactivation and a removal apply on the next request', async () => {
    // Signed in now: the clock has moved past earlier sessions' expiry.
    const admin = client(app, await login(app, 'admin@vitrina.demo'));
    const asesor = await login(app, 'asesor@vitrina.demo');
    const inA = client(app, asesor);
    expect((await inA.get(developments())).status).toBe(200);
    expect((await inA.post('/api/auth/logout')).status).toBe(200);
    expect((await inA.get(developments())).status).toBe(401);

    const people = `/api/users/indices/users?corporateId=${corpId}`;
    const hostessId = await userId('hostess@vitrina.demo');
    const hostess = client(app, await login(app, 'hostess@vitrina.demo'));
    expect((await hostess.get(people)).status).toBe(403);
    const manager = (
      await runtime.deps.db.query<{ doc: Corporate }>(
        'SELECT doc FROM rm_corporates WHERE id = $1',
        [corpId],
      )
    ).rows[0]!.doc.roles.find((r) => r.id.endsWith('-gerente'))!.id;
    const changed = await admin.put(`/api/users/${hostessId}`, {
      id: hostessId,
      roles: { [corpId]: manager },
    });
    expect(changed.status, JSON.stringify(changed.json)).toBe(200);
    expect((await hostess.get(people)).status).toBe(200);

    const deactivated = await admin.post(
      `/api/corporativos/${corpId}/usuarios/${hostessId}/desactivar`,
      {},
    );
    expect(deactivated.status, JSON.stringify(deactivated.json)).toBe(200);
    expect((await hostess.get('/api/auth/session')).status).toBe(401);

    const brokerId = await userId('broker@vitrina.demo');
    const broker = client(app, await login(app, 'broker@vitrina.demo'));
    expect((await broker.get(developments())).status).toBe(200);
    await runtime.deps.store.append(`user:${brokerId}`, 'any', [
      {
        id: randomUUID(),
        type: 'MembershipRevoked',
        data: { idUsuario: brokerId, idCorporativo: corpId },
        occurredAt: now,
      },
    ]);
    expect((await broker.get(developments())).status).toBe(403);
  });

  it("a corporate's roles changed by an event apply on the next request", async () => {
    const me = client(app, await login(app, 'asesor2@vitrina.demo'));
    expect((await me.get(developments())).status).toBe(200);
    const { rows } = await runtime.deps.db.query<{ doc: Corporate }>(
      'SELECT doc FROM rm_corporates WHERE id = $1',
      [corpId],
    );
    const user = (
      await runtime.deps.db.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [
        await userId('asesor2@vitrina.demo'),
      ])
    ).rows[0]!.doc;
    // The adviser's role is taken out of the corporate's roles: no role there, 403.
    const roles = rows[0]!.doc.roles.filter((r) => r.id !== user.roles[corpId]);
    await runtime.deps.store.append(`corporate:${corpId}`, 'any', [
      {
        id: randomUUID(),
        type: 'CorporateSettingsChanged',
        data: { changes: { roles } },
        corporateId: corpId,
        occurredAt: now,
      },
    ]);
    expect((await me.get(developments())).status).toBe(403);
    // Put back, for nothing else depends on it here.
    await runtime.deps.store.append(`corporate:${corpId}`, 'any', [
      {
        id: randomUUID(),
        type: 'CorporateSettingsChanged',
        data: { changes: { roles: rows[0]!.doc.roles } },
        corporateId: corpId,
        occurredAt: now,
      },
    ]);
    expect((await me.get(developments())).status).toBe(200);
  });
});

describe('AuthCache', () => {
  const clock = () => new Date('2026-03-02T15:00:00Z');
  const event = (streamId: string, type = 'Anything'): StoredEvent => ({
    id: randomUUID(),
    type,
    streamId,
    version: 1,
    corporateId: null,
    actorId: null,
    occurredAt: clock().toISOString(),
    globalPosition: '1',
    data: {},
  });

  it('keeps at most its bounds: 10,000 unknown tokens leave 100 remembered, 300 sessions leave 200', async () => {
    const cache = new AuthCache(clock, { maxMisses: 100, maxSessions: 200 });
    for (let i = 0; i < 10_000; i++)
      expect(await cache.session(`x${i}`, () => Promise.resolve(null))).toBe(null);
    for (let i = 0; i < 300; i++)
      await cache.session(`s${i}`, () =>
        Promise.resolve({ userId: 'u', expiresAt: Date.now() + DAY_MS }),
      );
    expect(cache.stats()).toMatchObject({ missing: 100, sessions: 200 });
  });

  it('an unknown token is asked for once within the TTL', async () => {
    const cache = new AuthCache(clock);
    let reads = 0;
    const load = () => {
      reads += 1;
      return Promise.resolve(null);
    };
    for (let i = 0; i < 5; i++) await cache.session('nope', load);
    expect(reads).toBe(1);
  });

  it('a read racing an invalidation is answered but not stored', async () => {
    const cache = new AuthCache(clock);
    let reads = 0;
    const load = () => {
      reads += 1;
      // The user's stream changes while the database answers.
      cache.apply(event('user:u1'));
      return Promise.resolve({ id: 'u1' } as User);
    };
    await cache.user('u1', load);
    await cache.user('u1', load);
    expect(reads).toBe(2);
    await cache.user('u1', () => Promise.resolve({ id: 'u1' } as User));
    await cache.user('u1', load);
    expect(reads).toBe(2);
  });

  it("drops a user's sessions on their stream's events and on a sign-out event, everything on a resync", async () => {
    const cache = new AuthCache(clock);
    let resync: (() => void) | undefined;
    let deliver: ((e: StoredEvent) => void) | undefined;
    cache.follow({
      subscribe: (listener, onResync) => {
        deliver = listener;
        resync = onResync;
        return () => undefined;
      },
    });
    const live = () => Promise.resolve({ userId: 'u1', expiresAt: clock().getTime() + DAY_MS });
    await cache.session('h1', live);
    await cache.session('h2', () =>
      Promise.resolve({ userId: 'u2', expiresAt: clock().getTime() + DAY_MS }),
    );
    expect(cache.stats().sessions).toBe(2);
    deliver!(event('lead:c:1', 'LeadCreated'));
    expect(cache.stats().sessions).toBe(2);
    deliver!(event('session:u1', 'SessionEnded'));
    expect(cache.stats().sessions).toBe(1);
    await cache.session('h1', live);
    deliver!(event('user:u1', 'UserDeactivated'));
    expect(cache.stats().sessions).toBe(1);
    resync!();
    expect(cache.stats()).toMatchObject({ sessions: 0, users: 0, corporates: 0, clears: 1 });
  });

  it('hands out frozen documents, so no request can change what the next one reads', async () => {
    const cache = new AuthCache(clock);
    const user = await cache.user('u1', () =>
      Promise.resolve({ id: 'u1', corporativos: ['c'] } as User),
    );
    expect(Object.isFrozen(user)).toBe(true);
    expect(Object.isFrozen(user!.corporativos)).toBe(true);
  });
});
