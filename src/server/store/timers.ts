/**
 * Timers: work due at a time, written in the transaction of the event that causes it.
 *
 * - `scheduleTimer(tx, { key, kind, dueAt, payload })` inside an append's transaction (an inline
 *   projection: see `workProjection` in background-work.ts, or a command's `store.transact`).
 *   The key is deterministic (e.g. `unit-hold:<corporateId>:<unitId>`): scheduling it again
 *   replaces the timer (reschedule); `cancelTimer(tx, key)` removes it.
 * - A worker claims due rows (`next_attempt_at <=` the injected clock) with FOR UPDATE SKIP
 *   LOCKED and runs each kind's handler in that same transaction, which also marks the timer
 *   done: the effect (e.g. an event appended through `ctx.tx.append`) and "done" commit together,
 *   so a timer fires once in effect whatever crashes and however many workers race.
 * - A handler that throws is retried with exponential backoff (injected clock); after
 *   `maxAttempts` the timer is 'parked' with its last error, until `retryTimer`.
 *
 * States: 'scheduled' → 'done'; on a failure 'failed' (retried at `next_attempt_at`) or 'parked'.
 * 'firing' is reserved: a timer is only ever firing inside the transaction that claims it, and a
 * crash rolls it back to what it was.
 */
import type { Queryable } from './db';
import type { EventStore, StoreTransaction } from './event-store';
import {
  backoffDelay,
  errorText,
  isTransientDbError,
  type PassResult,
  type RetryPolicy,
  type WorkLogger,
  withPolicy,
} from './work-support';

export type TimerState = 'scheduled' | 'firing' | 'done' | 'failed' | 'parked';

export interface TimerSpec {
  /** Deterministic: one timer per key. Scheduling an existing key replaces it. */
  key: string;
  /** Which handler fires it (BackgroundWork.registerTimer). */
  kind: string;
  dueAt: Date;
  payload?: unknown;
  /**
   * The event that causes it. Scheduling again with the same cause is a no-op, so a consumer
   * that is redelivered an event, or a replay, does not re-arm a timer that has already fired.
   */
  causeEventId?: string | null;
}

export interface Timer {
  key: string;
  kind: string;
  dueAt: Date;
  payload: unknown;
  state: TimerState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  causeEventId: string | null;
  firedAt: Date | null;
}

/** The timer being fired, as its handler sees it. */
export interface FiringTimer {
  key: string;
  kind: string;
  dueAt: Date;
  payload: unknown;
  /** 1 on the first try; n after n − 1 failures. */
  attempt: number;
  causeEventId: string | null;
}

export interface TimerContext {
  /**
   * The transaction that claimed the timer and marks it done: append the effect's events through
   * it (`ctx.tx.append({ streamId, expectedVersion, events })`), read streams with
   * `ctx.tx.readStream`, schedule follow-up timers with `scheduleTimer(ctx.tx, …)`. Never use the
   * `Db` from inside (on PGlite it waits for this transaction).
   */
  tx: StoreTransaction;
  timer: FiringTimer;
  /** The injected clock's time at the claim (≥ the due time). */
  now: Date;
}

export type TimerHandler = (ctx: TimerContext) => Promise<void>;

export interface TimerHandlerOptions {
  retry?: Partial<RetryPolicy>;
}

export const DEFAULT_TIMER_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 5_000,
  maxDelayMs: 15 * 60_000,
};

/**
 * Schedules (or reschedules: same key replaces) a timer, in the caller's transaction. Returns
 * false when it was a no-op (the same cause scheduled it already).
 */
export async function scheduleTimer(tx: Queryable, spec: TimerSpec): Promise<boolean> {
  const { rows } = await tx.query(
    `INSERT INTO timers (key, kind, due_at, payload, state, attempts, next_attempt_at, cause_event_id)
     VALUES ($1, $2, $3, $4, 'scheduled', 0, $3, $5::uuid)
     ON CONFLICT (key) DO UPDATE
        SET kind = EXCLUDED.kind, due_at = EXCLUDED.due_at, payload = EXCLUDED.payload,
            state = 'scheduled', attempts = 0, next_attempt_at = EXCLUDED.due_at, last_error = NULL,
            cause_event_id = EXCLUDED.cause_event_id, generation = timers.generation + 1,
            fired_at = NULL, updated_at = now()
      WHERE EXCLUDED.cause_event_id IS NULL
         OR timers.cause_event_id IS DISTINCT FROM EXCLUDED.cause_event_id
     RETURNING 1`,
    [
      spec.key,
      spec.kind,
      spec.dueAt.toISOString(),
      JSON.stringify(spec.payload ?? {}),
      spec.causeEventId ?? null,
    ],
  );
  return rows.length > 0;
}

/** Cancels (removes) a timer, in the caller's transaction. Answers whether there was one. */
export async function cancelTimer(tx: Queryable, key: string): Promise<boolean> {
  const { rows } = await tx.query('DELETE FROM timers WHERE key = $1 RETURNING 1', [key]);
  return rows.length > 0;
}

interface TimerRow {
  key: string;
  kind: string;
  due_at: Date | string;
  payload: unknown;
  state: TimerState;
  attempts: number;
  next_attempt_at: Date | string;
  last_error: string | null;
  cause_event_id: string | null;
  fired_at: Date | string | null;
  generation: number;
}

const timerColumns =
  'key, kind, due_at, payload, state, attempts, next_attempt_at, last_error, cause_event_id::text AS cause_event_id, fired_at, generation';

function toTimer(row: TimerRow): Timer {
  return {
    key: row.key,
    kind: row.kind,
    dueAt: new Date(row.due_at),
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: new Date(row.next_attempt_at),
    lastError: row.last_error,
    causeEventId: row.cause_event_id,
    firedAt: row.fired_at ? new Date(row.fired_at) : null,
  };
}

export async function getTimer(q: Queryable, key: string): Promise<Timer | null> {
  const { rows } = await q.query<TimerRow>(`SELECT ${timerColumns} FROM timers WHERE key = $1`, [
    key,
  ]);
  return rows[0] ? toTimer(rows[0]) : null;
}

/** Timers in the given states (default: failed and parked, for an operations page), soonest first. */
export async function listTimers(
  q: Queryable,
  options: { states?: readonly TimerState[]; limit?: number } = {},
): Promise<Timer[]> {
  const { rows } = await q.query<TimerRow>(
    `SELECT ${timerColumns} FROM timers WHERE state = ANY($1::text[]) ORDER BY next_attempt_at LIMIT $2`,
    [options.states ?? ['failed', 'parked'], options.limit ?? 100],
  );
  return rows.map(toTimer);
}

/** Operations: a failed or parked timer is scheduled again, due at once, its attempts reset. */
export async function retryTimer(q: Queryable, key: string): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE timers SET state = 'scheduled', attempts = 0, next_attempt_at = '-infinity', updated_at = now()
      WHERE key = $1 AND state IN ('failed', 'parked') RETURNING 1`,
    [key],
  );
  return rows.length > 0;
}

class TimerFailed extends Error {
  constructor(
    readonly index: number,
    readonly cause: unknown,
  ) {
    super('timer handler failed');
  }
}

export interface TimerWorkerOptions {
  store: EventStore;
  clock: () => Date;
  /** Timers per transaction (default 100). */
  batchSize: number;
  log: WorkLogger;
}

/** Fires due timers. Created by BackgroundWork (its `timers`); `fireDue()` is one pass, for tests. */
export class TimerWorker {
  private readonly handlers = new Map<string, { handler: TimerHandler; retry: RetryPolicy }>();

  constructor(private readonly options: TimerWorkerOptions) {}

  register(kind: string, handler: TimerHandler, options: TimerHandlerOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`A timer handler for '${kind}' is registered`);
    this.handlers.set(kind, { handler, retry: withPolicy(DEFAULT_TIMER_RETRY, options.retry) });
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /**
   * Claims up to one batch of due timers (of the kinds registered here) and fires them in one
   * transaction. A handler that throws rolls the batch back; its timer is marked failed (or
   * parked) on its own and the others are claimed again by the next pass.
   */
  async fireDue(): Promise<PassResult> {
    const kinds = this.kinds;
    if (kinds.length === 0) return { claimed: 0, done: 0, failed: 0 };
    const now = this.options.clock();
    let claimed: TimerRow[] = [];
    try {
      await this.options.store.transact(async (tx) => {
        const { rows } = await tx.query<TimerRow>(
          `SELECT ${timerColumns} FROM timers
            WHERE state IN ('scheduled', 'firing', 'failed') AND next_attempt_at <= $1
              AND kind = ANY($2::text[])
            ORDER BY next_attempt_at LIMIT $3
            FOR UPDATE SKIP LOCKED`,
          [now.toISOString(), kinds, this.options.batchSize],
        );
        claimed = rows;
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i]!;
          const timer: FiringTimer = {
            key: row.key,
            kind: row.kind,
            dueAt: new Date(row.due_at),
            payload: row.payload,
            attempt: row.attempts + 1,
            causeEventId: row.cause_event_id,
          };
          try {
            await this.handlers.get(row.kind)!.handler({ tx, timer, now });
          } catch (error) {
            throw new TimerFailed(i, error);
          }
        }
        if (rows.length > 0) {
          // By generation: a handler that rescheduled its own key keeps the new timer.
          await tx.query(
            `UPDATE timers t SET state = 'done', attempts = t.attempts + 1, last_error = NULL,
                    fired_at = $3, updated_at = now()
               FROM unnest($1::text[], $2::int[]) AS d(key, generation)
              WHERE t.key = d.key AND t.generation = d.generation`,
            [rows.map((r) => r.key), rows.map((r) => r.generation), now.toISOString()],
          );
        }
      });
    } catch (error) {
      if (!(error instanceof TimerFailed)) throw error;
      // The database failed under the handler: the loop backs off; no attempt is counted.
      if (isTransientDbError(error.cause)) throw error.cause;
      const row = claimed[error.index]!;
      await this.recordFailure(row, error.cause, now);
      return { claimed: claimed.length, done: 0, failed: 1 };
    }
    return { claimed: claimed.length, done: claimed.length, failed: 0 };
  }

  private async recordFailure(row: TimerRow, cause: unknown, now: Date): Promise<void> {
    const attempts = row.attempts + 1;
    const retry = this.handlers.get(row.kind)!.retry;
    const parked = attempts >= retry.maxAttempts;
    const next = new Date(now.getTime() + backoffDelay(retry, attempts));
    const message = errorText(cause);
    await this.options.store.db.query(
      `UPDATE timers SET attempts = $3, state = $4, last_error = $5,
              next_attempt_at = CASE WHEN $4 = 'parked' THEN next_attempt_at ELSE $6::timestamptz END,
              updated_at = now()
        WHERE key = $1 AND generation = $2`,
      [
        row.key,
        row.generation,
        attempts,
        parked ? 'parked' : 'failed',
        message,
        next.toISOString(),
      ],
    );
    this.options.log(
      `timer ${row.key} (${row.kind}) ${parked ? `parked after ${attempts} attempts` : `failed (attempt ${attempts})`}`,
      cause,
    );
  }
}
