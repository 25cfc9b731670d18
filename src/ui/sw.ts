/**
 * Vitrina's service worker (issue 15), compiled by vite-plugin-pwa (`injectManifest`, see
 * vite.config.ts) into `/sw.js`.
 *
 * - The app shell and static assets are precached (the build injects their list and revisions
 *   below), so a showroom tablet opens the app on a flaky connection, and every navigation to
 *   an app route answers `index.html` from the cache.
 * - Nothing under `/api` is ever cached or answered from here: API answers carry personal data,
 *   and a stale one would be wrong anyway. Those requests go to the network untouched.
 * - A new version waits until the user accepts the "update available" prompt
 *   (components/update-prompt.tsx), which posts `SKIP_WAITING`; only the very first install takes
 *   control at once, so that first visit already works offline on its next load.
 * - Web push (spec §7): a push shows a notification; a click focuses an open tab of the app and
 *   takes it to the notification's page, or opens one. The payload is
 *   `{ titulo, mensaje, url, tag }` (server/notifications/push.ts).
 */
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { notificationTarget, planNotificationClick } from './lib/notification-click';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: (string | { url: string; revision: string | null })[];
};

/**
 * Navigations that always go to the server: the API, the e2e server's test hooks, the
 * development mailbox (`/dev/correos`, pages the server writes: mail/dev.routes.ts), the
 * public pages, which corporate websites embed and which therefore carry other headers than the
 * shell (`frame-ancestors *`, no X-Frame-Options): a cached shell would refuse to be framed, and
 * the sign-in page, a page of its own (login.html, issue 21) that needs the server anyway.
 */
const NETWORK_NAVIGATIONS = [
  /^\/api(\/|$)/,
  /^\/__test__(\/|$)/,
  /^\/dev\//,
  /^\/public\//,
  /^\/login(\.html)?(\?|$)/,
];

// In development (vite-plugin-pwa's devOptions) the manifest is empty and Vite serves the
// modules: only the push handlers below are live there.
if (import.meta.env.PROD) {
  precacheAndRoute(self.__WB_MANIFEST);
  cleanupOutdatedCaches();
  registerRoute(
    new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: NETWORK_NAVIGATIONS }),
  );
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

interface PushPayload {
  titulo?: unknown;
  mensaje?: unknown;
  url?: unknown;
  tag?: unknown;
}

function readPush(event: PushEvent): PushPayload {
  if (!event.data) return {};
  try {
    const data: unknown = event.data.json();
    return data && typeof data === 'object' ? data : {};
  } catch {
    return { mensaje: event.data.text() };
  }
}

self.addEventListener('push', (event) => {
  const data = readPush(event);
  const title = typeof data.titulo === 'string' && data.titulo ? data.titulo : 'Vitrina';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.mensaje === 'string' ? data.mensaje : '',
      ...(typeof data.tag === 'string' ? { tag: data.tag } : {}),
      icon: '/pwa-192x192.png',
      data: { url: typeof data.url === 'string' ? data.url : '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const origin = self.location.origin;
  const url = notificationTarget(
    (event.notification.data as { url?: unknown } | null)?.url,
    origin,
  );
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const plan = planNotificationClick(windows, url, origin);
      switch (plan.action) {
        case 'focus':
          await plan.client.focus();
          return;
        case 'navigate':
          await (await plan.client.focus()).navigate(url);
          return;
        case 'open':
          await self.clients.openWindow(url);
          return;
        default: {
          const unhandled: never = plan;
          throw new Error(`unknown plan ${JSON.stringify(unhandled)}`);
        }
      }
    })(),
  );
});
