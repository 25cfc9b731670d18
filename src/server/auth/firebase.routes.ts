/**
 * The sign-in provider's calls (issue 22), under /api/auth:
 * - `GET /api/auth/proveedor` → `{ proveedor: 'builtin' }` or `{ proveedor: 'firebase', firebase:
 *   { apiKey, authDomain, projectId, google, emulatorUrl } }`: the client learns the provider at run
 *   time, so one build serves both.
 * - `POST /api/auth/firebase { idToken }` → the Vitrina user, with our own session cookie: the
 *   client sends the Firebase ID token once; every later call uses our session, so authorisation
 *   and the tenant rules do not change. 401 `FIREBASE_TOKEN_INVALID` (forged, expired, wrong
 *   audience or issuer, unsigned outside the emulator), 403 `FIREBASE_NO_ACCESS` (no Vitrina user
 *   for the account), 403 `USER_INACTIVE`, 503 `FIREBASE_UNAVAILABLE` (the key set unreachable),
 *   404 `FIREBASE_DISABLED` on a `builtin` deployment.
 */
import { Hono } from 'hono';
import { setCookie } from 'hono/cookie';
import { z } from 'zod';
import { SESSION_COOKIE, SESSION_TTL_MS } from './sessions';
import {
  FirebaseTokenRejected,
  authProviderOf,
  FirebaseTokenVerifier,
  FirebaseUnavailable,
  MAX_ID_TOKEN_LENGTH,
  publicAuthProvider,
  type FirebaseSettings,
} from './firebase';
import { signInWithFirebase } from './firebase-link';
import { ApiError, jsonBody, parse } from '../http/errors';
import type { Env } from '../http/context';
import { isHttps } from '../http/proxy';
import { publicUser } from '../users/routes';

/** One verifier per settings object: its key set (and the key set's cache) is shared. */
const verifiers = new WeakMap<FirebaseSettings, FirebaseTokenVerifier>();
function verifierFor(settings: FirebaseSettings, clock: () => Date): FirebaseTokenVerifier {
  let verifier = verifiers.get(settings);
  if (!verifier) {
    verifier = new FirebaseTokenVerifier(settings, clock);
    verifiers.set(settings, verifier);
  }
  return verifier;
}

const firebaseBody = z.strictObject({
  idToken: z.string().min(1).max(MAX_ID_TOKEN_LENGTH),
});

export const firebaseAuthRoutes = new Hono<Env>()
  .get('/proveedor', (c) => c.json(publicAuthProvider(authProviderOf(c.get('deps')))))
  .post('/firebase', async (c) => {
    const deps = c.get('deps');
    const options = authProviderOf(deps);
    if (options.provider !== 'firebase')
      throw new ApiError(404, 'FIREBASE_DISABLED', 'firebase_disabled');
    const { idToken } = parse(firebaseBody, await jsonBody(c));
    let identity;
    try {
      identity = await verifierFor(options.firebase, deps.clock).verify(idToken);
    } catch (error) {
      if (error instanceof FirebaseTokenRejected)
        throw new ApiError(401, 'FIREBASE_TOKEN_INVALID', 'firebase_token_invalid');
      if (error instanceof FirebaseUnavailable)
        throw new ApiError(503, 'FIREBASE_UNAVAILABLE', 'firebase_unavailable');
      throw error;
    }
    const user = await signInWithFirebase(deps, identity);
    const session = await deps.sessions.create(user.id);
    setCookie(c, SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: isHttps(c),
      path: '/',
      maxAge: Math.floor(SESSION_TTL_MS / 1000),
    });
    return c.json(publicUser(user));
  });
