/**
 * BackgroundWork: the consumers, the timer worker and the outbox dispatcher of one server
 * process, started by the runtime and stopped on shutdown. See consumers.ts, timers.ts and
 * outbox.ts for the guarantees; this file wires them and reports their state.
 *
 * How an area uses it (e.g. unit holds that expire):
 *
 *   // 1. In the append's transaction: an inline projection that schedules / cancels timers and
 *   //    queues outbound messages (registered with the area's other projections).
 *   export const holdTimers = workProjection({
 *     name: 'unit-hold-timers',
 *     handles: ['UnitHeld', 'UnitHoldReleased'],
 *     effects: (e) =>
 *       e.type === 'UnitHeld'
 *         ? { schedule: { key: `unit-hold:${e.streamId}`, kind: 'unit-hold-expiry', dueAt: new Date(e.data.expiresAt), payload: { streamId: e.streamId } } }
 *         : { cancel: `unit-hold:${e.streamId}` },
 *   });
 *   //    (or, in a command's `store.transact(async (tx) => …)`: scheduleTimer(tx, …),
 *   //    cancelTimer(tx, key), enqueueOutbox(tx, …) after tx.append(…)).
 *
 *   // 2. The handler, registered in runtime.ts registerBackgroundWork():
 *   work.registerTimer('unit-hold-expiry', async ({ tx, timer, now }) => {
 *     const events = await tx.readStream(timer.payload.streamId);   // decide on the stream…
 *     await tx.append({ streamId, expectedVersion: events.length, events: [...] });  // …same tx as "done"
 *   });
 *
 *   // A consumer (follows the log; effects and checkpoint in one transaction):
 *   work.registerConsumer({ name: 'push-notifications', handles: ['LeadAssigned'], startAt: 'end',
 *     handle: async (event, ctx) => { await enqueueOutbox(ctx.tx, { id: ctx.effectId('push'), kind: 'push', payload: … }) } });
 *   work.registerOutbox('push', async (m) => { …send with m.idempotencyKey…; });
 */
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { Db, Queryable } from './db';
import type { Checkpoint, EventStore, Projection, StoredEvent } from './event-store';
import {
  type ConsumerDefinition,
  ConsumerRunner,
  type ConsumerState,
  type RunnerEnv,
} from './consumers';
import {
  enqueueOutbox,
  OutboxDispatcher,
  type OutboxHandler,
  type OutboxHandlerOptions,
  type OutboxMessage,
} from './outbox';
import {
  cancelTimer,
  scheduleTimer,
  type TimerHandler,
  type TimerHandlerOptions,
  type TimerSpec,
  TimerWorker,
} from './timers';
import { defaultLogger, deterministicId, PassLoop, type WorkLogger } from './work-support';

export interface BackgroundWorkDeps {
  db: Db;
  store: EventStore;
  /** The injected clock: timers fall due and outbox retries come round against it. */
  clock: () => Date;
}

export interface BackgroundWorkOptions {
  /** This process's id as a lease owner (default: host, pid and a random suffix). */
  instanceId?: string;
  /**
   * How often idle loops look for work committed by other processes (default 300 ms, or
   * VITRINA_WORK_POLL_MS). Appends made through this process's EventStore wake them at once.
   */
  pollMs?: number;
  /**
   * The least time between two reads of the log by one consumer (default 50 ms): under load the
   * wake-ups of many appends are coalesced into one batch.
   */
  coalesceMs?: number;
  /** A consumer's lease: another process takes over this long after the holder died (default 4 s, or VITRINA_WORK_LEASE_MS). */
  leaseMs?: number;
  /** How often the holder renews its leases (default leaseMs / 4). */
  heartbeatMs?: number;
  /** How often a standby process tries to take a lease (default 1 s, at most leaseMs / 2). */
  standbyPollMs?: number;
  /** Timers fired per transaction (default 100). */
  timerBatchSize?: number;
  /** Outbox messages claimed per pass and sent concurrently (default 10). */
  outboxBatchSize?: number;
  /** An outbound call longer than this is aborted and counted as failed (default 30 s). */
  sendTimeoutMs?: number;
  /** An outbox claim longer than this (its sender died) is claimed again (default 2 min, injected clock). */
  claimMs?: number;
  /** The longest Retry-After honoured (default 6 h). */
  maxRetryAfterMs?: number;
  log?: WorkLogger;
}

export interface ConsumerStatus {
  name: string;
  /** As this process sees it: 'active' / 'idle' / 'retrying' when it holds the lease, else 'standby'. */
  state: ConsumerState;
  /** The instance id holding the lease (any process), or null. */
  holder: string | null;
  leaseExpiresAt: string | null;
  checkpoint: Checkpoint;
  /**
   * Committed events after the checkpoint, counted up to 100,000 (`lagCapped` beyond). In the
   * process holding the lease, after where it has read too: events it passed over without
   * handling them count as done before their checkpoint is stored (up to a second later).
   */
  lag: number;
  lagCapped: boolean;
  /** The event a handler keeps throwing on, while it is being retried. */
  failing: {
    eventId: string;
    attempts: number;
    lastError: string | null;
    retryAt: string | null;
  } | null;
  /** Parked events not yet resolved. */
  parked: number;
  lastError: string | null;
}

export interface BackgroundWorkStatus {
  instanceId: string;
  running: boolean;
  consumers: ConsumerStatus[];
  timers: {
    /** Waiting for their time (not yet failed). */
    scheduled: number;
    /** Due now by the injected clock (scheduled or failed, not yet fired): should be ~0. */
    due: number;
    /** Failed at least once, waiting for the next attempt. */
    failed: number;
    /** Gave up after their attempts: need an operator (retryTimer). */
    parked: number;
    kinds: string[];
    lastError: string | null;
  };
  outbox: {
    pending: number;
    /** Due now by the injected clock. */
    due: number;
    sending: number;
    failed: number;
    /** Dead-lettered: need an operator (retryOutboxMessage). */
    dead: number;
    kinds: string[];
    lastError: string | null;
  };
}

const LAG_CAP = 100_000;

function envNumber(name: string): number | undefined {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export class BackgroundWork {
  readonly instanceId: string;
  /** The timer worker; `timers.fireDue()` is one pass (tests drive it with the injected clock). */
  readonly timers: TimerWorker;
  /** The outbox dispatcher; `outbox.dispatchDue()` is one pass. */
  readonly outbox: OutboxDispatcher;
  private readonly consumers = new Map<string, ConsumerRunner>();
  private readonly env: RunnerEnv;
  private readonly timerLoop: PassLoop;
  private readonly outboxLoop: PassLoop;
  private running = false;
  private offAppended: (() => void) | null = null;

  constructor(
    private readonly deps: BackgroundWorkDeps,
    options: BackgroundWorkOptions = {},
  ) {
    this.instanceId =
      options.instanceId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    const log = options.log ?? defaultLogger;
    const pollMs = options.pollMs ?? envNumber('VITRINA_WORK_POLL_MS') ?? 300;
    const leaseMs = options.leaseMs ?? envNumber('VITRINA_WORK_LEASE_MS') ?? 4_000;
    this.env = {
      db: deps.db,
      store: deps.store,
      clock: deps.clock,
      owner: this.instanceId,
      leaseMs,
      heartbeatMs: options.heartbeatMs ?? Math.max(50, Math.floor(leaseMs / 4)),
      standbyPollMs: options.standbyPollMs ?? Math.min(1_000, Math.floor(leaseMs / 2)),
      pollMs,
      coalesceMs: options.coalesceMs ?? 50,
      log,
    };
    const timerBatch = options.timerBatchSize ?? 100;
    const outboxBatch = options.outboxBatchSize ?? 10;
    this.timers = new TimerWorker({
      store: deps.store,
      clock: deps.clock,
      batchSize: timerBatch,
      log,
    });
    this.outbox = new OutboxDispatcher({
      db: deps.db,
      clock: deps.clock,
      owner: this.instanceId,
      batchSize: outboxBatch,
      sendTimeoutMs: options.sendTimeoutMs ?? 30_000,
      claimMs: options.claimMs ?? 120_000,
      maxRetryAfterMs: options.maxRetryAfterMs ?? 6 * 3_600_000,
      log,
    });
    this.timerLoop = new PassLoop(
      'timers',
      async () => {
        const r = await this.timers.fireDue();
        return r.claimed >= timerBatch || r.failed > 0;
      },
      pollMs,
      log,
      this.env.coalesceMs,
    );
    this.outboxLoop = new PassLoop(
      'outbox',
      async () => {
        const r = await this.outbox.dispatchDue();
        return r.claimed >= outboxBatch;
      },
      pollMs,
      log,
      this.env.coalesceMs,
    );
  }

  /** Adds a consumer (before or after start; names are unique). */
  registerConsumer(definition: ConsumerDefinition): void {
    if (this.consumers.has(definition.name)) {
      throw new Error(`A consumer named '${definition.name}' is registered`);
    }
    const runner = new ConsumerRunner(definition, this.env);
    this.consumers.set(definition.name, runner);
    if (this.running) runner.start();
  }

  /** The handler that fires timers of `kind`. */
  registerTimer(kind: string, handler: TimerHandler, options?: TimerHandlerOptions): void {
    this.timers.register(kind, handler, options);
    this.timerLoop.wake();
  }

  /** The handler that delivers outbox messages of `kind`. */
  registerOutbox(kind: string, handler: OutboxHandler, options?: OutboxHandlerOptions): void {
    this.outbox.register(kind, handler, options);
    this.outboxLoop.wake();
  }

  get isRunning(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    // In-process appends wake every loop at once; other processes' reach them by polling.
    this.offAppended = this.deps.store.onAppended(() => this.wake());
    for (const runner of this.consumers.values()) runner.start();
    this.timerLoop.start();
    this.outboxLoop.start();
  }

  /** Stops every loop after the work in flight and gives up the leases (another process takes over at once). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.offAppended?.();
    this.offAppended = null;
    await Promise.all([
      ...[...this.consumers.values()].map((r) => r.stop()),
      this.timerLoop.stop(),
      this.outboxLoop.stop(),
    ]);
  }

  /** Makes every idle loop look for work now (e.g. after a test moved the injected clock). */
  wake(): void {
    for (const runner of this.consumers.values()) runner.wake();
    this.timerLoop.wake();
    this.outboxLoop.wake();
  }

  /**
   * Each consumer's lag and state, timers and outbox counts (for GET /api/health and operations),
   * read from `db` (default the store): the operations page passes its snapshot transaction, so
   * the figures agree with its lists.
   */
  async status(db: Queryable = this.deps.db): Promise<BackgroundWorkStatus> {
    const { clock } = this.deps;
    const now = clock().toISOString();
    const names = [...this.consumers.keys()];
    const consumerRows =
      names.length === 0
        ? []
        : (
            await db.query<{
              name: string;
              t: string | null;
              p: string | null;
              failing_event_id: string | null;
              failing_attempts: number | null;
              last_error: string | null;
              retry_at: Date | string | null;
              owner: string | null;
              expires_at: Date | string | null;
              lag: number;
              parked: number;
            }>(
              `SELECT n.name, c.transaction_id::text AS t, c.position::text AS p,
                      c.failing_event_id::text AS failing_event_id, c.failing_attempts, c.last_error,
                      c.retry_at, l.owner, l.expires_at,
                      (SELECT count(*) FROM (
                         SELECT 1 FROM events e
                          WHERE (e.transaction_id, e.global_position)
                                > (coalesce(c.transaction_id, '0'::xid8), coalesce(c.position, 0))
                            AND (e.transaction_id, e.global_position) > (n.read_t::xid8, n.read_p::bigint)
                            AND e.transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                          LIMIT ${LAG_CAP + 1}) x)::int AS lag,
                      (SELECT count(*) FROM parked_events pe
                        WHERE pe.consumer = n.name AND pe.state <> 'resolved')::int AS parked
                 FROM unnest($1::text[], $2::text[], $3::text[]) AS n(name, read_t, read_p)
                 LEFT JOIN consumers c ON c.name = n.name
                 LEFT JOIN work_leases l ON l.name = 'consumer:' || n.name AND l.expires_at > clock_timestamp()`,
              [
                names,
                names.map((name) => this.consumers.get(name)!.readPosition?.transactionId ?? '0'),
                names.map((name) => this.consumers.get(name)!.readPosition?.position ?? '0'),
              ],
            )
          ).rows;
    const byName = new Map(consumerRows.map((r) => [r.name, r]));
    const consumers: ConsumerStatus[] = names.map((name) => {
      const runner = this.consumers.get(name)!;
      const row = byName.get(name);
      const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : null);
      return {
        name,
        state: runner.state,
        holder: row?.owner ?? null,
        leaseExpiresAt: iso(row?.expires_at),
        checkpoint: { transactionId: row?.t ?? '0', position: row?.p ?? '0' },
        lag: Math.min(row?.lag ?? 0, LAG_CAP),
        lagCapped: (row?.lag ?? 0) > LAG_CAP,
        failing: row?.failing_event_id
          ? {
              eventId: row.failing_event_id,
              attempts: row.failing_attempts ?? 0,
              lastError: row.last_error,
              retryAt: iso(row.retry_at),
            }
          : null,
        parked: row?.parked ?? 0,
        lastError: runner.lastError,
      };
    });
    const timers = (
      await db.query<{ scheduled: number; due: number; failed: number; parked: number }>(
        `SELECT count(*) FILTER (WHERE state = 'scheduled')::int AS scheduled,
                count(*) FILTER (WHERE state IN ('scheduled', 'firing', 'failed') AND next_attempt_at <= $1)::int AS due,
                count(*) FILTER (WHERE state = 'failed')::int AS failed,
                count(*) FILTER (WHERE state = 'parked')::int AS parked
           FROM timers WHERE state <> 'done'`,
        [now],
      )
    ).rows[0]!;
    const outbox = (
      await db.query<{
        pending: number;
        due: number;
        sending: number;
        failed: number;
        dead: number;
      }>(
        `SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending,
                count(*) FILTER (WHERE state IN ('pending', 'sending', 'failed') AND next_attempt_at <= $1)::int AS due,
                count(*) FILTER (WHERE state = 'sending')::int AS sending,
                count(*) FILTER (WHERE state = 'failed')::int AS failed,
                count(*) FILTER (WHERE state = 'dead')::int AS dead
           FROM outbox WHERE state <> 'sent'`,
        [now],
      )
    ).rows[0]!;
    return {
      instanceId: this.instanceId,
      running: this.running,
      consumers,
      timers: { ...timers, kinds: this.timers.kinds, lastError: this.timerLoop.lastError },
      outbox: { ...outbox, kinds: this.outbox.kinds, lastError: this.outboxLoop.lastError },
    };
  }
}

/** What an event does to background work, in its append's transaction. */
export type WorkEffect =
  /** Schedule or reschedule (same key replaces) a timer; its cause defaults to the event. */
  | { schedule: TimerSpec }
  /** Cancel (remove) the timer with this key. */
  | { cancel: string }
  /** Queue an outbound message; its id defaults to one derived from the event (queued once). */
  | { send: OutboxMessage };

export interface WorkProjectionSpec {
  name: string;
  handles: readonly string[];
  effects(event: StoredEvent): WorkEffect | readonly WorkEffect[] | null | undefined;
}

/**
 * An inline projection that turns events into timers and outbox messages in the transaction of
 * their append. It owns no tables: a rebuild (or store:verify) replays events appended by earlier
 * transactions, and for those it does nothing, so replaying the log never re-arms a timer that
 * has fired or sends a message twice.
 */
export function workProjection(spec: WorkProjectionSpec): Projection {
  return {
    name: spec.name,
    tables: [],
    handles: spec.handles,
    apply: async (tx, event) => {
      const out = spec.effects(event);
      if (!out) return;
      const effects: readonly WorkEffect[] = Array.isArray(out)
        ? (out as readonly WorkEffect[])
        : [out as WorkEffect];
      if (effects.length === 0) return;
      if (!(await appendedInThisTransaction(tx, event))) return;
      let index = 0;
      for (const effect of effects) {
        if ('schedule' in effect) {
          await scheduleTimer(tx, {
            ...effect.schedule,
            causeEventId: effect.schedule.causeEventId ?? event.id,
          });
        } else if ('cancel' in effect) {
          await cancelTimer(tx, effect.cancel);
        } else {
          await enqueueOutbox(tx, {
            ...effect.send,
            id: effect.send.id ?? deterministicId('outbox', spec.name, event.id, String(index)),
            causeEventId: effect.send.causeEventId ?? event.id,
          });
        }
        index += 1;
      }
    },
  };
}

/**
 * Whether `event` was appended by the transaction `tx` is in (a live append), as opposed to being
 * replayed from the log by a rebuild or a verification.
 */
export async function appendedInThisTransaction(
  tx: Queryable,
  event: StoredEvent,
): Promise<boolean> {
  const { rows } = await tx.query(
    'SELECT 1 FROM events WHERE id = $1::uuid AND transaction_id = pg_current_xact_id()',
    [event.id],
  );
  return rows.length > 0;
}

export {
  type ConsumerContext,
  type ConsumerDefinition,
  type ConsumerState,
  getParkedEvent,
  listParkedEvents,
  type ParkedEvent,
  readEvent,
  resetConsumer,
  retryParkedEvent,
} from './consumers';
export {
  enqueueOutbox,
  getOutboxMessage,
  listOutbox,
  type OutboxDelivery,
  type OutboxHandler,
  type OutboxMessage,
  type OutboxRecord,
  type OutboxResult,
  type OutboxState,
  parseRetryAfter,
  PermanentFailure,
  RetryAfterError,
  retryOutboxMessage,
} from './outbox';
export {
  cancelTimer,
  type FiringTimer,
  getTimer,
  listTimers,
  retryTimer,
  scheduleTimer,
  type Timer,
  type TimerContext,
  type TimerHandler,
  type TimerSpec,
  type TimerState,
} from './timers';
export { deterministicId, type RetryPolicy } from './work-support';
