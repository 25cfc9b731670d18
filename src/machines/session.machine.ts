/**
 * The session (spec §2 session guard, §4 session): checking → signed in / signed out.
 *
 * - On start the machine asks the server for the signed-in account and loads its user record.
 *   If no signed-in user is found within `sessionGrace` (3000 ms) the user is logged out; the
 *   current path is kept when it carries a `folio` query parameter. "Found" needs an answer: a
 *   question still out when the 3000 ms pass (a slow server, a loaded tablet) is waited for, and
 *   its answer decides at once — nobody signed in logs out, the user's record signs in. A signed-in
 *   adviser is not logged out because the server answered in 3.2 s. A question with no answer
 *   after `answerLimit` (10 s more) is treated as no answer at all: offline, nothing revoked.
 * - A signed-in account without a user record is logged out.
 * - Logout: server sign-out, clear the user, remove the stored auth item, navigate to /login
 *   (with the redirect if given), clear leads, check-in and comparator state, and hold the
 *   logout-loading flag (tag `logoutLoading`) for `logoutFlag` (1000 ms).
 *
 * Every side effect is named: the four server calls are `fromPromise` actors and the browser
 * effects are actions, so the application provides them (`src/ui/session.ts`) and tests swap
 * them with `sessionMachine.provide(…)`.
 *
 * A hosted sign-in service (issue 22, spec §7 "a hosted authentication service handles sign-in,
 * sign-out and the state listener"): the `authListener` callback actor, invoked for the machine's
 * whole life, reports the service's state (`onAuthStateChanged`) as `session.authChanged`. With
 * the built-in provider it reports nothing and every path above is unchanged. With Firebase:
 * - signed in to the service but not to the server (a reload after our session ended, another
 *   tab's sign-in): the service's ID token is exchanged once for our session (`exchangeToken`),
 *   inside the same 3000 ms guard, then the user record is loaded as after any sign-in;
 * - signed in, and the service reports a sign-out it had reported signed in (another tab signed
 *   out, the account was disabled): logged out as when the server forgets the session;
 * - `signIn` and `signOut` are the service's (the application signs in and out of both).
 */

import { and, assign, or, enqueueActions, fromCallback, fromPromise, setup, stateIn } from 'xstate';
import {
  LOGIN_PATH,
  keepsPathOnLogout,
  loginPath,
  redirectAfterLogin,
  rootRedirect,
  type NavCorporate,
} from '../core/navigation';
import type { Corporate, User } from '../core/types';
import { isUnanswered, toSessionError, type SessionError } from './session-errors';

export { isUnanswered, toSessionError, type SessionError } from './session-errors';

/** A corporate of the user as the shell needs it (`aprobado` false: registered, approval pending). */
export type SessionCorporate = NavCorporate &
  Pick<Corporate, 'nombre' | 'multiIdioma'> &
  Partial<Pick<Corporate, 'imagen' | 'colores'>> & {
    aprobado: boolean;
  };

export interface SessionData {
  user: User;
  corporates: SessionCorporate[];
}

export interface Credentials {
  email: string;
  password: string;
  /** Sign in with Google through the hosted service (issue 22) instead of the password. */
  google?: boolean;
}

export interface SessionLocation {
  pathname: string;
  /** The query string, with or without its leading `?`. */
  search: string;
}

export interface SessionContext {
  /** The signed-in account (from the session or the sign-in), before its record is loaded. */
  accountId: string | null;
  user: User | null;
  corporates: SessionCorporate[];
  /** The last sign-in failure, shown by the login page. */
  error: SessionError | null;
  /** The redirect query of the sign-in in progress. */
  redirect: string | null;
  /** Where the logout in progress sends the user: a login path, or null to keep the current path. */
  logoutTarget: string | null;
  location: () => SessionLocation;
  /**
   * The hosted sign-in service's last report (Firebase's `onAuthStateChanged`): null before any
   * (and always with the built-in provider).
   */
  hostedSignedIn: boolean | null;
  /** The 3000 ms guard has passed while a question was still out: its answer decides at once. */
  graceOver: boolean;
}

/** Pages for people who are not signed in: the public pages and the people pages (issue 16). */
const SIGNED_OUT_PAGES = ['/public/', '/acceso', '/recuperar', '/registro'];

export function isSignedOutPage(pathname: string): boolean {
  return SIGNED_OUT_PAGES.some(
    (p) =>
      pathname.startsWith(p) &&
      (p.endsWith('/') || pathname.length === p.length || pathname[p.length] === '/'),
  );
}

export type SessionEvent =
  | {
      type: 'session.signIn';
      email: string;
      password: string;
      redirect?: string | null;
      google?: boolean;
    }
  | { type: 'session.signOut'; redirect?: string | null }
  /** An API call answered 401: the server no longer knows the session. */
  | { type: 'session.expired' }
  /** The user record changed (favourite corporate, profile). */
  | { type: 'session.userUpdated'; user: User }
  /** Reload the user and corporates (after a membership change). */
  | { type: 'session.refresh' }
  /** Offline: ask the server again now (the offline notice's button, the browser back online). */
  | { type: 'session.retry' }
  /** The hosted sign-in service's state listener (issue 22): signed in to it or not. */
  | { type: 'session.authChanged'; signedIn: boolean };

export interface SessionInput {
  /** The current location; read when a rule needs it (the session guard, the root behaviour). */
  location: () => SessionLocation;
}

/** How long to wait before asking for the user again after an unanswered request. */
export const USER_RETRY_MS = 500;

/** After the 3000 ms guard, how long a question still out is waited for before it counts as unanswered. */
export const ANSWER_LIMIT_MS = 10_000;

/** Offline: how long before asking the server again on its own. */
export const OFFLINE_RETRY_MS = 5000;

const notProvided = (name: string) => () =>
  Promise.reject(new Error(`session actor ${name} was not provided`));

function currentPath(location: SessionLocation): string {
  const search =
    location.search && !location.search.startsWith('?') ? `?${location.search}` : location.search;
  return `${location.pathname}${search}`;
}

/** Where a logout goes: nowhere with a folio (the path is kept), else /login with the redirect. */
function logoutTargetFor(
  location: SessionLocation,
  redirect: string | null | undefined,
): string | null {
  // Already on the login page: stay, with its own redirect query.
  if (keepsPathOnLogout(location.search) || location.pathname === LOGIN_PATH) return null;
  return loginPath(redirect);
}

/**
 * The guard's rule when nobody is found, applied when the 3000 ms pass (`graceOver` false) or,
 * for a question still out then, when its answer says nobody is signed in (`graceOver` true).
 */
function nobodyFound(graceOver: boolean) {
  const when = (guard: 'quietLogout' | 'guardedPage') =>
    graceOver ? and(['graceOver', guard]) : guard;
  return [
    {
      guard: when('quietLogout'),
      target: '#session.signedOut',
      actions: ['removeAuthItem', 'clearFeatureState'],
    },
    { guard: when('guardedPage'), target: '#session.loggingOut', actions: 'logoutHere' },
  ] as const;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    tags: '' as 'checking' | 'busy' | 'signedIn' | 'signedOut' | 'logoutLoading' | 'offline',
  },
  actors: {
    /** The account of the current session cookie, or null when there is none (HTTP 401). */
    checkSession: fromPromise<{ id: string } | null>(notProvided('checkSession')),
    /** The user record and the user's corporates; `user: null` when the record does not exist. */
    loadUser: fromPromise<{ user: User | null; corporates: SessionCorporate[] }, { id: string }>(
      notProvided('loadUser'),
    ),
    /** Signs in; answers the account, or rejects with `{ errorCode, message }`. */
    signIn: fromPromise<{ id: string }, Credentials>(notProvided('signIn')),
    /** Revokes the session on the server. */
    signOut: fromPromise<void>(notProvided('signOut')),
    /**
     * The hosted service's state listener (issue 22): sends `session.authChanged` on each change.
     * The built-in provider has none: by default it reports nothing.
     */
    authListener: fromCallback<SessionEvent>(() => () => {}),
    /** Exchanges the hosted service's ID token for our session; answers the account. */
    exchangeToken: fromPromise<{ id: string }>(notProvided('exchangeToken')),
  },
  actions: {
    /** Navigates inside the application (`replace` for redirects the user did not ask for). */
    navigate: (_, _params: { to: string; replace?: boolean }) => {},
    /** Stores the non-secret auth item (the signed-in account id) in local storage. */
    storeAuthItem: (_, _params: { id: string }) => {},
    /** Removes the stored auth item. */
    removeAuthItem: () => {},
    /** Clears leads, check-in and comparator state, and every cached query of the user. */
    clearFeatureState: () => {},
    /** The guard's logout goes to /login with the current path as its redirect (or stays). */
    logoutHere: assign({
      logoutTarget: ({ context }) => {
        const location = context.location();
        return logoutTargetFor(location, currentPath(location));
      },
    }),
    /** Remembers the hosted service's last report (issue 22). */
    recordHostedState: assign({
      hostedSignedIn: ({ context, event }) =>
        event.type === 'session.authChanged' ? event.signedIn : context.hostedSignedIn,
    }),
  },
  guards: {
    unanswered: ({ event }) => isUnanswered((event as { error?: unknown }).error),
    hasAccount: (_, output: { id: string } | null) => output !== null,
    hasUser: (_, output: { user: User | null }) => output.user !== null,
    hostedSignedIn: ({ context }) => context.hostedSignedIn === true,
    graceOver: ({ context }) => context.graceOver,
    /**
     * A visitor on the login page whom the server already knows to be signed out is logged out
     * quietly: the local state is cleared, but there is no session to end, nowhere to go, and no
     * "Cerrando sesión…" overlay over the form they are using.
     */
    quietLogout: and([
      stateIn('#session.resolving.awaitingUser'),
      ({ context }) => context.location().pathname === LOGIN_PATH,
    ]),
    /**
     * Visitors of the public pages (spec §1) and of the signed-out people pages (a mailed link's
     * password, recovery, a broker's registration) are never logged out or sent to /login.
     */
    guardedPage: ({ context }) => !isSignedOutPage(context.location().pathname),
    /** A request of the session check is out, its answer not yet here. */
    questionOut: or([
      stateIn('#session.resolving.checking'),
      stateIn('#session.resolving.loadingUser'),
      stateIn('#session.resolving.exchanging'),
    ]),
    /** The service reports a sign-out after it had reported a sign-in on this page. */
    hostedSignedOut: ({ context, event }) =>
      event.type === 'session.authChanged' && !event.signedIn && context.hostedSignedIn === true,
  },
  delays: {
    userRetry: USER_RETRY_MS,
    offlineRetry: OFFLINE_RETRY_MS,
    sessionGrace: 3000,
    answerLimit: 3000 + ANSWER_LIMIT_MS,
    logoutFlag: 1000,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    accountId: null,
    user: null,
    corporates: [],
    error: null,
    redirect: null,
    logoutTarget: null,
    location: input.location,
    hostedSignedIn: null,
    graceOver: false,
  }),
  invoke: { src: 'authListener' },
  on: {
    'session.authChanged': { actions: 'recordHostedState' },
  },
  initial: 'resolving',
  states: {
    /** Looking for a signed-in user; the guard logs out after `sessionGrace`. */
    resolving: {
      entry: assign({ graceOver: false }),
      initial: 'checking',
      after: {
        sessionGrace: [
          {
            // Still no answer from the server when the guard comes: offline, not signed out (a
            // showroom tablet on a flaky connection keeps its session).
            guard: stateIn('#session.resolving.retryingUser'),
            target: 'offline',
          },
          {
            // A question still out (a slow answer, not no answer): its answer decides.
            guard: 'questionOut',
            actions: assign({ graceOver: true }),
          },
          ...nobodyFound(false),
        ],
        answerLimit: {
          // Waited 10 s past the guard and still no answer: as if none came (offline).
          guard: and(['questionOut', 'graceOver']),
          target: 'offline',
        },
      },
      on: {
        'session.signIn': {
          target: 'signingIn',
          actions: assign({ redirect: ({ event }) => event.redirect ?? null, error: null }),
        },
      },
      states: {
        checking: {
          tags: ['checking'],
          invoke: {
            src: 'checkSession',
            onDone: [
              {
                guard: { type: 'hasAccount', params: ({ event }) => event.output },
                target: 'loadingUser',
                actions: assign({ accountId: ({ event }) => event.output?.id ?? null }),
              },
              { target: 'awaitingUser' },
            ],
            onError: [
              // No answer at all (offline): wait for the network, never log out.
              { guard: 'unanswered', target: '#session.offline' },
              // Any other failure: nobody is found, the guard decides.
              { target: 'awaitingUser' },
            ],
          },
        },
        loadingUser: {
          tags: ['checking'],
          invoke: {
            src: 'loadUser',
            input: ({ context }) => ({ id: context.accountId ?? '' }),
            onDone: [
              {
                guard: { type: 'hasUser', params: ({ event }) => event.output },
                target: '#session.signedIn',
                actions: [
                  assign({
                    user: ({ event }) => event.output.user,
                    corporates: ({ event }) => event.output.corporates,
                  }),
                  // Root behaviour on arrival (a reload of / or /login while signed in).
                  enqueueActions(({ context, event, enqueue }) => {
                    const { user, corporates } = event.output;
                    const target = user
                      ? rootRedirect(context.location().pathname, user, corporates)
                      : null;
                    if (target)
                      enqueue({ type: 'navigate', params: { to: target, replace: true } });
                  }),
                ],
              },
              {
                // Signed in, but no user record: logged out.
                target: '#session.loggingOut',
                actions: assign({
                  logoutTarget: ({ context }) => logoutTargetFor(context.location(), null),
                }),
              },
            ],
            onError: [
              // Unanswered (network, page unloading): ask again; the 3000 ms guard still holds.
              { guard: 'unanswered', target: 'retryingUser' },
              {
                target: '#session.loggingOut',
                actions: assign({
                  logoutTarget: ({ context }) => logoutTargetFor(context.location(), null),
                }),
              },
            ],
          },
        },
        retryingUser: {
          tags: ['checking'],
          // The guard came while the last question was out: its failure is no answer (offline).
          always: { guard: 'graceOver', target: '#session.offline' },
          after: { userRetry: 'loadingUser' },
        },
        /** No session on the server: signed out, the login form may be used while the guard waits. */
        awaitingUser: {
          tags: ['signedOut'],
          // Signed in to the hosted service (issue 22): its token is exchanged for our session.
          always: [
            { guard: 'hostedSignedIn', target: 'exchanging' },
            // The answer came after the guard: nobody is signed in, so the guard's rule applies now.
            ...nobodyFound(true),
          ],
        },
        /** The hosted service's ID token for our session; the 3000 ms guard still holds. */
        exchanging: {
          tags: ['checking'],
          invoke: {
            src: 'exchangeToken',
            onDone: {
              target: 'loadingUser',
              actions: assign({ accountId: ({ event }) => event.output.id }),
            },
            onError: [
              { guard: 'unanswered', target: '#session.offline' },
              {
                // Refused (no access, a deactivated user, the service unreachable): the login
                // form says why; the service's sign-in is not tried again on its own.
                target: 'awaitingUser',
                actions: assign({
                  hostedSignedIn: false,
                  error: ({ event }) => toSessionError(event.error),
                }),
              },
            ],
          },
        },
      },
    },

    /**
     * The server could not be reached while looking for the user: nothing is known and nothing
     * is revoked. Routes keep waiting (tag `checking`), the app shows an offline notice (tag
     * `offline`), and the session is looked for again after `offlineRetry` or on `session.retry`.
     */
    offline: {
      tags: ['checking', 'offline'],
      after: { offlineRetry: 'resolving' },
      on: { 'session.retry': 'resolving' },
    },

    signingIn: {
      tags: ['busy', 'signedOut'],
      invoke: {
        src: 'signIn',
        input: ({ event }) => {
          const e = event as Extract<SessionEvent, { type: 'session.signIn' }>;
          return { email: e.email, password: e.password, ...(e.google ? { google: true } : {}) };
        },
        onDone: {
          target: 'loadingUser',
          actions: assign({ accountId: ({ event }) => event.output.id }),
        },
        onError: {
          target: 'signedOut',
          actions: assign({ error: ({ event }) => toSessionError(event.error) }),
        },
      },
    },

    /** After a sign-in: the user record, then the redirect after login. */
    loadingUser: {
      tags: ['busy', 'signedOut'],
      invoke: {
        src: 'loadUser',
        input: ({ context }) => ({ id: context.accountId ?? '' }),
        onDone: [
          {
            guard: { type: 'hasUser', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: [
              assign({
                user: ({ event }) => event.output.user,
                corporates: ({ event }) => event.output.corporates,
              }),
              {
                type: 'storeAuthItem',
                params: ({ event }) => ({ id: event.output.user?.id ?? '' }),
              },
              {
                type: 'navigate',
                params: ({ context, event }) => ({
                  to: redirectAfterLogin({
                    redirect: context.redirect,
                    user: event.output.user!,
                    corporates: event.output.corporates,
                  }),
                  replace: true,
                }),
              },
              assign({ redirect: null }),
            ],
          },
          {
            target: 'loggingOut',
            actions: assign({ logoutTarget: ({ context }) => loginPath(context.redirect) }),
          },
        ],
        onError: [
          {
            // Signed in, but the user could not be fetched: the form says so; the session is
            // kept (nothing to revoke by mistake) and the next sign-in or reload continues.
            guard: 'unanswered',
            target: 'signedOut',
            actions: assign({ error: ({ event }) => toSessionError(event.error) }),
          },
          {
            target: 'loggingOut',
            actions: assign({ logoutTarget: ({ context }) => loginPath(context.redirect) }),
          },
        ],
      },
    },

    signedIn: {
      tags: ['signedIn'],
      on: {
        'session.signOut': {
          target: 'loggingOut',
          actions: assign({ logoutTarget: ({ event }) => loginPath(event.redirect) }),
        },
        'session.expired': {
          target: 'loggingOut',
          actions: assign({
            logoutTarget: ({ context }) => {
              const location = context.location();
              return logoutTargetFor(location, currentPath(location));
            },
          }),
        },
        'session.userUpdated': {
          actions: assign({ user: ({ event }) => event.user }),
        },
        'session.refresh': 'refreshing',
        'session.authChanged': {
          // Signed out of the hosted service elsewhere (issue 22): logged out here too.
          guard: 'hostedSignedOut',
          target: 'loggingOut',
          actions: [
            'recordHostedState',
            assign({
              logoutTarget: ({ context }) => {
                const location = context.location();
                return logoutTargetFor(location, currentPath(location));
              },
            }),
          ],
        },
      },
    },

    refreshing: {
      tags: ['signedIn'],
      invoke: {
        src: 'loadUser',
        input: ({ context }) => ({ id: context.user?.id ?? '' }),
        onDone: [
          {
            guard: { type: 'hasUser', params: ({ event }) => event.output },
            target: 'signedIn',
            actions: assign({
              user: ({ event }) => event.output.user,
              corporates: ({ event }) => event.output.corporates,
            }),
          },
          {
            target: 'loggingOut',
            actions: assign({
              logoutTarget: ({ context }) => logoutTargetFor(context.location(), null),
            }),
          },
        ],
        onError: 'signedIn',
      },
    },

    loggingOut: {
      tags: ['logoutLoading'],
      initial: 'signingOut',
      states: {
        signingOut: {
          invoke: {
            src: 'signOut',
            onDone: 'holding',
            // The local state is cleared even when the server cannot be reached.
            onError: 'holding',
          },
          exit: [
            assign({ user: null, accountId: null, corporates: [] }),
            'removeAuthItem',
            enqueueActions(({ context, enqueue }) => {
              if (context.logoutTarget)
                enqueue({ type: 'navigate', params: { to: context.logoutTarget, replace: true } });
            }),
            'clearFeatureState',
          ],
        },
        holding: {
          after: { logoutFlag: '#session.signedOut' },
        },
      },
    },

    signedOut: {
      tags: ['signedOut'],
      entry: assign({ logoutTarget: null }),
      on: {
        'session.signIn': {
          target: 'signingIn',
          actions: assign({ redirect: ({ event }) => event.redirect ?? null, error: null }),
        },
        'session.authChanged': [
          {
            // Signed in to the hosted service from another tab (issue 22): signed in here too.
            guard: ({ event }) => event.signedIn,
            target: 'exchanging',
            actions: 'recordHostedState',
          },
          { actions: 'recordHostedState' },
        ],
      },
    },

    /** After the hosted service reported a sign-in while signed out: its token for our session. */
    exchanging: {
      tags: ['busy', 'signedOut'],
      invoke: {
        src: 'exchangeToken',
        onDone: {
          target: 'loadingUser',
          actions: assign({ accountId: ({ event }) => event.output.id }),
        },
        onError: {
          target: 'signedOut',
          actions: assign({
            hostedSignedIn: false,
            error: ({ event }) => toSessionError(event.error),
          }),
        },
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
