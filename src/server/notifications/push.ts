/**
 * Web push (issue 15 point 4) with VAPID through `web-push`:
 *
 * - {@link ensureVapidKeys}: the deployment's one key pair, created on the first start and stored
 *   in `push_vapid_keys` (every process and restart reads the same pair; the insert that loses a
 *   race keeps the winner's). Only the public key leaves the server.
 * - {@link endpointAllowed}: only `https` endpoints of known push services are called (the
 *   allow-list `VITRINA_PUSH_ALLOWED_HOSTS`, comma-separated, `*.` for subdomains; default
 *   {@link DEFAULT_PUSH_HOSTS}); loopback only when the runtime allows it (tests).
 * - Subscriptions (the user's `tokens`) are rows of `push_subscriptions`, registered and removed
 *   by their browser (routes.ts).
 * - The consumer `push-notifications` (from the end of the log) queues one outbox message per
 *   recipient's subscription for each `NotificationSent` (not for a recipient who turned the kind's
 *   push off; the text in the recipient's language), keyed by the event and the endpoint; the
 *   outbox handler `push` sends it: 404/410 delete the subscription, 429 waits for Retry-After,
 *   other 4xx are permanent, anything else is retried with backoff.
 */
import type { Agent } from 'node:https';
import webPush, { WebPushError } from 'web-push';
import { DEFAULT_NOTIFICATION_LANG } from '../../core/notification-preferences';
import {
  renderNotification,
  type Notification,
  type NotificationLang,
} from '../../core/notifications';
import type { BackgroundWork } from '../store/background-work';
import type { Queryable } from '../store/db';
import {
  PermanentFailure,
  RetryAfterError,
  enqueueOutbox,
  parseRetryAfter,
  type OutboxDelivery,
} from '../store/outbox';
import { pushLanguages } from './queries';

export const PUSH_OUTBOX = 'push';
export const PUSH_CONSUMER = 'push-notifications';

export const DEFAULT_PUSH_HOSTS = [
  'fcm.googleapis.com',
  'updates.push.services.mozilla.com',
  '*.push.apple.com',
  '*.notify.windows.com',
];

export interface PushOptions {
  /** Hosts of push services that may be called (default: `VITRINA_PUSH_ALLOWED_HOSTS` or {@link DEFAULT_PUSH_HOSTS}). */
  allowedHosts?: readonly string[];
  /** Loopback endpoints (127.0.0.1, localhost, ::1) over https: tests' fake push service only. */
  allowLoopback?: boolean;
  /** The VAPID subject (`mailto:` or `https:`): `VITRINA_PUSH_SUBJECT` or a default. */
  subject?: string;
  /** The https agent for the calls (tests trust their fake's certificate with it). */
  agent?: Agent;
  /** How long a push service gets to answer (ms). */
  timeoutMs?: number;
}

export interface PushService {
  publicKey: string;
  allowed(endpoint: string): boolean;
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function ensureVapidKeys(db: Queryable): Promise<VapidKeys> {
  const read = async () =>
    (
      await db.query<{ public_key: string; private_key: string }>(
        "SELECT public_key, private_key FROM push_vapid_keys WHERE id = 'deployment'",
      )
    ).rows[0];
  let row = await read();
  if (!row) {
    const keys = webPush.generateVAPIDKeys();
    await db.query(
      `INSERT INTO push_vapid_keys (id, public_key, private_key) VALUES ('deployment', $1, $2)
       ON CONFLICT (id) DO NOTHING`,
      [keys.publicKey, keys.privateKey],
    );
    row = await read();
  }
  if (!row) throw new Error('push: the VAPID keys could not be stored');
  return { publicKey: row.public_key, privateKey: row.private_key };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Whether the endpoint may be called: https on its default port and a listed host (or loopback,
 * any port, when allowed).
 */
export function endpointAllowed(
  endpoint: string,
  hosts: readonly string[],
  allowLoopback = false,
): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  if (LOOPBACK.has(host)) return allowLoopback;
  // Push services listen on https's own port; another port on a listed host is not one of them.
  if (url.port !== '') return false;
  return hosts.some((h) => {
    const rule = h.trim().toLowerCase();
    if (rule.startsWith('*.')) return host.endsWith(rule.slice(1)) && host.length > rule.length - 1;
    return host === rule;
  });
}

export function allowedHostsFromEnv(value = process.env.VITRINA_PUSH_ALLOWED_HOSTS): string[] {
  const list = (value ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  return list.length > 0 ? list : DEFAULT_PUSH_HOSTS;
}

/**
 * What the service worker gets (and shows): title, body, the in-app URL, the tag; and, kept on
 * the server, whose subscription it is and the kind (checked against their preferences when sent).
 */
export interface PushPayload {
  endpoint: string;
  titulo: string;
  mensaje: string;
  url: string;
  tag: string;
  /** The recipient and the kind (absent in messages queued before preferences existed). */
  idUsuario?: string;
  tipo?: string;
}

/** SQL: the user `$user` has not turned the kind `$tipo` off for push. */
const PUSH_WANTED = (user: string, tipo: string) =>
  `NOT EXISTS (SELECT 1 FROM rm_notification_preferences p
                WHERE p.user_id = ${user} AND p.tipo = ${tipo} AND NOT p.push)`;

/**
 * One message per subscription of each recipient who has not turned the kind's push off, in the
 * consumer's transaction, written in the recipient's language (core/notification-preferences.ts;
 * es when they never chose).
 */
export async function queuePushes(
  tx: Queryable,
  n: Notification,
  effectId: (label: string) => string,
): Promise<number> {
  const { rows } = await tx.query<{ endpoint: string; user_id: string }>(
    `SELECT s.endpoint, s.user_id FROM push_subscriptions s
      WHERE s.user_id = ANY($1::text[]) AND ${PUSH_WANTED('s.user_id', '$2')}
      ORDER BY s.endpoint`,
    [n.destinatarios, n.tipo],
  );
  if (rows.length === 0) return 0;
  const languages = await pushLanguages(tx, [...new Set(rows.map((r) => r.user_id))]);
  const texts = new Map<NotificationLang, { titulo: string; mensaje: string }>();
  for (const row of rows) {
    const language = languages.get(row.user_id) ?? DEFAULT_NOTIFICATION_LANG;
    let text = texts.get(language);
    if (!text) texts.set(language, (text = renderNotification(n, language)));
    const payload: PushPayload = {
      endpoint: row.endpoint,
      titulo: text.titulo,
      mensaje: text.mensaje,
      url: n.link ?? '/',
      tag: n.id,
      idUsuario: row.user_id,
      tipo: n.tipo,
    };
    await enqueueOutbox(tx, { kind: PUSH_OUTBOX, id: effectId(row.endpoint), payload });
  }
  return rows.length;
}

/** Sends one queued push (the outbox handler). */
export function pushSender(
  db: Queryable,
  keys: VapidKeys,
  options: PushOptions & { allowedHosts: readonly string[] },
) {
  const subject =
    options.subject ?? process.env.VITRINA_PUSH_SUBJECT ?? 'mailto:soporte@vitrina.app';
  return async (m: OutboxDelivery) => {
    const p = m.payload as PushPayload;
    const { rows } = await db.query<{
      endpoint: string;
      p256dh: string;
      auth: string;
      user_id: string;
    }>('SELECT endpoint, p256dh, auth, user_id FROM push_subscriptions WHERE endpoint = $1', [
      p.endpoint,
    ]);
    const sub = rows[0];
    // Removed since (signed out, or the service said it is gone): nothing to send.
    if (!sub) return;
    // The browser signed in as someone else since: not theirs to see.
    if (p.idUsuario !== undefined && sub.user_id !== p.idUsuario) return;
    // The recipient turned the kind's push off since it was queued: nothing to send.
    if (p.idUsuario !== undefined && p.tipo !== undefined) {
      const wanted = await db.query(`SELECT 1 WHERE ${PUSH_WANTED('$1', '$2')}`, [
        p.idUsuario,
        p.tipo,
      ]);
      if (wanted.rows.length === 0) return;
    }
    if (!endpointAllowed(sub.endpoint, options.allowedHosts, options.allowLoopback))
      throw new PermanentFailure('push endpoint not allowed');
    const body = JSON.stringify({ titulo: p.titulo, mensaje: p.mensaje, url: p.url, tag: p.tag });
    try {
      await webPush.sendNotification(
        { endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } },
        body,
        {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: 86_400,
          urgency: 'normal',
          topic: m.id.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32),
          timeout: options.timeoutMs ?? 15_000,
          ...(options.agent ? { agent: options.agent } : {}),
        },
      );
    } catch (error) {
      if (!(error instanceof WebPushError)) throw error;
      const status = error.statusCode;
      if (status === 404 || status === 410) {
        await db.query('DELETE FROM push_subscriptions WHERE endpoint = $1', [sub.endpoint]);
        return;
      }
      if (status === 429 || status === 503) {
        const header = (error.headers as Record<string, string | undefined>)['retry-after'];
        const after = parseRetryAfter(header, new Date());
        throw new RetryAfterError(after ?? 60_000, `push service answered ${status}`);
      }
      if (status >= 400 && status < 500 && status !== 408)
        throw new PermanentFailure(`push service answered ${status}`);
      throw new Error(`push service answered ${status}`);
    }
  };
}

/** Opens push for a runtime: the keys, and what the routes need. */
export async function openPush(
  db: Queryable,
  options: PushOptions = {},
): Promise<{
  keys: VapidKeys;
  service: PushService;
  options: PushOptions & { allowedHosts: readonly string[] };
}> {
  const keys = await ensureVapidKeys(db);
  const resolved = { ...options, allowedHosts: options.allowedHosts ?? allowedHostsFromEnv() };
  return {
    keys,
    options: resolved,
    service: {
      publicKey: keys.publicKey,
      allowed: (endpoint) =>
        endpointAllowed(endpoint, resolved.allowedHosts, resolved.allowLoopback),
    },
  };
}

/** Registers the push consumer and the outbox handler (runtime.ts). */
export function registerPushWork(
  work: BackgroundWork,
  db: Queryable,
  push: Awaited<ReturnType<typeof openPush>>,
): void {
  work.registerConsumer({
    name: PUSH_CONSUMER,
    handles: ['NotificationSent'],
    startAt: 'end',
    handle: async (event, ctx) => {
      await queuePushes(ctx.tx, event.data as Notification, (label) => ctx.effectId(label));
    },
  });
  work.registerOutbox(PUSH_OUTBOX, pushSender(db, push.keys, push.options));
}
