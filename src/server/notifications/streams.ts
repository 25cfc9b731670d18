/** The streams of the notifications area. */

/** One notification (core/notifications.ts): one `NotificationSent`. */
export const notificationStream = (corporateId: string, id: string) =>
  `notification:${corporateId}:${id}`;

/** One user's read marks in one corporate. */
export const notificationReadsStream = (corporateId: string, userId: string) =>
  `notification-reads:${corporateId}:${userId}`;

/** One user's notification preferences (every corporate). */
export const notificationPreferencesStream = (userId: string) =>
  `notification-preferences:${userId}`;
