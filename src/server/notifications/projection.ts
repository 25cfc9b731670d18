/**
 * The notifications' read models: `rm_notifications` (one row per notification) and
 * `rm_notification_inbox` (one row per recipient, with the read mark).
 */
import type {
  Notification,
  NotificationEvent,
  NotificationReadEvent,
} from '../../core/notifications';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

export const notificationsProjection: Projection = {
  name: 'notifications',
  // rm_notification_preferences belongs here too: the preference events (issue 15 point 6) are not
  // built yet, so a rebuild leaves it empty, as the log leaves it.
  tables: ['rm_notifications', 'rm_notification_inbox', 'rm_notification_preferences'],
  handles: ['NotificationSent', 'NotificationRead', 'NotificationsAllRead'],
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as
      NotificationEvent | NotificationReadEvent;
    switch (event.type) {
      case 'NotificationSent': {
        const n: Notification = event.data;
        const at = new Date(n.fechaAlta).toISOString();
        await tx.query(
          `INSERT INTO rm_notifications (id, corporate_id, tipo, fecha_alta, doc)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO NOTHING`,
          [n.id, n.idCorporativo, n.tipo, at, JSON.stringify(n)],
        );
        await tx.query(
          `INSERT INTO rm_notification_inbox (user_id, notification_id, corporate_id, fecha_alta, leida)
           SELECT u, $2, $3, $4, false FROM unnest($1::text[]) AS u
           ON CONFLICT (user_id, notification_id) DO NOTHING`,
          [n.destinatarios, n.id, n.idCorporativo, at],
        );
        return;
      }
      case 'NotificationRead':
        await tx.query(
          'UPDATE rm_notification_inbox SET leida = true WHERE user_id = $1 AND notification_id = $2',
          [event.data.idUsuario, event.data.idNotificacion],
        );
        return;
      case 'NotificationsAllRead':
        await tx.query(
          'UPDATE rm_notification_inbox SET leida = true WHERE user_id = $1 AND notification_id = ANY($2::text[])',
          [event.data.idUsuario, event.data.ids],
        );
        return;
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  },
};
