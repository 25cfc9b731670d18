/**
 * The operations page's API (issue 12 point 7): platform administrators see each consumer with
 * its lag and state, timers and outbound messages pending, failed and parked with their last
 * error, parked consumer events, and retry them. Everyone else: 401 / 403 in the spec's shape.
 *
 * The consumer runs in the runtime's BackgroundWork (started for its test, stopped after);
 * timers and the outbox are driven by hand (`fireDue`, `dispatchDue`) on the injected clock.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { operationsOverview } from '../../src/server/ops/queries';
import type { OperationsOverview } from '../../src/server/ops/routes';
import type { Db, Queryable } from '../../src/server/store/db';
import {
  enqueueOutbox,
  getOutboxMessage,
  getTimer,
  PermanentFailure,
  scheduleTimer,
} from '../../src/server/store/background-work';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

const ACCOUNTS = [
  'admin@vitrina.demo',
  'gerente@vitrina.demo',
  'asesor@vitrina.demo',
  'asesor2@vitrina.demo',
  'hostess@vitrina.demo',
  'broker@vitrina.demo',
  'asesor.pacifico@vitrina.demo',
] as const;
/** Only the platform administrator (esAdmin) operates; every corporate role is refused. */
const OPERATORS = new Set<string>(['admin@vitrina.demo']);

/** A handler's result: rejected with `error`, or done. */
const outcome = (error: Error | null): Promise<void> =>
  error ? Promise.reject(error) : Promise.resolve();

async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describeBackends('operations', (backend: Backend) => {
  let now = new Date('2026-11-22T10:00:00.000Z');
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  const clients: Record<string, Client> = {};
  const ids: Record<string, string> = {};
  let admin: Client;

  // A consumer whose handler throws while `poison` is on; a timer kind and an outbox kind that
  // fail while `failing` is on. Calls are counted to show a retry runs the work once.
  let poison = true;
  let failing = true;
  const calls = { consumer: 0, timer: 0, outbox: 0 };

  const overview = async (who: Client = admin) => {
    const res = await who.get('/api/operaciones');
    expect(res.status).toBe(200);
    return res.json as OperationsOverview;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    for (const email of ACCOUNTS) clients[email] = await signedIn(app, email, ids);
    admin = clients['admin@vitrina.demo']!;
    const { work } = rt.deps;
    work.registerConsumer({
      name: 'ops-probe',
      handles: ['OpsProbed'],
      startAt: 'end',
      retry: { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 40 },
      handle: (event) => {
        calls.consumer += 1;
        return outcome(poison ? new Error(`poison: cannot handle ${event.id}`) : null);
      },
    });
    work.registerTimer(
      'ops-flaky',
      () => {
        calls.timer += 1;
        return outcome(failing ? new Error('the flaky timer failed') : null);
      },
      { retry: { maxAttempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 } },
    );
    work.registerTimer('ops-doomed', () => outcome(new Error('the doomed timer always fails')), {
      retry: { maxAttempts: 1 },
    });
    work.registerOutbox('ops-mail', () => {
      calls.outbox += 1;
      return outcome(failing ? new PermanentFailure('550 mailbox unavailable') : null);
    });
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  it('who may see it: the platform administrator; every other demo role 403, anonymous 401, in the spec shape', async () => {
    const parked = `/api/operaciones/consumidores/ops-probe/eventos/${randomUUID()}/reintentar`;
    const routes: [method: 'get' | 'post', path: string][] = [
      ['get', '/api/operaciones'],
      ['post', '/api/operaciones/timers/nope/reintentar'],
      ['post', '/api/operaciones/mensajes/nope/reintentar'],
      ['post', parked],
    ];
    for (const [method, path] of routes) {
      for (const email of ACCOUNTS) {
        const res = await clients[email]![method](path);
        if (OPERATORS.has(email)) {
          expect(res.status, `${email} ${method} ${path}`).toBe(method === 'get' ? 200 : 404);
        } else {
          expect(res.status, `${email} ${method} ${path}`).toBe(403);
          expect(res.json).toEqual([{ errorCode: 'FORBIDDEN', message: expect.any(String) }]);
        }
      }
      const anonymous = await client(app)[method](path);
      expect(anonymous.status, `anonymous ${method} ${path}`).toBe(401);
      expect(anonymous.json).toEqual([
        { errorCode: 'UNAUTHENTICATED', message: 'Inicia sesión para continuar' },
      ]);
    }
    // Unknown ids: 404 in the spec's shape, in the caller's language.
    const missing = await admin.post(
      '/api/operaciones/timers/nope/reintentar',
      {},
      { 'accept-language': 'en' },
    );
    expect(missing.json).toEqual([{ errorCode: 'TIMER_NOT_FOUND', message: 'Timer not found' }]);
    expect((await admin.post('/api/operaciones/mensajes/nope/reintentar')).json[0].errorCode).toBe(
      'MESSAGE_NOT_FOUND',
    );
    expect((await admin.post(parked)).json[0].errorCode).toBe('PARKED_EVENT_NOT_FOUND');
  });

  it('a handler that always throws parks its event, visible with its error; retry runs it again, once', async () => {
    const { work, store } = rt.deps;
    work.start();
    try {
      // The consumer starts at the end of the log: wait until it holds its place there.
      await until(
        'the consumer to catch up',
        () => overview(),
        (o) => o.consumers.some((c) => c.name === 'ops-probe' && c.holder !== null && c.lag === 0),
      );
      const id = randomUUID();
      await store.append(`ops-probe:${randomUUID()}`, 0, [
        { id, type: 'OpsProbed', data: {}, occurredAt: now },
      ]);
      // Parked, and the consumer's own line says so too: the overview reads the parked events
      // and the consumers apart, and on PostgreSQL a read between the two once saw the event
      // parked and the consumer still failing it.
      const seen = await until(
        'the event to be parked',
        () => overview(),
        (o) =>
          o.parked.some((p) => p.eventId === id) &&
          o.consumers.some((c) => c.name === 'ops-probe' && c.failing === null && c.parked === 1),
      );
      expect(seen.parked.find((p) => p.eventId === id)).toMatchObject({
        consumer: 'ops-probe',
        eventType: 'OpsProbed',
        state: 'parked',
        attempts: 2,
        error: expect.stringContaining(`poison: cannot handle ${id}`),
      });
      // The consumer moved on: no lag, one parked, nothing failing now.
      const consumer = seen.consumers.find((c) => c.name === 'ops-probe')!;
      expect(consumer).toMatchObject({ lag: 0, parked: 1, failing: null, holder: work.instanceId });
      expect(['active', 'idle']).toContain(consumer.state);
      expect(calls.consumer).toBe(2);

      // Retry twice while the consumer is stopped: the same 200 both times (idempotent).
      await work.stop();
      const retry = `/api/operaciones/consumidores/ops-probe/eventos/${id}/reintentar`;
      const first = await admin.post(retry);
      expect(first.status).toBe(200);
      expect(first.json).toMatchObject({ eventId: id, state: 'retry' });
      const again = await admin.post(retry);
      expect(again.status).toBe(200);
      expect(again.json).toMatchObject({ eventId: id, state: 'retry' });
      const stopped = (await overview()).consumers.find((c) => c.name === 'ops-probe')!;
      expect(stopped.state).toBe('stopped');

      poison = false;
      work.start();
      await until(
        'the retried event to be resolved',
        () => overview(),
        (o) => !o.parked.some((p) => p.eventId === id),
      );
      expect(calls.consumer).toBe(3);
      // Resolved: nothing left to retry.
      const done = await admin.post(retry);
      expect(done.status).toBe(409);
      expect(done.json).toEqual([
        { errorCode: 'NOT_RETRYABLE', message: expect.any(String), state: 'resolved' },
      ]);
    } finally {
      await work.stop();
    }
  });

  it('the lag counts the events a stopped consumer has not read', async () => {
    const before = (await overview()).consumers.find((c) => c.name === 'ops-probe')!;
    expect(before.lag).toBe(0);
    await rt.deps.store.append(
      `ops-probe:${randomUUID()}`,
      0,
      [1, 2, 3].map(() => ({ id: randomUUID(), type: 'OpsIgnored', data: {}, occurredAt: now })),
    );
    // Counted once no transaction older than the append's is still running: transaction ids
    // are the PostgreSQL server's, so another database's open transaction (other test files
    // run beside this one) may hold the count back for a moment.
    const after = await until(
      'the three to count',
      async () => (await overview()).consumers.find((c) => c.name === 'ops-probe')!,
      (c) => c.lag === 3,
    );
    expect(after).toMatchObject({ lag: 3, lagCapped: false, state: 'stopped', holder: null });
  });

  it('a failed timer shows its last error and retries at once; a parked one too; a future one is 409', async () => {
    const { store, work, db } = rt.deps;
    failing = true;
    // Keys are free text: colons and slashes travel percent-encoded.
    const flaky = 'ops-flaky:a/b c';
    await store.transact(async (tx) => {
      await scheduleTimer(tx, { key: flaky, kind: 'ops-flaky', dueAt: now });
      await scheduleTimer(tx, { key: 'ops-doomed:1', kind: 'ops-doomed', dueAt: now });
      await scheduleTimer(tx, {
        key: 'ops-flaky:later',
        kind: 'ops-flaky',
        dueAt: new Date(now.getTime() + 3_600_000),
      });
    });
    // One failing handler rolls its batch back: a pass per timer.
    await work.timers.fireDue();
    await work.timers.fireDue();
    expect(await getTimer(db, flaky)).toMatchObject({ state: 'failed', attempts: 1 });
    expect(await getTimer(db, 'ops-doomed:1')).toMatchObject({ state: 'parked', attempts: 1 });

    const o = await overview();
    expect(o.timers.counts).toMatchObject({ failed: 1, parked: 1 });
    expect(o.timers.kinds).toEqual(expect.arrayContaining(['ops-flaky', 'ops-doomed']));
    expect(o.timers.attention).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          key: flaky,
          kind: 'ops-flaky',
          state: 'failed',
          attempts: 1,
          dueAt: now.toISOString(),
          lastError: expect.stringContaining('the flaky timer failed'),
        }),
        expect.objectContaining({
          key: 'ops-doomed:1',
          state: 'parked',
          lastError: expect.stringContaining('the doomed timer always fails'),
        }),
      ]),
    );
    expect(o.timers.upcoming.map((t) => t.key)).toContain('ops-flaky:later');

    // Its next attempt is a minute away; the operator's retry makes it due now.
    failing = false;
    const path = `/api/operaciones/timers/${encodeURIComponent(flaky)}/reintentar`;
    const retried = await admin.post(path);
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({
      key: flaky,
      state: 'scheduled',
      attempts: 0,
      nextAttemptAt: null,
    });
    expect((await admin.post(path)).status).toBe(200);
    const before = calls.timer;
    await work.timers.fireDue();
    expect(calls.timer - before).toBe(1);
    expect(await getTimer(db, flaky)).toMatchObject({ state: 'done', lastError: null });
    const fired = await admin.post(path);
    expect(fired.status).toBe(409);
    expect(fired.json[0]).toMatchObject({ errorCode: 'NOT_RETRYABLE', state: 'done' });

    // A parked timer runs again (and, still failing, is parked again with a fresh error).
    const doomed = await admin.post('/api/operaciones/timers/ops-doomed%3A1/reintentar');
    expect(doomed.status).toBe(200);
    await work.timers.fireDue();
    expect(await getTimer(db, 'ops-doomed:1')).toMatchObject({ state: 'parked', attempts: 1 });

    // Not failed: waiting for its time.
    const later = await admin.post('/api/operaciones/timers/ops-flaky%3Alater/reintentar');
    expect(later.status).toBe(409);
    expect(later.json[0]).toMatchObject({ errorCode: 'NOT_RETRYABLE', state: 'scheduled' });
    advance(2 * 3_600_000);
    await work.timers.fireDue();
  });

  it('a dead outbound message shows its last error; retry sends it again, once', async () => {
    const { store, work, db } = rt.deps;
    failing = true;
    const id = `ops-mail-${randomUUID()}`;
    await store.transact((tx) => enqueueOutbox(tx, { id, kind: 'ops-mail', payload: { to: 'x' } }));
    const pending = await overview();
    expect(pending.outbox.counts.pending).toBeGreaterThanOrEqual(1);
    expect(pending.outbox.pending.map((m) => m.id)).toContain(id);
    // Pending, not failed: nothing to retry yet — but it is already due, so a retry is a no-op 200.
    expect((await admin.post(`/api/operaciones/mensajes/${id}/reintentar`)).status).toBe(200);

    await work.outbox.dispatchDue();
    expect(await getOutboxMessage(db, id)).toMatchObject({ state: 'dead', attempts: 1 });
    const o = await overview();
    expect(o.outbox.counts.dead).toBe(1);
    expect(o.outbox.attention).toEqual([
      expect.objectContaining({
        id,
        kind: 'ops-mail',
        state: 'dead',
        attempts: 1,
        lastError: expect.stringContaining('550 mailbox unavailable'),
      }),
    ]);
    // No payload reaches the page (it may carry a client's data).
    expect(JSON.stringify(o)).not.toContain('"payload"');

    failing = false;
    const retried = await admin.post(`/api/operaciones/mensajes/${id}/reintentar`);
    expect(retried.status).toBe(200);
    expect(retried.json).toMatchObject({ id, state: 'pending', attempts: 0, nextAttemptAt: null });
    const before = calls.outbox;
    await work.outbox.dispatchDue();
    expect(calls.outbox - before).toBe(1);
    expect(await getOutboxMessage(db, id)).toMatchObject({ state: 'sent' });
    const sent = await admin.post(`/api/operaciones/mensajes/${id}/reintentar`);
    expect(sent.status).toBe(409);
    expect(sent.json[0]).toMatchObject({ errorCode: 'NOT_RETRYABLE', state: 'sent' });
    expect((await overview()).outbox.attention).toEqual([]);
  });

  it('bad input is a 400 in the spec’s shape (a form body is refused before the route), never a 500', async () => {
    for (const query of ['limite=0', 'limite=201', 'limite=abc', 'limite=1.5', 'otro=1']) {
      const res = await admin.get(`/api/operaciones?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.json[0].errorCode, query).toBe('VALIDATION');
    }
    const limited = await admin.get('/api/operaciones?limite=1');
    expect(limited.status).toBe(200);
    expect((limited.json as OperationsOverview).limit).toBe(1);
    expect((limited.json as OperationsOverview).timers.upcoming.length).toBeLessThanOrEqual(1);

    const badEvent = await admin.post(
      '/api/operaciones/consumidores/ops-probe/eventos/not-a-uuid/reintentar',
    );
    expect(badEvent.status).toBe(400);
    expect(badEvent.json[0].errorCode).toBe('VALIDATION');
    const longKey = await admin.post(`/api/operaciones/timers/${'k'.repeat(501)}/reintentar`);
    expect(longKey.status).toBe(400);
    const withBody = await admin.post('/api/operaciones/timers/x/reintentar', { force: true });
    expect(withBody.status).toBe(400);
    const badJson = await admin.post('/api/operaciones/timers/x/reintentar', '{', {
      'content-type': 'application/json',
    });
    expect(badJson.status).toBe(400);
    expect(badJson.json[0].errorCode).toBe('INVALID_JSON');
    const form = await admin.post('/api/operaciones/timers/x/reintentar', 'a=1', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    // Refused before the route: 400 for the wrong content type, or the CSRF guard's 403.
    expect([400, 403]).toContain(form.status);
    expect(form.json).toEqual([{ errorCode: expect.any(String), message: expect.any(String) }]);
    const getRetry = await admin.get('/api/operaciones/timers/x/reintentar');
    expect(getRetry.status).toBe(404);
    expect(getRetry.json[0].errorCode).toBe('NOT_FOUND');
  });

  it('the overview is one snapshot: an event parked between its reads is on neither the list nor its consumer’s line', async () => {
    const { db } = rt.deps;
    const eventId = randomUUID();
    const park = () =>
      db.query(
        `INSERT INTO parked_events (consumer, event_id, event_type, error, attempts)
         VALUES ('ops-probe', $1, 'OpsProbed', 'parked between the reads', 1)`,
        [eventId],
      );
    // Set by the store below (an object: a `let` assigned in a closure reads as never set).
    const write: { parking: Promise<unknown> | null } = { parking: null };
    // The overview's store: right after its first read (the consumers' lines), another
    // connection parks an event and commits. PGlite has one connection, which the overview's
    // transaction holds: there the write waits for it (the same outcome, by serialisation).
    const between = (tx: Queryable): Queryable => ({
      query: async <T>(sql: string, params?: unknown[]) => {
        const result = await tx.query<T>(sql, params);
        if (write.parking === null && /FROM unnest/.test(sql)) {
          write.parking = park();
          if (backend.name === 'postgres') await write.parking;
        }
        return result;
      },
    });
    // The overview reads only through a transaction.
    const store = {
      transaction: <T>(fn: (tx: Queryable) => Promise<T>) =>
        db.transaction((tx) => fn(between(tx))),
    } as unknown as Db;
    try {
      const o = await operationsOverview({ ...rt.deps, db: store }, 100);
      expect(write.parking).not.toBeNull();
      const line = o.consumers.find((c) => c.name === 'ops-probe')!;
      const listed = o.parked.filter((p) => p.consumer === 'ops-probe').length;
      expect(listed).toBe(line.parked);
      expect(o.parked.some((p) => p.eventId === eventId)).toBe(false);
      await write.parking;
      // Read again, it is on both.
      const after = await operationsOverview(rt.deps, 100);
      expect(after.parked.some((p) => p.eventId === eventId)).toBe(true);
      expect(after.consumers.find((c) => c.name === 'ops-probe')!.parked).toBe(line.parked + 1);
    } finally {
      await write.parking;
      await db.query('DELETE FROM parked_events WHERE event_id = $1', [eventId]);
    }
  });
});
