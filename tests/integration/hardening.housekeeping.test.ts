/**
 * Housekeeping (issue 13, defect 10): failed sign-ins, expired sessions and public capture
 * attempts are purged on a schedule, a recurring background-work timer on the injected clock,
 * that fires once however many server processes run.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openRuntime } from '../../src/server/runtime';
import {
  HOUSEKEEPING,
  HOUSEKEEPING_INTERVAL_MS,
  scheduleHousekeeping,
} from '../../src/server/store/housekeeping';
import { getTimer } from '../../src/server/store/timers';
import { describeBackends, type Backend } from './support/backends';

const HOUR = 3600_000;

describeBackends('hardening: housekeeping', (backend) => {
  let rt: Awaited<ReturnType<Backend['open']>>;
  let now = new Date('2026-11-22T10:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

  beforeAll(async () => {
    rt = await backend.open({ clock: () => now });
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const count = async (table: string, where = 'true') =>
    (
      await rt.deps.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${table} WHERE ${where}`,
      )
    ).rows[0]!.n;

  async function seedRows() {
    const { db } = rt.deps;
    for (const [address, at] of [
      ['old', ago(HOUR + 60_000)],
      ['fresh', ago(60_000)],
    ] as const) {
      await db.query('INSERT INTO auth_failures (account, address, at) VALUES ($1, $2, $3)', [
        `${address}@example.com`,
        address,
        at,
      ]);
      await db.query('INSERT INTO lead_capture_attempts (address, at) VALUES ($1, $2)', [
        address,
        at,
      ]);
    }
    const session = (token: string, expiresAt: string, revokedAt: string | null = null) =>
      db.query(
        `INSERT INTO auth_sessions (token_hash, user_id, created_at, expires_at, revoked_at)
         VALUES ($1, 'usr-x', $2, $3, $4)`,
        [token, ago(8 * 24 * HOUR), expiresAt, revokedAt],
      );
    await session('expired', ago(1000));
    await session('revoked', new Date(now.getTime() + HOUR).toISOString(), ago(1000));
    await session('live', new Date(now.getTime() + 24 * HOUR).toISOString());
  }

  it('purges what the limits no longer count and dead sessions, keeps the rest, and runs again an interval later', async () => {
    await seedRows();
    await scheduleHousekeeping(rt.deps.db, now);
    expect((await rt.deps.work.timers.fireDue()).done).toBe(1);

    expect(await count('auth_failures', "address = 'old'")).toBe(0);
    expect(await count('auth_failures', "address = 'fresh'")).toBe(1);
    expect(await count('lead_capture_attempts', "address = 'old'")).toBe(0);
    expect(await count('lead_capture_attempts', "address = 'fresh'")).toBe(1);
    const sessions = await rt.deps.db.query<{ token_hash: string }>(
      'SELECT token_hash FROM auth_sessions ORDER BY 1',
    );
    expect(sessions.rows.map((r) => r.token_hash)).toEqual(['live']);

    // The next run is an interval later, on the injected clock: nothing is due before it.
    const timer = await getTimer(rt.deps.db, HOUSEKEEPING);
    expect(timer).toMatchObject({ state: 'scheduled' });
    expect(timer!.dueAt.getTime()).toBe(now.getTime() + HOUSEKEEPING_INTERVAL_MS);
    expect((await rt.deps.work.timers.fireDue()).claimed).toBe(0);

    // An hour on, the rows that were fresh have gone stale: the timer purges them in turn.
    now = new Date(now.getTime() + HOUR);
    expect((await rt.deps.work.timers.fireDue()).done).toBe(1);
    expect(await count('auth_failures')).toBe(0);
    expect(await count('lead_capture_attempts')).toBe(0);
    expect(await count('auth_sessions')).toBe(1);
  });

  if (backend.name === 'postgres') {
    it('two server processes racing for the timer: it fires once', async () => {
      const second = await openRuntime({ databaseUrl: rt.databaseUrl!, clock: () => now });
      try {
        now = new Date(now.getTime() + HOUSEKEEPING_INTERVAL_MS);
        const before = (await getTimer(rt.deps.db, HOUSEKEEPING))!;
        const passes = await Promise.all([
          rt.deps.work.timers.fireDue(),
          second.deps.work.timers.fireDue(),
        ]);
        expect(passes.reduce((n, p) => n + p.done, 0)).toBe(1);
        const after = (await getTimer(rt.deps.db, HOUSEKEEPING))!;
        expect(after.dueAt.getTime()).toBe(now.getTime() + HOUSEKEEPING_INTERVAL_MS);
        expect(after.dueAt.getTime()).toBeGreaterThan(before.dueAt.getTime());
      } finally {
        await second.close();
      }
    });
  }
});
