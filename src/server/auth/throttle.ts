/**
 * The sign-in throttle: slows password guessing down without locking the owner out.
 *
 * Every password check is counted before it runs: in one transaction, under advisory locks of the
 * account and of the address (http/rate-limit.ts `lockKeys`), the throttle reads the failures of
 * the last hour and either answers how long to wait (429 with Retry-After; nothing is checked or
 * counted) or records the attempt as a failure, which a correct password then clears. So a burst
 * of 250 simultaneous guesses, on any number of processes, checks only as many passwords as the
 * limits allow, never more.
 *
 * The limits are delays that grow with the failures of the last hour, never a lockout:
 * - per account and address (the guesser): {@link SIGN_IN_THROTTLE}.pair.free attempts, then a
 *   wait after each failure that doubles (1 s, 2 s, 4 s, …) up to an hour;
 * - per address, whatever the account (one address trying many accounts): the same after
 *   `address.free` failures;
 * - per account, whatever the address (many addresses guessing one account): only a short delay,
 *   capped at `account.maxDelaySeconds`, after `account.free` failures. The owner, from an address
 *   that has not failed, signs in with the right password at once while one address guesses, and
 *   at worst waits seconds while many do.
 *
 * The address is the client's (http/proxy.ts): the socket's, or behind `TRUST_PROXY` the one the
 * proxy forwarded, so visitors behind one proxy do not share a counter.
 */
import type { Db, Queryable } from '../store/db';
import { lockKeys } from '../http/rate-limit';

interface Limit {
  /** Failures within the window that cost nothing. */
  free: number;
  /** The longest wait after a failure, in seconds. */
  maxDelaySeconds: number;
}

export const SIGN_IN_THROTTLE = {
  windowMs: 3600_000,
  pair: { free: 5, maxDelaySeconds: 3600 },
  address: { free: 100, maxDelaySeconds: 3600 },
  account: { free: 20, maxDelaySeconds: 60 },
} as const satisfies { windowMs: number } & Record<'pair' | 'address' | 'account', Limit>;

/** Seconds to wait after the last of `failures` failures: 0, then 1, 2, 4, … up to the cap. */
export function delaySeconds(failures: number, limit: Limit): number {
  if (failures < limit.free) return 0;
  return Math.min(2 ** Math.min(failures - limit.free, 30), limit.maxDelaySeconds);
}

/** A sign-in attempt as the throttle answered it. */
export type SignInTurn =
  /** The password may be checked; the attempt is counted as a failure until `succeeded`. */
  | { allowed: true }
  /** Too soon: wait this many seconds (nothing was checked or counted). */
  | { allowed: false; retryAfter: number };

interface Counts {
  pair_n: number;
  pair_last: Date | string | null;
  account_n: number;
  account_last: Date | string | null;
  address_n: number;
  address_last: Date | string | null;
}

export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  /** Counts an attempt to check `account`'s password from `address`, or answers the wait. */
  async begin(account: string, address: string): Promise<SignInTurn> {
    return this.db.transaction(async (tx) => {
      await lockKeys(tx, [`sign-in:account:${account}`, `sign-in:address:${address}`]);
      // Read after the locks: an attempt that waited for them must not find the one before it
      // "in its future" and answer a wait that no limit asked for.
      const now = this.clock();
      const since = new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs).toISOString();
      const { rows } = await tx.query<Counts>(
        `SELECT count(*) FILTER (WHERE account = $1 AND address = $2)::int AS pair_n,
                max(at) FILTER (WHERE account = $1 AND address = $2) AS pair_last,
                count(*) FILTER (WHERE account = $1)::int AS account_n,
                max(at) FILTER (WHERE account = $1) AS account_last,
                count(*) FILTER (WHERE address = $2)::int AS address_n,
                max(at) FILTER (WHERE address = $2) AS address_last
           FROM auth_failures WHERE (account = $1 OR address = $2) AND at > $3`,
        [account, address, since],
      );
      const counts = rows[0]!;
      const wait = (n: number, last: Date | string | null, limit: Limit) => {
        const delay = delaySeconds(n, limit);
        if (!last || delay === 0) return 0;
        const until = new Date(last).getTime() + delay * 1000;
        return until > now.getTime() ? Math.ceil((until - now.getTime()) / 1000) : 0;
      };
      const retryAfter = Math.max(
        wait(counts.pair_n, counts.pair_last, SIGN_IN_THROTTLE.pair),
        wait(counts.address_n, counts.address_last, SIGN_IN_THROTTLE.address),
        wait(counts.account_n, counts.account_last, SIGN_IN_THROTTLE.account),
      );
      if (retryAfter > 0) return { allowed: false, retryAfter };
      await tx.query('INSERT INTO auth_failures (account, address, at) VALUES ($1, $2, $3)', [
        account,
        address,
        now.toISOString(),
      ]);
      return { allowed: true };
    });
  }

  /** The password was right: the failures of this account from this address are forgotten. */
  async succeeded(account: string, address: string): Promise<void> {
    await this.db.query('DELETE FROM auth_failures WHERE account = $1 AND address = $2', [
      account,
      address,
    ]);
  }
}

/**
 * Housekeeping: forgets failures the throttle no longer counts, and sessions that have expired
 * or were signed out. Answers how many rows of each went.
 */
export async function purgeSignInState(
  q: Queryable,
  now: Date,
): Promise<{ authFailures: number; sessions: number }> {
  const since = new Date(now.getTime() - SIGN_IN_THROTTLE.windowMs).toISOString();
  const count = async (sql: string, params: unknown[]) =>
    (await q.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;
  return {
    authFailures: await count(
      'WITH gone AS (DELETE FROM auth_failures WHERE at <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone',
      [since],
    ),
    sessions: await count(
      `WITH gone AS (DELETE FROM auth_sessions WHERE expires_at <= $1 OR revoked_at IS NOT NULL RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [now.toISOString()],
    ),
  };
}
