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
import { LOGIN_PATH, roleIn } from '../core/navigation';
import { sessionMachine, type SessionCorporate } from '../machines/session.machine';
import { ApiRequestError, api, onUnauthorized, queryClient } from './lib/api';
import { corporateQuery } from './lib/corporate-access';
import {
  currentSessionUser,
  exchangeHostedToken,
  listenHostedAuth,
  loadSessionCorporates,
  signInWith,
  signOutEverywhere,
} from './lib/session-calls';
import {
  clearSessionState,
  registerSessionCleanup,
  removeAuthItem,
  storeAuthItem,
} from './lib/session-cleanup';

export type { CorporateListItem } from './lib/session-calls';

export type SessionActor = ActorRefFrom<typeof sessionMachine>;
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** Counts the session state's clearings (a sign-out, an ended session): see loadUser. */
let clearings = 0;
registerSessionCleanup('session-corporates', () => {
  clearings++;
});

/**
 * The user record and the user's corporates. `known`: the record the session check has just
 * answered (the page's start): the last session is then recorded beside the corporates' reads,
 * not waited for — a write, it was the slowest link before the first page (issue 21); its 401
 * still ends the session (onUnauthorized). Otherwise (after a sign-in, a refresh) the write's
 * answer is the record.
 */
async function loadUser(
  id: string,
  known: User | null = null,
): Promise<{ user: User | null; corporates: SessionCorporate[] }> {
  // The corporates are read beside the user record, not after it (issue 21: one round trip
  // less before the first page).
  const records: Corporate[] = [];
  const corporates = loadSessionCorporates((corporate) => records.push(corporate));
  // Settled here too: when the user record fails, its failure is the one reported.
  corporates.catch(() => undefined);
  const clearingsAtStart = clearings;
  // Records the last session (a POST: the spec's GET wsObtenerUsuario stays a read) and
  // answers the user record.
  const recorded = api<User>(`/api/users/${encodeURIComponent(id)}/ultima-sesion`, {
    method: 'POST',
  });
  let user: User;
  try {
    if (known) {
      recorded.catch(() => undefined);
      user = known;
    } else user = await recorded;
  } catch (error) {
    // The session exists but its user record does not: the machine logs out.
    if (error instanceof ApiRequestError && (error.status === 401 || error.status === 404))
      return { user: null, corporates: [] };
    throw error;
  }
  const list = await corporates;
  // Each approved corporate's record also fills the query its pages read by slug, so the
  // corporate route does not ask for it again; not when the session's state was cleared
  // meanwhile (a sign-out): another user's pages must not find this one's corporates.
  if (clearings === clearingsAtStart)
    for (const corporate of records) {
      const { queryKey } = corporateQuery(corporate.slug);
      if (queryClient.getQueryData(queryKey) === undefined)
        queryClient.setQueryData(queryKey, corporate);
    }
  return { user, corporates: list };
}

/**
 * The sign-in page is a page of its own (login.html, the light entry): a way there from inside
 * the application (a sign-out, an ended session, the guard) is a full navigation. A logout's
 * "Cerrando sesión…" flag is held for its second first (spec §4), over the page being left.
 */
function navigateTo(router: AnyRouter, actor: SessionActor, to: string, replace = false) {
  const pathname = to.split(/[?#]/)[0];
  if (pathname !== LOGIN_PATH) {
    void router.navigate({ href: to, replace });
    return;
  }
  const leave = () => (replace ? window.location.replace(to) : window.location.assign(to));
  if (!actor.getSnapshot().hasTag('logoutLoading')) leave();
  else void waitFor(actor, (s) => !s.hasTag('logoutLoading'), { timeout: Infinity }).then(leave);
}

/** Creates and starts the session actor for the application's router. */
export function startSession(router: AnyRouter): SessionActor {
  /** The record the last session check answered, for the user load that follows it (by id). */
  let checked: User | null = null;
  const machine = sessionMachine.provide({
    actors: {
      checkSession: fromPromise(async () => {
        const user = await currentSessionUser();
        checked = user;
        return user ? { id: user.id } : null;
      }),
      loadUser: fromPromise(({ input }) => {
        const known = checked?.id === input.id ? checked : null;
        checked = null;
        return loadUser(input.id, known);
      }),
      signIn: fromPromise(({ input }) => signInWith(input)),
      signOut: fromPromise(() => signOutEverywhere()),
      // The hosted service's state listener (issue 22); nothing on a built-in deployment.
      authListener: fromCallback(({ sendBack }) =>
        listenHostedAuth((signedIn) => sendBack({ type: 'session.authChanged', signedIn })),
      ),
      exchangeToken: fromPromise(() => exchangeHostedToken()),
    },
    actions: {
      navigate: (_, { to, replace }) => navigateTo(router, actor, to, replace),
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
