import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { scheduleTimer } from '../../src/server/store/background-work';
import type { NewEvent } from '../../src/server/store/event-store';
import { postgresBackend } from './support/backends';

/**
 * Real server processes (tests/integration/support/work-server.ts: the server's runtime with its
 * BackgroundWork started, and the HTTP app) on one PostgreSQL database, with the default lease.
 * PostgreSQL only: the embedded store is single-process.
 */
const hasPg = Boolean(process.env.VITRINA_TEST_PG);

type Rt = Awaited<ReturnType<typeof postgresBackend.open>>;

interface Server {
  child: ChildProcessWithoutNullStreams;
  instanceId: string;
  output: () => string;
  exited: Promise<void>;
}

const children = new Set<ChildProcessWithoutNullStreams>();

function startServer(databaseUrl: string, env: Record<string, string> = {}): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'tests/integration/support/work-server.ts'],
    {
      env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      children.delete(child);
      resolve();
    }),
  );
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const ready = /READY (\S+)/.exec(output);
      if (ready) resolve({ child, instanceId: ready[1]!, output: () => output, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then(() => reject(new Error(`server exited before READY:\n${output}`)));
  });
}

async function until<T>(
  what: string,
  probe: () => Promise<T>,
  done: (v: T) => boolean,
  timeoutMs = 30_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function kill9(server: Server) {
  server.child.kill('SIGKILL');
  await server.exited;
}

const probe = (data: Record<string, unknown> = {}): NewEvent => ({
  id: randomUUID(),
  type: 'ProbeEvent',
  data,
  occurredAt: new Date(),
});

describe.skipIf(!hasPg)('background work across server processes [postgres]', () => {
  let rt: Rt;

  beforeAll(async () => {
    rt = await postgresBackend.open();
    await rt.deps.db.exec(`
      CREATE TABLE probe_effects (event_id uuid NOT NULL, instance text NOT NULL);
      CREATE TABLE probe_fired (key text NOT NULL, instance text NOT NULL);
    `);
  });
  afterEach(async () => {
    for (const child of children) child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 100));
  });
  afterAll(async () => {
    await rt?.dispose();
  });

  const holder = async () =>
    (
      await rt.deps.db.query<{ owner: string }>(
        `SELECT owner FROM work_leases WHERE name = 'consumer:probe' AND expires_at > clock_timestamp()`,
      )
    ).rows[0]?.owner ?? null;
  const effects = async () =>
    (
      await rt.deps.db.query<{ event_id: string; instance: string }>(
        'SELECT event_id::text AS event_id, instance FROM probe_effects',
      )
    ).rows;

  it('two server processes run one instance of a consumer; kill -9 of the holder: the other takes over within a few seconds', async () => {
    const a = await startServer(rt.databaseUrl!);
    const b = await startServer(rt.databaseUrl!);
    const first = await until('a holder', holder, (h) => h !== null);
    expect([a.instanceId, b.instanceId]).toContain(first);
    const [held, other] = first === a.instanceId ? [a, b] : [b, a];

    const stream = `probe:${randomUUID()}`;
    await rt.deps.store.append(
      stream,
      0,
      Array.from({ length: 10 }, () => probe()),
    );
    await until('10 effects', effects, (rows) => rows.length >= 10);
    // Let the standby have every chance to run it too.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(new Set((await effects()).map((r) => r.instance))).toEqual(new Set([held.instanceId]));
    expect(await holder()).toBe(held.instanceId);

    await kill9(held);
    const killedAt = Date.now();
    await rt.deps.store.append(
      stream,
      10,
      Array.from({ length: 10 }, () => probe()),
    );
    await until(
      'the other process to apply the next 10',
      effects,
      (rows) => rows.length >= 20,
      30_000,
    );
    const takeover = Date.now() - killedAt;
    console.log(`[postgres] takeover after kill -9: ${takeover} ms (lease 4 s)`);
    expect(takeover).toBeLessThan(8_000);
    expect(await holder()).toBe(other.instanceId);
    const rows = await effects();
    expect(rows).toHaveLength(20);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(20);
    expect(rows.filter((r) => r.instance === other.instanceId)).toHaveLength(10);
    await kill9(other);
  }, 120_000);

  it('dropped connections (every backend of the database terminated, three times): work goes on, each effect once', async () => {
    const a = await startServer(rt.databaseUrl!);
    const b = await startServer(rt.databaseUrl!);
    await until('a holder', holder, (h) => h === a.instanceId || h === b.instanceId);
    const stream = `probe:${randomUUID()}`;
    const events = Array.from({ length: 20 }, () => probe());
    const ids = new Set(events.map((e) => e.id));
    const mine = async () => (await effects()).filter((r) => ids.has(r.event_id));
    await rt.deps.store.append(stream, 0, events.slice(0, 10));
    await until('the first 10', mine, (rows) => rows.length >= 10);

    const killer = new pg.Client({ connectionString: rt.databaseUrl });
    await killer.connect();
    try {
      for (let round = 0; round < 3; round++) {
        await killer.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
        );
        if (round === 0) {
          await until(
            'the append to go through',
            () =>
              rt.deps.store.append(stream, 10, events.slice(10)).then(
                () => true,
                () => false,
              ),
            (ok) => ok,
          );
        }
        await new Promise((r) => setTimeout(r, 300));
      }
    } finally {
      await killer.end();
    }
    const rows = await until('the next 10 after the drops', mine, (r) => r.length >= 20, 30_000);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await mine()).toHaveLength(20);
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(20);
    expect(a.child.exitCode, a.output()).toBeNull();
    expect(b.child.exitCode, b.output()).toBeNull();
    const parked = await rt.deps.db.query('SELECT 1 FROM parked_events');
    expect(parked.rows).toHaveLength(0);
  }, 120_000);

  it('a server killed with kill -9 between an append and its effect (consumer and timer): after restart the effect happens, once', async () => {
    const stalling = await startServer(rt.databaseUrl!, { PROBE_STALL: '1' });
    await until(
      'the stalling server to hold the consumer',
      holder,
      (h) => h === stalling.instanceId,
    );
    const event = probe({ stall: true });
    const key = `probe-timer-${randomUUID()}`;
    // One transaction: the event, and a timer due now that it causes.
    await rt.deps.store.transact(async (tx) => {
      await tx.append({ streamId: `probe:${randomUUID()}`, expectedVersion: 0, events: [event] });
      await scheduleTimer(tx, {
        key,
        kind: 'probe',
        dueAt: new Date(),
        payload: { stall: true },
        causeEventId: event.id,
      });
    });
    await until(
      'both handlers to stall mid-transaction',
      () => Promise.resolve(stalling.output()),
      (out) => out.includes(`STALLED ${event.id}`) && out.includes(`STALLED ${key}`),
    );
    await kill9(stalling);
    const fired = async () =>
      (
        await rt.deps.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM probe_fired WHERE key = $1',
          [key],
        )
      ).rows[0]!.n;
    const applied = async () => (await effects()).filter((r) => r.event_id === event.id).length;
    // Nothing the killed process wrote stayed.
    expect(await applied()).toBe(0);
    expect(await fired()).toBe(0);

    const restarted = await startServer(rt.databaseUrl!);
    await until('the effect after restart', applied, (n) => n >= 1, 30_000);
    await until('the timer after restart', fired, (n) => n >= 1, 30_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await applied()).toBe(1);
    expect(await fired()).toBe(1);
    const timer = await rt.deps.db.query<{ state: string; attempts: number }>(
      'SELECT state, attempts FROM timers WHERE key = $1',
      [key],
    );
    expect(timer.rows[0]).toEqual({ state: 'done', attempts: 1 });
    expect((await effects()).find((r) => r.event_id === event.id)!.instance).toBe(
      restarted.instanceId,
    );
    await kill9(restarted);
  }, 120_000);
});
