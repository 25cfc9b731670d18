/**
 * The notifications' reads: a user's list, read map and unread count in one corporate, and the
 * user's preferences. A kind the user turned off in the app (core/notification-preferences.ts) is
 * left out of the list, the read map and the unread count (so "mark all read" leaves it too).
 */
import type { KindPreference, NotificationPreferences } from '../../core/notification-preferences';
import { DEFAULT_NOTIFICATION_LANG, isNotificationLang } from '../../core/notification-preferences';
import {
  isNotificationKind,
  type Notification,
  type NotificationKind,
  type NotificationLang,
} from '../../core/notifications';
import type { Queryable } from '../store/db';

/** SQL: the inbox row `i` (joined to its notification `n`) is shown in the app. */
const SHOWN = `NOT EXISTS (SELECT 1 FROM rm_notification_preferences p
                  WHERE p.user_id = i.user_id AND p.tipo = n.tipo AND NOT p.in_app)`;

export interface InboxEntry {
  notification: Notification;
  leida: boolean;
}

/** Newest first (ties by id), at most `limit`. */
export async function listInbox(
  db: Queryable,
  corporateId: string,
  userId: string,
  limit = 100,
): Promise<InboxEntry[]> {
  const { rows } = await db.query<{ doc: Notification; leida: boolean }>(
    `SELECT n.doc, i.leida FROM rm_notification_inbox i
       JOIN rm_notifications n ON n.id = i.notification_id
      WHERE i.user_id = $1 AND i.corporate_id = $2 AND ${SHOWN}
      ORDER BY i.fecha_alta DESC, i.notification_id DESC LIMIT $3`,
    [userId, corporateId, limit],
  );
  return rows.map((r) => ({ notification: r.doc, leida: r.leida }));
}

/** Spec §3: read notifications as a map of id to true. */
export async function readMap(
  db: Queryable,
  corporateId: string,
  userId: string,
): Promise<Record<string, true>> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT i.notification_id AS id FROM rm_notification_inbox i
       JOIN rm_notifications n ON n.id = i.notification_id
      WHERE i.user_id = $1 AND i.corporate_id = $2 AND i.leida AND ${SHOWN}
      ORDER BY i.notification_id`,
    [userId, corporateId],
  );
  return Object.fromEntries(rows.map((r) => [r.id, true] as const));
}

export async function unreadIds(
  db: Queryable,
  corporateId: string,
  userId: string,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT i.notification_id AS id FROM rm_notification_inbox i
       JOIN rm_notifications n ON n.id = i.notification_id
      WHERE i.user_id = $1 AND i.corporate_id = $2 AND NOT i.leida AND ${SHOWN}
      ORDER BY i.notification_id`,
    [userId, corporateId],
  );
  return rows.map((r) => r.id);
}

/** The user's copy of a notification of the corporate, or null (not theirs, or unknown). */
export async function inboxEntry(
  db: Queryable,
  corporateId: string,
  userId: string,
  notificationId: string,
): Promise<{ leida: boolean } | null> {
  const { rows } = await db.query<{ leida: boolean }>(
    `SELECT leida FROM rm_notification_inbox
      WHERE user_id = $1 AND corporate_id = $2 AND notification_id = $3`,
    [userId, corporateId, notificationId],
  );
  return rows[0] ?? null;
}

/** The corporate's approved members, all or those holding `roleId`. */
export async function memberIds(
  db: Queryable,
  corporateId: string,
  roleId?: string,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM rm_users
      WHERE doc->'corporativos' @> jsonb_build_array($1::text)
        AND ($2::text IS NULL OR doc->'roles'->>$1 = $2)
      ORDER BY id`,
    [corporateId, roleId ?? null],
  );
  return rows.map((r) => r.id);
}

/** The user's preferences as the read model holds them (the kinds they changed, the language). */
export async function loadPreferences(
  db: Queryable,
  userId: string,
): Promise<NotificationPreferences> {
  const [kinds, language] = await Promise.all([
    db.query<{ tipo: string; in_app: boolean; push: boolean }>(
      'SELECT tipo, in_app, push FROM rm_notification_preferences WHERE user_id = $1 ORDER BY tipo',
      [userId],
    ),
    db.query<{ idioma: string }>('SELECT idioma FROM rm_notification_language WHERE user_id = $1', [
      userId,
    ]),
  ]);
  const tipos: Partial<Record<NotificationKind, KindPreference>> = {};
  for (const row of kinds.rows)
    if (isNotificationKind(row.tipo)) tipos[row.tipo] = { app: row.in_app, push: row.push };
  const idioma = language.rows[0]?.idioma;
  return { idioma: isNotificationLang(idioma) ? idioma : null, tipos };
}

/** The language of the user's profile (`idioma` of the user document), else es. */
export async function profileLanguage(db: Queryable, userId: string): Promise<NotificationLang> {
  const { rows } = await db.query<{ idioma: string | null }>(
    "SELECT doc->>'idioma' AS idioma FROM rm_users WHERE id = $1",
    [userId],
  );
  const idioma = rows[0]?.idioma;
  return isNotificationLang(idioma) ? idioma : DEFAULT_NOTIFICATION_LANG;
}

/**
 * Each user's push language: the one chosen for notifications (the app's language setting), else
 * the profile's, else es (absent from the map).
 */
export async function pushLanguages(
  db: Queryable,
  userIds: readonly string[],
): Promise<Map<string, NotificationLang>> {
  const { rows } = await db.query<{ user_id: string; idioma: string | null }>(
    `SELECT u.id AS user_id, coalesce(l.idioma, u.doc->>'idioma') AS idioma
       FROM rm_users u LEFT JOIN rm_notification_language l ON l.user_id = u.id
      WHERE u.id = ANY($1::text[])`,
    [userIds],
  );
  const out = new Map<string, NotificationLang>();
  for (const r of rows) if (isNotificationLang(r.idioma)) out.set(r.user_id, r.idioma);
  return out;
}
