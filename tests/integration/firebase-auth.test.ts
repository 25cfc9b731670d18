/**
 * Sign-in with Firebase Authentication (issue 22), against the Auth emulator started here on free
 * ports, and against ID tokens signed here (RS256) with a key set served on a local port: the
 * sign-in links the right user, unknown and unverified accounts are refused, forged tokens are
 * refused, and the role and tenant rules are those of our own session.
 */
import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corporate } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import type { AuthProviderOptions, FirebaseSettings } from '../../src/server/auth/firebase';
import { SESSION_COOKIE } from '../../src/server/auth/sessions';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { startAuthEmulator, freePort, type AuthEmulator } from './support/firebase-emulator';
import { client, signedIn } from './support/http';

type Rt = Awaited<ReturnType<Backend['open']>>;
const PROJECT = 'demo-vitrina';
const PASSWORD = 'Firebase-Vitrina-1';

let emulator: AuthEmulator | null = null;
let emulatorError = '';
/** The key set server: Google's securetoken key set stands in for tests. */
let jwksServer: Server;
let jwksUrl = '';
let signingKey: CryptoKey;
let otherKey: CryptoKey;
const KID = 'test-key-1';

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  signingKey = pair.privateKey;
  otherKey = (await generateKeyPair('RS256')).privateKey;
  const jwk: JWK = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  jwksServer = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((done) => jwksServer.listen(0, '127.0.0.1', done));
  const address = jwksServer.address();
  jwksUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/jwks`;
  try {
    emulator = await startAuthEmulator();
  } catch (error) {
    emulatorError = error instanceof Error ? error.message : String(error);
    console.warn(
      `\n!!! The Firebase Auth emulator could not start: its tests are SKIPPED.\n${emulatorError}\n`,
    );
  }
}, 180_000);

afterAll(async () => {
  await emulator?.stop();
  await new Promise((done) => jwksServer.close(done));
}, 30_000);

function settings(overrides: Partial<FirebaseSettings> = {}): AuthProviderOptions {
  return {
    provider: 'firebase',
    firebase: {
      projectId: PROJECT,
      apiKey: 'test-api-key',
      authDomain: `${PROJECT}.firebaseapp.com`,
      google: false,
      jwksUrl,
      ...(emulator ? { emulatorHost: emulator.host } : {}),
      ...overrides,
    },
  };
}

/** A token as Firebase signs them, with claims to spoil one at a time. */
async function signed(
  claims: Record<string, unknown>,
  options: { key?: CryptoKey; alg?: string; kid?: string } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: `https://securetoken.google.com/${PROJECT}`,
    aud: PROJECT,
    sub: 'uid-signed-asesor',
    iat: now - 10,
    exp: now + 3600,
    email: 'asesor@vitrina.demo',
    email_verified: true,
    auth_time: now - 10,
    firebase: { sign_in_provider: 'password' },
    ...claims,
  })
    .setProtectedHeader({ alg: options.alg ?? 'RS256', kid: options.kid ?? KID, typ: 'JWT' })
    .sign(options.key ?? signingKey);
}

describeBackends('sign-in with Firebase', (backend) => {
  let rt: Rt;
  let app: ReturnType<typeof createApp>;
  const ids: Record<string, string> = {};
  let H: Corporate;
  let P: Corporate;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    const admin = await signedIn(app, 'admin@vitrina.demo', ids);
    await signedIn(app, 'asesor@vitrina.demo', ids);
    await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
    H = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    P = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json;
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  const exchange = (idToken: unknown, headers: Record<string, string> = {}) =>
    client(app).post('/api/auth/firebase', { idToken }, headers);
  const cookieOf = (headers: Headers) => (headers.get('set-cookie') ?? '').split(';')[0]!;
  const count = async (sql: string, params: unknown[] = []) =>
    (await rt.deps.db.query<{ n: number }>(sql, params)).rows[0]!.n;

  describe('the provider setting', () => {
    it('a builtin deployment says so and refuses the Firebase exchange (404 in the spec shape)', async () => {
      rt.deps.auth = { provider: 'builtin' };
      expect((await client(app).get('/api/auth/proveedor')).json).toEqual({ proveedor: 'builtin' });
      const res = await exchange('a.b.c', { 'accept-language': 'en' });
      expect(res.status).toBe(404);
      expect(res.json).toEqual([
        {
          errorCode: 'FIREBASE_DISABLED',
          message: 'This deployment does not sign in with Firebase',
        },
      ]);
    });

    it('a firebase deployment gives the client its web config at run time', async () => {
      rt.deps.auth = settings({ emulatorHost: '127.0.0.1:9099', google: true });
      expect((await client(app).get('/api/auth/proveedor')).json).toEqual({
        proveedor: 'firebase',
        firebase: {
          apiKey: 'test-api-key',
          authDomain: `${PROJECT}.firebaseapp.com`,
          projectId: PROJECT,
          google: true,
          emulatorUrl: 'http://127.0.0.1:9099',
        },
      });
    });
  });

  describe('the page policy (CSP)', () => {
    it('a builtin deployment allows no other origin; a firebase one allows Firebase (and Google only when enabled)', async () => {
      rt.deps.auth = { provider: 'builtin' };
      const builtin = (await app.request('/api/auth/proveedor')).headers.get(
        'content-security-policy',
      )!;
      expect(builtin).toContain("connect-src 'self';");
      expect(builtin).toContain("script-src 'self';");
      expect(builtin).not.toMatch(/googleapis|frame-src/);
      rt.deps.auth = settings({ emulatorHost: '127.0.0.1:9099', google: false });
      const firebase = (await app.request('/api/auth/proveedor')).headers.get(
        'content-security-policy',
      )!;
      expect(firebase).toContain(
        "connect-src 'self' https://identitytoolkit.googleapis.com https://securetoken.googleapis.com http://127.0.0.1:9099;",
      );
      expect(firebase).toContain("script-src 'self';");
      rt.deps.auth = settings({ google: true });
      const google = (await app.request('/api/auth/proveedor')).headers.get(
        'content-security-policy',
      )!;
      expect(google).toContain("script-src 'self' https://apis.google.com;");
      expect(google).toContain(`frame-src 'self' https://${PROJECT}.firebaseapp.com;`);
    });
  });

  describe('against the Auth emulator', () => {
    beforeAll(async () => {
      if (!emulator) throw new Error(`the Auth emulator is not running: ${emulatorError}`);
      await emulator.clear();
      rt.deps.auth = settings();
    });

    it('an unknown Firebase account gets 403 "no access", translated, and never an account of its own', async () => {
      const users = await count('SELECT count(*)::int AS n FROM rm_users');
      const account = await emulator!.signUp('nadie@example.com', PASSWORD);
      await emulator!.verifyEmail(account.uid);
      const { idToken } = await emulator!.signIn('nadie@example.com', PASSWORD);
      const es = await exchange(idToken);
      expect(es.status).toBe(403);
      expect(es.json).toEqual([
        {
          errorCode: 'FIREBASE_NO_ACCESS',
          message: 'Tu cuenta no tiene acceso a Vitrina. Pide una invitación a tu corporativo',
        },
      ]);
      expect(es.headers.get('set-cookie')).toBeNull();
      const en = await exchange(idToken, { 'accept-language': 'en' });
      expect(en.json[0].message).toBe(
        'Your account has no access to Vitrina. Ask your corporate for an invitation',
      );
      expect(await count('SELECT count(*)::int AS n FROM rm_users')).toBe(users);
      expect(await count('SELECT count(*)::int AS n FROM rm_firebase_links')).toBe(0);
    });

    it('an account with a Vitrina e-mail Firebase has not verified is refused (anyone can sign up with any e-mail)', async () => {
      const account = await emulator!.signUp('gerente@vitrina.demo', PASSWORD);
      const res = await exchange(account.idToken);
      expect(res.status).toBe(403);
      expect(res.json[0].errorCode).toBe('FIREBASE_NO_ACCESS');
      expect(
        await count('SELECT count(*)::int AS n FROM rm_firebase_links WHERE uid = $1', [
          account.uid,
        ]),
      ).toBe(0);
    });

    it('a verified account signs in as the Vitrina user of its e-mail, is linked once (one event), and gets our own session', async () => {
      const account = await emulator!.signUp('asesor@vitrina.demo', PASSWORD);
      await emulator!.verifyEmail(account.uid);
      const { idToken } = await emulator!.signIn('asesor@vitrina.demo', PASSWORD);
      const res = await exchange(idToken);
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(ids['asesor@vitrina.demo']);
      expect(JSON.stringify(res.json)).not.toMatch(/password|argon2/i);
      const cookie = cookieOf(res.headers);
      expect(cookie.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
      expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i);
      const session = await client(app, cookie).get('/api/auth/session');
      expect(session.json.id).toBe(ids['asesor@vitrina.demo']);
      const links = await rt.deps.db.query<{ user_id: string; email: string }>(
        'SELECT user_id, email FROM rm_firebase_links WHERE uid = $1',
        [account.uid],
      );
      expect(links.rows).toEqual([
        { user_id: ids['asesor@vitrina.demo'], email: 'asesor@vitrina.demo' },
      ]);
      const linkEvents = () =>
        count(`SELECT count(*)::int AS n FROM events WHERE type = 'FirebaseAccountLinked'`);
      expect(await linkEvents()).toBe(1);
      // A second sign-in finds the link: no second event.
      const again = await exchange(
        (await emulator!.signIn('asesor@vitrina.demo', PASSWORD)).idToken,
      );
      expect(again.status).toBe(200);
      expect(await linkEvents()).toBe(1);
    });

    it('the role and tenant rules are those of the session: a member reads its corporate, not the other one', async () => {
      const { idToken } = await emulator!.signIn('asesor@vitrina.demo', PASSWORD);
      const asesor = client(app, cookieOf((await exchange(idToken)).headers));
      expect((await asesor.get(`/api/wsObtenerCorporativo?id=${H.id}`)).status).toBe(200);
      const other = await asesor.get(`/api/wsObtenerCorporativo?id=${P.id}`);
      expect(other.status).toBe(403);
      expect(other.json[0].errorCode).toBeTruthy();
      expect((await asesor.get(`/api/wsObtenerLeads?idCorporativo=${P.id}`)).status).toBe(403);
      expect((await asesor.get(`/api/wsObtenerLeads?idCorporativo=${H.id}`)).status).toBe(200);
      const list = (await asesor.get('/api/wsObtenerCorporativos')).json as { id: string }[];
      expect(list.map((c) => c.id)).toEqual([H.id]);
      // The other corporate's adviser, through Firebase too: the mirror image.
      const account = await emulator!.signUp('asesor.pacifico@vitrina.demo', PASSWORD);
      await emulator!.verifyEmail(account.uid);
      const pacifico = client(
        app,
        cookieOf(
          (
            await exchange(
              (await emulator!.signIn('asesor.pacifico@vitrina.demo', PASSWORD)).idToken,
            )
          ).headers,
        ),
      );
      expect((await pacifico.get(`/api/wsObtenerCorporativo?id=${P.id}`)).status).toBe(200);
      expect((await pacifico.get(`/api/wsObtenerCorporativo?id=${H.id}`)).status).toBe(403);
      // Signing out ends our session.
      await asesor.post('/api/auth/logout');
      expect((await asesor.get(`/api/wsObtenerCorporativo?id=${H.id}`)).status).toBe(401);
    });

    it('an invitation makes the Firebase account and has Firebase mail its password link; signing in accepts it; a deactivated user is refused', async () => {
      const admin = await signedIn(app, 'admin@vitrina.demo', ids);
      const email = 'invitada.firebase@example.com';
      const invited = await admin.post('/api/usuarios/invitar', {
        idCorporativo: H.id,
        email,
        nombre: 'Invitada',
        apellidos: 'Firebase',
        idRol: H.roles.find((r) => r.id.endsWith('-asesor'))!.id,
      });
      expect(invited.status).toBe(201);
      expect(invited.json.firebase).toBe('creada');
      const codes = await emulator!.oobCodes();
      expect(codes).toContainEqual(
        expect.objectContaining({ email, requestType: 'PASSWORD_RESET' }),
      );
      const userId = invited.json.usuario.id as string;
      // The person chooses a password through Firebase's link (here: the emulator's REST API).
      await emulator!.clear();
      const account = await emulator!.signUp(email, PASSWORD);
      await emulator!.verifyEmail(account.uid);
      const first = await exchange((await emulator!.signIn(email, PASSWORD)).idToken);
      expect(first.status).toBe(200);
      expect(first.json.id).toBe(userId);
      expect(first.json.info?.estatus).toBe('activo');
      const deactivated = await admin.post(
        `/api/corporativos/${H.id}/usuarios/${userId}/desactivar`,
        {},
      );
      expect(deactivated.status).toBe(200);
      const refused = await exchange((await emulator!.signIn(email, PASSWORD)).idToken);
      expect(refused.status).toBe(403);
      expect(refused.json[0].errorCode).toBe('USER_INACTIVE');
    });

    it("the emulator's unsigned tokens are refused when the deployment does not use the emulator", async () => {
      await emulator!.clear();
      const account = await emulator!.signUp('asesor@vitrina.demo', PASSWORD);
      await emulator!.verifyEmail(account.uid);
      const { idToken } = await emulator!.signIn('asesor@vitrina.demo', PASSWORD);
      rt.deps.auth = settings({ emulatorHost: undefined as unknown as string });
      delete (rt.deps.auth as { firebase: Partial<FirebaseSettings> }).firebase.emulatorHost;
      const res = await exchange(idToken, { 'accept-language': 'en' });
      expect(res.status).toBe(401);
      expect(res.json).toEqual([
        {
          errorCode: 'FIREBASE_TOKEN_INVALID',
          message: 'Your sign-in could not be verified. Please try again',
        },
      ]);
      rt.deps.auth = settings();
    });
  });

  describe('signed tokens (outside the emulator)', () => {
    beforeAll(() => {
      const options = settings();
      if (options.provider === 'firebase') delete options.firebase.emulatorHost;
      rt.deps.auth = options;
    });

    it('a token signed with the key set, for a verified Vitrina e-mail, signs in', async () => {
      const res = await exchange(await signed({ email: 'asesor@vitrina.demo' }));
      expect(res.status).toBe(200);
      expect(res.json.id).toBe(ids['asesor@vitrina.demo']);
    });

    it.each([
      ['signed with another key', () => signed({}, { key: otherKey })],
      ['signed with an unknown kid', () => signed({}, { kid: 'other-kid' })],
      ['expired', () => signed({ exp: Math.floor(Date.now() / 1000) - 60 })],
      ['for another project (audience)', () => signed({ aud: 'demo-other' })],
      ['from another issuer', () => signed({ iss: 'https://securetoken.google.com/demo-other' })],
      ['issued in the future', () => signed({ iat: Math.floor(Date.now() / 1000) + 3600 })],
      [
        'signed in the future (auth_time)',
        () => signed({ auth_time: Math.floor(Date.now() / 1000) + 3600 }),
      ],
      ['without a subject', () => signed({ sub: '' })],
      [
        'unsigned (alg none)',
        async () => {
          const t = await signed({});
          const [, payload] = t.split('.');
          return `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
        },
      ],
      [
        'with a tampered payload',
        async () => {
          const [h, , s] = (await signed({})).split('.');
          const forged = Buffer.from(
            JSON.stringify({ email: 'admin@vitrina.demo', email_verified: true, sub: 'x' }),
          ).toString('base64url');
          return `${h}.${forged}.${s}`;
        },
      ],
      ['not a JWT', () => Promise.resolve('not-a-token')],
      ['three garbage parts', () => Promise.resolve('a.b.c')],
    ])('a token %s is 401 in the spec shape', async (_name, make) => {
      const res = await exchange(await make());
      expect(res.status).toBe(401);
      expect(res.json).toEqual([
        { errorCode: 'FIREBASE_TOKEN_INVALID', message: expect.any(String) },
      ]);
      expect(res.headers.get('set-cookie')).toBeNull();
    });

    it('an HS256 token made with the public key as secret is refused', async () => {
      const secret = new TextEncoder().encode('x'.repeat(64));
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({
        email: 'admin@vitrina.demo',
        email_verified: true,
        auth_time: now,
      })
        .setProtectedHeader({ alg: 'HS256', kid: KID })
        .setIssuer(`https://securetoken.google.com/${PROJECT}`)
        .setAudience(PROJECT)
        .setSubject('uid-hs')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(secret);
      expect((await exchange(token)).status).toBe(401);
    });

    it('bad input is 400, never 500', async () => {
      expect((await client(app).post('/api/auth/firebase', {})).status).toBe(400);
      expect((await exchange(42)).status).toBe(400);
      expect((await exchange('')).status).toBe(400);
      expect((await exchange('x'.repeat(9000))).status).toBe(400);
      expect((await exchange('a\u0000.b.c')).status).toBe(400);
      expect((await exchange('a\ud800.b.c')).status).toBe(400);
      const extra = await client(app).post('/api/auth/firebase', { idToken: 'a.b.c', more: 1 });
      expect(extra.status).toBe(400);
      const text = await app.request('/api/auth/firebase', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'idToken=a.b.c',
      });
      expect(text.status).toBeGreaterThanOrEqual(400);
      expect(text.status).toBeLessThan(500);
    });

    it('the key set unreachable is 503 FIREBASE_UNAVAILABLE (a clear message), and sessions already open keep working', async () => {
      const open = await signedIn(app, 'gerente@vitrina.demo', ids);
      const port = await freePort();
      const options = settings({ jwksUrl: `http://127.0.0.1:${port}/jwks` });
      if (options.provider === 'firebase') delete options.firebase.emulatorHost;
      rt.deps.auth = options;
      const res = await exchange(await signed({}), { 'accept-language': 'en' });
      expect(res.status).toBe(503);
      expect(res.json).toEqual([
        {
          errorCode: 'FIREBASE_UNAVAILABLE',
          message: 'The sign-in service could not be reached. Please try again later',
        },
      ]);
      expect((await open.get(`/api/wsObtenerCorporativo?id=${H.id}`)).status).toBe(200);
    });
  });
});
