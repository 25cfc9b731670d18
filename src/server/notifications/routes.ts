/**
 * Notifications (issue 15; spec §3 Notification, §4, §7 Notifications calls, §8). Each call
 * resolves the corporate from the session's membership (403 for non-members), reads and marks
 * only the caller's own notifications (403 for another `idUsuario`), and answers every refusal
 * as `[{ errorCode, message, …extra }]` in the caller's language, with nothing written.
 *
 * - `GET /api/wsObtenerNotificaciones?idCorporativo&idUsuario[&limite]` → the user's
 *   notifications, newest first: `{ id, tipo, titulo, mensaje, fechaAlta, leida, link }[]`
 *   (title and message in the caller's language), and the header `X-No-Leidas` (unread count).
 * - `GET /api/wsObtenerNotificacionesLeidas?idCorporativo&idUsuario` → `{ [id]: true }`.
 * - `PUT /api/corporativos/:id/notificaciones/leidas` `{ idUsuario, idNotificacion }` marks one
 *   read; `{ idUsuario, todas: true }` marks all (one event) → `{ noLeidas: 0 | n }`.
 * - `POST /api/corporativos/:id/notificaciones` `{ titulo, mensaje, link?, todos: true | idRol |
 *   idUsuarios }` (managers and administrators: core/permissions.ts maySendNotifications)
 *   → 201 `{ id, destinatarios }`.
 * - Web push (notifications/push.ts): `GET /api/push/clave-publica` → `{ clavePublica }` (the
 *   VAPID public key); `POST /api/push/suscripciones` `{ endpoint, keys: { p256dh, auth },
 *   expirationTime? }` registers this browser for the signed-in user (the spec's `tokens`) → 201
 *   `{ tokens: { [endpoint]: true } }`; `POST /api/push/suscripciones/baja` `{ endpoint }` removes
 *   it (sign-out) → `{ eliminada }`. An endpoint that is not https or not of a known push service
 *   is 422 PUSH_ENDPOINT_NOT_ALLOWED; a malformed subscription 400. The spec's
 *   `PUT /api/users/{id}` `{ tokens: { pushToken: true } }` does the same (push-tokens.ts).
 * - Preferences (core/notification-preferences.ts; one's own only, 403 otherwise):
 *   `GET /api/users/:id/notificaciones/preferencias` → `{ idioma, tipos: { [tipo]: { app, push } } }`
 *   (every kind; `idioma` is the push messages' language: the one chosen, else the profile's, else
 *   es); `PUT` the same path `{ idioma?, tipos?: { [tipo]: { app?, push? } } }` changes
 *   what it names and answers the same shape; an unknown kind or language is 400, nothing written.
 *   In-app off hides the kind from the list, the read map and `X-No-Leidas`; push off sends none.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { queryInt } from '../http/query';
import { allPreferences } from '../../core/notification-preferences';
import {
  MAX_LINK,
  MAX_MESSAGE,
  MAX_TITLE,
  NOTIFICATION_KINDS,
  renderNotification,
  type Notification,
} from '../../core/notifications';
import { mayReadNotificationsOf, maySendNotifications } from '../../core/permissions';
import { requireMember, requireUser, type Ctx, type Env } from '../http/context';
import { ApiError, badRequest, forbidden, jsonBody, lang, parse } from '../http/errors';
import { markAllRead, markRead, sendMessage, updatePreferences } from './commands';
import { pushEndpointNotAllowed, registerSubscription, subscriptionBody } from './push-tokens';
import {
  listInbox,
  loadPreferences,
  memberIds,
  profileLanguage,
  readMap,
  unreadIds,
} from './queries';

const id = z.string().min(1).max(64);

const listQuery = z.strictObject({
  idCorporativo: id,
  idUsuario: id,
  limite: queryInt(1, 500).optional(),
});
const readsQuery = z.strictObject({ idCorporativo: id, idUsuario: id });

const markBody = z.union([
  z.strictObject({ idUsuario: id, idNotificacion: id }),
  z.strictObject({ idUsuario: id, todas: z.literal(true) }),
]);

const unsubscribeBody = z.strictObject({ endpoint: z.string().min(1).max(2000) });

const preferencesBody = z.strictObject({
  idioma: z.string().max(10).optional(),
  tipos: z
    .record(
      z.string().max(64),
      z.strictObject({ app: z.boolean().optional(), push: z.boolean().optional() }),
    )
    .refine((t) => Object.keys(t).length <= NOTIFICATION_KINDS.length, {
      message: `at most ${NOTIFICATION_KINDS.length} kinds`,
    })
    .optional(),
});

/** One's own preferences only: another user's id is 403, whoever asks. */
async function requireOwnPreferences(c: Ctx) {
  const me = await requireUser(c);
  if (c.req.param('id') !== me.id) throw forbidden('notification_preferences_forbidden');
  return me;
}

const sendBody = z
  .strictObject({
    titulo: z.string().max(MAX_TITLE),
    mensaje: z.string().max(MAX_MESSAGE),
    link: z.string().max(MAX_LINK).nullable().optional(),
    todos: z.literal(true).optional(),
    idRol: id.optional(),
    idUsuarios: z.array(id).min(1).max(1000).optional(),
  })
  .superRefine((b, ctx) => {
    const targets = [b.todos, b.idRol, b.idUsuarios].filter((t) => t !== undefined).length;
    if (targets !== 1)
      ctx.addIssue({
        code: 'custom',
        path: ['destino'],
        message: 'exactly one of todos, idRol, idUsuarios',
      });
  });

/** The wire shape of one notification for its recipient (spec §3: id, titulo, mensaje, fechaAlta, read flag). */
export function notificationView(n: Notification, leida: boolean, language: 'es' | 'en') {
  const { titulo, mensaje } = renderNotification(n, language);
  return { id: n.id, tipo: n.tipo, titulo, mensaje, fechaAlta: n.fechaAlta, leida, link: n.link };
}

async function requireOwnInbox(c: Ctx, idCorporativo: string, idUsuario: string) {
  const m = await requireMember(c, { id: idCorporativo });
  if (!mayReadNotificationsOf(m.user, idUsuario)) throw forbidden('notification_forbidden');
  return m;
}

export const notificationRoutes = new Hono<Env>()
  .get('/wsObtenerNotificaciones', async (c) => {
    const q = parse(listQuery, c.req.query());
    const m = await requireOwnInbox(c, q.idCorporativo, q.idUsuario);
    const db = c.get('deps').db;
    const [entries, unread] = await Promise.all([
      listInbox(db, m.corporate.id, m.user.id, q.limite ?? 100),
      unreadIds(db, m.corporate.id, m.user.id),
    ]);
    c.header('X-No-Leidas', String(unread.length));
    const language = lang(c);
    return c.json(entries.map((e) => notificationView(e.notification, e.leida, language)));
  })
  .get('/wsObtenerNotificacionesLeidas', async (c) => {
    const q = parse(readsQuery, c.req.query());
    const m = await requireOwnInbox(c, q.idCorporativo, q.idUsuario);
    return c.json(await readMap(c.get('deps').db, m.corporate.id, m.user.id));
  })
  .put('/corporativos/:id/notificaciones/leidas', async (c) => {
    const corporateId = parse(id, c.req.param('id'));
    const body = parse(markBody, await jsonBody(c));
    const m = await requireOwnInbox(c, corporateId, body.idUsuario);
    const deps = c.get('deps');
    if ('todas' in body) await markAllRead(deps, m);
    else await markRead(deps, m, body.idNotificacion);
    const unread = await unreadIds(deps.db, m.corporate.id, m.user.id);
    return c.json({ noLeidas: unread.length });
  })
  .post('/corporativos/:id/notificaciones', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    if (!maySendNotifications(m.role)) throw forbidden();
    const body = parse(sendBody, await jsonBody(c));
    const deps = c.get('deps');
    let userIds: string[];
    if (body.idUsuarios) {
      const members = new Set(await memberIds(deps.db, m.corporate.id));
      const unknown = body.idUsuarios.findIndex((u) => !members.has(u));
      if (unknown >= 0) throw badRequest([{ path: `idUsuarios.${unknown}`, code: 'not_a_member' }]);
      userIds = body.idUsuarios;
    } else {
      if (body.idRol !== undefined && !m.corporate.roles.some((r) => r.id === body.idRol))
        throw badRequest([{ path: 'idRol', code: 'unknown_role' }]);
      // The whole corporate or a role: everyone but the sender.
      userIds = (await memberIds(deps.db, m.corporate.id, body.idRol)).filter(
        (u) => u !== m.user.id,
      );
    }
    if (userIds.length === 0)
      throw new ApiError(422, 'NO_RECIPIENTS', 'notification_no_recipients');
    const sent = await sendMessage(deps, m, {
      titulo: body.titulo,
      mensaje: body.mensaje,
      link: body.link ?? null,
      userIds,
    });
    return c.json({ id: sent.id, destinatarios: sent.destinatarios.length }, 201);
  })
  .get('/push/clave-publica', async (c) => {
    await requireUser(c);
    const push = c.get('deps').push;
    if (!push) throw new ApiError(404, 'NOT_FOUND', 'not_found');
    return c.json({ clavePublica: push.publicKey });
  })
  .post('/push/suscripciones', async (c) => {
    const me = await requireUser(c);
    const body = parse(subscriptionBody, await jsonBody(c));
    const deps = c.get('deps');
    if (!deps.push?.allowed(body.endpoint)) throw pushEndpointNotAllowed();
    // The same browser signed in as someone else now receives that user's pushes.
    await registerSubscription(deps.db, me.id, body);
    return c.json({ tokens: { [body.endpoint]: true } }, 201);
  })
  .post('/push/suscripciones/baja', async (c) => {
    const me = await requireUser(c);
    const body = parse(unsubscribeBody, await jsonBody(c));
    const { rows } = await c
      .get('deps')
      .db.query('DELETE FROM push_subscriptions WHERE endpoint = $1 AND user_id = $2 RETURNING 1', [
        body.endpoint,
        me.id,
      ]);
    return c.json({ eliminada: rows.length > 0 });
  })
  .get('/users/:id/notificaciones/preferencias', async (c) => {
    const me = await requireOwnPreferences(c);
    const db = c.get('deps').db;
    const [prefs, fallback] = await Promise.all([
      loadPreferences(db, me.id),
      profileLanguage(db, me.id),
    ]);
    return c.json(allPreferences(prefs, fallback));
  })
  .put('/users/:id/notificaciones/preferencias', async (c) => {
    const me = await requireOwnPreferences(c);
    const body = parse(preferencesBody, await jsonBody(c));
    const deps = c.get('deps');
    const fallback = await profileLanguage(deps.db, me.id);
    return c.json(await updatePreferences(deps, me.id, body, fallback));
  });
