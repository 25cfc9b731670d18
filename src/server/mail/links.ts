/**
 * Single-use links (invitations, password recovery): a token is 32 bytes derived from the token
 * row's id with the deployment's key (HMAC-SHA256), and only its SHA-256 is stored. The mail
 * handler derives the token again at send time, so the outbox keeps the row's id, never a usable
 * link. The key is created on the first use in `people_link_key` (migration 014): every process
 * and restart derive the same tokens.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/db';

/** The SHA-256 of a token (base64url): what `user_tokens.token_hash` holds. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');

/** The deployment's link key (created on the first call). */
export async function linkKey(q: Queryable): Promise<Buffer> {
  await q.query(
    'INSERT INTO people_link_key (id, secret) VALUES (1, $1) ON CONFLICT (id) DO NOTHING',
    [randomBytes(32).toString('base64url')],
  );
  const { rows } = await q.query<{ secret: string }>(
    'SELECT secret FROM people_link_key WHERE id = 1',
  );
  return Buffer.from(rows[0]!.secret, 'base64url');
}

/** The token of the row `tokenId`. */
export function tokenFor(key: Buffer, tokenId: string): string {
  return createHmac('sha256', key).update(`vitrina-link:${tokenId}`).digest('base64url');
}

/** The link to `path` carrying `token`, on the configured public base URL (never the Host header). */
export function publicLink(baseUrl: string, path: string, params: Record<string, string>): string {
  // Relative to the base, so a base with a path (https://host/vitrina/) keeps it.
  const url = new URL(path.replace(/^\/+/, ''), baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
