/**
 * Sign-in with Firebase Authentication (issue 22): the deployment's provider setting, the ID
 * token verifier, and the calls to Firebase's Identity Toolkit REST API the server makes.
 *
 * - `VITRINA_AUTH_PROVIDER=builtin|firebase` (default builtin). With `firebase`, the web config
 *   (`FIREBASE_PROJECT_ID`, `FIREBASE_API_KEY`, `FIREBASE_AUTH_DOMAIN`) goes to the client at run
 *   time (`GET /api/auth/proveedor`), so one build serves both providers.
 * - ID tokens are verified as Firebase documents them: RS256 against Google's securetoken key set
 *   (`FIREBASE_JWKS_URL` overrides it, for tests), `aud` the project id, `iss`
 *   `https://securetoken.google.com/<projectId>`, `exp`, `iat` and `auth_time` in the past
 *   (`exp` in the future), `sub` a non-empty uid. The Auth emulator signs nothing (`alg: none`):
 *   such tokens are accepted only when `FIREBASE_AUTH_EMULATOR_HOST` is set.
 */
import { randomBytes } from 'node:crypto';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  UnsecuredJWT,
  type JWTPayload,
} from 'jose';

export type AuthProviderName = 'builtin' | 'firebase';

export const GOOGLE_SECURETOKEN_JWKS =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

export interface FirebaseSettings {
  projectId: string;
  apiKey: string;
  authDomain: string;
  /** `host:port` of the Auth emulator (tests, local development); absent in production. */
  emulatorHost?: string;
  /** The project enables Google sign-in (`FIREBASE_GOOGLE_SIGN_IN=1`): the sign-in page shows it. */
  google: boolean;
  /** The key set ID tokens are signed with (default: Google's securetoken key set). */
  jwksUrl: string;
}

export type AuthProviderOptions =
  { provider: 'builtin' } | { provider: 'firebase'; firebase: FirebaseSettings };

/** The deployment's sign-in provider from the environment; a half-configured `firebase` throws. */
export function authProviderFromEnv(env: NodeJS.ProcessEnv = process.env): AuthProviderOptions {
  const provider = (env.VITRINA_AUTH_PROVIDER ?? 'builtin').trim() || 'builtin';
  if (provider === 'builtin') return { provider: 'builtin' };
  if (provider !== 'firebase')
    throw new Error(`VITRINA_AUTH_PROVIDER must be builtin or firebase, not "${provider}"`);
  const projectId = env.FIREBASE_PROJECT_ID?.trim() ?? '';
  const apiKey = env.FIREBASE_API_KEY?.trim() ?? '';
  if (!projectId || !apiKey)
    throw new Error(
      'VITRINA_AUTH_PROVIDER=firebase needs FIREBASE_PROJECT_ID and FIREBASE_API_KEY',
    );
  const emulatorHost = env.FIREBASE_AUTH_EMULATOR_HOST?.trim();
  return {
    provider: 'firebase',
    firebase: {
      projectId,
      apiKey,
      authDomain: env.FIREBASE_AUTH_DOMAIN?.trim() || `${projectId}.firebaseapp.com`,
      ...(emulatorHost ? { emulatorHost } : {}),
      google: env.FIREBASE_GOOGLE_SIGN_IN === '1' || env.FIREBASE_GOOGLE_SIGN_IN === 'true',
      jwksUrl: env.FIREBASE_JWKS_URL?.trim() || GOOGLE_SECURETOKEN_JWKS,
    },
  };
}

/** The deployment's provider: the runtime's (`deps.auth`), else the environment's. */
export function authProviderOf(deps: { auth?: AuthProviderOptions }): AuthProviderOptions {
  return deps.auth ?? authProviderFromEnv();
}

/** What the client is told (`GET /api/auth/proveedor`): nothing secret (the web config is public). */
export type PublicAuthProvider =
  | { proveedor: 'builtin' }
  | {
      proveedor: 'firebase';
      firebase: {
        apiKey: string;
        authDomain: string;
        projectId: string;
        google: boolean;
        /** `http://host:port` of the Auth emulator, when the deployment uses it. */
        emulatorUrl: string | null;
      };
    };

export function publicAuthProvider(options: AuthProviderOptions): PublicAuthProvider {
  if (options.provider === 'builtin') return { proveedor: 'builtin' };
  const f = options.firebase;
  return {
    proveedor: 'firebase',
    firebase: {
      apiKey: f.apiKey,
      authDomain: f.authDomain,
      projectId: f.projectId,
      google: f.google,
      emulatorUrl: f.emulatorHost ? `http://${f.emulatorHost}` : null,
    },
  };
}

/** A verified Firebase identity. */
export interface FirebaseIdentity {
  uid: string;
  /** Lower-cased; null when the account has none (a phone or anonymous account). */
  email: string | null;
  emailVerified: boolean;
}

/** The token is not a valid ID token of the project (401). */
export class FirebaseTokenRejected extends Error {
  constructor(readonly reason: string) {
    super(`Firebase ID token rejected: ${reason}`);
    this.name = 'FirebaseTokenRejected';
  }
}

/** The key set could not be fetched: Firebase (Google) is unreachable (503). */
export class FirebaseUnavailable extends Error {
  constructor(cause: unknown) {
    super('Firebase key set unreachable', { cause });
    this.name = 'FirebaseUnavailable';
  }
}

export const MAX_ID_TOKEN_LENGTH = 8192;
/** Tolerated clock skew between Firebase and this server. */
const SKEW_S = 5;

/** JOSE failures that say the token is bad (as opposed to the key set being unreachable). */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
]);

export class FirebaseTokenVerifier {
  private readonly jwks: ReturnType<typeof createRemoteJWKSet>;

  constructor(
    private readonly settings: FirebaseSettings,
    private readonly clock: () => Date,
  ) {
    this.jwks = createRemoteJWKSet(new URL(settings.jwksUrl), {
      timeoutDuration: 5000,
      cooldownDuration: 30_000,
    });
  }

  async verify(idToken: string): Promise<FirebaseIdentity> {
    if (idToken.length > MAX_ID_TOKEN_LENGTH || idToken.split('.').length !== 3)
      throw new FirebaseTokenRejected('malformed');
    let alg: unknown;
    try {
      alg = decodeProtectedHeader(idToken).alg;
    } catch {
      throw new FirebaseTokenRejected('malformed');
    }
    const now = this.clock();
    const expected = {
      issuer: `https://securetoken.google.com/${this.settings.projectId}`,
      audience: this.settings.projectId,
      currentDate: now,
      clockTolerance: SKEW_S,
      requiredClaims: ['exp', 'iat', 'sub', 'auth_time'],
    };
    let payload: JWTPayload;
    try {
      if (alg === 'none') {
        // The emulator's tokens are unsigned: only a deployment that uses the emulator takes them.
        if (!this.settings.emulatorHost) throw new FirebaseTokenRejected('unsigned');
        payload = UnsecuredJWT.decode(idToken, expected).payload;
      } else {
        if (alg !== 'RS256') throw new FirebaseTokenRejected('algorithm');
        payload = (await jwtVerify(idToken, this.jwks, { ...expected, algorithms: ['RS256'] }))
          .payload;
      }
    } catch (error) {
      if (error instanceof FirebaseTokenRejected) throw error;
      if (error instanceof joseErrors.JOSEError && TOKEN_FAULTS.has(error.code))
        throw new FirebaseTokenRejected(error.code);
      throw new FirebaseUnavailable(error);
    }
    return identityOf(payload, now);
  }
}

/** The claims jose does not check by itself: `sub`, `iat` and `auth_time` in the past. */
function identityOf(payload: JWTPayload, now: Date): FirebaseIdentity {
  const nowS = now.getTime() / 1000 + SKEW_S;
  const sub = payload.sub;
  if (typeof sub !== 'string' || sub.length === 0 || sub.length > 128)
    throw new FirebaseTokenRejected('sub');
  if (typeof payload.iat !== 'number' || payload.iat > nowS) throw new FirebaseTokenRejected('iat');
  const authTime = payload.auth_time;
  if (typeof authTime !== 'number' || authTime > nowS) throw new FirebaseTokenRejected('auth_time');
  const email = typeof payload.email === 'string' ? payload.email.trim().toLowerCase() : '';
  return {
    uid: sub,
    email: email || null,
    emailVerified: payload.email_verified === true,
  };
}

/**
 * Firebase's Identity Toolkit REST API with the project's web API key: what the client SDK calls,
 * so it needs no service credential (the emulator answers the same paths). Used for invitations:
 * the person's Firebase account is made with a random password and Firebase mails them its own
 * link to choose one (`PASSWORD_RESET`).
 */
export class IdentityToolkit {
  constructor(private readonly settings: FirebaseSettings) {}

  private url(method: string): string {
    const base = this.settings.emulatorHost
      ? `http://${this.settings.emulatorHost}/identitytoolkit.googleapis.com`
      : 'https://identitytoolkit.googleapis.com';
    return `${base}/v1/${method}?key=${encodeURIComponent(this.settings.apiKey)}`;
  }

  private async call(method: string, body: unknown): Promise<{ ok: boolean; error: string }> {
    const res = await fetch(this.url(method), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    if (res.ok) return { ok: true, error: '' };
    const data = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    return { ok: false, error: data?.error?.message ?? `HTTP ${res.status}` };
  }

  /**
   * Makes sure a Firebase account exists for the e-mail and asks Firebase to mail its link to
   * choose a password. Answers whether the account was made now (`creada`) or existed already.
   */
  async invite(email: string, password: string): Promise<'creada' | 'existente'> {
    const made = await this.call('accounts:signUp', { email, password, returnSecureToken: false });
    if (!made.ok && !made.error.startsWith('EMAIL_EXISTS'))
      throw new Error(`Firebase accounts:signUp failed: ${made.error}`);
    const mailed = await this.call('accounts:sendOobCode', {
      requestType: 'PASSWORD_RESET',
      email,
    });
    if (!mailed.ok) throw new Error(`Firebase accounts:sendOobCode failed: ${mailed.error}`);
    return made.ok ? 'creada' : 'existente';
  }
}

/**
 * An invitation under Firebase: the person's Firebase account is made (or found) and Firebase
 * mails its own link to choose a password. Answers null on a `builtin` deployment, and `fallo`
 * (logged) when Firebase could not be reached: the Vitrina invitation stands, and the person can
 * still sign up in Firebase with the invited e-mail or use "Olvidé mi contraseña".
 */
export async function inviteToFirebase(
  deps: { auth?: AuthProviderOptions },
  email: string,
): Promise<'creada' | 'existente' | 'fallo' | null> {
  const options = authProviderOf(deps);
  if (options.provider !== 'firebase') return null;
  try {
    return await new IdentityToolkit(options.firebase).invite(
      email,
      randomBytes(24).toString('base64url'),
    );
  } catch (error) {
    console.error('[vitrina] firebase invitation', error instanceof Error ? error.message : error);
    return 'fallo';
  }
}

/**
 * What the page's Content-Security-Policy must also allow for Firebase's client (issue 22):
 * nothing on a `builtin` deployment; the Identity Toolkit and secure token endpoints (or the
 * emulator); with Google sign-in, Google's script loader and the project's auth domain frame.
 */
export function firebaseCspSources(options: AuthProviderOptions): {
  connect: string[];
  script: string[];
  frame: string[];
} {
  if (options.provider !== 'firebase') return { connect: [], script: [], frame: [] };
  const f = options.firebase;
  return {
    connect: [
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      ...(f.emulatorHost ? [`http://${f.emulatorHost}`] : []),
    ],
    script: f.google ? ['https://apis.google.com'] : [],
    frame: f.google ? [`https://${f.authDomain}`] : [],
  };
}
