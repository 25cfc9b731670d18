/**
 * Web push in the browser (issue 15 point 4): asked only from a user's click
 * ({@link enablePush}); the app's service worker (src/ui/sw.ts, registered by
 * lib/service-worker.ts) shows what arrives. The spec's rule for the
 * permission is core/notifications.ts `pushPermissionGranted`. Sign-out removes this browser's
 * subscription ({@link disablePush}, registered as a session cleanup).
 */
import { pushPermissionGranted } from '../../core/notifications';
import { api } from './api';
import { serviceWorkerRegistration } from './service-worker';
import { registerSessionCleanup } from './session-cleanup';

export type PushState = 'unsupported' | 'denied' | 'enabled' | 'off';

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

/** Where this browser stands, without asking anything. */
export async function pushState(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  return subscription && pushPermissionGranted(Notification.permission) ? 'enabled' : 'off';
}

const toBytes = (base64url: string) => {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
};

/** Asks the permission (call it from a click), subscribes and registers the subscription. */
export async function enablePush(): Promise<PushState> {
  if (!pushSupported()) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (!pushPermissionGranted(permission)) return 'denied';
  // The app registers its worker at start; push needs it active to subscribe.
  if (!(await serviceWorkerRegistration())) return 'unsupported';
  const registration = await navigator.serviceWorker.ready;
  const { clavePublica } = await api<{ clavePublica: string }>('push/clave-publica');
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: toBytes(clavePublica),
  });
  const json = subscription.toJSON();
  await api('push/suscripciones', {
    method: 'POST',
    body: { endpoint: json.endpoint, keys: json.keys },
  });
  return 'enabled';
}

/** Removes this browser's subscription here and on the server (best effort). */
export async function disablePush(): Promise<void> {
  if (!pushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration('/');
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  await api('push/suscripciones/baja', {
    method: 'POST',
    body: { endpoint: subscription.endpoint },
  }).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}

// Sign-out: the browser stops receiving this user's pushes (a push service then answers 404/410
// to the server, which drops the subscription if the call above came too late).
registerSessionCleanup('push', () => {
  void disablePush();
});
