/**
 * The light sign-in page's flow (login.html, entries/sign-in.tsx), without XState: the session
 * machine's sign-in path (machines/session.machine.ts) as a page that only signs in and leaves.
 * Its budget (issue 21: /login's JavaScript within 1.5× the smallest React app's) has no room
 * for XState's ~12 KB, so the steps are plain functions over the same server calls
 * (lib/session-calls.ts) and the same rules (core/navigation.ts, machines/session-errors.ts):
 *
 * - on arrival the session is asked for: a signed-in visitor is sent on by the root behaviour
 *   (`rootRedirect`); a visitor the server does not know is signed out quietly (the device's
 *   session keys cleared, nothing to revoke);
 * - a sign-in (the form, Google, or the hosted service's own report of a sign-in, exchanged once)
 *   loads the user and the corporates and leaves for `redirectAfterLogin` (the `redirect` query,
 *   else the role landing) with a full navigation: the application loads there;
 * - a failure shows its error in the spec's shape; a request never answered keeps the session
 *   (nothing is revoked by mistake); a session without its user is ended.
 */

import {
  CORPORATES_PATH,
  LOGIN_PATH,
  redirectAfterLogin,
  rootRedirect,
} from '../../core/navigation';
import type { User } from '../../core/types';
import { isUnanswered, toSessionError, type SessionError } from '../../machines/session-errors';
import type { Credentials, SessionCorporate } from '../../machines/session.machine';

/** What the flow needs from the outside (lib/session-calls.ts and the browser; tests swap them). */
export interface SignInCalls {
  /** The session cookie's user, or null. */
  sessionUser(): Promise<User | null>;
  corporates(): Promise<SessionCorporate[]>;
  signIn(credentials: Credentials): Promise<{ id: string }>;
  signOut(): Promise<void>;
  /** The hosted service's ID token for our session (issue 22). */
  exchange(): Promise<{ id: string }>;
  /** The hosted service's state listener; nothing on a built-in deployment. Answers the stop. */
  listenHosted(onChange: (signedIn: boolean) => void): () => void;
  /** A full navigation into the application (the sign-in page replaced in the history). */
  leave(to: string): void;
  storeAuthItem(userId: string): void;
  /** Clears the device's session keys (the stored auth item included). */
  forgetSession(): void;
}

/**
 * `checking`: the session is being asked for (the form is usable meanwhile); `form`: signed out;
 * `busy`: signing in; `leaving`: signed in, the application is loading at the user's page.
 */
export type SignInPhase = 'checking' | 'form' | 'busy' | 'leaving';

export interface SignInState {
  phase: SignInPhase;
  /** The last failure, shown by the form. */
  error: SessionError | null;
}

/** The flow's methods need no `this`: React's `useSyncExternalStore` takes them as they are. */
export interface SignInFlow {
  getState: () => SignInState;
  subscribe: (listener: () => void) => () => void;
  /** Asks for the session and starts listening to the hosted service. */
  start: () => void;
  /** The form's sign-in (or Google's: `google: true`). Ignored while one is running. */
  signIn: (credentials: Credentials) => void;
  stop: () => void;
}

/** Creates the flow of one visit of the sign-in page; `redirect` is its `redirect` query. */
export function createSignInFlow(calls: SignInCalls, redirect: string | null): SignInFlow {
  let state: SignInState = { phase: 'checking', error: null };
  const listeners = new Set<() => void>();
  // The hosted service's last report (null: none yet), and whether its sign-in was tried.
  let hostedSignedIn: boolean | null = null;
  let exchangeTried = false;
  let stopHosted = () => {};

  const set = (next: SignInState) => {
    state = next;
    listeners.forEach((l) => l());
  };
  const showForm = (error: SessionError | null = null) => set({ phase: 'form', error });

  /** Signed in as `account`: the user and corporates, then the application at `target`. */
  async function enter(
    account: { id: string } | null,
    target: (user: User, corporates: SessionCorporate[]) => string,
    afterSignIn: boolean,
  ): Promise<void> {
    try {
      const user = await calls.sessionUser();
      if (!user || (account && user.id !== account.id)) {
        await endSession();
        return;
      }
      const corporates = await calls.corporates();
      if (afterSignIn) calls.storeAuthItem(user.id);
      set({ phase: 'leaving', error: null });
      calls.leave(target(user, corporates));
    } catch (error) {
      // Signed in, but the user could not be fetched: the form says so and the session is kept
      // (the next sign-in or reload continues). Any other failure ends the session.
      if (isUnanswered(error)) showForm(toSessionError(error));
      else await endSession();
    }
  }

  /** A session without its user (or refused while loading it): ended, back to the form. */
  async function endSession(): Promise<void> {
    await calls.signOut().catch(() => undefined);
    calls.forgetSession();
    showForm();
  }

  const afterSignIn = (account: { id: string }) =>
    enter(account, (user, corporates) => redirectAfterLogin({ redirect, user, corporates }), true);

  /** Signed in to the hosted service but not to us (issue 22): its token, once. */
  function exchangeIfHosted(): void {
    if (hostedSignedIn !== true || exchangeTried || state.phase !== 'form') return;
    exchangeTried = true;
    set({ phase: 'busy', error: null });
    calls.exchange().then(afterSignIn, (error: unknown) => {
      hostedSignedIn = false;
      showForm(toSessionError(error));
    });
  }

  async function check(): Promise<void> {
    let user: User | null;
    try {
      user = await calls.sessionUser();
    } catch {
      // Unanswered (offline) or refused: nobody is known; the form is there to sign in.
      if (state.phase === 'checking') showForm();
      exchangeIfHosted();
      return;
    }
    if (state.phase !== 'checking') return;
    if (!user) {
      // A visitor the server does not know: the device's session keys go, quietly.
      calls.forgetSession();
      showForm();
      exchangeIfHosted();
      return;
    }
    set({ phase: 'busy', error: null });
    // Root behaviour: a signed-in visitor has no use for the sign-in page.
    await enter(
      null,
      (u, corporates) => rootRedirect(LOGIN_PATH, u, corporates) ?? CORPORATES_PATH,
      false,
    );
  }

  return {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    start() {
      stopHosted = calls.listenHosted((signedIn) => {
        hostedSignedIn = signedIn;
        exchangeIfHosted();
      });
      void check();
    },
    signIn(credentials) {
      if (state.phase === 'busy' || state.phase === 'leaving') return;
      set({ phase: 'busy', error: null });
      calls
        .signIn(credentials)
        .then(afterSignIn, (error: unknown) => showForm(toSessionError(error)));
    },
    stop() {
      stopHosted();
      listeners.clear();
    },
  };
}
