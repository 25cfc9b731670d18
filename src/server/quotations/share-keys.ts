/**
 * The keys share links are signed with (issue 13): one set for the deployment, kept in the
 * database (`share_signing_keys`), so a link made on one server process opens on every other
 * and after any restart. Each key has an id (`kid`) the token carries: adding a key (rotation)
 * makes it sign new links while links signed by the previous keys keep working; deleting a key
 * retires it and every link it signed.
 *
 * `VITRINA_SECRET`, when set, still works: it signs new links (its kid is derived from it) and
 * the stored keys keep verifying theirs; values in `VITRINA_SECRET_PREVIOUS` (comma-separated)
 * keep verifying links signed while they were `VITRINA_SECRET`. Tokens from before key ids
 * (`body.signature`) verify with those secrets or, on an embedded store, the data directory's
 * old `secret.key`.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Queryable } from '../store/db';

export interface ShareKey {
  kid: string;
  secret: string;
}

/** What share links need of the keys: the one that signs, and any by id. */
export interface ShareKeyring {
  /** The key new links are signed with. */
  current(): Promise<ShareKey>;
  /** The key of `kid`, or null when there is none (unknown or retired). */
  find(kid: string): Promise<ShareKey | null>;
  /** Secrets tokens without a key id were signed with (links from before key ids). */
  readonly legacySecrets: readonly string[];
}

/** A key id: short, URL-safe, no dot (the token's separator). */
export const KID_SHAPE = /^[A-Za-z0-9_-]{1,24}$/;

const newSecret = () => randomBytes(32).toString('base64url');
const newKid = () => `k${randomBytes(6).toString('base64url')}`;

/** The key id of a secret given in the environment: derived, so every process agrees. */
export const envKid = (secret: string) =>
  `env${createHash('sha256').update(secret).digest('base64url').slice(0, 10)}`;

/**
 * Makes sure the deployment has a signing key: the first process to start on an empty store
 * creates `k1`; concurrent starts agree on it (the insert is keyed, the losers read the winner's).
 */
export async function ensureShareKey(db: Queryable): Promise<void> {
  const { rows } = await db.query('SELECT 1 FROM share_signing_keys LIMIT 1');
  if (rows.length > 0) return;
  await db.query(
    `INSERT INTO share_signing_keys (kid, secret) VALUES ('k1', $1) ON CONFLICT (kid) DO NOTHING`,
    [newSecret()],
  );
}

/**
 * Adds a new key, which signs new links from now on, on every process; links signed by the
 * previous keys keep working. Returns its id.
 */
export async function rotateShareKey(db: Queryable, now: Date = new Date()): Promise<string> {
  const kid = newKid();
  // After every existing key even if clocks disagree, so the new one is the newest.
  await db.query(
    `INSERT INTO share_signing_keys (kid, secret, created_at)
     SELECT $1, $2, greatest($3::timestamptz, coalesce(max(created_at), $3::timestamptz) + interval '1 millisecond')
       FROM share_signing_keys`,
    [kid, newSecret(), now.toISOString()],
  );
  return kid;
}

/**
 * Retires a key: every link it signed stops opening. The newest key cannot be retired while it
 * is the only one (rotate first). Returns whether a key was removed.
 */
export async function retireShareKey(db: Queryable, kid: string): Promise<boolean> {
  const { rows } = await db.query<{ kid: string }>(
    `DELETE FROM share_signing_keys
      WHERE kid = $1 AND (SELECT count(*) FROM share_signing_keys) > 1
      RETURNING kid`,
    [kid],
  );
  return rows.length > 0;
}

/** The stored keys, newest first, without their secrets. */
export async function listShareKeys(db: Queryable) {
  const { rows } = await db.query<{ kid: string; created_at: Date | string }>(
    'SELECT kid, created_at FROM share_signing_keys ORDER BY created_at DESC, kid DESC',
  );
  return rows.map((r) => ({ kid: r.kid, creadoEn: new Date(r.created_at).toISOString() }));
}

export interface ShareKeyringOptions {
  /** `VITRINA_SECRET`: signs new links instead of the stored keys. */
  envSecret?: string | undefined;
  /** `VITRINA_SECRET_PREVIOUS`: secrets that verify (never sign). */
  previousEnvSecrets?: readonly string[];
  /** Secrets tokens without a key id verify with (see the module comment). */
  legacySecrets?: readonly string[];
}

/** The deployment's keys: the stored ones and the environment's. */
export class DbShareKeyring implements ShareKeyring {
  /** The environment's keys by id (the stored ones are read from the database). */
  private readonly envKeys = new Map<string, string>();
  private readonly envKey: ShareKey | null;
  readonly legacySecrets: readonly string[];

  constructor(
    private readonly db: Queryable,
    options: ShareKeyringOptions = {},
  ) {
    this.envKey = options.envSecret
      ? { kid: envKid(options.envSecret), secret: options.envSecret }
      : null;
    for (const secret of [
      ...(options.envSecret ? [options.envSecret] : []),
      ...(options.previousEnvSecrets ?? []),
    ]) {
      this.envKeys.set(envKid(secret), secret);
    }
    this.legacySecrets = options.legacySecrets ?? [];
  }

  /** Read every time (a small keyed read): a rotation or retirement applies at once everywhere. */
  async current(): Promise<ShareKey> {
    if (this.envKey) return this.envKey;
    const { rows } = await this.db.query<ShareKey>(
      'SELECT kid, secret FROM share_signing_keys ORDER BY created_at DESC, kid DESC LIMIT 1',
    );
    const key = rows[0];
    if (!key) throw new Error('no share signing key: ensureShareKey was not run');
    return key;
  }

  async find(kid: string): Promise<ShareKey | null> {
    if (!KID_SHAPE.test(kid)) return null;
    if (kid.startsWith('env')) {
      const secret = this.envKeys.get(kid);
      return secret === undefined ? null : { kid, secret };
    }
    // Read every time: a retired key stops verifying on every process at once.
    const { rows } = await this.db.query<ShareKey>(
      'SELECT kid, secret FROM share_signing_keys WHERE kid = $1',
      [kid],
    );
    return rows[0] ?? null;
  }
}
