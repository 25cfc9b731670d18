/**
 * `/login?redirect=…`: the sign-in page is a page of its own (login.html, entries/sign-in.tsx),
 * which the server answers for /login and the service worker leaves to the server. A way there
 * from inside the application (a link, a guard's redirect) leaves the application with a full
 * navigation; the session machine's own ways there (sign-out, an ended session) do the same
 * (session.tsx).
 */

import { createFileRoute } from '@tanstack/react-router';
import { LOGIN_PATH } from '../../core/navigation';
import { LoadingScreen } from '../components/loading-screen';
import { onlyValidated } from '../lib/route-search';

interface LoginSearch {
  redirect?: string;
}

/**
 * This document is the application's shell answered for /login itself: a service worker from
 * before the sign-in page had its own (it answered every navigation with the shell), or a server
 * without login.html. Loading /login again would answer the same.
 */
const documentAtLogin = window.location.pathname === LOGIN_PATH;

/** Lets a newer service worker (which leaves /login to the server) take over; true when one did. */
async function activateNewerWorker(): Promise<boolean> {
  const registration = await navigator.serviceWorker?.getRegistration().catch(() => undefined);
  if (!registration) return false;
  await registration.update().catch(() => undefined);
  const next = registration.waiting ?? registration.installing;
  if (!next) return false;
  await new Promise<void>((done) => {
    navigator.serviceWorker.addEventListener('controllerchange', () => done(), { once: true });
    // The user is signed out: nothing of theirs is lost by updating now.
    next.postMessage({ type: 'SKIP_WAITING' });
    setTimeout(done, 5000);
  });
  return true;
}

async function leaveForSignIn(searchStr: string): Promise<void> {
  const path = !documentAtLogin || (await activateNewerWorker()) ? LOGIN_PATH : '/login.html';
  window.location.replace(`${path}${searchStr}`);
}

export const Route = createFileRoute('/login')({
  validateSearch: onlyValidated((search: Record<string, unknown>): LoginSearch =>
    typeof search.redirect === 'string' ? { redirect: search.redirect } : {},
  ),
  beforeLoad: async ({ location }) => {
    // The router has already written /login into the history: replaced by the page itself.
    await leaveForSignIn(location.searchStr);
    // Nothing of the application renders while the browser leaves for the sign-in page.
    return new Promise<never>(() => {});
  },
  component: () => <LoadingScreen fullScreen />,
});
