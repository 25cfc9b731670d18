/**
 * Share links of a quotation (issue 7): the signed token a buyer opens signed out, and the link
 * as the adviser's list shows it. Issuing and revoking a link are events of the quotation
 * (commands.ts); which links exist and which are revoked is `rm_quotation_shares` (queries.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ShareKey, ShareKeyring } from './share-keys';

/** How long a share link lives unless the adviser asks otherwise. */
export const SHARE_DEFAULT_DAYS = 14;
/** The longest a share link may live. */
export const SHARE_MAX_DAYS = 90;

export interface SharePayload {
  /** Quotation id. */
  q: string;
  /** Corporate id. */
  c: string;
  /** Expiry, seconds since the epoch. */
  e: number;
  /** Random nonce recorded in the `QuotationShared` event. */
  n: string;
}

/** Tokens with a key id: the signature covers the key id and the payload. */
const SHARE_CONTEXT = 'vitrina:quotation-share:v2\n';
/** Tokens from before key ids (`body.signature`). */
const LEGACY_CONTEXT = 'vitrina:quotation-share:v1\n';

function signature(context: string, secret: string, signed: string): string {
  return createHmac('sha256', secret)
    .update(context + signed)
    .digest('base64url');
}

/** A fresh 128-bit nonce for a share link. */
export const newShareNonce = (): string => randomBytes(16).toString('base64url');

/**
 * A share token: `kid "." base64url(JSON payload) "." base64url(HMAC-SHA256(key, kid "." payload))`.
 * The payload names the quotation, the corporate, the expiry and a 128-bit random nonce; `kid`
 * names the deployment's key that signed it (share-keys.ts).
 */
export function signShareToken(key: ShareKey, payload: SharePayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  const signed = `${key.kid}.${body}`;
  return `${signed}.${signature(SHARE_CONTEXT, key.secret, signed)}`;
}

const TOKEN_SHAPE = /^(?:([A-Za-z0-9_-]{1,24})\.)?([A-Za-z0-9_-]{16,600})\.([A-Za-z0-9_-]{43})$/;

const sameText = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

function decodePayload(body: string): SharePayload | null {
  try {
    const value = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as Partial<SharePayload> | null;
    if (
      value !== null &&
      typeof value.q === 'string' &&
      typeof value.c === 'string' &&
      typeof value.e === 'number' &&
      typeof value.n === 'string'
    ) {
      return { q: value.q, c: value.c, e: value.e, n: value.n };
    }
  } catch {
    // a signed body that is not our JSON cannot happen without the key; refuse it anyway
  }
  return null;
}

/**
 * The payload of a genuine token, or null for anything modified, malformed or signed by a key
 * the deployment does not have (any more). The signature is compared as its canonical text in
 * constant time: comparing decoded bytes would accept a changed last character, whose low bits
 * base64 decoding ignores.
 */
export async function verifyShareToken(
  keys: ShareKeyring,
  token: string,
): Promise<SharePayload | null> {
  const match = TOKEN_SHAPE.exec(token);
  if (!match) return null;
  const [, kid, body, given] = match as unknown as [string, string | undefined, string, string];
  if (kid === undefined) {
    // A link from before key ids.
    const genuine = keys.legacySecrets.some((secret) =>
      sameText(given, signature(LEGACY_CONTEXT, secret, body)),
    );
    return genuine ? decodePayload(body) : null;
  }
  const key = await keys.find(kid);
  if (!key || !sameText(given, signature(SHARE_CONTEXT, key.secret, `${kid}.${body}`))) return null;
  return decodePayload(body);
}

/** The path the buyer opens for a token. */
export const shareUrl = (token: string) => `/public/cotizacion/${token}`;

/** A share link as the adviser's list shows it (`…/compartidos`). */
export interface ShareLink {
  nonce: string;
  /** ISO instants. */
  creadoEn: string;
  expiraEn: string;
  /** When the adviser turned it off; null while it still opens (unless expired). */
  revocadoEn: string | null;
  url: string;
}

/** One row of `rm_quotation_shares` as the list reads it. */
export interface ShareRow {
  nonce: string;
  expira_en: Date | string;
  fecha_alta: Date | string;
  revocado_en: Date | string | null;
  /** The key the link was signed with (null for links from before key ids). */
  kid: string | null;
}

const isoInstant = (value: Date | string) => new Date(value).toISOString();

/**
 * The link of an issued share. Its token is signed again rather than stored: it is a pure
 * function of the payload and the key, and `expira_en` keeps the whole-second expiry it was
 * signed with, so with the key it was signed with (`kid`) this is the very token the adviser was
 * first given. A link whose key is gone (retired, or from before key ids) is signed again with
 * the current key.
 */
export async function shareLink(
  keys: ShareKeyring,
  corporateId: string,
  quotationId: string,
  row: ShareRow,
): Promise<ShareLink> {
  const expiraEn = isoInstant(row.expira_en);
  const key = (row.kid === null ? null : await keys.find(row.kid)) ?? (await keys.current());
  const token = signShareToken(key, {
    q: quotationId,
    c: corporateId,
    e: Date.parse(expiraEn) / 1000,
    n: row.nonce,
  });
  return {
    nonce: row.nonce,
    creadoEn: isoInstant(row.fecha_alta),
    expiraEn,
    revocadoEn: row.revocado_en === null ? null : isoInstant(row.revocado_en),
    url: shareUrl(token),
  };
}
