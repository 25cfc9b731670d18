import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { registerProjections, type Runtime } from '../../src/server/runtime';
import {
  BackgroundWork,
  type BackgroundWorkOptions,
  cancelTimer,
  enqueueOutbox,
  getOutboxMessage,
  getTimer,
  listParkedEvents,
  type OutboxResult,
  parseRetryAfter,
  PermanentFailure,
  resetConsumer,
  RetryAfterError,
  retryOutboxMessage,
  retryParkedEvent,
  retryTimer,
  scheduleTimer,
  workProjection,
} from '../../src/server/store/background-work';
import { openDb, type Db } from '../../src/server/store/db';
import { ConcurrencyError, EventStore, type NewEvent } from '../../src/server/store/event-store';
import { describeBackends } from './support/backends';

const T0 = new Date('2026-11-22T10:00:00Z');
const silent = () => undefined;

const ev = (type: string, data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  occurredAt: T0,
});

/** A clock the test moves by hand. */
function manualClock(start = T0) {
  let now = start.getTime();
  return {
    clock: () => new Date(now),
    set: (d: Date) => void (now = d.getTime()),
    advance: (ms: number) => void (now += ms),
  };
}

async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

const count = async (db: Db, sql: string, params: unknown[] = []) =>
  Number((await db.query<{ n: number }>(sql, params)).rows[0]!.n);

describeBackends('background work', (backend) => {
  let rt: Runtime & { databaseUrl?: string; dispose(): Promise<void> };
  const works: BackgroundWork[] = [];
  const extraDbs: Db[] = [];
  const time = manualClock();

  const newWork = (options: BackgroundWorkOptions = {}, db?: Db, store?: EventStore) => {
    const work = new BackgroundWork(
      { db: db ?? rt.deps.db, store: store ?? rt.deps.store, clock: time.clock },
      { pollMs: 40, leaseMs: 1_500, log: silent, ...options },
    );
    works.push(work);
    return work;
  };

  /** Another process, as far as the database can tell: its own pool (PostgreSQL) and store. */
  const secondStore = async (): Promise<{ db: Db; store: EventStore }> => {
    if (backend.name === 'pglite') return { db: rt.deps.db, store: rt.deps.store };
    const db = await openDb({ databaseUrl: rt.databaseUrl, poolSize: 6 });
    extraDbs.push(db);
    const store = new EventStore(db);
    registerProjections(store);
    return { db, store };
  };

  beforeAll(async () => {
    rt = await backend.open();
    await rt.deps.db.exec(`
      CREATE TABLE t_effects (consumer text NOT NULL, event_id uuid NOT NULL, instance text);
      CREATE TABLE t_keyed (consumer text NOT NULL, event_id uuid NOT NULL, PRIMARY KEY (consumer, event_id));
      CREATE TABLE t_counter (consumer text PRIMARY KEY, n integer NOT NULL);
      CREATE TABLE t_fired (key text NOT NULL, instance text);
    `);
  });
  afterAll(async () => {
    for (const work of works) await work.stop();
    for (const db of extraDbs) await db.close();
    await rt.dispose();
  });

  const effectsOf = (consumer: string) =>
    rt.deps.db
      .query<{
        event_id: string;
        instance: string | null;
      }>('SELECT event_id::text AS event_id, instance FROM t_effects WHERE consumer = $1', [
        consumer,
      ])
      .then((r) => r.rows);

  it('a consumer applies each effect once: a crash after the effect and before the checkpoint rolls both back; a replay from an old checkpoint repeats nothing', async () => {
    const work = newWork();
    let crashes = 0;
    const stream = `ping:${randomUUID()}`;
    work.registerConsumer({
      name: 'exact',
      handles: ['Ping'],
      retry: { baseDelayMs: 10 },
      handle: async (event, { tx, attempt }) => {
        await tx.query('INSERT INTO t_effects (consumer, event_id) VALUES ($1, $2)', [
          'exact',
          event.id,
        ]);
        // The process "dies" after the effect, before the checkpoint commits: the first time only.
        if ((event.data as { crash?: boolean }).crash && attempt === 1) {
          crashes += 1;
          throw new Error('crash between the effect and the ack');
        }
      },
    });
    // Keyed by the event id: a redelivery finds its effect already there.
    work.registerConsumer({
      name: 'keyed',
      handles: ['Ping'],
      handle: async (event, { tx }) => {
        await tx.query('INSERT INTO t_keyed VALUES ($1, $2) ON CONFLICT DO NOTHING', [
          'keyed',
          event.id,
        ]);
      },
    });
    // Not idempotent by itself (a counter): `dedupe` keeps it single.
    work.registerConsumer({
      name: 'counter',
      handles: ['Ping'],
      dedupe: true,
      handle: async (_event, { tx }) => {
        await tx.query(
          `INSERT INTO t_counter VALUES ('counter', 1) ON CONFLICT (consumer) DO UPDATE SET n = t_counter.n + 1`,
        );
      },
    });
    work.start();
    const events = Array.from({ length: 30 }, (_, i) => ev('Ping', { i, crash: i === 7 }));
    await rt.deps.store.append(stream, 0, events.slice(0, 10));
    await rt.deps.store.append(stream, 10, events.slice(10));
    const ids = events.map((e) => e.id).sort();

    await until(
      'the exact consumer to apply every event',
      () => effectsOf('exact'),
      (rows) => rows.length >= 30,
    );
    expect(crashes).toBe(1);
    expect((await effectsOf('exact')).map((r) => r.event_id).sort()).toEqual(ids);
    await until(
      'the counter',
      () => count(rt.deps.db, `SELECT coalesce(max(n), 0) AS n FROM t_counter`),
      (n) => n === 30,
    );

    const statusBefore = await work.status();
    for (const name of ['keyed', 'counter']) {
      const c = statusBefore.consumers.find((s) => s.name === name)!;
      await until(
        `${name} to reach the end`,
        () => work.status().then((s) => s.consumers.find((x) => x.name === name)!.lag),
        (lag) => lag === 0,
      );
      expect(c.holder).toBe(work.instanceId);
    }
    const caughtUp = (await work.status()).consumers.find((s) => s.name === 'keyed')!.checkpoint;

    // Replay everything from the beginning: delivered again, applied once.
    await resetConsumer(rt.deps.db, 'keyed', null);
    await resetConsumer(rt.deps.db, 'counter', null);
    for (const name of ['keyed', 'counter']) {
      await until(
        `${name} to replay`,
        () => work.status().then((s) => s.consumers.find((x) => x.name === name)!),
        (c) => c.lag === 0 && c.checkpoint.position === caughtUp.position,
      );
    }
    expect(await count(rt.deps.db, `SELECT count(*)::int AS n FROM t_keyed`)).toBe(30);
    expect(await count(rt.deps.db, `SELECT n FROM t_counter WHERE consumer = 'counter'`)).toBe(30);
    await work.stop();
  });

  it('a poison event is retried with backoff, then parked, while another consumer goes on; an operator retry resolves it', async () => {
    const work = newWork();
    let fixed = false;
    const attempts: number[] = [];
    const attemptTimes: number[] = [];
    work.registerConsumer({
      name: 'poisoned',
      handles: ['Job'],
      retry: { maxAttempts: 4, baseDelayMs: 150, maxDelayMs: 1_000 },
      handle: async (event, { tx, attempt }) => {
        if ((event.data as { poison?: boolean }).poison && !fixed) {
          attempts.push(attempt);
          attemptTimes.push(Date.now());
          throw new Error('cannot handle this one');
        }
        await tx.query('INSERT INTO t_effects (consumer, event_id) VALUES ($1, $2)', [
          'poisoned',
          event.id,
        ]);
      },
    });
    work.registerConsumer({
      name: 'healthy',
      handles: ['Job'],
      handle: async (event, { tx }) => {
        await tx.query('INSERT INTO t_effects (consumer, event_id) VALUES ($1, $2)', [
          'healthy',
          event.id,
        ]);
      },
    });
    work.start();
    const stream = `job:${randomUUID()}`;
    const [ok1, poison, ok2] = [ev('Job'), ev('Job', { poison: true }), ev('Job')];
    await rt.deps.store.append(stream, 0, [ok1, poison, ok2]);

    // While the poisoned consumer retries, the healthy one has done everything.
    const retrying = await until(
      'the poisoned consumer to retry',
      () => work.status().then((s) => s.consumers.find((c) => c.name === 'poisoned')!),
      (c) => c.failing !== null,
    );
    expect(retrying.failing!.eventId).toBe(poison.id);
    expect(retrying.state).toBe('retrying');
    await until(
      'the healthy consumer',
      () => effectsOf('healthy'),
      (rows) => rows.length === 3,
    );

    const parked = await until(
      'the poison event to be parked',
      () => listParkedEvents(rt.deps.db, { consumer: 'poisoned' }),
      (rows) => rows.length === 1,
    );
    expect(parked[0]).toMatchObject({
      consumer: 'poisoned',
      eventId: poison.id,
      eventType: 'Job',
      attempts: 4,
      state: 'parked',
    });
    expect(parked[0]!.error).toMatch(/cannot handle this one/);
    expect(attempts).toEqual([1, 2, 3, 4]);
    // Exponential backoff: 150, 300, 600 ms between the attempts.
    const gaps = attemptTimes.slice(1).map((t, i) => t - attemptTimes[i]!);
    expect(gaps[0]).toBeGreaterThanOrEqual(140);
    expect(gaps[1]).toBeGreaterThanOrEqual(290);
    expect(gaps[2]).toBeGreaterThanOrEqual(590);
    // It moved on past the poison event.
    await until(
      'the poisoned consumer to pass the event',
      () => effectsOf('poisoned'),
      (rows) => rows.length === 2,
    );
    const status = (await work.status()).consumers.find((c) => c.name === 'poisoned')!;
    expect(status.parked).toBe(1);
    expect(status.failing).toBeNull();

    // The handler is fixed; the operator retries the parked event: applied once, resolved.
    fixed = true;
    expect(await retryParkedEvent(rt.deps.db, 'poisoned', poison.id)).toBe(true);
    await until(
      'the parked event to be resolved',
      () => listParkedEvents(rt.deps.db, { consumer: 'poisoned', includeResolved: true }),
      (rows) => rows[0]?.state === 'resolved',
    );
    expect((await effectsOf('poisoned')).map((r) => r.event_id).sort()).toEqual(
      [ok1.id, poison.id, ok2.id].sort(),
    );
    await work.stop();
  });

  it('timers are scheduled, rescheduled and cancelled in the transaction of their event; a rebuild does not re-arm them', async () => {
    rt.deps.store.registerProjection(
      workProjection({
        name: 'reminders',
        handles: ['ReminderSet', 'ReminderCancelled'],
        effects: (e) => {
          const data = e.data as { key: string; dueAt?: string };
          return e.type === 'ReminderSet'
            ? {
                schedule: {
                  key: data.key,
                  kind: 'reminder',
                  dueAt: new Date(data.dueAt!),
                  payload: { key: data.key },
                },
              }
            : { cancel: data.key };
        },
      }),
    );
    const work = newWork();
    work.registerTimer('reminder', async ({ tx, timer, now }) => {
      await tx.query('INSERT INTO t_fired (key) VALUES ($1)', [timer.key]);
      await tx.append({
        streamId: `reminder:${timer.key}`,
        expectedVersion: 'any',
        events: [{ ...ev('ReminderFired', { key: timer.key }), occurredAt: now }],
      });
    });
    const a = `r-${randomUUID()}`;
    const b = `r-${randomUUID()}`;
    const c = `r-${randomUUID()}`;
    const stream = `reminders:${randomUUID()}`;
    const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000).toISOString();

    await rt.deps.store.append(stream, 0, [ev('ReminderSet', { key: a, dueAt: at(10) })]);
    expect(await getTimer(rt.deps.db, a)).toMatchObject({
      key: a,
      kind: 'reminder',
      state: 'scheduled',
      dueAt: new Date(at(10)),
      attempts: 0,
    });
    // Rescheduling replaces it.
    await rt.deps.store.append(stream, 1, [ev('ReminderSet', { key: a, dueAt: at(20) })]);
    expect((await getTimer(rt.deps.db, a))!.dueAt).toEqual(new Date(at(20)));
    expect(
      await count(rt.deps.db, 'SELECT count(*)::int AS n FROM timers WHERE key = $1', [a]),
    ).toBe(1);
    await rt.deps.store.append(stream, 2, [ev('ReminderSet', { key: b, dueAt: at(5) })]);
    // An append that fails writes no timer.
    await expect(
      rt.deps.store.appendMany([
        { streamId: `other:${randomUUID()}`, expectedVersion: 0, events: [ev('Other')] },
        {
          streamId: stream,
          expectedVersion: 0,
          events: [ev('ReminderSet', { key: c, dueAt: at(1) })],
        },
      ]),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await getTimer(rt.deps.db, c)).toBeNull();
    // Cancelling removes it.
    await rt.deps.store.append(stream, 3, [ev('ReminderCancelled', { key: b })]);
    expect(await getTimer(rt.deps.db, b)).toBeNull();

    // Not due yet at +15 min (it was moved to +20).
    time.set(new Date(at(15)));
    expect((await work.timers.fireDue()).claimed).toBe(0);
    time.set(new Date(at(21)));
    expect(await work.timers.fireDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(await work.timers.fireDue()).toMatchObject({ claimed: 0 });
    expect(await getTimer(rt.deps.db, a)).toMatchObject({
      state: 'done',
      attempts: 1,
      firedAt: new Date(at(21)),
    });
    expect(
      (await rt.deps.store.readStream(`reminder:${a}`)).map((e) => [e.type, e.occurredAt]),
    ).toEqual([['ReminderFired', at(21)]]);

    // A rebuild replays ReminderSet/ReminderCancelled: timers are left as they are.
    await rt.deps.store.rebuildProjections();
    expect(await getTimer(rt.deps.db, a)).toMatchObject({ state: 'done' });
    expect(await getTimer(rt.deps.db, b)).toBeNull();
    time.set(new Date(at(60)));
    expect((await work.timers.fireDue()).claimed).toBe(0);
    expect(
      await count(rt.deps.db, 'SELECT count(*)::int AS n FROM t_fired WHERE key = $1', [a]),
    ).toBe(1);

    // scheduleTimer / cancelTimer directly in a command's transaction; same cause twice is a no-op.
    const d = `r-${randomUUID()}`;
    const cause = randomUUID();
    await rt.deps.store.transact(async (tx) => {
      await tx.append({ streamId: `cmd:${d}`, expectedVersion: 0, events: [ev('Commanded')] });
      expect(
        await scheduleTimer(tx, {
          key: d,
          kind: 'reminder',
          dueAt: new Date(at(90)),
          causeEventId: cause,
        }),
      ).toBe(true);
    });
    expect(
      await rt.deps.store.transact((tx) =>
        scheduleTimer(tx, {
          key: d,
          kind: 'reminder',
          dueAt: new Date(at(95)),
          causeEventId: cause,
        }),
      ),
    ).toBe(false);
    expect((await getTimer(rt.deps.db, d))!.dueAt).toEqual(new Date(at(90)));
    expect(await rt.deps.store.transact((tx) => cancelTimer(tx, d))).toBe(true);
  });

  it('a failing timer is retried with backoff on the injected clock, then parked; retryTimer fires it', async () => {
    const work = newWork();
    let healthy = false;
    work.registerTimer(
      'flaky',
      async ({ tx, timer }) => {
        if (!healthy) throw new Error('downstream unavailable');
        await tx.query('INSERT INTO t_fired (key) VALUES ($1)', [timer.key]);
      },
      { retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 10_000 } },
    );
    const key = `flaky-${randomUUID()}`;
    time.set(T0);
    await rt.deps.db.transaction((tx) => scheduleTimer(tx, { key, kind: 'flaky', dueAt: T0 }));
    expect(await work.timers.fireDue()).toMatchObject({ claimed: 1, failed: 1 });
    expect(await getTimer(rt.deps.db, key)).toMatchObject({
      state: 'failed',
      attempts: 1,
      nextAttemptAt: new Date(T0.getTime() + 1_000),
    });
    expect((await getTimer(rt.deps.db, key))!.lastError).toMatch(/downstream unavailable/);
    time.advance(999);
    expect((await work.timers.fireDue()).claimed).toBe(0);
    time.advance(1);
    await work.timers.fireDue();
    expect(await getTimer(rt.deps.db, key)).toMatchObject({
      state: 'failed',
      attempts: 2,
      nextAttemptAt: new Date(T0.getTime() + 1_000 + 2_000),
    });
    time.advance(2_000);
    await work.timers.fireDue();
    expect(await getTimer(rt.deps.db, key)).toMatchObject({ state: 'parked', attempts: 3 });
    expect((await work.status()).timers.parked).toBeGreaterThanOrEqual(1);
    time.advance(3_600_000);
    expect((await work.timers.fireDue()).claimed).toBe(0);

    healthy = true;
    expect(await retryTimer(rt.deps.db, key)).toBe(true);
    expect(await work.timers.fireDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(await getTimer(rt.deps.db, key)).toMatchObject({ state: 'done' });
    expect(
      await count(rt.deps.db, 'SELECT count(*)::int AS n FROM t_fired WHERE key = $1', [key]),
    ).toBe(1);
  });

  it('a clock jump past 1,000 due timers fires each exactly once', async () => {
    const work = newWork({ timerBatchSize: 100 });
    const prefix = `jump-${randomUUID()}`;
    work.registerTimer('jump', async ({ tx, timer, now }) => {
      await tx.query('INSERT INTO t_fired (key) VALUES ($1)', [timer.key]);
      await tx.append({
        streamId: `jump:${timer.key}`,
        expectedVersion: 0,
        events: [{ ...ev('JumpFired'), occurredAt: now }],
      });
    });
    time.set(T0);
    for (let chunk = 0; chunk < 10; chunk++) {
      await rt.deps.db.transaction(async (tx) => {
        for (let i = chunk * 100; i < chunk * 100 + 100; i++) {
          await scheduleTimer(tx, {
            key: `${prefix}:${i}`,
            kind: 'jump',
            dueAt: new Date(T0.getTime() + (i + 1) * 1_000),
          });
        }
      });
    }
    work.start();
    await new Promise((r) => setTimeout(r, 150));
    expect(
      await count(rt.deps.db, `SELECT count(*)::int AS n FROM t_fired WHERE key LIKE $1`, [
        `${prefix}:%`,
      ]),
    ).toBe(0);
    time.advance(3_600_000);
    work.wake();
    await until(
      'every timer to fire',
      () =>
        count(
          rt.deps.db,
          `SELECT count(*)::int AS n FROM timers WHERE key LIKE $1 AND state = 'done'`,
          [`${prefix}:%`],
        ),
      (n) => n === 1_000,
      60_000,
    );
    const fired = await rt.deps.db.query<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM t_fired WHERE key LIKE $1 GROUP BY key`,
      [`${prefix}:%`],
    );
    expect(fired.rows).toHaveLength(1_000);
    expect(fired.rows.every((r) => r.n === 1)).toBe(true);
    expect(
      await count(rt.deps.db, `SELECT count(*)::int AS n FROM events WHERE type = 'JumpFired'`),
    ).toBe(1_000);
    expect((await work.status()).timers.due).toBe(0);
    await work.stop();
  });

  it('two workers (two BackgroundWork instances, separate pools on PostgreSQL) racing over 2,000 due timers fire each once', async () => {
    const other = await secondStore();
    const first = newWork({ timerBatchSize: 50 });
    const second = newWork({ timerBatchSize: 50 }, other.db, other.store);
    const prefix = `race-${randomUUID()}`;
    for (const work of [first, second]) {
      work.registerTimer('race', async ({ tx, timer }) => {
        await tx.query('INSERT INTO t_fired (key, instance) VALUES ($1, $2)', [
          timer.key,
          work.instanceId,
        ]);
      });
    }
    time.set(T0);
    await rt.deps.db.transaction(async (tx) => {
      for (let i = 0; i < 2_000; i++) {
        await scheduleTimer(tx, {
          key: `${prefix}:${i}`,
          kind: 'race',
          dueAt: new Date(T0.getTime() + i),
        });
      }
    });
    first.start();
    second.start();
    time.advance(60_000);
    first.wake();
    second.wake();
    await until(
      'every racing timer to fire',
      () =>
        count(
          rt.deps.db,
          `SELECT count(*)::int AS n FROM timers WHERE key LIKE $1 AND state = 'done'`,
          [`${prefix}:%`],
        ),
      (n) => n === 2_000,
      60_000,
    );
    const fired = await rt.deps.db.query<{ key: string; n: number }>(
      `SELECT key, count(*)::int AS n FROM t_fired WHERE key LIKE $1 GROUP BY key`,
      [`${prefix}:%`],
    );
    expect(fired.rows).toHaveLength(2_000);
    expect(fired.rows.filter((r) => r.n !== 1)).toEqual([]);
    const split = await rt.deps.db.query<{ instance: string; n: number }>(
      `SELECT instance, count(*)::int AS n FROM t_fired WHERE key LIKE $1 GROUP BY instance`,
      [`${prefix}:%`],
    );
    console.log(
      `[${backend.name}] racing timers fired per worker:`,
      split.rows.map((r) => r.n),
    );
    await first.stop();
    await second.stop();
  });

  it('outbox: written with its event, retried with exponential backoff, Retry-After honoured, dead after N, an operator retry resets it', async () => {
    const work = newWork();
    const calls: { id: string; key: string; attempt: number }[] = [];
    const behaviour = new Map<string, (attempt: number) => unknown>();
    work.registerOutbox(
      'webhook',
      (m) => {
        calls.push({ id: m.id, key: m.idempotencyKey, attempt: m.attempt });
        const act = behaviour.get((m.payload as { name: string }).name);
        // A behaviour throws or returns, as a handler's call to the receiver would.
        return new Promise<OutboxResult>((resolve) => resolve(act?.(m.attempt) as OutboxResult));
      },
      { retry: { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 60_000 } },
    );
    time.set(T0);
    const enqueue = async (name: string, id?: string) =>
      rt.deps.store.transact(async (tx) => {
        await tx.append({
          streamId: `hook:${randomUUID()}`,
          expectedVersion: 0,
          events: [ev('Hooked')],
        });
        return enqueueOutbox(tx, { kind: 'webhook', payload: { name }, ...(id ? { id } : {}) });
      });

    // Written in the event's transaction: a rolled-back transaction leaves no message.
    await expect(
      rt.deps.store.transact(async (tx) => {
        await enqueueOutbox(tx, { kind: 'webhook', payload: { name: 'ghost' }, id: 'ghost' });
        throw new Error('the command failed');
      }),
    ).rejects.toThrow('the command failed');
    expect(await getOutboxMessage(rt.deps.db, 'ghost')).toBeNull();
    // Queued twice with one id: one message.
    const fixedId = `hook-${randomUUID()}`;
    await enqueue('once', fixedId);
    await enqueue('once', fixedId);
    expect(
      await count(rt.deps.db, 'SELECT count(*)::int AS n FROM outbox WHERE id = $1', [fixedId]),
    ).toBe(1);
    expect(await work.outbox.dispatchDue()).toMatchObject({ claimed: 1, done: 1 });
    expect(await getOutboxMessage(rt.deps.db, fixedId)).toMatchObject({
      state: 'sent',
      attempts: 1,
    });

    // Exponential backoff: fails twice, then goes through; the same idempotency key every time.
    behaviour.set('flaky', (attempt) => {
      if (attempt < 3) throw new Error(`503 on attempt ${attempt}`);
    });
    const flaky = await enqueue('flaky');
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, flaky)).toMatchObject({
      state: 'failed',
      attempts: 1,
      nextAttemptAt: new Date(T0.getTime() + 1_000),
      lastError: 'Error: 503 on attempt 1',
    });
    time.advance(999);
    expect((await work.outbox.dispatchDue()).claimed).toBe(0);
    time.advance(1);
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, flaky)).toMatchObject({
      state: 'failed',
      attempts: 2,
      nextAttemptAt: new Date(T0.getTime() + 1_000 + 2_000),
    });
    time.advance(2_000);
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, flaky)).toMatchObject({ state: 'sent', attempts: 3 });
    expect(calls.filter((c) => c.id === flaky).map((c) => [c.key, c.attempt])).toEqual([
      [flaky, 1],
      [flaky, 2],
      [flaky, 3],
    ]);

    // Retry-After, thrown or returned, replaces the backoff.
    behaviour.set('throttled', (attempt) => {
      if (attempt === 1) throw new RetryAfterError(30_000, '429 Too Many Requests');
      if (attempt === 2)
        return { retryAfterMs: parseRetryAfter('45', time.clock()), reason: '503 Retry-After: 45' };
      return undefined;
    });
    const throttled = await enqueue('throttled');
    const start = time.clock().getTime();
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, throttled)).toMatchObject({
      state: 'failed',
      attempts: 1,
      nextAttemptAt: new Date(start + 30_000),
    });
    expect((await getOutboxMessage(rt.deps.db, throttled))!.lastError).toMatch(/429/);
    time.advance(29_999);
    expect((await work.outbox.dispatchDue()).claimed).toBe(0);
    time.advance(1);
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, throttled)).toMatchObject({
      state: 'failed',
      attempts: 2,
      nextAttemptAt: new Date(start + 30_000 + 45_000),
    });
    time.advance(45_000);
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, throttled)).toMatchObject({
      state: 'sent',
      attempts: 3,
    });
    expect(parseRetryAfter(new Date(T0.getTime() + 120_000).toUTCString(), T0)).toBe(120_000);
    expect(parseRetryAfter('soon', T0)).toBeUndefined();

    // Dead after N attempts, with its last error; nothing more until an operator retries it.
    let down = true;
    behaviour.set('down', (attempt) => {
      if (down) throw new Error(`connection refused (${attempt})`);
    });
    const dead = await enqueue('down');
    for (let i = 0; i < 4; i++) {
      await work.outbox.dispatchDue();
      time.advance(60_000);
    }
    expect(await getOutboxMessage(rt.deps.db, dead)).toMatchObject({
      state: 'dead',
      attempts: 4,
      lastError: 'Error: connection refused (4)',
    });
    const status = await work.status();
    expect(status.outbox).toMatchObject({ dead: 1, failed: 0, pending: 0, due: 0 });
    time.advance(24 * 3_600_000);
    expect((await work.outbox.dispatchDue()).claimed).toBe(0);
    down = false;
    expect(await retryOutboxMessage(rt.deps.db, dead)).toBe(true);
    expect(await getOutboxMessage(rt.deps.db, dead)).toMatchObject({
      state: 'pending',
      attempts: 0,
    });
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, dead)).toMatchObject({ state: 'sent', attempts: 1 });

    // A permanent failure is dead at once.
    behaviour.set('rejected', () => {
      throw new PermanentFailure('400 Bad Request');
    });
    const rejected = await enqueue('rejected');
    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(rt.deps.db, rejected)).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: 'PermanentFailure: 400 Bad Request',
    });

    // The dispatcher's loop delivers by itself, woken by the append that queued the message.
    work.start();
    const looped = await enqueue('looped');
    await until(
      'the loop to send',
      () => getOutboxMessage(rt.deps.db, looped),
      (m) => m?.state === 'sent',
    );
    await work.stop();
  });

  it('one instance of a consumer runs across two BackgroundWork instances; stopping the holder hands it over', async () => {
    const other = await secondStore();
    const first = newWork({ leaseMs: 1_000 });
    const second = newWork({ leaseMs: 1_000 }, other.db, other.store);
    for (const work of [first, second]) {
      work.registerConsumer({
        name: 'singleton',
        handles: ['Solo'],
        handle: async (event, { tx }) => {
          await tx.query(
            'INSERT INTO t_effects (consumer, event_id, instance) VALUES ($1, $2, $3)',
            ['singleton', event.id, work.instanceId],
          );
        },
      });
    }
    first.start();
    second.start();
    const stream = `solo:${randomUUID()}`;
    await rt.deps.store.append(
      stream,
      0,
      Array.from({ length: 20 }, () => ev('Solo')),
    );
    await until(
      'the singleton to apply 20',
      () => effectsOf('singleton'),
      (rows) => rows.length >= 20,
    );
    const holders = new Set((await effectsOf('singleton')).map((r) => r.instance));
    expect(holders.size).toBe(1);
    const holder = [first, second].find((w) => holders.has(w.instanceId))!;
    const standby = holder === first ? second : first;
    const states = async () =>
      Promise.all(
        [holder, standby].map((w) =>
          w.status().then((s) => s.consumers.find((c) => c.name === 'singleton')!),
        ),
      );
    const [h, s] = await states();
    expect(['active', 'idle']).toContain(h!.state);
    expect(s!.state).toBe('standby');
    expect(s!.holder).toBe(holder.instanceId);

    await holder.stop();
    await rt.deps.store.append(
      stream,
      20,
      Array.from({ length: 10 }, () => ev('Solo')),
    );
    await until(
      'the standby to take over',
      () => effectsOf('singleton'),
      (rows) => rows.length >= 30,
    );
    const rows = await effectsOf('singleton');
    expect(rows).toHaveLength(30);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(30);
    expect(rows.slice(20).every((r) => r.instance === standby.instanceId)).toBe(true);
    await standby.stop();
  });

  it("status: the lease holder's lag counts from where it has read, past events it does not handle", async () => {
    const work = newWork();
    work.registerConsumer({
      name: 'picky',
      startAt: 'end',
      handles: ['Wanted'],
      handle: () => Promise.resolve(),
    });
    const lagOf = async () => (await work.status()).consumers[0]!.lag;
    // Its row is created at its first start, at the log's end (`startAt: 'end'`).
    work.start();
    await until(
      'picky to idle',
      () => work.status(),
      (st) => st.consumers[0]!.state === 'idle',
    );
    await work.stop();
    await rt.deps.store.append(
      `picky:${randomUUID()}`,
      0,
      Array.from({ length: 3 }, () => ev('Unwanted')),
    );
    // Counted once no older transaction of the PostgreSQL server is still running (another
    // test file's, in another database, may hold it back for a moment).
    await until('the three to count', lagOf, (lag) => lag === 3);
    const { rows } = await rt.deps.db.query<{ t: string; p: string }>(
      `SELECT transaction_id::text AS t, global_position::text AS p FROM events
        ORDER BY transaction_id DESC, global_position DESC LIMIT 1`,
    );
    // The holder has read past the three (they only move its checkpoint, stored up to a second
    // later): its lag is 0 at once; the stored checkpoint alone still says 3.
    const runner = (work as unknown as { consumers: Map<string, object> }).consumers.get('picky')!;
    let read: { transactionId: string; position: string } | null = {
      transactionId: rows[0]!.t,
      position: rows[0]!.p,
    };
    Object.defineProperty(runner, 'readPosition', { get: () => read });
    expect(await lagOf()).toBe(0);
    read = null;
    expect(await lagOf()).toBe(3);
  });

  it('status: lag and state of each consumer, timers and outbox counts', async () => {
    const work = newWork();
    work.registerConsumer({ name: 'late', startAt: 'end', handle: () => Promise.resolve() });
    work.registerConsumer({ name: 'from-start', handle: () => Promise.resolve() });
    const before = await work.status();
    expect(before.running).toBe(false);
    expect(before.consumers.map((c) => [c.name, c.state])).toEqual([
      ['late', 'stopped'],
      ['from-start', 'stopped'],
    ]);
    expect(before.consumers[1]!.lag).toBeGreaterThan(0);
    work.start();
    const after = await until(
      'both to catch up',
      () => work.status(),
      (s) => s.consumers.every((c) => c.lag === 0 && c.state === 'idle'),
    );
    expect(after.running).toBe(true);
    expect(after.consumers.every((c) => c.holder === work.instanceId)).toBe(true);
    expect(after.timers).toMatchObject({ kinds: [], lastError: null });
    expect(typeof after.timers.scheduled).toBe('number');
    expect(typeof after.outbox.dead).toBe('number');
    await work.stop();
    expect((await work.status()).consumers.map((c) => c.state)).toEqual(['stopped', 'stopped']);
  });
});
