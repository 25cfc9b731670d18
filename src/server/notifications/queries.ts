/** The notifications' reads: a user's list, read map and unread count in one corporate. */
import type { Notification } from '../../core/notifications';
import type { Queryable } from '../store/db';

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
      WHERE i.user_id = $1 AND i.corporate_id = $2
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
    `SELECT notification_id AS id FROM rm_notification_inbox
      WHERE user_id = $1 AND corporate_id = $2 AND leida ORDER BY notification_id`,
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
    `SELECT notification_id AS id FROM rm_notification_inbox
      WHERE user_id = $1 AND corporate_id = $2 AND NOT leida ORDER BY notification_id`,
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
