/**
 * Firebase Authentication in the browser (issue 22): only `firebase/app` and `firebase/auth`,
 * in a chunk of its own that auth-provider.ts imports when the deployment's provider is
 * `firebase`. Its failures become `{ errorCode }` errors the login page translates
 * (errors.json `codes`).
 */
import { initializeApp } from 'firebase/app';
import {
  browserLocalPersistence,
  connectAuthEmulator,
  GoogleAuthProvider,
  initializeAuth,
  browserPopupRedirectResolver,
  onAuthStateChanged,
  sendPasswordResetEmail,
  signInWithEmailAndPassword,
  signInWithPopup,
  signOut,
  type Auth,
} from 'firebase/auth';
import type { FirebaseWebConfig } from './auth-provider';

export interface HostedAuth {
  /** Signs in with e-mail and password; answers the ID token. */
  signIn(credentials: { email: string; password: string }): Promise<string>;
  /** Signs in with Google (a popup); answers the ID token. */
  signInWithGoogle(): Promise<string>;
  /** The signed-in account's ID token, or null. */
  idToken(): Promise<string | null>;
  signOut(): Promise<void>;
  /** Firebase mails its own link to choose a new password. */
  sendPasswordReset(email: string, language: string): Promise<void>;
  /** The state listener (`onAuthStateChanged`); answers the unsubscribe. */
  onChange(listener: (signedIn: boolean) => void): () => void;
}

/** An error the login page shows: a code of errors.json, and Firebase's own code for the log. */
export class HostedAuthError extends Error {
  constructor(
    readonly errorCode: string,
    readonly cause: unknown,
  ) {
    super(errorCode);
    this.name = 'HostedAuthError';
  }
}

function hostedError(error: unknown): HostedAuthError {
  const code = (error as { code?: unknown } | null)?.code;
  switch (code) {
    case 'auth/invalid-credential':
    case 'auth/invalid-login-credentials':
    case 'auth/wrong-password':
    case 'auth/user-not-found':
    case 'auth/invalid-email':
    case 'auth/missing-password':
      return new HostedAuthError('FIREBASE_BAD_CREDENTIALS', error);
    case 'auth/user-disabled':
      return new HostedAuthError('FIREBASE_USER_DISABLED', error);
    case 'auth/too-many-requests':
      return new HostedAuthError('FIREBASE_TOO_MANY_REQUESTS', error);
    case 'auth/popup-closed-by-user':
    case 'auth/cancelled-popup-request':
      return new HostedAuthError('FIREBASE_POPUP_CLOSED', error);
    case 'auth/network-request-failed':
    case 'auth/timeout':
    case 'auth/internal-error':
      return new HostedAuthError('FIREBASE_UNREACHABLE', error);
    default:
      return new HostedAuthError('FIREBASE_SIGN_IN_FAILED', error);
  }
}

export function startFirebase(config: FirebaseWebConfig): HostedAuth {
  const app = initializeApp({
    apiKey: config.apiKey,
    authDomain: config.authDomain,
    projectId: config.projectId,
  });
  const auth: Auth = initializeAuth(app, {
    persistence: browserLocalPersistence,
    popupRedirectResolver: browserPopupRedirectResolver,
  });
  if (config.emulatorUrl) connectAuthEmulator(auth, config.emulatorUrl, { disableWarnings: true });

  const wrap = async (run: () => Promise<{ user: { getIdToken(): Promise<string> } }>) => {
    try {
      return await (await run()).user.getIdToken();
    } catch (error) {
      throw hostedError(error);
    }
  };
  return {
    signIn: ({ email, password }) =>
      wrap(() => signInWithEmailAndPassword(auth, email.trim(), password)),
    signInWithGoogle: () => wrap(() => signInWithPopup(auth, new GoogleAuthProvider())),
    idToken: async () => {
      await auth.authStateReady();
      try {
        return (await auth.currentUser?.getIdToken()) ?? null;
      } catch (error) {
        throw hostedError(error);
      }
    },
    signOut: () => signOut(auth),
    sendPasswordReset: async (email, language) => {
      auth.languageCode = language;
      try {
        await sendPasswordResetEmail(auth, email.trim());
      } catch (error) {
        // An unknown address answers as a known one (no account discovery), as the built-in one.
        if ((error as { code?: unknown } | null)?.code === 'auth/user-not-found') return;
        throw hostedError(error);
      }
    },
    onChange: (listener) => onAuthStateChanged(auth, (user) => listener(user !== null)),
  };
}
