/**
 * Each user's private calendar subscription (issue 23 point 7): a signed URL serving an
 * iCalendar feed of their appointments, which the phone's calendar polls.
 *
 * The token is `<kid>.<base64url(JSON {u, c, t})>.<HMAC>`: the user, the corporate and the
 * subscription's id, signed with the deployment's keys (the share links' keyring, under a
 * context of its own, so a feed token can never pass for a share link or a QR folio). The
 * subscription's id is kept in `calendar_feeds`; a new subscription replaces it and a revoke
 * deletes it, so an old URL stops working at once. The feed re-checks the membership at every
 * read: a user who left the corporate gets nothing.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { appointmentsToIcs, type IcsAppointment } from '../../core/icalendar';
import { membershipOf } from '../../core/permissions';
import { DEFAULT_NOTIFICATION_LANG } from '../../core/notification-preferences';
import { findCorporate, findUser, type AppDeps } from '../http/context';
import { pushLanguages } from '../notifications/queries';
import type { Queryable } from '../store/db';
import { listAppointments } from './queries';

/** What the feed's tokens need of the deployment's keys (`deps.shareKeys`): the one that signs, and any by id. */
export interface FeedKeys {
  current(): Promise<{ kid: string; secret: string }>;
  find(kid: string): Promise<{ kid: string; secret: string } | null>;
}

const FEED_CONTEXT = 'vitrina:calendar-feed:v1\n';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,24}\.[A-Za-z0-9_-]{16,400}\.[A-Za-z0-9_-]{43}$/;

export interface FeedClaims {
  /** User id. */
  u: string;
  /** Corporate id. */
  c: string;
  /** The subscription's id (calendar_feeds.token_id). */
  t: string;
}

const sign = (secret: string, kid: string, body: string) =>
  createHmac('sha256', secret)
    .update(FEED_CONTEXT + kid + '.' + body)
    .digest('base64url');

export async function signFeedToken(keys: FeedKeys, claims: FeedClaims): Promise<string> {
  const key = await keys.current();
  const body = Buffer.from(JSON.stringify(claims), 'utf8').toString('base64url');
  return `${key.kid}.${body}.${sign(key.secret, key.kid, body)}`;
}

export async function verifyFeedToken(keys: FeedKeys, token: string): Promise<FeedClaims | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [kid, body, sig] = token.split('.') as [string, string, string];
  const key = await keys.find(kid);
  if (!key) return null;
  if (!timingSafeEqual(Buffer.from(sig, 'utf8'), Buffer.from(sign(key.secret, kid, body), 'utf8')))
    return null;
  try {
    const v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Partial<FeedClaims>;
    if (typeof v.u === 'string' && typeof v.c === 'string' && typeof v.t === 'string')
      return { u: v.u, c: v.c, t: v.t };
  } catch {
    // a signed body that is not our JSON cannot happen without the key; refuse it anyway
  }
  return null;
}

/** Starts (or replaces, revoking the old URL) the user's subscription; answers its token. */
export async function subscribe(deps: AppDeps, userId: string, corporateId: string) {
  const t = randomBytes(12).toString('base64url');
  await deps.db.query(
    `INSERT INTO calendar_feeds (user_id, corporate_id, token_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (user_id, corporate_id) DO UPDATE SET token_id = EXCLUDED.token_id,
       created_at = EXCLUDED.created_at`,
    [userId, corporateId, t, deps.clock().toISOString()],
  );
  return signFeedToken(deps.shareKeys, { u: userId, c: corporateId, t });
}

/** Revokes the user's subscription (its URL answers 404 from now on). */
export async function unsubscribe(db: Queryable, userId: string, corporateId: string) {
  await db.query('DELETE FROM calendar_feeds WHERE user_id = $1 AND corporate_id = $2', [
    userId,
    corporateId,
  ]);
}

/** Whether the user has a subscription now. */
export async function isSubscribed(db: Queryable, userId: string, corporateId: string) {
  const { rows } = await db.query(
    'SELECT 1 FROM calendar_feeds WHERE user_id = $1 AND corporate_id = $2',
    [userId, corporateId],
  );
  return rows.length > 0;
}

/** How far back and ahead the feed reaches, in days. */
export const FEED_PAST_DAYS = 31;
export const FEED_FUTURE_DAYS = 366;

/**
 * The feed's iCalendar text for a token, or null when the token is forged, revoked, replaced,
 * or its user is no longer a member: their own appointments (every adviser's for a host
 * administrator or a manager, as the calendar shows them), cancelled ones as CANCELLED. The
 * calendar app asks without the user's language: automatic titles are written in the language
 * the user's notifications and pushes use (chosen, else the profile's, else es).
 */
export async function feedFor(deps: AppDeps, token: string): Promise<string | null> {
  const claims = await verifyFeedToken(deps.shareKeys, token);
  if (!claims) return null;
  const { rows } = await deps.db.query<{ token_id: string }>(
    'SELECT token_id FROM calendar_feeds WHERE user_id = $1 AND corporate_id = $2',
    [claims.u, claims.c],
  );
  // The token is signed already: only whether it is the current subscription is left to ask.
  if (rows[0]?.token_id !== claims.t) return null;
  const [user, corporate] = await Promise.all([
    findUser(deps.db, claims.u),
    findCorporate(deps.db, { id: claims.c }),
  ]);
  if (!user || !corporate) return null;
  const m = membershipOf(user, corporate);
  if (!m) return null;
  const now = deps.clock();
  const language =
    (await pushLanguages(deps.db, [user.id])).get(user.id) ?? DEFAULT_NOTIFICATION_LANG;
  const citas = await listAppointments(
    deps.db,
    m,
    {
      desde: new Date(now.getTime() - FEED_PAST_DAYS * 86_400_000),
      hasta: new Date(now.getTime() + FEED_FUTURE_DAYS * 86_400_000),
      canceladas: true,
    },
    language,
  );
  return appointmentIcs(citas, { now, nombre: corporate.nombre });
}

export function appointmentIcs(citas: readonly IcsAppointment[], o: { now: Date; nombre: string }) {
  return appointmentsToIcs(citas, { now: o.now, calendarName: `Vitrina · ${o.nombre}` });
}
