/**
 * The session's server calls, shared by the application's session machine (session.tsx wraps
 * them as its actors) and the light sign-in page (lib/sign-in-flow.ts), so both sign in, sign
 * out and follow the hosted service (issue 22) the same way. Only the fetch core (api-client.ts)
 * and the provider (auth-provider.ts, which loads Firebase on demand) are imported: nothing of
 * the query layer, the router or XState.
 */

import type { Corporate, User } from '../../core/types';
import type { Credentials, SessionCorporate } from '../../machines/session.machine';
import { ApiRequestError, api } from './api-client';
import { authProvider, exchangeIdToken, hostedAuth, loadedHostedAuth } from './auth-provider';

/** One entry of `wsObtenerCorporativos`. */
export interface CorporateListItem extends Pick<
  Corporate,
  'id' | 'slug' | 'nombre' | 'multiIdioma' | 'imagen' | 'colores'
> {
  aprobado: boolean;
}

/** The user's corporates, with the role lists of the approved ones (for adminHostes and the menu). */
export async function loadSessionCorporates(
  /** Given each approved corporate's whole record as it arrives (the app keeps it for its pages). */
  onCorporate?: (corporate: Corporate) => void,
): Promise<SessionCorporate[]> {
  const list = await api<CorporateListItem[]>('wsObtenerCorporativos');
  return Promise.all(
    list.map(async (item): Promise<SessionCorporate> => {
      if (!item.aprobado) return { ...item };
      const full = await api<Corporate>('wsObtenerCorporativo', { query: { id: item.id } });
      onCorporate?.(full);
      return { ...item, roles: full.roles };
    }),
  );
}

/** The signed-in user of the session cookie, or null (a visitor without one, or a 401). */
export async function currentSessionUser(): Promise<User | null> {
  try {
    // `null`: nobody signed in (answered without an error, so no 401 on public pages).
    return await api<User | null>('/api/auth/session');
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 401) return null;
    throw error;
  }
}

/** Signs in; answers the account, or rejects with `{ errorCode, message }`. */
export async function signInWith(input: Credentials): Promise<{ id: string }> {
  // Under Firebase (issue 22): its sign-in, then its ID token once for our session.
  if ((await authProvider()).proveedor === 'firebase') {
    const auth = await hostedAuth();
    const idToken = input.google
      ? await auth.signInWithGoogle()
      : await auth.signIn({ email: input.email, password: input.password });
    return exchangeIdToken(auth, idToken);
  }
  const user = await api<User>('/api/auth/login', {
    method: 'POST',
    body: { email: input.email, password: input.password },
  });
  return { id: user.id };
}

/** Ends the session on the server, and Firebase's too when it was loaded on this page. */
export async function signOutEverywhere(): Promise<void> {
  const hosted = loadedHostedAuth();
  try {
    await api('/api/auth/logout', { method: 'POST' });
  } finally {
    if (hosted) await (await hosted).signOut().catch(() => undefined);
  }
}

/**
 * The hosted service's state listener (issue 22): `onChange(signedIn)` on each change; nothing
 * on a built-in deployment. Answers the stop.
 */
export function listenHostedAuth(onChange: (signedIn: boolean) => void): () => void {
  let stop = () => {};
  let stopped = false;
  authProvider()
    .then(async (p) => {
      if (p.proveedor !== 'firebase' || stopped) return;
      const auth = await hostedAuth();
      if (!stopped) stop = auth.onChange(onChange);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    stop();
  };
}

/** Exchanges the hosted service's ID token for our session; answers the account. */
export async function exchangeHostedToken(): Promise<{ id: string }> {
  const auth = await hostedAuth();
  const idToken = await auth.idToken();
  if (!idToken) throw new ApiRequestError(401, 'FIREBASE_TOKEN_INVALID', '', null);
  return exchangeIdToken(auth, idToken);
}
