/**
 * Sliding-window rate limits kept in the database, so every server process counts the same
 * attempts: failed sign-ins (auth/sessions.ts, per account and per address) and the public lead
 * capture (leads/capture.ts, per address). A window allows `limit` attempts; the next one waits
 * until the oldest of the last `limit` leaves the window.
 */
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { Queryable } from '../store/db';
import { ApiError } from './errors';

/** The tables that record attempts, with the columns an attempt is counted by. */
type AttemptLog =
  | { table: 'auth_failures'; column: 'account' | 'address' }
  | { table: 'lead_capture_attempts'; column: 'address' };

/**
 * Seconds until another attempt by `value` is allowed, or 0 when it is allowed now: the log's
 * rows of `value` at most `windowMs` old, at most `limit` of them counted.
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

/** The client's address as the server sees it ('unknown' where the runtime cannot tell). */
export function clientAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** The 429 of a limit, with `Retry-After` set on the response. */
export function rateLimited(c: Context, retryAfter: number): ApiError {
  c.header('Retry-After', String(retryAfter));
  return new ApiError(
    429,
    'RATE_LIMITED',
    'rate_limited',
    { minutes: Math.ceil(retryAfter / 60) },
    { retryAfter },
  );
}
