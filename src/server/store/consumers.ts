/**
 * Consumers (processors): named readers of the global log that run a handler on each event and
 * move their checkpoint in the same transaction as the handler's effects.
 *
 * - Delivery is at least once, the effect once: a crash before the commit rolls back the effects
 *   with the checkpoint, and the event is delivered again. Key effects by the event
 *   (`ctx.effectId()`, `scheduleTimer({ causeEventId })`, `enqueueOutbox({ id })`) or declare
 *   `dedupe: true`, so that replaying from an older checkpoint does not repeat them either.
 * - One instance of each consumer runs across every server process: a lease row in
 *   `work_leases` (database time), renewed by heartbeat; when the holder dies (kill -9, a dropped
 *   connection) another process takes over once the lease has expired (`leaseMs`, 4 s by default).
 *   The checkpoint is also compared-and-set in the effects' transaction, so even a stale holder
 *   that has not yet noticed its lost lease cannot apply an effect twice.
 * - A handler that throws is retried with exponential backoff (real time); after `maxAttempts`
 *   the event is parked in `parked_events` with its error and the consumer moves on. Each
 *   consumer is its own loop: one stuck on an event blocks no other.
 */
import type { Db, Queryable } from './db';
import {
  eventColumns,
  toStored,
  type Checkpoint,
  type EventRow,
  type EventStore,
  type StoreTransaction,
  type StoredEvent,
} from './event-store';
import {
  backoffDelay,
  deterministicId,
  errorText,
  isTransientDbError,
  type RetryPolicy,
  Waker,
  type WorkLogger,
  withPolicy,
} from './work-support';

/** What a consumer's handler gets besides the event. */
export interface ConsumerContext {
  /**
   * The transaction that also moves the consumer's checkpoint. Write every effect through it
   * (queries, `tx.append(...)`, `scheduleTimer(tx, ...)`, `enqueueOutbox(tx, ...)`), never through
   * the `Db`: on PGlite a query outside waits for this very transaction to end.
   */
  tx: StoreTransaction;
  consumer: string;
  /** 1 on the first delivery; n when the handler threw on this event n − 1 times before. */
  attempt: number;
  /** The injected clock's time when the batch started. */
  now: Date;
  /**
   * A UUID derived from (consumer, event id, label): the same on every redelivery. Give it to the
   * events the handler appends and the outbox messages it queues, and they are stored once.
   */
  effectId(label?: string): string;
}

export interface ConsumerDefinition {
  /** Unique and stable: the checkpoint, the lease and parked events are filed under it. */
  name: string;
  /** Event types it handles; other events only move its checkpoint. Omit for every event. */
  handles?: readonly string[];
  handle(event: StoredEvent, ctx: ConsumerContext): Promise<void>;
  /**
   * Where a consumer seen for the first time starts: at the beginning of the log (default) or
   * after the events already committed ('end': e.g. push notifications, which must not be sent
   * for history).
   */
  startAt?: 'beginning' | 'end';
  /**
   * Records each handled event id in `consumer_effects` (one batched insert per batch, in the
   * effects' transaction) and skips ids already there: the effect stays single even when the
   * checkpoint is moved back. Use it when the effects cannot be keyed by the event themselves.
   */
  dedupe?: boolean;
  /** Events per transaction (default 500). */
  batchSize?: number;
  /** Retries of a throwing handler before the event is parked (default 5 attempts, 0.5 s doubling up to 60 s). */
  retry?: Partial<RetryPolicy>;
}

export const DEFAULT_CONSUMER_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 500,
  maxDelayMs: 60_000,
};

export type ConsumerState =
  /** This process holds the lease and is working through events. */
  | 'active'
  /** This process holds the lease and has read the log to its end. */
  | 'idle'
  /** This process holds the lease; a handler threw and the event waits for its next attempt. */
  | 'retrying'
  /** Another process holds the lease (or this one is waiting to get it). */
  | 'standby'
  /** The loop hit an error of its own (e.g. the database is unreachable) and is backing off. */
  | 'error'
  | 'stopped';

export interface RunnerEnv {
  db: Db;
  store: EventStore;
  clock: () => Date;
  /** This BackgroundWork's id: the lease owner. */
  owner: string;
  leaseMs: number;
  heartbeatMs: number;
  /** How often a standby process tries to take the lease. */
  standbyPollMs: number;
  /** How often an idle consumer reads the log for other processes' appends. */
  pollMs: number;
  /**
   * The least time between two reads of the log by one consumer: wake-ups closer than this are
   * coalesced, so under load one batch takes the events of several appends (0: none).
   */
  coalesceMs: number;
  log: WorkLogger;
}

/**
 * How often a consumer records progress over events it does not handle. Those move only its
 * checkpoint, so moving it in memory and recording it now and then (and on stop) is safe: after
 * a crash they are read again and again do nothing.
 */
const SKIPPED_PERSIST_MS = 1_000;

const leaseName = (consumer: string) => `consumer:${consumer}`;

/**
 * Takes or renews a lease: succeeds when nobody holds it, this owner does, or the holder's lease
 * has expired (database clock, so the servers' clocks need not agree).
 */
export async function acquireLease(
  q: Queryable,
  name: string,
  owner: string,
  leaseMs: number,
): Promise<boolean> {
  const { rows } = await q.query(
    `INSERT INTO work_leases (name, owner, expires_at, acquired_at)
     VALUES ($1, $2, clock_timestamp() + $3 * interval '1 millisecond', clock_timestamp())
     ON CONFLICT (name) DO UPDATE
        SET owner = EXCLUDED.owner,
            expires_at = EXCLUDED.expires_at,
            acquired_at = CASE WHEN work_leases.owner = EXCLUDED.owner
                               THEN work_leases.acquired_at ELSE EXCLUDED.acquired_at END
      WHERE work_leases.owner = EXCLUDED.owner OR work_leases.expires_at < clock_timestamp()
     RETURNING owner`,
    [name, owner, leaseMs],
  );
  return rows.length > 0;
}

export async function releaseLease(q: Queryable, name: string, owner: string): Promise<void> {
  await q.query('DELETE FROM work_leases WHERE name = $1 AND owner = $2', [name, owner]);
}

class HandlerFailed extends Error {
  constructor(
    readonly index: number,
    readonly cause: unknown,
  ) {
    super('handler failed');
  }
}

/** Another instance (or an operator) moved the checkpoint: reload it before going on. */
class CheckpointMoved extends Error {}

const sameCheckpoint = (a: Checkpoint, b: Checkpoint) =>
  a.transactionId === b.transactionId && a.position === b.position;

/** Runs one consumer: lease, checkpoint, batches, retries and parking. Created by BackgroundWork. */
export class ConsumerRunner {
  state: ConsumerState = 'stopped';
  lastError: string | null = null;
  private leased = false;
  /** The checkpoint as stored (what the effects' transaction compares and sets). */
  private checkpoint: Checkpoint = { transactionId: '0', position: '0' };
  /** Where the next read starts: past the stored checkpoint after events it does not handle. */
  private readFrom: Checkpoint = { transactionId: '0', position: '0' };
  private lastPersist = 0;
  private lastRead = 0;
  private failing: { eventId: string; attempts: number; retryAt: number } | null = null;
  private readonly waker = new Waker();
  private loop: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private lastRenewal = 0;
  private lastParkedCheck = 0;
  private stopping = false;
  private readonly retry: RetryPolicy;
  private readonly handles: ReadonlySet<string> | null;

  constructor(
    readonly definition: ConsumerDefinition,
    private readonly env: RunnerEnv,
  ) {
    this.retry = withPolicy(DEFAULT_CONSUMER_RETRY, definition.retry);
    this.handles = definition.handles ? new Set(definition.handles) : null;
  }

  get name(): string {
    return this.definition.name;
  }

  /** Whether this process holds the consumer's lease. */
  get holdsLease(): boolean {
    return this.leased;
  }

  /**
   * Where this process has read up to while it holds the lease: the stored checkpoint, or past it
   * by events the consumer does not handle (recorded up to {@link SKIPPED_PERSIST_MS} later);
   * null without the lease (another process's position is only the stored one).
   */
  get readPosition(): Checkpoint | null {
    return this.leased ? this.readFrom : null;
  }

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.waker.resume();
    this.state = 'standby';
    this.loop = this.run();
  }

  wake(): void {
    this.waker.wake();
  }

  /** Ends the loop after the batch in flight, and gives the lease up so another process takes over at once. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.stop();
    await this.loop;
    this.loop = null;
    this.stopHeartbeat();
    if (this.leased) await this.persistSkipped().catch(() => undefined);
    if (this.leased) {
      this.leased = false;
      await releaseLease(this.env.db, leaseName(this.name), this.env.owner).catch(() => undefined);
    }
    this.state = 'stopped';
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        if (!this.leased) {
          if (!(await this.takeLease())) {
            this.state = 'standby';
            await this.waker.sleep(this.env.standbyPollMs);
            continue;
          }
        }
        const worked = await this.step();
        if (!worked && !this.stopping) {
          await this.waker.wait(this.env.pollMs);
          // Under load appends wake the consumer one after another: read at most every coalesceMs.
          const since = Date.now() - this.lastRead;
          if (since < this.env.coalesceMs) await this.waker.sleep(this.env.coalesceMs - since);
        }
      } catch (error) {
        if (this.stopping) break;
        this.state = 'error';
        this.lastError = errorText(error);
        this.env.log(`consumer ${this.name}`, error);
        await this.waker.sleep(Math.min(5_000, this.env.pollMs * 4));
      }
    }
  }

  private async takeLease(): Promise<boolean> {
    const got = await acquireLease(
      this.env.db,
      leaseName(this.name),
      this.env.owner,
      this.env.leaseMs,
    );
    if (!got) return false;
    this.leased = true;
    this.lastRenewal = Date.now();
    await this.loadState();
    this.startHeartbeat();
    return true;
  }

  private startHeartbeat(): void {
    this.stopHeartbeat();
    this.heartbeat = setInterval(() => void this.renew(), this.env.heartbeatMs);
    this.heartbeat.unref();
  }

  private stopHeartbeat(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
  }

  private async renew(): Promise<void> {
    if (!this.leased || this.stopping) return;
    try {
      const still = await acquireLease(
        this.env.db,
        leaseName(this.name),
        this.env.owner,
        this.env.leaseMs,
      );
      if (still) {
        this.lastRenewal = Date.now();
        return;
      }
      this.loseLease('taken over by another process');
    } catch (error) {
      // Unreachable database: once the lease may have expired, another process may hold it.
      if (Date.now() - this.lastRenewal >= this.env.leaseMs) this.loseLease(errorText(error));
    }
  }

  private loseLease(reason: string): void {
    if (!this.leased) return;
    this.leased = false;
    this.stopHeartbeat();
    this.state = 'standby';
    this.env.log(`consumer ${this.name} lost its lease (${reason})`);
  }

  /** Creates the consumer's row when new, then reads its checkpoint and the event it was failing on. */
  private async loadState(): Promise<void> {
    if (this.definition.startAt === 'end') {
      // The head: the last event of the transactions no longer in flight (as readAll sees it).
      await this.env.db.query(
        `WITH h AS (SELECT transaction_id, global_position FROM events
                     WHERE transaction_id < pg_snapshot_xmin(pg_current_snapshot())
                     ORDER BY transaction_id DESC, global_position DESC LIMIT 1)
         INSERT INTO consumers (name, transaction_id, position)
         SELECT $1, coalesce((SELECT transaction_id FROM h), '0'::xid8),
                coalesce((SELECT global_position FROM h), 0)
         ON CONFLICT (name) DO NOTHING`,
        [this.name],
      );
    } else {
      await this.env.db.query(
        'INSERT INTO consumers (name) VALUES ($1) ON CONFLICT (name) DO NOTHING',
        [this.name],
      );
    }
    const { rows } = await this.env.db.query<{
      t: string;
      p: string;
      failing_event_id: string | null;
      failing_attempts: number;
    }>(
      `SELECT transaction_id::text AS t, position::text AS p, failing_event_id::text AS failing_event_id,
              failing_attempts FROM consumers WHERE name = $1`,
      [this.name],
    );
    const row = rows[0]!;
    this.checkpoint = { transactionId: row.t, position: row.p };
    this.readFrom = this.checkpoint;
    this.lastPersist = Date.now();
    // After a restart the failing event is tried again at once; its attempts keep counting.
    this.failing = row.failing_event_id
      ? { eventId: row.failing_event_id, attempts: row.failing_attempts, retryAt: 0 }
      : null;
  }

  /**
   * One unit of work; false when the log has been read to its end (a page short of a batch: the
   * appends committed since have woken the loop), true when more may be waiting now.
   */
  private async step(): Promise<boolean> {
    if (Date.now() - this.lastParkedCheck > 1_000) {
      this.lastParkedCheck = Date.now();
      await this.retryParked();
      await this.followReset();
    }
    if (this.failing && this.failing.retryAt > Date.now()) {
      this.state = 'retrying';
      await this.waker.sleep(this.failing.retryAt - Date.now());
      return true;
    }
    this.lastRead = Date.now();
    const page = await this.env.store.readAll(this.readFrom, this.definition.batchSize ?? 500);
    if (page.events.length === 0) {
      if (Date.now() - this.lastPersist >= SKIPPED_PERSIST_MS) await this.persistSkipped();
      this.state = 'idle';
      return false;
    }
    if (!this.failing) this.state = 'active';
    const full = page.events.length >= (this.definition.batchSize ?? 500);
    const handles = this.handles;
    if (handles && !this.failing && !page.events.some((e) => handles.has(e.type))) {
      // Nothing to do but move the checkpoint: in memory now, in the database now and then.
      this.readFrom = page.checkpoint!;
      if (Date.now() - this.lastPersist >= SKIPPED_PERSIST_MS) await this.persistSkipped();
      if (!full) this.state = 'idle';
      return full;
    }
    await this.processPage(page.events, page.checkpoint!);
    if (this.failing) return true;
    if (!full) this.state = 'idle';
    return full;
  }

  /** Records the checkpoint moved in memory past events this consumer does not handle. */
  private async persistSkipped(): Promise<void> {
    this.lastPersist = Date.now();
    if (sameCheckpoint(this.readFrom, this.checkpoint)) return;
    await this.commitBatch([], this.readFrom);
  }

  private async processPage(events: StoredEvent[], end: Checkpoint): Promise<void> {
    let batch = events;
    let after: Checkpoint | null = end;
    let pending: { event: StoredEvent; error: unknown } | null = null;
    for (;;) {
      const outcome = await this.commitBatch(batch, after);
      if (outcome === 'moved') return;
      if (outcome === 'ok') {
        if (pending) await this.recordFailure(pending.event, pending.error);
        return;
      }
      if (outcome.index === 0) {
        await this.recordFailure(batch[0]!, outcome.error);
        return;
      }
      // What precedes the failing event commits first; then the failure is counted.
      pending = { event: batch[outcome.index]!, error: outcome.error };
      batch = batch.slice(0, outcome.index);
      after = null;
    }
  }

  private ctx(tx: StoreTransaction, event: StoredEvent, now: Date): ConsumerContext {
    const name = this.name;
    return {
      tx,
      consumer: name,
      now,
      attempt: this.failing?.eventId === event.id ? this.failing.attempts + 1 : 1,
      effectId: (label = '') => deterministicId('consumer', name, event.id, label),
    };
  }

  /** Runs the handler on `batch` and moves the checkpoint past it, in one transaction. */
  private async commitBatch(
    batch: readonly StoredEvent[],
    after: Checkpoint | null,
  ): Promise<'ok' | 'moved' | { index: number; error: unknown }> {
    const now = this.env.clock();
    const expected = this.checkpoint;
    let next: Checkpoint = expected;
    try {
      await this.env.store.transact(async (tx) => {
        await this.lockCheckpoint(tx, expected);
        next = after ?? (await checkpointOf(tx, batch.at(-1)!));
        const handled = this.handles ? batch.filter((e) => this.handles!.has(e.type)) : [...batch];
        let fresh: Set<string> | null = null;
        if (this.definition.dedupe && handled.length > 0) {
          const { rows } = await tx.query<{ event_id: string }>(
            `INSERT INTO consumer_effects (consumer, event_id)
             SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING event_id::text AS event_id`,
            [this.name, handled.map((e) => e.id)],
          );
          fresh = new Set(rows.map((r) => r.event_id));
        }
        for (let i = 0; i < batch.length; i++) {
          const event = batch[i]!;
          if (this.handles && !this.handles.has(event.type)) continue;
          if (fresh && !fresh.has(event.id)) continue;
          try {
            await this.definition.handle(event, this.ctx(tx, event, now));
          } catch (error) {
            throw new HandlerFailed(i, error);
          }
        }
        await tx.query(
          `UPDATE consumers SET transaction_id = $2::xid8, position = $3::bigint, failing_event_id = NULL,
                  failing_attempts = 0, last_error = NULL, retry_at = NULL, updated_at = now()
            WHERE name = $1`,
          [this.name, next.transactionId, next.position],
        );
      });
    } catch (error) {
      if (error instanceof HandlerFailed) {
        // The database failed under the handler: the loop backs off; no attempt is counted.
        if (isTransientDbError(error.cause)) throw error.cause;
        return { index: error.index, error: error.cause };
      }
      if (error instanceof CheckpointMoved) {
        await this.afterMoved();
        return 'moved';
      }
      throw error;
    }
    this.checkpoint = next;
    this.readFrom = next;
    this.lastPersist = Date.now();
    this.failing = null;
    return 'ok';
  }

  private async lockCheckpoint(tx: Queryable, expected: Checkpoint): Promise<void> {
    const { rows } = await tx.query<{ t: string; p: string }>(
      'SELECT transaction_id::text AS t, position::text AS p FROM consumers WHERE name = $1 FOR UPDATE',
      [this.name],
    );
    const row = rows[0];
    if (!row || !sameCheckpoint({ transactionId: row.t, position: row.p }, expected)) {
      throw new CheckpointMoved();
    }
  }

  /** Someone else moved the checkpoint: make sure the lease is still ours, then start from theirs. */
  private async afterMoved(): Promise<void> {
    await this.renew();
    if (this.leased) await this.loadState();
  }

  private async recordFailure(event: StoredEvent, error: unknown): Promise<void> {
    const attempts = this.failing?.eventId === event.id ? this.failing.attempts + 1 : 1;
    const message = errorText(error);
    this.lastError = `${event.type} ${event.id}: ${message}`;
    if (attempts >= this.retry.maxAttempts) {
      await this.park(event, attempts, message);
      return;
    }
    const delay = backoffDelay(this.retry, attempts);
    this.failing = { eventId: event.id, attempts, retryAt: Date.now() + delay };
    this.state = 'retrying';
    await this.env.db.query(
      `UPDATE consumers SET failing_event_id = $2::uuid, failing_attempts = $3, last_error = $4,
              retry_at = clock_timestamp() + $5 * interval '1 millisecond', updated_at = now()
        WHERE name = $1`,
      [this.name, event.id, attempts, message, delay],
    );
  }

  /** Files the event in parked_events and moves the checkpoint past it, in one transaction. */
  private async park(event: StoredEvent, attempts: number, message: string): Promise<void> {
    const expected = this.checkpoint;
    let next: Checkpoint = expected;
    try {
      await this.env.db.transaction(async (tx) => {
        await this.lockCheckpoint(tx, expected);
        next = await checkpointOf(tx, event);
        await tx.query(
          `INSERT INTO parked_events (consumer, event_id, event_type, error, attempts)
           VALUES ($1, $2::uuid, $3, $4, $5)
           ON CONFLICT (consumer, event_id) DO UPDATE
              SET error = EXCLUDED.error, attempts = EXCLUDED.attempts, state = 'parked',
                  parked_at = now(), resolved_at = NULL`,
          [this.name, event.id, event.type, message, attempts],
        );
        await tx.query(
          `UPDATE consumers SET transaction_id = $2::xid8, position = $3::bigint, failing_event_id = NULL,
                  failing_attempts = 0, last_error = $4, retry_at = NULL, updated_at = now()
            WHERE name = $1`,
          [this.name, next.transactionId, next.position, `parked ${event.id}: ${message}`],
        );
      });
    } catch (error) {
      if (error instanceof CheckpointMoved) {
        await this.afterMoved();
        return;
      }
      throw error;
    }
    this.env.log(
      `consumer ${this.name} parked event ${event.type} ${event.id} after ${attempts} attempts: ${message}`,
    );
    this.checkpoint = next;
    this.readFrom = next;
    this.failing = null;
  }

  /** An operator moved the checkpoint (resetConsumer) while this holder was idle: follow it. */
  private async followReset(): Promise<void> {
    const { rows } = await this.env.db.query<{ t: string; p: string }>(
      'SELECT transaction_id::text AS t, position::text AS p FROM consumers WHERE name = $1',
      [this.name],
    );
    const row = rows[0];
    if (row && !sameCheckpoint({ transactionId: row.t, position: row.p }, this.checkpoint)) {
      await this.loadState();
    }
  }

  /** Parked events an operator asked to retry ('retry'): the handler runs once more on each. */
  private async retryParked(): Promise<void> {
    const { rows } = await this.env.db.query<EventRow & { attempts: number }>(
      `SELECT ${eventColumns('e')}, p.attempts
         FROM parked_events p JOIN events e ON e.id = p.event_id
        WHERE p.consumer = $1 AND p.state = 'retry'
        ORDER BY e.transaction_id, e.global_position LIMIT 20`,
      [this.name],
    );
    for (const row of rows) {
      const event = toStored(row);
      const now = this.env.clock();
      try {
        await this.env.store.transact(async (tx) => {
          const claimed = await tx.query(
            `UPDATE parked_events SET state = 'resolved', resolved_at = now()
              WHERE consumer = $1 AND event_id = $2::uuid AND state = 'retry' RETURNING 1`,
            [this.name, event.id],
          );
          if (claimed.rows.length === 0) return;
          const ctx = this.ctx(tx, event, now);
          ctx.attempt = row.attempts + 1;
          await this.definition.handle(event, ctx);
        });
      } catch (error) {
        if (isTransientDbError(error)) throw error;
        await this.env.db.query(
          `UPDATE parked_events SET state = 'parked', attempts = attempts + 1, error = $3, parked_at = now()
            WHERE consumer = $1 AND event_id = $2::uuid`,
          [this.name, event.id, errorText(error)],
        );
      }
    }
  }
}

/** The checkpoint just after `event` (its transaction id and position). */
async function checkpointOf(q: Queryable, event: StoredEvent): Promise<Checkpoint> {
  const { rows } = await q.query<{ t: string }>(
    'SELECT transaction_id::text AS t FROM events WHERE id = $1::uuid',
    [event.id],
  );
  return { transactionId: rows[0]!.t, position: event.globalPosition };
}

/** Reads one event by id (for operations pages: a parked event's body). */
export async function readEvent(q: Queryable, id: string): Promise<StoredEvent | null> {
  const { rows } = await q.query<EventRow>(
    `SELECT ${eventColumns('events')} FROM events WHERE id = $1::uuid`,
    [id],
  );
  return rows[0] ? toStored(rows[0]) : null;
}

export interface ParkedEvent {
  consumer: string;
  eventId: string;
  eventType: string;
  error: string;
  attempts: number;
  state: 'parked' | 'retry' | 'resolved';
  parkedAt: string;
  resolvedAt: string | null;
}

interface ParkedRow {
  consumer: string;
  event_id: string;
  event_type: string;
  error: string;
  attempts: number;
  state: ParkedEvent['state'];
  parked_at: Date | string;
  resolved_at: Date | string | null;
}

const parkedColumns =
  'consumer, event_id::text AS event_id, event_type, error, attempts, state, parked_at, resolved_at';

function toParked(r: ParkedRow): ParkedEvent {
  return {
    consumer: r.consumer,
    eventId: r.event_id,
    eventType: r.event_type,
    error: r.error,
    attempts: r.attempts,
    state: r.state,
    parkedAt: new Date(r.parked_at).toISOString(),
    resolvedAt: r.resolved_at ? new Date(r.resolved_at).toISOString() : null,
  };
}

/** Parked events, newest first (resolved ones only when asked). */
export async function listParkedEvents(
  q: Queryable,
  options: { consumer?: string; includeResolved?: boolean; limit?: number } = {},
): Promise<ParkedEvent[]> {
  const { rows } = await q.query<ParkedRow>(
    `SELECT ${parkedColumns}
       FROM parked_events
      WHERE ($1::text IS NULL OR consumer = $1) AND ($2::boolean OR state <> 'resolved')
      ORDER BY parked_at DESC LIMIT $3`,
    [options.consumer ?? null, options.includeResolved ?? false, options.limit ?? 100],
  );
  return rows.map(toParked);
}

/** One parked event of a consumer (whatever its state), or null. */
export async function getParkedEvent(
  q: Queryable,
  consumer: string,
  eventId: string,
): Promise<ParkedEvent | null> {
  const { rows } = await q.query<ParkedRow>(
    `SELECT ${parkedColumns} FROM parked_events WHERE consumer = $1 AND event_id = $2::uuid`,
    [consumer, eventId],
  );
  return rows[0] ? toParked(rows[0]) : null;
}

/**
 * Operations: asks the consumer to run its handler on a parked event once more (within about a
 * second, by whichever process holds the consumer). Answers false when no such parked event.
 */
export async function retryParkedEvent(
  q: Queryable,
  consumer: string,
  eventId: string,
): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE parked_events SET state = 'retry' WHERE consumer = $1 AND event_id = $2::uuid AND state = 'parked' RETURNING 1`,
    [consumer, eventId],
  );
  return rows.length > 0;
}

/**
 * Operations: moves a consumer's checkpoint (e.g. back to the start to reprocess). Effects keyed
 * by the event (or `dedupe: true`) are not repeated. The running holder notices at its next batch.
 */
export async function resetConsumer(
  q: Queryable,
  consumer: string,
  checkpoint: Checkpoint | null,
): Promise<void> {
  await q.query(
    `INSERT INTO consumers (name, transaction_id, position) VALUES ($1, $2::xid8, $3::bigint)
     ON CONFLICT (name) DO UPDATE SET transaction_id = EXCLUDED.transaction_id, position = EXCLUDED.position,
            failing_event_id = NULL, failing_attempts = 0, last_error = NULL, retry_at = NULL, updated_at = now()`,
    [consumer, checkpoint?.transactionId ?? '0', checkpoint?.position ?? '0'],
  );
}
