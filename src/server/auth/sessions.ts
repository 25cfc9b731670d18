import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../store/db';
import type { EventStore } from '../store/event-store';
import { SESSION_ENDED, sessionStream, type AuthCache } from './auth-cache';

export const SESSION_COOKIE = 'vitrina_session';
export const SESSION_TTL_MS = 7 * 24 * 3600 * 1000;

/** The token's SHA-256 (one-shot `crypto.hash`: a third of `createHash`'s cost, on every request). */
const digest = (token: string) => hash('sha256', token, 'base64url');

export interface SessionStoreOptions {
  /** Resolve sessions from memory (auth-cache.ts); without it every request asks the database. */
  cache?: AuthCache;
  /**
   * Where a sign-out is announced to every process (a {@link SESSION_ENDED} event); without it a
   * sign-out is only the row's update.
   */
  store?: EventStore;
}

/** Server-side sessions: the cookie carries a random token, the database only its hash. */
export class SessionStore {
  private readonly cache: AuthCache | undefined;
  private readonly store: EventStore | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: () => Date,
    options: SessionStoreOptions = {},
  ) {
    this.cache = options.cache;
    this.store = options.store;
  }

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
    const hash = digest(token);
    if (this.cache) return this.cache.session(hash, () => this.read(hash));
    const record = await this.read(hash);
    return record && record.expiresAt > this.clock().getTime() ? record.userId : null;
  }

  /**
   * Ends the session. With a store, the update and a `SessionEnded` event on `session:<userId>`
   * commit together, so every process's cache drops the user's sessions (live feed); the event
   * names the user only, never the token.
   */
  async revoke(token: string | undefined): Promise<void> {
    if (!token || token.length > 200) return;
    const hash = digest(token);
    this.cache?.forgetSession(hash);
    const now = this.clock();
    const update = 'UPDATE auth_sessions SET revoked_at = $2 WHERE token_hash = $1';
    const store = this.store;
    if (!store) {
      await this.db.query(update, [hash, now.toISOString()]);
      return;
    }
    await store.transact(async (tx) => {
      const { rows } = await tx.query<{ user_id: string }>(
        `${update} AND revoked_at IS NULL RETURNING user_id`,
        [hash, now.toISOString()],
      );
      const userId = rows[0]?.user_id;
      if (!userId) return;
      await tx.append({
        streamId: sessionStream(userId),
        expectedVersion: 'any',
        events: [
          {
            id: randomUUID(),
            type: SESSION_ENDED,
            data: { motivo: 'logout' },
            actorId: userId,
            corporateId: null,
            occurredAt: now,
          },
        ],
      });
    });
  }

  private async read(hash: string): Promise<{ userId: string; expiresAt: number } | null> {
    const { rows } = await this.db.query<{ user_id: string; expires_at: Date | string }>(
      'SELECT user_id, expires_at FROM auth_sessions WHERE token_hash = $1 AND revoked_at IS NULL',
      [hash],
    );
    const row = rows[0];
    return row ? { userId: row.user_id, expiresAt: new Date(row.expires_at).getTime() } : null;
  }
}

/** The sign-in throttle lives in throttle.ts; re-exported for the runtime and the context. */
export { LoginThrottle } from './throttle';
