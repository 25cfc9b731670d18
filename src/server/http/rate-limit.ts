/**
 * Rate limits kept in the database, so every server process counts the same attempts: the
 * sign-in throttle (auth/throttle.ts, per account and address) and the public lead capture
 * (leads/capture.ts, per address). Counting and recording an attempt happen in one transaction
 * under an advisory lock of what is counted ({@link lockKeys}), so simultaneous attempts are
 * counted one after the other: a limit of 20 lets exactly 20 through, on any number of
 * processes. The rows are purged on a schedule (store/housekeeping.ts).
 */
import type { Context } from 'hono';
import type { Queryable } from '../store/db';
import { ApiError } from './errors';

export { clientAddress } from './proxy';

/** The tables that record attempts, with the columns an attempt is counted by. */
type AttemptLog =
  | { table: 'auth_failures'; column: 'account' | 'address' }
  | { table: 'lead_capture_attempts'; column: 'address' }
  | { table: 'people_attempts'; column: 'subject' };

/**
 * Takes transaction-scoped advisory locks on `keys` (in one order, so two transactions locking
 * overlapping keys cannot deadlock); they are released when the transaction ends.
 */
export async function lockKeys(tx: Queryable, keys: readonly string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  }
}

/**
 * Seconds until another attempt by `value` is allowed, or 0 when it is allowed now: the log's
 * rows of `value` at most `windowMs` old, at most `limit` of them counted (a sliding window: the
 * next attempt waits until the oldest of the last `limit` leaves it). Atomic only under
 * {@link lockKeys} of what is counted.
 */
export async function retryAfterSeconds(
  q: Queryable,
  log: AttemptLog,
  value: string,
  options: { limit: number; now: Date; windowMs?: number },
): Promise<number> {
  const { limit, now, windowMs = 3600_000 } = options;
  const since = new Date(now.getTime() - windowMs).toISOString();
  const { rows } = await q.query<{ n: number; oldest: string | Date | null }>(
    `SELECT count(*)::int AS n, min(at) AS oldest FROM (
       SELECT at FROM ${log.table} WHERE ${log.column} = $1 AND at > $2 ORDER BY at DESC LIMIT $3
     ) recent`,
    [value, since, limit],
  );
  const row = rows[0];
  if (!row || row.n < limit || !row.oldest) return 0;
  return Math.max(1, Math.ceil((new Date(row.oldest).getTime() + windowMs - now.getTime()) / 1000));
}

/**
 * The 429 of a limit, with `Retry-After` set on the response; the message says minutes, or
 * seconds for a wait under two minutes (the sign-in throttle's growing delay).
 */
export function rateLimited(c: Context, retryAfter: number): ApiError {
  c.header('Retry-After', String(retryAfter));
  const extra = { retryAfter };
  if (retryAfter <= 1)
    return new ApiError(429, 'RATE_LIMITED', 'rate_limited_one_second', {}, extra);
  if (retryAfter < 120)
    return new ApiError(
      429,
      'RATE_LIMITED',
      'rate_limited_seconds',
      { seconds: retryAfter },
      extra,
    );
  const minutes = Math.ceil(retryAfter / 60);
  return minutes === 1
    ? new ApiError(429, 'RATE_LIMITED', 'rate_limited_one_minute', {}, extra)
    : new ApiError(429, 'RATE_LIMITED', 'rate_limited', { minutes }, extra);
}
