/**
 * Where a click on a push notification leads (the service worker's `notificationclick`,
 * src/ui/sw.ts), as pure functions so they are tested without a browser.
 */

/** The notification's target as an absolute URL of the app; anything else leads home. */
export function notificationTarget(raw: unknown, origin: string): string {
  try {
    const target = new URL(typeof raw === 'string' && raw ? raw : '/', origin);
    return target.origin === origin ? target.href : `${origin}/`;
  } catch {
    return `${origin}/`;
  }
}

export type NotificationClickPlan<W> =
  { action: 'focus'; client: W } | { action: 'navigate'; client: W } | { action: 'open' };

/**
 * A tab of the app already showing the target is only focused; otherwise the first tab of the
 * app is focused and taken there; with none open, a new window opens the target. Windows of
 * other origins are never touched.
 */
export function planNotificationClick<W extends { url: string }>(
  windows: readonly W[],
  target: string,
  origin: string,
): NotificationClickPlan<W> {
  const ours = windows.filter((w) => {
    try {
      return new URL(w.url).origin === origin;
    } catch {
      return false;
    }
  });
  const showing = ours.find((w) => w.url === target);
  if (showing) return { action: 'focus', client: showing };
  const first = ours[0];
  return first ? { action: 'navigate', client: first } : { action: 'open' };
}
