/// <reference types="vite-plugin-pwa/vanillajs" />
/**
 * The page's side of the service worker (src/ui/sw.ts, built to `/sw.js` by vite-plugin-pwa):
 * registered once at start ({@link startServiceWorker}, from main.tsx), through the plugin's
 * `virtual:pwa-register` (workbox-window underneath).
 *
 * When a new version has been deployed, its worker installs beside the running one and waits;
 * {@link useUpdateAvailable} turns true and the update prompt (components/update-prompt.tsx)
 * offers to reload. {@link applyUpdate} tells the waiting worker to take over and reloads the page
 * once it controls it. Push (lib/push.ts) subscribes through the same registration.
 */
import { useSyncExternalStore } from 'react';
import { registerSW } from 'virtual:pwa-register';

/** A tablet left open all day still learns of a new version: the browser only checks on loads. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let started = false;
let updateAvailable = false;
let applyWaiting: ((reloadPage?: boolean) => Promise<void>) | undefined;
const listeners = new Set<() => void>();
let settleRegistration: (r: ServiceWorkerRegistration | undefined) => void = () => undefined;
const registration = new Promise<ServiceWorkerRegistration | undefined>((resolve) => {
  settleRegistration = resolve;
});

function setUpdateAvailable(value: boolean) {
  updateAvailable = value;
  for (const listener of listeners) listener();
}

/**
 * How long after the load event the worker is registered. Its install downloads every asset of
 * the app (the precache, ~110 files) and runs on the same cores as the first page, which is still
 * reading and drawing its data then (issue 21: the availability's time to interactive): the first
 * page gets the device to itself for these seconds, and the app still works offline from its next
 * load.
 */
export const REGISTER_AFTER_LOAD_MS = 4000;

let register = () => {};

/**
 * Registers the worker a few seconds after the page's load event ({@link REGISTER_AFTER_LOAD_MS}),
 * or at once when something needs it ({@link serviceWorkerRegistration}); a browser without
 * workers is left as is.
 */
export function startServiceWorker(): void {
  if (started) return;
  started = true;
  // A visitor of a public page (a shared quotation, an availability embedded in a corporate
  // website) is not a user of the app: no worker and nothing precached in their browser.
  if (!('serviceWorker' in navigator) || window.location.pathname.startsWith('/public/')) {
    settleRegistration(undefined);
    return;
  }
  let registered = false;
  register = () => {
    if (registered) return;
    registered = true;
    applyWaiting = registerSW({
      immediate: true,
      onNeedRefresh: () => setUpdateAvailable(true),
      onRegisteredSW: (_url, r) => {
        settleRegistration(r);
        if (r) setInterval(() => void r.update().catch(() => undefined), UPDATE_CHECK_MS);
      },
      onRegisterError: () => settleRegistration(undefined),
    });
  };
  const later = () => setTimeout(register, REGISTER_AFTER_LOAD_MS);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

/** The app's registration (registering it now if not yet); undefined where there is none. */
export function serviceWorkerRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  startServiceWorker();
  register();
  return registration;
}

/** True while a new version waits for the user's go-ahead. */
export function useUpdateAvailable(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => updateAvailable,
  );
}

/** "Later": hides the prompt; the new version starts once every tab of the app has closed. */
export function dismissUpdate(): void {
  setUpdateAvailable(false);
}

/** "Reload": the waiting worker takes over and the page reloads under it. */
export async function applyUpdate(): Promise<void> {
  await applyWaiting?.(true);
  // workbox-window reloads when the new worker takes control; should the waiting worker have
  // gone meanwhile (another tab took it over), a plain reload still picks up the new version.
  setTimeout(() => window.location.reload(), 5000);
}
