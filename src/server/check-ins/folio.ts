/**
 * The QR folio of a showroom (issue 14): what the poster's QR code carries, in the link
 * `/corporativos/{slug}/desarrollos?folio=…`. The server signs it (HMAC-SHA256 over the
 * corporate, the showroom and the validity window, the corporate's calendar day from
 * core/check-in.ts `folioDay`) with the deployment's signing keys, the share links' keyring
 * (quotations/share-keys.ts) under a context of its own, so a folio can never pass for a share
 * token or the other way round. A folio changed in any character is refused, and one of another
 * day is expired: a photo of yesterday's poster stops working at midnight.
 *
 * Shape: `<kid>.<base64url(JSON {c, s, d})>.<base64url(HMAC)>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** What folios need of the keys: the one that signs, and any by id. */
export interface FolioKeys {
  current(): Promise<{ kid: string; secret: string }>;
  find(kid: string): Promise<{ kid: string; secret: string } | null>;
}

export interface FolioPayload {
  /** Corporate id. */
  c: string;
  /** Showroom id. */
  s: string;
  /** The day it is valid, `YYYY-MM-DD` in the corporate's time zone. */
  d: string;
}

const FOLIO_CONTEXT = 'vitrina:check-in-folio:v1\n';
const FOLIO_SHAPE = /^[A-Za-z0-9_-]{1,24}\.[A-Za-z0-9_-]{16,400}\.[A-Za-z0-9_-]{43}$/;

function signature(secret: string, kid: string, body: string): string {
  return createHmac('sha256', secret)
    .update(FOLIO_CONTEXT + kid + '.' + body)
    .digest('base64url');
}

/** Signs a folio for the showroom and the day with the deployment's current key. */
export async function signFolio(keys: FolioKeys, payload: FolioPayload): Promise<string> {
  const key = await keys.current();
  const body = Buffer.from(
    JSON.stringify({ c: payload.c, s: payload.s, d: payload.d }),
    'utf8',
  ).toString('base64url');
  return `${key.kid}.${body}.${signature(key.secret, key.kid, body)}`;
}

/**
 * The payload of a genuine folio, or null for anything modified, malformed, or signed by a key
 * that is unknown or retired. Signatures are compared as text in constant time.
 */
export async function verifyFolio(keys: FolioKeys, folio: string): Promise<FolioPayload | null> {
  if (!FOLIO_SHAPE.test(folio)) return null;
  const [kid, body, sig] = folio.split('.') as [string, string, string];
  const key = await keys.find(kid);
  if (!key) return null;
  const expected = signature(key.secret, kid, body);
  if (!timingSafeEqual(Buffer.from(sig, 'utf8'), Buffer.from(expected, 'utf8'))) return null;
  try {
    const value = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as Partial<FolioPayload>;
    if (typeof value.c === 'string' && typeof value.s === 'string' && typeof value.d === 'string')
      return { c: value.c, s: value.s, d: value.d };
  } catch {
    // a signed body that is not our JSON cannot happen without the key; refuse it anyway
  }
  return null;
}
