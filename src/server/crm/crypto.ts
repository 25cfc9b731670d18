/**
 * The deployment's CRM key and AES-256-GCM for what the CRM area keeps secret at rest: client
 * secrets (in CrmConfigured events), access and refresh tokens, PKCE verifiers.
 *
 * The key: `VITRINA_CRM_KEY` (32 bytes as base64 or 64 hex characters); else, for an embedded
 * store, `crm.key` in the data directory, generated once (mode 0600); else (PostgreSQL without
 * the variable, in-memory stores) one row of `crm_keys`, generated once and shared by every
 * process. A ciphertext is `v1.<iv>.<tag>.<data>` (base64url).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Queryable } from '../store/db';

export class CrmKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CrmKeyError';
  }
}

/** Reads a 32-byte key written as base64 / base64url or hex. */
export function parseCrmKey(text: string): Buffer {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (key.length !== 32) throw new CrmKeyError('VITRINA_CRM_KEY must be 32 bytes (base64 or hex)');
  return key;
}

/** The deployment's key (see the module's comment for where it comes from). */
export async function openCrmKey(
  db: Queryable,
  options: { envKey?: string; dataDir?: string } = {},
): Promise<Buffer> {
  if (options.envKey && options.envKey.trim() !== '') return parseCrmKey(options.envKey);
  const dir = options.dataDir;
  if (dir && !dir.startsWith('memory://')) {
    const file = join(dir, 'crm.key');
    if (!existsSync(file)) {
      writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
      try {
        chmodSync(file, 0o600);
      } catch {
        // Best effort on file systems without modes.
      }
    }
    return parseCrmKey(readFileSync(file, 'utf8'));
  }
  await db.query(
    `INSERT INTO crm_keys (id, key) VALUES ('deployment', $1) ON CONFLICT (id) DO NOTHING`,
    [randomBytes(32).toString('base64')],
  );
  const { rows } = await db.query<{ key: string }>(
    "SELECT key FROM crm_keys WHERE id = 'deployment'",
  );
  if (!rows[0]) throw new CrmKeyError('the CRM key could not be stored');
  return parseCrmKey(rows[0].key);
}

const b64 = (b: Buffer) => b.toString('base64url');

export function encryptSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `v1.${b64(iv)}.${b64(cipher.getAuthTag())}.${b64(data)}`;
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [v, iv, tag, data] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || data === undefined)
    throw new CrmKeyError('not a sealed CRM secret');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** A one-way digest (OAuth states and session tokens are stored as these). */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
