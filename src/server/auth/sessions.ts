import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../store/db';

export const SESSION_COOKIE = 'vitrina_session';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

const digest = (token: string) => createHash('sha256').update(token).digest('base64url');

/** Server-side sessions: the cookie carries a random token, the database only its hash. */
export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
  ) {}

  async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
    const token = randomBytes(32).toString('base64url');
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
    await this.db.query(
      'INSERT INTO auth_sessions (token_hash, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [digest(token), userId, now.toISOString(), expiresAt.toISOString()],
    );
    return { token, expiresAt };
  }

  async resolve(token: string | undefined): Promise<string | null> {
    if (!token || token.length > 200) return null;
    const { rows } = await this.db.query<{ user_id: string }>(
      'SELECT user_id FROM auth_sessions WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2',
      [digest(token), this.clock().toISOString()],
    );
    return rows[0]?.user_id ?? null;
  }

  async revoke(token: string | undefined): Promise<void> {
    if (!token) return;
    await this.db.query('UPDATE auth_sessions SET revoked_at = $2 WHERE token_hash = $1', [
      digest(token),
      this.clock().toISOString(),
    ]);
  }
}

/** The sign-in throttle lives in throttle.ts; re-exported for the runtime and the context. */
export { LoginThrottle } from './throttle';
