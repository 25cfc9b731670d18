/**
 * The notifications' read models: `rm_notifications` (one row per notification),
 * `rm_notification_inbox` (one row per recipient, with the read mark), and each user's
 * preferences (core/notification-preferences.ts): `rm_notification_preferences` (per user and
 * kind, only the kinds the user changed) and `rm_notification_language` (push messages' language).
 */
import type { NotificationPreferencesEvent } from '../../core/notification-preferences';
import type {
  Notification,
  NotificationEvent,
  NotificationReadEvent,
} from '../../core/notifications';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

export const notificationsProjection: Projection = {
  name: 'notifications',
  tables: [
    'rm_notifications',
    'rm_notification_inbox',
    'rm_notification_preferences',
    'rm_notification_language',
  ],
  handles: [
    'NotificationSent',
    'NotificationRead',
    'NotificationsAllRead',
    'NotificationPreferencesChanged',
    'NotificationLanguageChosen',
  ],
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as
      NotificationEvent | NotificationReadEvent | NotificationPreferencesEvent;
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
      case 'NotificationPreferencesChanged':
        for (const [tipo, value] of Object.entries(event.data.tipos)) {
          if (!value) continue;
          await tx.query(
            `INSERT INTO rm_notification_preferences (user_id, tipo, in_app, push)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id, tipo) DO UPDATE SET in_app = EXCLUDED.in_app, push = EXCLUDED.push`,
            [event.data.idUsuario, tipo, value.app, value.push],
          );
        }
        return;
      case 'NotificationLanguageChosen':
        await tx.query(
          `INSERT INTO rm_notification_language (user_id, idioma) VALUES ($1, $2)
           ON CONFLICT (user_id) DO UPDATE SET idioma = EXCLUDED.idioma`,
          [event.data.idUsuario, event.data.idioma],
        );
        return;
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  },
};
