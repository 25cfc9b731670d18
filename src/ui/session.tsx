/**
 * The application's session: the session machine with its server calls and browser effects
 * provided, and the hooks screens use to render it. Screens only read the machine's state
 * (`useSession(selector)`, tags) and send it events; they never decide who is signed in.
 */

import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import {
  createActor,
  fromCallback,
  fromPromise,
  waitFor,
  type ActorRefFrom,
  type SnapshotFrom,
} from 'xstate';
import type { AnyRouter } from '@tanstack/react-router';
import type { Corporate, Role, User } from '../core/types';
import { roleIn } from '../core/navigation';
import { sessionMachine, type SessionCorporate } from '../machines/session.machine';
import { ApiRequestError, api, onUnauthorized } from './lib/api';
import { authProvider, exchangeIdToken, hostedAuth, loadedHostedAuth } from './lib/auth-provider';
import { clearSessionState, removeAuthItem, storeAuthItem } from './lib/session-cleanup';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** One entry of `wsObtenerCorporativos`. */
export interface CorporateListItem extends Pick<
  Corporate,
  'id' | 'slug' | 'nombre' | 'multiIdioma' | 'imagen' | 'colores'
> {
  aprobado: boolean;
}

async function loadUser(
  id: string,
): Promise<{ user: User | null; corporates: SessionCorporate[] }> {
  let user: User;
  try {
    // Records the last session (a POST: the spec's GET wsObtenerUsuario stays a read) and
    // answers the user record.
    user = await api<User>(`/api/users/${encodeURIComponent(id)}/ultima-sesion`, {
      method: 'POST',
    });
  } catch (error) {
    // The session exists but its user record does not: the machine logs out.
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404))
      return { user: null, corporates: [] };
    throw error;
  }
  const list = await api<CorporateListItem[]>('wsObtenerCorporativos');
  // Role lists (for adminHostes and the menu) come with each approved corporate.
  const corporates = await Promise.all(
    list.map(async (item): Promise<SessionCorporate> => {
      if (!item.aprobado) return { ...item };
      const full = await api<Corporate>('wsObtenerCorporativo', { query: { id: item.id } });
      return { ...item, roles: full.roles };
    }),
  );
  return { user, corporates };
}

/** Creates and starts the session actor for the application's router. */
export function startSession(router: AnyRouter): SessionActor {
  const machine = sessionMachine.provide({
    actors: {
      checkSession: fromPromise(async () => {
        try {
          // `null`: nobody signed in (answered without an error, so no 401 on public pages).
          const user = await api<User | null>('/api/auth/session');
          return user ? { id: user.id } : null;
        } catch (error) {
          if (error instanceof ApiRequestError && error.status === 401) return null;
          throw error;
        }
      }),
      loadUser: fromPromise(({ input }) => loadUser(input.id)),
      signIn: fromPromise(async ({ input }) => {
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
      }),
      signOut: fromPromise(async () => {
        const hosted = loadedHostedAuth();
        try {
          await api('/api/auth/logout', { method: 'POST' });
        } finally {
          // Signed out of both (issue 22): Firebase too, when it was loaded on this page.
          if (hosted) await (await hosted).signOut().catch(() => undefined);
        }
      }),
      // The hosted service's state listener (issue 22); nothing on a built-in deployment.
      authListener: fromCallback(({ sendBack }) => {
        let stop = () => {};
        let stopped = false;
        authProvider()
          .then(async (p) => {
            if (p.proveedor !== 'firebase' || stopped) return;
            const auth = await hostedAuth();
            if (!stopped)
              stop = auth.onChange((signedIn) =>
                sendBack({ type: 'session.authChanged', signedIn }),
              );
          })
          .catch(() => undefined);
        return () => {
          stopped = true;
          stop();
        };
      }),
      exchangeToken: fromPromise(async () => {
        const auth = await hostedAuth();
        const idToken = await auth.idToken();
        if (!idToken) throw new ApiRequestError(401, 'FIREBASE_TOKEN_INVALID', '', null);
        return exchangeIdToken(auth, idToken);
      }),
    },
    actions: {
      navigate: (_, { to, replace }) => {
        void router.navigate({ href: to, replace });
      },
      storeAuthItem: (_, { id }) => storeAuthItem(id),
      removeAuthItem: () => removeAuthItem(),
      clearFeatureState: () => clearSessionState(),
    },
  });
  const actor = createActor(machine, {
    input: {
      location: () => ({
        pathname: router.latestLocation.pathname,
        search: router.latestLocation.searchStr,
      }),
    },
  });
  onUnauthorized(() => actor.send({ type: 'session.expired' }));
  // Offline (the session machine could not reach the server): back online, look again at once.
  window.addEventListener('online', () => actor.send({ type: 'session.retry' }));
  actor.start();
  return actor;
}

/**
 * The session once it knows who is there: signed in, or signed out (the sign-in form and the
 * logout included), not while it is still checking or signing in. Route `beforeLoad`s wait for
 * it; `signal` stops the wait when the navigation is abandoned.
 */
export function settledSession(
  actor: SessionActor,
  signal?: AbortSignal,
): Promise<SessionSnapshot> {
  return waitFor(actor, (s) => !s.hasTag('checking') && !s.hasTag('busy'), {
    timeout: Infinity,
    ...(signal ? { signal } : {}),
  });
}

const SessionContext = createContext<SessionActor | null>(null);

export function SessionProvider({ actor, children }: { actor: SessionActor; children: ReactNode }) {
  return <SessionContext.Provider value={actor}>{children}</SessionContext.Provider>;
}

export function useSessionActor(): SessionActor {
  const actor = useContext(SessionContext);
  if (!actor) throw new Error('useSessionActor outside SessionProvider');
  return actor;
}

/** Reads from the session's state; re-renders only when the selected value changes. */
export function useSession<T>(
  selector: (snapshot: SessionSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useSessionActor(), selector, compare);
}

/** The signed-in user (null while checking or signed out). */
export function useUser(): User | null {
  return useSession((s) => s.context.user);
}

export function useSessionCorporates(): SessionCorporate[] {
  return useSession((s) => s.context.corporates);
}

/** The user's role in a corporate of the session. */
export function roleOf(
  user: User | null,
  corporate: SessionCorporate | Corporate | null | undefined,
): Role | null {
  if (!user || !corporate) return null;
  return roleIn(user, corporate) ?? null;
}
