/**
 * Share links of a quotation (issue 7): the signed token a buyer opens signed out, and the link
 * as the adviser's list shows it. Issuing and revoking a link are events of the quotation
 * (commands.ts); which links exist and which are revoked is `rm_quotation_shares` (queries.ts).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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

const SHARE_CONTEXT = 'vitrina:quotation-share:v1\n';

function shareSignature(secret: string, payload: string): string {
  return createHmac('sha256', secret)
    .update(SHARE_CONTEXT + payload)
    .digest('base64url');
}

/** A fresh 128-bit nonce for a share link. */
export const newShareNonce = (): string => randomBytes(16).toString('base64url');

/**
 * A share token: `base64url(JSON payload) "." base64url(HMAC-SHA256(secret, payload))`. The
 * payload names the quotation, the corporate, the expiry and a 128-bit random nonce.
 */
export function signShareToken(secret: string, payload: SharePayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${shareSignature(secret, body)}`;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,600}\.[A-Za-z0-9_-]{43}$/;

/**
 * The payload of a genuine token, or null for anything modified or malformed. The signature is
 * compared as its canonical text in constant time: comparing decoded bytes would accept a
 * changed last character, whose low bits base64 decoding ignores.
 */
export function verifyShareToken(secret: string, token: string): SharePayload | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [body, signature] = token.split('.') as [string, string];
  const expected = shareSignature(secret, body);
  if (!timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(expected, 'utf8'))) return null;
  try {
    const value = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as Partial<SharePayload>;
    if (
      typeof value.q === 'string' &&
      typeof value.c === 'string' &&
      typeof value.e === 'number' &&
      typeof value.n === 'string'
    ) {
      return { q: value.q, c: value.c, e: value.e, n: value.n };
    }
  } catch {
    // a signed body that is not our JSON cannot happen without the secret; refuse it anyway
  }
  return null;
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
}

const isoInstant = (value: Date | string) => new Date(value).toISOString();

/**
 * The link of an issued share. Its token is signed again rather than stored: it is a pure
 * function of the payload and the secret, and `expira_en` keeps the whole-second expiry it was
 * signed with, so this is the very token the adviser was first given.
 */
export function shareLink(
  secret: string,
  corporateId: string,
  quotationId: string,
  row: ShareRow,
): ShareLink {
  const expiraEn = isoInstant(row.expira_en);
  const token = signShareToken(secret, {
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
