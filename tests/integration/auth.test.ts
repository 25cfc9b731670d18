import { afterAll, beforeAll, expect, it } from 'vitest';
import type { User } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { SESSION_COOKIE } from '../../src/server/auth/sessions';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { describeBackends, openSeeded, type Backend } from './support/backends';

type Rt = Awaited<ReturnType<Backend['open']>>;
type ApiErrorBody = { errorCode: string; message: string }[];

const START = new Date('2026-11-22T10:00:00Z');

describeBackends('auth and users API', (backend) => {
  let rt: Rt;
  let app: ReturnType<typeof createApp>;
  let now = START;

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const json = { 'content-type': 'application/json' };

  async function login(
    email: string,
    password = DEMO_PASSWORD,
    headers: Record<string, string> = {},
  ) {
    return app.request('/api/auth/login', {
      method: 'POST',
      headers: { ...json, ...headers },
      body: JSON.stringify({ email, password }),
    });
  }

  /** Signs in and returns the `name=value` cookie pair to send back. */
  async function signIn(email: string): Promise<{ cookie: string; user: User }> {
    const res = await login(email);
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    const pair = setCookie.split(';')[0]!;
    expect(pair.startsWith(`${SESSION_COOKIE}=`)).toBe(true);
    return { cookie: pair, user: (await res.json()) as User };
  }

  const get = (path: string, cookie: string, headers: Record<string, string> = {}) =>
    app.request(path, { headers: { cookie, ...headers } });
  const put = (path: string, cookie: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request(path, {
      method: 'PUT',
      headers: { ...json, cookie, ...headers },
      body: JSON.stringify(body),
    });

  it('signs in with an httpOnly, SameSite=Lax cookie (not Secure over plain HTTP) and answers the user without secrets', async () => {
    const res = await login('admin@vitrina.demo');
    expect(res.status).toBe(200);
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=[A-Za-z0-9_-]{40,};`));
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    expect(setCookie).not.toMatch(/;\s*Secure/i);
    const text = await res.text();
    expect(text).not.toMatch(/argon2|password/i);
    const user = JSON.parse(text) as User;
    expect(user.email).toBe('admin@vitrina.demo');
    expect(user.corporativos).toHaveLength(2);
  });

  it('sets a Secure cookie when served over HTTPS', async () => {
    const res = await app.request('https://vitrina.example/api/auth/login', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'gerente@vitrina.demo', password: DEMO_PASSWORD }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
  });

  it('GET /api/auth/session answers the signed-in user; a visitor without a session cookie gets null, not an error', async () => {
    const { cookie, user } = await signIn('asesor@vitrina.demo');
    const ok = await get('/api/auth/session', cookie);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as User).id).toBe(user.id);
    // The signed-out visitor's check (every public page makes it): 200 null, no 401 logged.
    const anonymous = await app.request('/api/auth/session');
    expect(anonymous.status).toBe(200);
    expect(await anonymous.json()).toBeNull();
    // A cookie naming no session is refused as before.
    const forged = await get('/api/auth/session', `${SESSION_COOKIE}=not-a-session`);
    expect(forged.status).toBe(401);
    expect(((await forged.json()) as ApiErrorBody)[0]!.errorCode).toBe('UNAUTHENTICATED');
    // Every other API call still needs the session.
    expect((await app.request('/api/wsObtenerCorporativos')).status).toBe(401);
  });

  it('logout revokes the session on the server: the old cookie gets 401 afterwards', async () => {
    const { cookie } = await signIn('asesor2@vitrina.demo');
    expect((await get('/api/auth/session', cookie)).status).toBe(200);
    const out = await app.request('/api/auth/logout', { method: 'POST', headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(new RegExp(`${SESSION_COOKIE}=;`));
    // A client that kept the cookie (or a stolen copy of it) is refused.
    expect((await get('/api/auth/session', cookie)).status).toBe(401);
    expect((await get('/api/wsObtenerCorporativos', cookie)).status).toBe(401);
  });

  it('answers the same translated message for an unknown email and a wrong password', async () => {
    const unknown = await login('nadie@vitrina.demo', 'Whatever123');
    const wrong = await login('broker@vitrina.demo', 'Wrong-password-1');
    expect(unknown.status).toBe(401);
    expect(wrong.status).toBe(401);
    const a = (await unknown.json()) as ApiErrorBody;
    const b = (await wrong.json()) as ApiErrorBody;
    expect(a).toEqual(b);
    expect(a[0]).toEqual({
      errorCode: 'BAD_CREDENTIALS',
      message: 'El correo o la contraseña no son correctos',
    });
    const en = (await (
      await login('nadie@vitrina.demo', 'x', { 'accept-language': 'en-US,en;q=0.9' })
    ).json()) as ApiErrorBody;
    const enWrong = (await (
      await login('broker@vitrina.demo', 'x', { 'accept-language': 'en' })
    ).json()) as ApiErrorBody;
    expect(en[0]!.message).toBe('The email or the password is not correct');
    expect(enWrong).toEqual(en);
    expect(unknown.headers.get('set-cookie')).toBeNull();
  });

  // The sign-in throttle (a growing delay per account and address, never a lockout of the
  // owner) has its own suite: hardening.sign-in.test.ts.

  it('refuses state-changing requests from a foreign Origin or a cross-site fetch with 403 CSRF', async () => {
    const foreign = await login('admin@vitrina.demo', DEMO_PASSWORD, {
      origin: 'https://evil.example',
      host: 'localhost',
    });
    expect(foreign.status).toBe(403);
    expect(((await foreign.json()) as ApiErrorBody)[0]!.errorCode).toBe('CSRF');
    expect(foreign.headers.get('set-cookie')).toBeNull();

    const { cookie, user } = await signIn('admin@vitrina.demo');
    const crossSite = await put(
      `/api/users/${user.id}`,
      cookie,
      { id: user.id, nombre: 'Pirata' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const formPost = await app.request('/api/auth/logout', {
      method: 'POST',
      headers: {
        cookie,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': '3',
      },
      body: 'a=b',
    });
    expect(formPost.status).toBe(403);
    // The session survived both attempts and the name did not change.
    const me = (await (await get('/api/auth/session', cookie)).json()) as User;
    expect(me.nombre).toBe('Ana');

    const sameOrigin = await login('admin@vitrina.demo', DEMO_PASSWORD, {
      origin: 'http://localhost',
      host: 'localhost',
    });
    expect(sameOrigin.status).toBe(200);
  });

  it('a non-member gets 403 with the spec message on corporate-scoped routes', async () => {
    const { cookie } = await signIn('asesor.pacifico@vitrina.demo');
    const res = await get('/api/wsObtenerCorporativo?slug=grupo-horizonte', cookie);
    expect(res.status).toBe(403);
    expect(((await res.json()) as ApiErrorBody)[0]!.message).toBe(
      'No tienes permisos para ver el corporativo',
    );
    const en = await get('/api/wsObtenerCorporativo?slug=grupo-horizonte', cookie, {
      'accept-language': 'en',
    });
    expect(((await en.json()) as ApiErrorBody)[0]!.message).toBe(
      'You do not have permission to view this corporate',
    );

    const admin = await signIn('admin@vitrina.demo');
    const horizonte = (await (
      await get('/api/wsObtenerCorporativo?slug=grupo-horizonte', admin.cookie)
    ).json()) as { id: string };
    for (const path of [
      `/api/wsObtenerDesarrollos?idCorporativo=${horizonte.id}`,
      `/api/wsObtenerShowrooms?idCorporativo=${horizonte.id}`,
      `/api/wsObtenerCorporativo?id=${horizonte.id}`,
    ]) {
      expect((await get(path, cookie)).status, path).toBe(403);
      expect((await get(path, admin.cookie)).status, path).toBe(200);
    }
    // A pending (registered, not approved) broker is not a member either.
    const broker = await signIn('broker@vitrina.demo');
    expect(
      (await get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico', broker.cookie)).status,
    ).toBe(403);
  });

  it('GET wsObtenerUsuario with actualizarUltimaSesion=si writes nothing; POST /api/users/:id/ultima-sesion records sesionUltima as an event', async () => {
    const { cookie, user } = await signIn('asesor@vitrina.demo');
    const eventCount = async () =>
      (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    const before = await eventCount();
    const plain = (await (await get(`/api/wsObtenerUsuario?id=${user.id}`, cookie)).json()) as User;
    expect(plain.id).toBe(user.id);
    // The spec's read, as a cross-site top-level navigation could send it: a read only.
    now = new Date(START.getTime() + 60_000);
    const read = await get(
      `/api/wsObtenerUsuario?id=${user.id}&actualizarUltimaSesion=si`,
      cookie,
      {
        'sec-fetch-site': 'cross-site',
        'sec-fetch-mode': 'navigate',
      },
    );
    expect(read.status).toBe(200);
    expect(((await read.json()) as User).sesionUltima).toEqual(plain.sesionUltima);
    expect(await eventCount()).toBe(before);

    const post = (path: string, who: string, headers: Record<string, string> = {}) =>
      app.request(path, { method: 'POST', headers: { cookie: who, ...headers } });
    // Spec §9's browser detection on the request's agent: Chromium Edge says "Chrome" and
    // "Safari" too, and is named Edge.
    const edge =
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0';
    const res = await post(`/api/users/${user.id}/ultima-sesion`, cookie, { 'user-agent': edge });
    expect(res.status).toBe(200);
    const expected = Math.floor(now.getTime() / 1000);
    const recorded = (await res.json()) as User;
    expect(recorded.sesionUltima).toBe(expected);
    expect(recorded.navegador).toBe('Edge');
    const events = await rt.deps.store.readStream(`user:${user.id}`);
    const last = events.at(-1)!;
    expect(last.type).toBe('LastSessionRecorded');
    expect(last.data).toEqual({ sesionUltima: expected, navegador: 'Edge' });
    expect(await eventCount()).toBe(before + 1);
    // The users page's list carries both, for the administrator of a corporate the adviser is in.
    const admin = await signIn('admin@vitrina.demo');
    const corporateId = user.corporativos[0]!;
    const page = (await (
      await get(
        `/api/users/indices/users?${new URLSearchParams({ corporateId, q: user.email })}`,
        admin.cookie,
      )
    ).json()) as {
      usuarios: { id: string; sesionUltima: number | null; navegador: string | null }[];
    };
    expect(page.usuarios.find((u) => u.id === user.id)).toMatchObject({
      sesionUltima: expected,
      navegador: 'Edge',
    });
    now = START;

    // Someone else's record is neither readable nor writable through these calls, and a
    // cross-site POST is refused.
    const other = await signIn('asesor2@vitrina.demo');
    expect((await get(`/api/wsObtenerUsuario?id=${other.user.id}`, cookie)).status).toBe(403);
    expect((await post(`/api/users/${other.user.id}/ultima-sesion`, cookie)).status).toBe(403);
    expect((await post(`/api/users/${user.id}/ultima-sesion`, '')).status).toBe(401);
    expect(
      (
        await post(`/api/users/${user.id}/ultima-sesion`, cookie, {
          origin: 'https://evil.example',
        })
      ).status,
    ).toBe(403);
    expect(await eventCount()).toBe(before + 1);
  });

  it('PUT /api/users/:id strips fechaAlta and sesionUltima and updates the profile', async () => {
    const { cookie, user } = await signIn('gerente@vitrina.demo');
    const res = await put(`/api/users/${user.id}`, cookie, {
      id: user.id,
      nombre: 'Gerardo Luis',
      fechaAlta: 1,
      sesionUltima: 2,
    });
    expect(res.status).toBe(200);
    const updated = (await res.json()) as User;
    expect(updated.nombre).toBe('Gerardo Luis');
    expect(updated.fechaAlta).toBe(user.fechaAlta);
    expect(updated.sesionUltima).toBe(user.sesionUltima ?? null);
    const fromGet = (await (await get(`/api/users/${user.id}`, cookie)).json()) as User;
    expect(fromGet.fechaAlta).toBe(user.fechaAlta);
    expect(fromGet.nombre).toBe('Gerardo Luis');
  });

  it("PUT /api/users/:id without an id answers 'El usuario no tiene id'", async () => {
    const { cookie, user } = await signIn('gerente@vitrina.demo');
    const res = await put(`/api/users/${user.id}`, cookie, { nombre: 'Sin id' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ApiErrorBody)[0]!.message).toBe('El usuario no tiene id');
  });

  it('refuses a change of the own roles or corporates, and of another user', async () => {
    const { cookie, user } = await signIn('asesor@vitrina.demo');
    const corp = user.corporativos[0]!;
    const attempts: Record<string, unknown>[] = [
      { roles: { [corp]: 'gru-admin' } },
      { corporativos: [...user.corporativos, 'corp-otro'] },
      { corporativosRegistro: ['corp-otro'] },
      { esAdmin: true },
    ];
    for (const change of attempts) {
      const res = await put(`/api/users/${user.id}`, cookie, { id: user.id, ...change });
      expect(res.status, JSON.stringify(change)).toBe(403);
      expect(((await res.json()) as ApiErrorBody)[0]!.message).toBe(
        'No puedes cambiar tus propios roles ni corporativos',
      );
    }
    const after = (await (await get('/api/auth/session', cookie)).json()) as User;
    expect(after.roles).toEqual(user.roles);
    expect(after.corporativos).toEqual(user.corporativos);
    expect(after.esAdmin).toBe(false);

    const other = await signIn('asesor2@vitrina.demo');
    const res = await put(`/api/users/${other.user.id}`, cookie, {
      id: other.user.id,
      nombre: 'X',
    });
    expect(res.status).toBe(403);
  });

  it('updates the favourite corporate only to a corporate of the user', async () => {
    const { cookie, user } = await signIn('admin@vitrina.demo');
    const target = user.corporativos.find((c) => c !== user.corporativoFavorito)!;
    const res = await put(`/api/users/${user.id}/corporativo-favorito`, cookie, {
      corporativoFavorito: target,
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as User).corporativoFavorito).toBe(target);
    const broker = await signIn('broker@vitrina.demo');
    const pending = broker.user.corporativosRegistro.find(
      (c) => !broker.user.corporativos.includes(c),
    )!;
    const refused = await put(`/api/users/${broker.user.id}/corporativo-favorito`, broker.cookie, {
      corporativoFavorito: pending,
    });
    expect(refused.status).toBe(403);
    // Put the favourite back for other tests.
    await put(`/api/users/${user.id}/corporativo-favorito`, cookie, {
      corporativoFavorito: user.corporativoFavorito,
    });
  });
});
