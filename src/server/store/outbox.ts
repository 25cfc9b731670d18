/**
 * The outbox: outbound messages (push, e-mail, CRM, webhooks) written in the transaction of the
 * event that causes them, and delivered afterwards by a dispatcher.
 *
 * - `enqueueOutbox(tx, { kind, payload, id? })` inside the append's transaction (an inline
 *   projection: `workProjection` in background-work.ts; a consumer's `ctx.tx`; a command's
 *   `store.transact`). Give a deterministic `id` (e.g. `ctx.effectId('push')`) and a retried
 *   producer queues the message once.
 * - The dispatcher claims due rows with FOR UPDATE SKIP LOCKED (state 'sending', a claim that
 *   lasts `claimMs` on the injected clock), calls the kind's handler outside any transaction with
 *   the row's id as the idempotency key, and records the outcome. Delivery is at least once: a
 *   sender that dies mid-call leaves its claim to expire and the message is sent again with the
 *   same key, which the receiver uses to drop the duplicate.
 * - A failure is retried with exponential backoff, or after the receiver's Retry-After (the
 *   handler throws `RetryAfterError` or returns `{ retryAfterMs }` / `{ retryAt }`); after
 *   `maxAttempts` (or a `PermanentFailure`) the row is 'dead' with its last error, visible until an
 *   operator calls `retryOutboxMessage`.
 *
 * States: 'pending' → 'sending' → 'sent'; 'failed' (waiting for its next attempt); 'dead'.
 */
import { randomUUID } from 'node:crypto';
import type { Db, Queryable } from './db';
import {
  backoffDelay,
  errorText,
  type PassResult,
  type RetryPolicy,
  type WorkLogger,
  withPolicy,
} from './work-support';

export type OutboxState = 'pending' | 'sending' | 'sent' | 'failed' | 'dead';

export interface OutboxMessage {
  /** Which handler delivers it (BackgroundWork.registerOutbox): 'push', 'email', 'crm', … */
  kind: string;
  payload: unknown;
  /**
   * The idempotency key, and the row's id: deterministic when the producer may run twice (e.g.
   * `ctx.effectId('email')` in a consumer); a message with an id already queued is not queued again.
   * Default: a random UUID.
   */
  id?: string;
  /** Not before this time (injected clock); default: as soon as possible. */
  notBefore?: Date;
  causeEventId?: string | null;
}

/** Queues a message in the caller's transaction. Answers its id (the idempotency key). */
export async function enqueueOutbox(tx: Queryable, message: OutboxMessage): Promise<string> {
  const id = message.id ?? randomUUID();
  await tx.query(
    `INSERT INTO outbox (id, kind, payload, next_attempt_at, cause_event_id)
     VALUES ($1, $2, $3, coalesce($4::timestamptz, '-infinity'), $5::uuid)
     ON CONFLICT (id) DO NOTHING`,
    [
      id,
      message.kind,
      JSON.stringify(message.payload ?? {}),
      message.notBefore?.toISOString() ?? null,
      message.causeEventId ?? null,
    ],
  );
  return id;
}

/** The receiver asked to be called again later (HTTP 429/503 with Retry-After, a rate limit). */
export class RetryAfterError extends Error {
  /** `after`: milliseconds from now, or the instant to try again at. */
  constructor(
    readonly after: number | Date,
    message = 'the receiver asked to retry later',
  ) {
    super(message);
    this.name = 'RetryAfterError';
  }
}

/** Retrying cannot help (a 4xx other than 408/429, a malformed message): dead at once. */
export class PermanentFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentFailure';
  }
}

/**
 * An HTTP Retry-After value in milliseconds from `now`: delta-seconds ("120") or an HTTP-date.
 * Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

/** A message as its handler gets it. */
export interface OutboxDelivery {
  id: string;
  /** The same as `id`: send it to the receiver (Idempotency-Key header, message id, …). */
  idempotencyKey: string;
  kind: string;
  payload: unknown;
  /** 1 on the first try. */
  attempt: number;
  causeEventId: string | null;
  /** Aborted when the call has taken longer than the dispatcher's `sendTimeoutMs`. */
  signal: AbortSignal;
}

/**
 * Nothing (delivered), or "not delivered, try again then" (the receiver's Retry-After). A handler
 * may as well throw: `RetryAfterError`, `PermanentFailure`, or any error (backoff).
 */
export type OutboxResult =
  void | undefined | { retryAfterMs?: number; retryAt?: Date; reason?: string };

export type OutboxHandler = (message: OutboxDelivery) => Promise<OutboxResult>;

export interface OutboxHandlerOptions {
  retry?: Partial<RetryPolicy>;
}

export const DEFAULT_OUTBOX_RETRY: RetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 10_000,
  maxDelayMs: 60 * 60_000,
};

export interface OutboxRecord {
  id: string;
  kind: string;
  payload: unknown;
  state: OutboxState;
  attempts: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
  causeEventId: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

interface OutboxRow {
  id: string;
  kind: string;
  payload: unknown;
  state: OutboxState;
  attempts: number;
  next_attempt_at: Date | string | number;
  last_error: string | null;
  cause_event_id: string | null;
  created_at: Date | string;
  sent_at: Date | string | null;
}

const outboxColumns =
  "id, kind, payload, state, attempts, CASE WHEN next_attempt_at = '-infinity' THEN NULL ELSE next_attempt_at END AS next_attempt_at, last_error, cause_event_id::text AS cause_event_id, created_at, sent_at";

function toRecord(row: OutboxRow): OutboxRecord {
  return {
    id: row.id,
    kind: row.kind,
    payload: row.payload,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at === null ? null : new Date(row.next_attempt_at),
    lastError: row.last_error,
    causeEventId: row.cause_event_id,
    createdAt: new Date(row.created_at),
    sentAt: row.sent_at ? new Date(row.sent_at) : null,
  };
}

export async function getOutboxMessage(q: Queryable, id: string): Promise<OutboxRecord | null> {
  const { rows } = await q.query<OutboxRow>(`SELECT ${outboxColumns} FROM outbox WHERE id = $1`, [
    id,
  ]);
  return rows[0] ? toRecord(rows[0]) : null;
}

/** Messages in the given states (default: failed and dead, for an operations page), newest first. */
export async function listOutbox(
  q: Queryable,
  options: { states?: readonly OutboxState[]; kind?: string; limit?: number } = {},
): Promise<OutboxRecord[]> {
  const { rows } = await q.query<OutboxRow>(
    `SELECT ${outboxColumns} FROM outbox
      WHERE state = ANY($1::text[]) AND ($2::text IS NULL OR kind = $2)
      ORDER BY created_at DESC LIMIT $3`,
    [options.states ?? ['failed', 'dead'], options.kind ?? null, options.limit ?? 100],
  );
  return rows.map(toRecord);
}

/** Operations: a failed or dead message goes back to pending, due at once, its attempts reset. */
export async function retryOutboxMessage(q: Queryable, id: string): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = '-infinity',
            claimed_by = NULL, updated_at = now()
      WHERE id = $1 AND state IN ('failed', 'dead') RETURNING 1`,
    [id],
  );
  return rows.length > 0;
}

export interface OutboxDispatcherOptions {
  db: Db;
  clock: () => Date;
  /** This BackgroundWork's id (recorded as the claimer). */
  owner: string;
  /** Messages claimed per pass, sent concurrently (default 10). */
  batchSize: number;
  /** A handler call longer than this is aborted and counts as a failure (default 30 s). */
  sendTimeoutMs: number;
  /** A claim longer than this (a sender that died) is claimed again (default 2 min). */
  claimMs: number;
  /** The longest Retry-After honoured (default 6 h). */
  maxRetryAfterMs: number;
  log: WorkLogger;
}

interface Claimed {
  id: string;
  kind: string;
  payload: unknown;
  attempts: number;
  cause_event_id: string | null;
}

/** Delivers due outbox messages. Created by BackgroundWork (its `outbox`); `dispatchDue()` is one pass. */
export class OutboxDispatcher {
  private readonly handlers = new Map<string, { handler: OutboxHandler; retry: RetryPolicy }>();

  constructor(private readonly options: OutboxDispatcherOptions) {}

  register(kind: string, handler: OutboxHandler, options: OutboxHandlerOptions = {}): void {
    if (this.handlers.has(kind)) throw new Error(`An outbox handler for '${kind}' is registered`);
    this.handlers.set(kind, { handler, retry: withPolicy(DEFAULT_OUTBOX_RETRY, options.retry) });
  }

  get kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** Claims a batch of due messages and delivers them. */
  async dispatchDue(): Promise<PassResult> {
    const kinds = this.kinds;
    if (kinds.length === 0) return { claimed: 0, done: 0, failed: 0 };
    const now = this.options.clock();
    const until = new Date(now.getTime() + this.options.claimMs);
    const claimed = await this.options.db.transaction(async (tx) => {
      const { rows } = await tx.query<Claimed>(
        `SELECT id, kind, payload, attempts, cause_event_id::text AS cause_event_id FROM outbox
          WHERE state IN ('pending', 'sending', 'failed') AND next_attempt_at <= $1
            AND kind = ANY($2::text[])
          ORDER BY next_attempt_at LIMIT $3
          FOR UPDATE SKIP LOCKED`,
        [now.toISOString(), kinds, this.options.batchSize],
      );
      if (rows.length > 0) {
        await tx.query(
          `UPDATE outbox SET state = 'sending', attempts = attempts + 1, claimed_by = $2,
                  next_attempt_at = $3, updated_at = now()
            WHERE id = ANY($1::text[])`,
          [rows.map((r) => r.id), this.options.owner, until.toISOString()],
        );
      }
      return rows;
    });
    const outcomes = await Promise.all(claimed.map((row) => this.deliver(row)));
    const done = outcomes.filter(Boolean).length;
    return { claimed: claimed.length, done, failed: claimed.length - done };
  }

  private async deliver(row: Claimed): Promise<boolean> {
    const attempt = row.attempts + 1;
    const { handler, retry } = this.handlers.get(row.kind)!;
    if (attempt > retry.maxAttempts) {
      // Its last attempt's sender died mid-call (the claim expired): no more tries.
      await this.fail(
        row,
        attempt,
        retry,
        new Error('the last attempt did not finish (claim expired)'),
      );
      return false;
    }
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`timed out after ${this.options.sendTimeoutMs} ms`));
      }, this.options.sendTimeoutMs);
    });
    try {
      const result = await Promise.race([
        handler({
          id: row.id,
          idempotencyKey: row.id,
          kind: row.kind,
          payload: row.payload,
          attempt,
          causeEventId: row.cause_event_id,
          signal: controller.signal,
        }),
        timeout,
      ]);
      if (result && (result.retryAfterMs !== undefined || result.retryAt !== undefined)) {
        await this.fail(
          row,
          attempt,
          retry,
          new RetryAfterError(
            result.retryAt ?? result.retryAfterMs!,
            result.reason ?? 'the receiver asked to retry later',
          ),
        );
        return false;
      }
    } catch (error) {
      await this.fail(row, attempt, retry, error);
      return false;
    } finally {
      clearTimeout(timer);
    }
    await this.options.db.query(
      `UPDATE outbox SET state = 'sent', sent_at = $4, last_error = NULL, claimed_by = NULL,
              updated_at = now()
        WHERE id = $1 AND claimed_by = $2 AND attempts = $3 AND state = 'sending'`,
      [row.id, this.options.owner, attempt, this.options.clock().toISOString()],
    );
    return true;
  }

  private async fail(row: Claimed, attempt: number, retry: RetryPolicy, error: unknown) {
    const now = this.options.clock();
    const dead = error instanceof PermanentFailure || attempt >= retry.maxAttempts;
    let delay = backoffDelay(retry, attempt);
    if (error instanceof RetryAfterError) {
      const asked =
        error.after instanceof Date ? error.after.getTime() - now.getTime() : error.after;
      delay = Math.min(this.options.maxRetryAfterMs, Math.max(0, asked));
    }
    const message = errorText(error);
    await this.options.db.query(
      `UPDATE outbox SET state = $4, last_error = $5, claimed_by = NULL, updated_at = now(),
              next_attempt_at = CASE WHEN $4 = 'dead' THEN next_attempt_at ELSE $6::timestamptz END
        WHERE id = $1 AND claimed_by = $2 AND attempts = $3 AND state = 'sending'`,
      [
        row.id,
        this.options.owner,
        attempt,
        dead ? 'dead' : 'failed',
        message,
        new Date(now.getTime() + delay).toISOString(),
      ],
    );
    this.options.log(
      `outbox ${row.kind} ${row.id} ${dead ? `dead after ${attempt} attempts` : `failed (attempt ${attempt})`}`,
      error,
    );
  }
}
