/**
 * Issue 16 on both backends, through real e-mail: the server's nodemailer transport sends over
 * SMTP to an in-process catcher (smtp-server + mailparser), and the tests follow the links they
 * read out of the mails. Invitations (single-use, expiring, resend and revoke; an existing
 * account gets the corporate), password recovery (equal answers for known and unknown
 * addresses, single-use, under an hour, every session ended, rate-limited), and a broker's
 * registration with its approval and rejection. Links come from the configured public base URL,
 * never from the request's Host header.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Corporate } from '../../src/core/types';
import { RECOVERY_FLOOR_MS } from '../../src/server/auth/people.routes';
import { PEOPLE_LIMITS } from '../../src/server/auth/people-tokens';
import { createApp } from '../../src/server/app';
import { smtpTransport } from '../../src/server/mail/transport';
import { describeBackends, openSeeded } from './support/backends';
import { client, login, signedIn } from './support/http';
import { linkIn, startSmtpCatcher, type Catcher } from './support/smtp-catcher';

type Client = ReturnType<typeof client>;
const BASE = 'https://vitrina.example.test/app';
const PASSWORD = 'Invitada2026Clave';

describeBackends('people: e-mail, invitations, recovery and registration', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let catcher: Catcher;
  let admin: Client;
  let gerente: Client;
  let asesor: Client;
  const ids: Record<string, string> = {};
  let H: Corporate;
  let P: Corporate;
  let offset = 0;
  const clock = () => new Date(Date.now() + offset);
  const role = (corp: Corporate, suffix: string) =>
    corp.roles.find((r) => r.id.endsWith(`-${suffix}`))!.id;
  const events = async () =>
    (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  /** Delivers what the outbox holds, through the real SMTP transport. */
  const deliver = async () => {
    for (let i = 0; i < 5; i++) if ((await rt.deps.work.outbox.dispatchDue()).claimed === 0) break;
  };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    client(app).post(path, body, headers);

  beforeAll(async () => {
    catcher = await startSmtpCatcher();
    rt = await openSeeded(backend, { clock });
    rt.deps.mail!.transport = smtpTransport(catcher.url, 'Vitrina <no-reply@vitrina.test>');
    rt.deps.mail!.publicBaseUrl = BASE;
    app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
    H = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    P = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json;
  });
  afterAll(async () => {
    rt.deps.mail?.transport.close();
    await rt.dispose();
    await catcher.close();
  });

  const invite = (c: Client, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    c.post(
      '/api/usuarios/invitar',
      { idCorporativo: H.id, nombre: 'Inés', apellidos: 'Luna', idRol: role(H, 'asesor'), ...body },
      headers,
    );

  describe('invitations', () => {
    it('a new person gets a mail in their language, text and HTML, with a single-use link to /acceso on the public base URL', async () => {
      const email = 'ines.luna@example.com';
      // The Host header is the caller's to choose: the link must not follow it.
      const res = await invite(admin, { email }, { host: 'evil.example', 'accept-language': 'en' });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json).toMatchObject({ existente: false, usuario: { estatus: 'invitado', email } });
      // Invited: cannot sign in before setting a password.
      expect(
        (await client(app).post('/api/auth/login', { email, password: PASSWORD })).status,
      ).toBe(401);
      await deliver();
      const [mail] = catcher.to(email);
      expect(mail, 'the invitation was mailed').toBeDefined();
      expect(mail!.subject).toBe('You are invited to Grupo Horizonte on Vitrina');
      expect(mail!.text).toContain('Ana Robles invited you');
      expect(mail!.html).toContain('Set my password');
      expect(mail!.headers.get('content-language')).toBe('en');
      const link = linkIn(mail!, '/app/acceso');
      expect(link.origin).toBe('https://vitrina.example.test');
      expect(mail!.text).not.toContain('evil.example');
      const token = link.searchParams.get('token')!;
      // Neither the token nor the link is stored: only the hash.
      const stored = await rt.deps.db.query(
        "SELECT 1 FROM user_tokens WHERE token_hash = $1 OR id = $1 UNION ALL SELECT 1 FROM outbox WHERE payload::text LIKE '%' || $1 || '%'",
        [token],
      );
      expect(stored.rows).toHaveLength(0);
      // The page learns whose link it is.
      const info = await client(app).get(`/api/auth/enlace?tipo=invitacion&token=${token}`);
      expect(info.json).toMatchObject({
        email,
        nombre: 'Inés',
        corporativo: { slug: 'grupo-horizonte' },
      });
      // The spec's password rule, then the password set, the link used up.
      const weak = await post('/api/auth/aceptar-invitacion', { token, password: 'corta' });
      expect(weak.status).toBe(400);
      expect(weak.json[0].errorCode).toBe('WEAK_PASSWORD');
      const ok = await post('/api/auth/aceptar-invitacion', { token, password: PASSWORD });
      expect(ok.status, JSON.stringify(ok.json)).toBe(200);
      expect(ok.json.corporativo).toEqual({ nombre: 'Grupo Horizonte', slug: 'grupo-horizonte' });
      const again = await post('/api/auth/aceptar-invitacion', { token, password: PASSWORD });
      expect(again.json[0].errorCode).toBe('TOKEN_INVALID');
      const me = client(app, await login(app, email, PASSWORD));
      const session = (await me.get('/api/auth/session')).json;
      expect(session.corporativos).toEqual([H.id]);
      expect(session.info.estatus).toBe('activo');
    });

    it('an existing account gets the corporate added, no duplicate user, and is told by mail', async () => {
      const email = 'asesor.pacifico@vitrina.demo';
      const res = await invite(admin, { email });
      expect(res.status).toBe(201);
      expect(res.json).toMatchObject({
        existente: true,
        usuario: { id: ids[email], estatus: 'activo' },
      });
      const { rows } = await rt.deps.db.query('SELECT id FROM rm_users WHERE email = $1', [email]);
      expect(rows).toHaveLength(1);
      const me = client(app, await login(app, email));
      expect((await me.get('/api/auth/session')).json.corporativos.sort()).toEqual(
        [H.id, P.id].sort(),
      );
      await deliver();
      const mail = catcher.to(email).at(-1)!;
      expect(mail.subject).toBe('Ya tienes acceso a Grupo Horizonte en Vitrina');
      expect(linkIn(mail, '/app/login').origin).toBe('https://vitrina.example.test');
      // Already a member: 409, nothing written.
      const before = await events();
      expect((await invite(admin, { email })).status).toBe(409);
      expect(await events()).toBe(before);
    });

    it('refuses bad input with nothing written: extra fields, a role one may not assign, another corporate', async () => {
      const before = await events();
      for (const extra of [{ esAdmin: true }, { roles: {} }, { corporativos: [H.id] }])
        expect((await invite(admin, { email: 'x1@example.com', ...extra })).status).toBe(400);
      expect((await invite(gerente, { email: 'x2@example.com' })).status).toBe(403);
      expect((await invite(asesor, { email: 'x3@example.com' })).status).toBe(403);
      expect(
        (await invite(admin, { email: 'x4@example.com', idRol: role(P, 'asesor') })).status,
      ).toBe(403);
      expect((await invite(admin, { email: 'not-an-email' })).status).toBe(400);
      expect(await events()).toBe(before);
    });

    it('resend replaces the link, revoke ends it and takes the corporate away; an expired link says so', async () => {
      const email = 'reenvio@example.com';
      const made = (await invite(admin, { email })).json;
      await deliver();
      const first = linkIn(catcher.to(email).at(-1)!, '/app/acceso').searchParams.get('token')!;
      const resent = await admin.post(
        `/api/corporativos/${H.id}/invitaciones/${made.usuario.id}/reenviar`,
        {},
      );
      expect(resent.status).toBe(200);
      await deliver();
      const second = linkIn(catcher.to(email).at(-1)!, '/app/acceso').searchParams.get('token')!;
      expect(second).not.toBe(first);
      expect(
        (await post('/api/auth/aceptar-invitacion', { token: first, password: PASSWORD })).json[0]
          .errorCode,
      ).toBe('TOKEN_INVALID');
      // The users page lists the pending invitation with its expiry.
      const listed = await admin.get(
        `/api/users/indices/users?corporateId=${H.id}&estatus=invitado`,
      );
      const row = listed.json.usuarios.find((u: { email: string }) => u.email === email);
      expect(new Date(row.invitacionVence).getTime()).toBeGreaterThan(Date.now() + 6 * 86_400_000);
      const revoked = await admin.post(
        `/api/corporativos/${H.id}/invitaciones/${made.usuario.id}/revocar`,
        {},
      );
      expect(revoked.status).toBe(200);
      expect(
        (await post('/api/auth/aceptar-invitacion', { token: second, password: PASSWORD })).json[0]
          .errorCode,
      ).toBe('TOKEN_INVALID');
      const gone = await admin.get(`/api/users/indices/users?corporateId=${H.id}&q=reenvio`);
      expect(gone.json.total).toBe(0);
      // A week later, a link is expired.
      const late = (await invite(admin, { email: 'tarde@example.com' })).json;
      expect(late.usuario.estatus).toBe('invitado');
      await deliver();
      const token = linkIn(catcher.to('tarde@example.com').at(-1)!, '/app/acceso').searchParams.get(
        'token',
      )!;
      offset = 7 * 86_400_000 + 60_000;
      try {
        const res = await post('/api/auth/aceptar-invitacion', { token, password: PASSWORD });
        expect(res.json[0].errorCode).toBe('TOKEN_EXPIRED');
      } finally {
        offset = 0;
      }
    });
  });

  describe('password recovery', () => {
    it('answers the same, in about the same time, for a known and an unknown address; mails only the known one', async () => {
      const before = catcher.mails.length;
      const timed = async (email: string) => {
        const t0 = performance.now();
        const res = await post('/api/auth/recover-password', { email });
        return { res, ms: performance.now() - t0 };
      };
      const known = await timed('asesor2@vitrina.demo');
      const unknown = await timed('nadie.aqui@example.com');
      expect(known.res.status).toBe(200);
      expect(unknown.res.status).toBe(200);
      expect(known.res.json).toEqual(unknown.res.json);
      expect(known.ms).toBeGreaterThanOrEqual(RECOVERY_FLOOR_MS - 5);
      expect(unknown.ms).toBeGreaterThanOrEqual(RECOVERY_FLOOR_MS - 5);
      expect(Math.abs(known.ms - unknown.ms)).toBeLessThan(RECOVERY_FLOOR_MS);
      await deliver();
      expect(catcher.mails.length).toBe(before + 1);
      expect(catcher.to('asesor2@vitrina.demo')).toHaveLength(1);
    });

    it('the link works once, within half an hour, and ends every older session', async () => {
      const email = 'asesor2@vitrina.demo';
      const older = client(app, await login(app, email));
      expect((await older.get('/api/auth/session')).status).toBe(200);
      await deliver();
      const mail = catcher.to(email).at(-1)!;
      expect(mail.subject).toBe('Restablece tu contraseña de Vitrina');
      expect(mail.html).toContain('Restablecer mi contraseña');
      const link = linkIn(mail, '/app/recuperar');
      const token = link.searchParams.get('token')!;
      const res = await post('/api/auth/restablecer-contrasena', {
        token,
        password: 'Recuperada2026',
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect((await older.get('/api/auth/session')).status).toBe(401);
      expect(await login(app, email, 'Recuperada2026')).toContain('=');
      const again = await post('/api/auth/restablecer-contrasena', {
        token,
        password: 'Otra2026Clave',
      });
      expect(again.json[0].errorCode).toBe('TOKEN_INVALID');
      // A new request, 31 minutes later: expired.
      await post('/api/auth/recover-password', { email });
      await deliver();
      const late = linkIn(catcher.to(email).at(-1)!, '/app/recuperar').searchParams.get('token')!;
      offset = 31 * 60_000;
      try {
        const expired = await post('/api/auth/restablecer-contrasena', {
          token: late,
          password: 'Otra2026Clave',
        });
        expect(expired.json[0].errorCode).toBe('TOKEN_EXPIRED');
      } finally {
        offset = 0;
      }
      // An invitation's token is not a recovery token, and the reverse.
      const wrongKind = await post('/api/auth/aceptar-invitacion', {
        token: late,
        password: 'Otra2026Clave',
      });
      expect(wrongKind.json[0].errorCode).toBe('TOKEN_INVALID');
    });

    it('is rate-limited per e-mail address, known or not, with the same 429', async () => {
      const limit = PEOPLE_LIMITS.recovery.email;
      for (const email of ['limite@example.com', 'hostess@vitrina.demo']) {
        for (let i = 0; i < limit; i++)
          expect((await post('/api/auth/recover-password', { email })).status).toBe(200);
        const res = await post('/api/auth/recover-password', { email });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    });
  });

  describe('broker registration', () => {
    const broker = (over: Record<string, unknown> = {}) => ({
      slug: 'grupo-horizonte',
      nombre: 'Beto',
      apellidos: 'Campos',
      email: 'beto.campos@example.com',
      telefono: '+52 442 123 4567',
      password: 'Broker2026Clave',
      inmobiliaria: 'RE/MAX Horizonte',
      ...over,
    });

    it('the registration page lists the corporate’s agencies with OTRO last; an unknown corporate is 404', async () => {
      const res = await client(app).get('/api/public/registro/grupo-horizonte');
      expect(res.json.inmobiliarias.at(-1)).toBe('OTRO');
      expect(res.json.inmobiliarias).toContain('RE/MAX Horizonte');
      expect((await client(app).get('/api/public/registro/no-existe')).status).toBe(404);
    });

    it('bad registrations write nothing: unknown corporate, weak password, agency, extra fields, a taken e-mail', async () => {
      const before = await events();
      const expectRefused = async (body: unknown, status: number, code?: string) => {
        const res = await post('/api/solicitudes-usuarios/registrar', body, {
          'x-forwarded-for': '203.0.113.9',
        });
        expect(res.status, JSON.stringify(res.json)).toBe(status);
        if (code) expect(res.json[0].errorCode).toBe(code);
      };
      await expectRefused(broker({ slug: 'no-existe' }), 404, 'CORPORATE_NOT_FOUND');
      await expectRefused(broker({ password: 'debil' }), 400, 'WEAK_PASSWORD');
      await expectRefused(broker({ inmobiliaria: 'Inventada' }), 400, 'AGENCY_REQUIRED');
      await expectRefused(broker({ inmobiliaria: 'OTRO' }), 400, 'AGENCY_REQUIRED');
      for (const extra of [
        { esAdmin: true },
        { aprobarRegistro: true },
        { roles: {} },
        { corporativos: [H.id] },
      ])
        await expectRefused(broker(extra), 400, 'VALIDATION');
      await expectRefused(broker({ email: 'asesor@vitrina.demo' }), 409, 'EMAIL_TAKEN');
      expect(await events()).toBe(before);
    });

    it('a broker registers with the spec’s fixed fields, sees “Falta aprobación”, approvers are told, an approver approves and the broker works in the corporate', async () => {
      const res = await post('/api/solicitudes-usuarios/registrar', broker(), {
        'accept-language': 'en',
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const me = client(app, await login(app, 'beto.campos@example.com', 'Broker2026Clave'));
      const session = (await me.get('/api/auth/session')).json;
      expect(session).toMatchObject({
        perfil: 1,
        tipo: 'Broker',
        esAdmin: false,
        aprobarRegistro: false,
        info: { estatus: 'activo' },
        corporativos: [],
        corporativosRegistro: [H.id],
        inmobiliaria: 'RE/MAX Horizonte',
        idioma: 'en',
        corporativoActual: H.id,
      });
      // The corporates list shows it disabled, 'Falta aprobación'; the corporate itself is 403.
      const corporates = (await me.get('/api/wsObtenerCorporativos')).json as { id: string }[];
      expect(JSON.stringify(corporates)).toContain(H.id);
      expect((await me.get(`/api/wsObtenerShowrooms?idCorporativo=${H.id}`)).status).toBe(403);
      await deliver();
      expect(catcher.to('beto.campos@example.com').at(-1)!.subject).toBe(
        'We received your registration with Grupo Horizonte',
      );
      // The approvers (the administrator and the manager) got a notification.
      for (const c of [admin, gerente]) {
        const id = c === admin ? ids['admin@vitrina.demo'] : ids['gerente@vitrina.demo'];
        const inbox = await c.get(
          `/api/wsObtenerNotificaciones?idCorporativo=${H.id}&idUsuario=${id}`,
        );
        expect(JSON.stringify(inbox.json)).toContain('broker.registro');
      }
      const asesorInbox = await asesor.get(
        `/api/wsObtenerNotificaciones?idCorporativo=${H.id}&idUsuario=${ids['asesor@vitrina.demo']}`,
      );
      expect(JSON.stringify(asesorInbox.json)).not.toContain('broker.registro');
      // The approvers' list; an adviser may not approve.
      const pending = await gerente.get(
        `/api/users/indices/users-register-approver/${ids['gerente@vitrina.demo']}`,
      );
      expect(pending.json).toEqual([
        expect.objectContaining({ email: 'beto.campos@example.com', idCorporativo: H.id }),
      ]);
      expect(
        (
          await asesor.get(
            `/api/users/indices/users-register-approver/${ids['gerente@vitrina.demo']}`,
          )
        ).status,
      ).toBe(403);
      expect(
        (await asesor.post(`/api/corporativos/${H.id}/solicitudes/${session.id}/aprobar`, {}))
          .status,
      ).toBe(403);
      const approved = await gerente.post(
        `/api/corporativos/${H.id}/solicitudes/${session.id}/aprobar`,
        {},
      );
      expect(approved.status, JSON.stringify(approved.json)).toBe(200);
      expect(approved.json).toMatchObject({ estatus: 'activo', idRol: role(H, 'broker') });
      const after = (await me.get('/api/auth/session')).json;
      expect(after.corporativos).toEqual([H.id]);
      expect((await me.get(`/api/wsObtenerShowrooms?idCorporativo=${H.id}`)).status).toBe(200);
      await deliver();
      const mail = catcher.to('beto.campos@example.com').at(-1)!;
      expect(mail.subject).toBe('Your registration with Grupo Horizonte was approved');
      expect(linkIn(mail, '/app/login').host).toBe('vitrina.example.test');
      // Approving twice: 409, nothing written.
      const before = await events();
      expect(
        (await gerente.post(`/api/corporativos/${H.id}/solicitudes/${session.id}/aprobar`, {}))
          .status,
      ).toBe(409);
      expect(await events()).toBe(before);
    });

    it('an approver rejects with a reason; the broker is told and the request is gone', async () => {
      const res = await post(
        '/api/solicitudes-usuarios/registrar',
        broker({
          email: 'rechazo@example.com',
          inmobiliaria: 'OTRO',
          inmobiliariaOtra: 'Casas Norte',
        }),
      );
      expect(res.status).toBe(201);
      const userId = res.json.id as string;
      expect(
        (await admin.post(`/api/corporativos/${H.id}/solicitudes/${userId}/rechazar`, {})).status,
      ).toBe(400);
      const rejected = await admin.post(
        `/api/corporativos/${H.id}/solicitudes/${userId}/rechazar`,
        {
          motivo: 'No trabajamos con esa inmobiliaria',
        },
      );
      expect(rejected.status).toBe(200);
      await deliver();
      const mail = catcher.to('rechazo@example.com').at(-1)!;
      expect(mail.subject).toBe('Tu registro en Grupo Horizonte no fue aprobado');
      expect(mail.text).toContain('No trabajamos con esa inmobiliaria');
      const pending = await admin.get(
        `/api/users/indices/users-register-approver/${ids['admin@vitrina.demo']}`,
      );
      expect(JSON.stringify(pending.json)).not.toContain('rechazo@example.com');
    });

    it('is rate-limited per address and per e-mail', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.7' };
      // Without TRUST_PROXY the header is ignored: every request here shares one address.
      let last = 0;
      for (let i = 0; i < PEOPLE_LIMITS.registration.address + 1; i++) {
        const res = await post(
          '/api/solicitudes-usuarios/registrar',
          broker({ email: `limite${i}@example.com` }),
          headers,
        );
        last = res.status;
        if (res.status === 429) break;
      }
      expect(last).toBe(429);
    });
  });
});
