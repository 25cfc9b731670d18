/**
 * The people area's security state (migration 014): single-use links and the rate limits of the
 * public calls.
 *
 * A link's row (`user_tokens`) is issued in the transaction that queues its mail; its token is
 * derived from the row's id (mail/links.ts) and only its hash is kept. Using it checks the hash,
 * the kind, that it was neither used nor revoked, and that it has not expired, then marks it used
 * in the caller's transaction (a second use, even at the same instant, finds it used).
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../http/errors';
import { lockKeys, retryAfterSeconds } from '../http/rate-limit';
import { linkKey, tokenFor, tokenHash } from '../mail/links';
import type { Queryable } from '../store/db';

export type TokenKind = 'invitacion' | 'recuperacion';

/** How long a link works: an invitation a week, a recovery link half an hour (< 1 h). */
export const TOKEN_TTL_MS: Record<TokenKind, number> = {
  invitacion: 7 * 24 * 3600_000,
  recuperacion: 30 * 60_000,
};

export interface TokenRow {
  id: string;
  kind: TokenKind;
  user_id: string;
  corporate_id: string | null;
  email: string;
  created_by: string | null;
  created_at: Date | string;
  expires_at: Date | string;
  used_at: Date | string | null;
  revoked_at: Date | string | null;
}

/** Issues a link of `kind` for the user; answers its row id (the mail carries the id). */
export async function issueToken(
  q: Queryable,
  t: {
    kind: TokenKind;
    userId: string;
    corporateId: string | null;
    email: string;
    createdBy: string | null;
    now: Date;
  },
): Promise<{ id: string; expiresAt: Date }> {
  const id = randomUUID();
  const key = await linkKey(q);
  const expiresAt = new Date(t.now.getTime() + TOKEN_TTL_MS[t.kind]);
  await q.query(
    `INSERT INTO user_tokens (id, token_hash, kind, user_id, corporate_id, email, created_by, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      id,
      tokenHash(tokenFor(key, id)),
      t.kind,
      t.userId,
      t.corporateId,
      t.email,
      t.createdBy,
      t.now.toISOString(),
      expiresAt.toISOString(),
    ],
  );
  return { id, expiresAt };
}

/** Revokes the user's unused links of `kind` (of one corporate when given); answers how many. */
export async function revokeTokens(
  q: Queryable,
  r: { userId: string; kind: TokenKind; corporateId?: string; now: Date },
): Promise<number> {
  const { rows } = await q.query(
    `UPDATE user_tokens SET revoked_at = $4
      WHERE user_id = $1 AND kind = $2 AND ($3::text IS NULL OR corporate_id = $3)
        AND used_at IS NULL AND revoked_at IS NULL
      RETURNING id`,
    [r.userId, r.kind, r.corporateId ?? null, r.now.toISOString()],
  );
  return rows.length;
}

export const tokenInvalid = () => new ApiError(400, 'TOKEN_INVALID', 'token_invalid');
export const tokenExpired = () => new ApiError(400, 'TOKEN_EXPIRED', 'token_expired');

/** Tokens are base64url of 32 bytes; anything else is refused before any lookup. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * The unused, unrevoked, unexpired link `token` of `kind`, locked for the caller's transaction
 * (`FOR UPDATE`: a simultaneous use waits, then finds it used). 400 TOKEN_INVALID for an unknown,
 * used or revoked token, 400 TOKEN_EXPIRED for an expired one.
 */
export async function openToken(
  q: Queryable,
  token: string,
  kind: TokenKind,
  now: Date,
  options: { lock?: boolean } = {},
): Promise<TokenRow> {
  if (!TOKEN_SHAPE.test(token)) throw tokenInvalid();
  const { rows } = await q.query<TokenRow>(
    `SELECT id, kind, user_id, corporate_id, email, created_by, created_at, expires_at, used_at, revoked_at
       FROM user_tokens WHERE token_hash = $1${options.lock ? ' FOR UPDATE' : ''}`,
    [tokenHash(token)],
  );
  const row = rows[0];
  if (!row || row.kind !== kind || row.used_at !== null || row.revoked_at !== null)
    throw tokenInvalid();
  if (new Date(row.expires_at).getTime() <= now.getTime()) throw tokenExpired();
  return row;
}

/** Marks the link used (inside the transaction that acts on it). */
export async function markTokenUsed(q: Queryable, id: string, now: Date): Promise<void> {
  await q.query('UPDATE user_tokens SET used_at = $2 WHERE id = $1', [id, now.toISOString()]);
}

/** Ends every session of the user (a new password, a deactivation); answers how many. */
export async function endSessions(q: Queryable, userId: string, now: Date): Promise<number> {
  const { rows } = await q.query(
    'UPDATE auth_sessions SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL RETURNING 1',
    [userId, now.toISOString()],
  );
  return rows.length;
}

/** The limits of the public people calls, per client address and per e-mail address, an hour. */
export const PEOPLE_LIMITS = {
  recovery: { address: 20, email: 3 },
  registration: { address: 10, email: 3 },
} as const;

/**
 * Counts one attempt of `kind` by `address` for `email` (under advisory locks of both, so
 * simultaneous attempts are counted one after the other): answers the seconds to wait, or 0 when
 * the attempt is allowed (and recorded). The e-mail is counted whether or not an account has it.
 */
export async function takePeopleAttempt(
  tx: Queryable,
  kind: keyof typeof PEOPLE_LIMITS,
  address: string,
  email: string,
  now: Date,
): Promise<number> {
  const subjects = [
    { subject: `${kind}:address:${address}`, limit: PEOPLE_LIMITS[kind].address },
    { subject: `${kind}:email:${email.toLowerCase()}`, limit: PEOPLE_LIMITS[kind].email },
  ];
  await lockKeys(
    tx,
    subjects.map((s) => `people:${s.subject}`),
  );
  let wait = 0;
  for (const s of subjects)
    wait = Math.max(
      wait,
      await retryAfterSeconds(tx, { table: 'people_attempts', column: 'subject' }, s.subject, {
        limit: s.limit,
        now,
      }),
    );
  if (wait > 0) return wait;
  for (const s of subjects)
    await tx.query('INSERT INTO people_attempts (subject, at) VALUES ($1, $2)', [
      s.subject,
      now.toISOString(),
    ]);
  return 0;
}

/** Housekeeping: attempts older than their hour, links expired or used more than a day ago. */
export async function purgePeopleState(q: Queryable, now: Date): Promise<unknown> {
  const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
  const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
  await q.query('DELETE FROM people_attempts WHERE at <= $1', [hourAgo]);
  await q.query(
    `DELETE FROM user_tokens WHERE expires_at <= $1 OR used_at <= $1 OR revoked_at <= $1`,
    [dayAgo],
  );
  return null;
}
