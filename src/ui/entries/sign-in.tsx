/**
 * The sign-in page's own entry (login.html, served for GET /login): React, i18next with the
 * page's texts only and a small flow over the session's server calls (lib/sign-in-flow.ts), so
 * /login loads a fraction of the application (issue 21: its JavaScript within 1.5× the smallest
 * React app's). After the sign-in the flow loads the application at the user's page with a full
 * navigation.
 */

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { LoginPage, redirectQuery } from '../features/shell/components/login-page';
import { initSignInI18n } from '../i18n/sign-in';
import {
  currentSessionUser,
  exchangeHostedToken,
  listenHostedAuth,
  loadSessionCorporates,
  signInWith,
  signOutEverywhere,
} from '../lib/session-calls';
import { markArrival } from '../lib/arrival-focus';
import { createSignInFlow } from '../lib/sign-in-flow';
import { removeAuthItem, removeSessionKeys, storeAuthItem } from '../lib/session-storage';
import '../index.css';

const redirect = redirectQuery(window.location.search);

const flow = createSignInFlow(
  {
    sessionUser: currentSessionUser,
    corporates: loadSessionCorporates,
    signIn: signInWith,
    signOut: signOutEverywhere,
    exchange: exchangeHostedToken,
    listenHosted: listenHostedAuth,
    // The application loads at the target, focus at its heading; Back does not return here.
    leave: (to) => {
      markArrival();
      window.location.replace(to);
    },
    storeAuthItem,
    forgetSession: () => {
      removeAuthItem();
      removeSessionKeys();
    },
  },
  redirect ?? null,
);
// The session is asked for while the texts are set up: a signed-in visitor is sent on sooner.
flow.start();

// The installable app's worker (src/ui/sw.ts), registered as the application registers it, but
// without workbox-window: the update prompt is the application's. After the load, so its
// precaching does not compete with the page.
if (import.meta.env.PROD && 'serviceWorker' in navigator)
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  });

void initSignInI18n().then(() => {
  const root = createRoot(document.getElementById('root')!);
  // A transition: React renders the page in slices and yields between them, so a slow phone's
  // main thread is not blocked by one long task (Lighthouse's total blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <LoginPage flow={flow} redirect={redirect} />
      </StrictMode>,
    ),
  );
});
