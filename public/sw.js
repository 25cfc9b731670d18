/*
 * Vitrina's service worker (issue 15): shows the notifications that web push delivers (spec §7:
 * "push messages delivered through a service worker create a notification") and, on a click,
 * focuses an open tab of the app and takes it to the notification's page, or opens one.
 * The payload is `{ titulo, mensaje, url, tag }` (server/notifications/push.ts). Nothing is
 * cached here: API answers carry personal data.
 */
self.addEventListener('install', () => {
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { mensaje: event.data ? event.data.text() : '' };
  }
  const title = typeof data.titulo === 'string' && data.titulo ? data.titulo : 'Vitrina';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.mensaje === 'string' ? data.mensaje : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      icon: '/icon.svg',
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const raw = (event.notification.data && event.notification.data.url) || '/';
  const target = new URL(raw, self.location.origin);
  // Only pages of the app itself.
  const url = target.origin === self.location.origin ? target.href : self.location.origin + '/';
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of windows) {
        if (new URL(client.url).origin !== self.location.origin) continue;
        const focused = await client.focus();
        if ('navigate' in focused) await focused.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
