/**
 * The deployment's sign-in provider (issue 22), learned from the server at run time
 * (`GET /api/auth/proveedor`), so one build serves `builtin` and `firebase`. Firebase's SDK is
 * loaded only here, with a dynamic import, and only when the provider is `firebase`: a built-in
 * deployment never downloads it (it is its own chunk, firebase-auth.ts).
 */
import { useEffect, useState } from 'react';
import { api, ApiRequestError } from './api-client';
import type { HostedAuth } from './firebase-auth';

export interface FirebaseWebConfig {
  apiKey: string;
  authDomain: string;
  projectId: string;
  /** The project enables Google sign-in: the sign-in page shows its button. */
  google: boolean;
  emulatorUrl: string | null;
}

export type AuthProvider =
  { proveedor: 'builtin' } | { proveedor: 'firebase'; firebase: FirebaseWebConfig };

let provider: Promise<AuthProvider> | null = null;
let known: AuthProvider | null = null;

/** The provider (asked once; a failed request is asked again next time). */
export function authProvider(): Promise<AuthProvider> {
  provider ??= api<AuthProvider>('/api/auth/proveedor').then(
    (p) => (known = p),
    (error: unknown) => {
      provider = null;
      throw error;
    },
  );
  return provider;
}

/** The provider once known (null before the answer): for screens, which re-render on it. */
export function useAuthProvider(): AuthProvider | null {
  const [value, setValue] = useState<AuthProvider | null>(known);
  useEffect(() => {
    let live = true;
    // Asked even when the first render already had it: an answer that arrived between that
    // render and this effect would otherwise never reach the screen (the sign-in page asks for
    // the provider before it renders).
    authProvider().then(
      (p) => live && setValue(p),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return value;
}

let hosted: Promise<HostedAuth> | null = null;

/** Firebase, loaded and started on first use (only under `firebase`). */
export async function hostedAuth(): Promise<HostedAuth> {
  const p = await authProvider();
  if (p.proveedor !== 'firebase') throw new Error('the deployment signs in without Firebase');
  hosted ??= import('./firebase-auth').then((m) => m.startFirebase(p.firebase));
  return hosted;
}

/** Firebase if it was loaded on this page (sign-out needs nothing else). */
export function loadedHostedAuth(): Promise<HostedAuth> | null {
  return hosted;
}

/**
 * Sends the service's ID token once for our own session (`POST /api/auth/firebase`). A refusal
 * (no access, a deactivated user, a bad token) also signs out of Firebase, so the next visit does
 * not try the same account again on its own.
 */
export async function exchangeIdToken(auth: HostedAuth, idToken: string): Promise<{ id: string }> {
  try {
    const user = await api<{ id: string }>('/api/auth/firebase', {
      method: 'POST',
      body: { idToken },
    });
    return { id: user.id };
  } catch (error) {
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500)
      await auth.signOut().catch(() => undefined);
    throw error;
  }
}
