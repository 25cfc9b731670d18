/**
 * Issue 13, defect 5: input the database cannot store (a NUL character, an unpaired UTF-16
 * surrogate) and a form body that is not a form answered 500. Each is a 400 in the spec's error
 * shape `[{ errorCode, message }]`, and nothing is written.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

type Client = ReturnType<typeof client>;

const REGISTRO = '/api/public/registro?medio=Sitio%20web&corp=grupo-horizonte';

describeBackends('bad input answers 400 (issue 13, defect 5)', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let admin: Client;
  let adminCookie = '';
  let corp: string;
  let devId: string;

  const eventCount = async () =>
    (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;

  /** Sends a raw request and checks the answer: 400 in the spec's shape, no event written. */
  const expect400 = async (
    path: string,
    init: { method?: string; body?: string; type?: string; cookie?: string } = {},
  ) => {
    const before = await eventCount();
    const res = await app.request(path, {
      method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
      headers: {
        ...(init.type ? { 'content-type': init.type } : {}),
        ...(init.cookie ? { cookie: init.cookie } : {}),
      },
      ...(init.body !== undefined ? { body: init.body } : {}),
    });
    const text = await res.text();
    expect(res.status, `${path}: ${text}`).toBe(400);
    const body = JSON.parse(text) as { errorCode: string; message: string }[];
    expect(Array.isArray(body)).toBe(true);
    expect(typeof body[0]!.errorCode).toBe('string');
    expect(typeof body[0]!.message).toBe('string');
    expect(text).not.toMatch(/\bat [\w.]+ \(|node_modules|\.ts:\d+/);
    expect(await eventCount()).toBe(before);
    return body;
  };

  let cookie = '';

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    cookie = await login(app, 'asesor@vitrina.demo');
    adminCookie = await login(app, 'admin@vitrina.demo');
    asesor = client(app, cookie);
    admin = client(app, adminCookie);
    corp = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    const devs = (await admin.get(`/api/wsObtenerDesarrollos?idCorporativo=${corp}`)).json;
    devId = devs[0].id;
  });
  afterAll(async () => {
    await rt?.dispose();
  });

  it('the audit example: an unpaired surrogate in the public capture', async () => {
    await expect400(REGISTRO, {
      type: 'application/json',
      body: '{"nombre":"W","email":"a@b.co","mensaje":"\\ud800"}',
    });
    await expect400(REGISTRO, {
      type: 'application/json',
      body: '{"nombre":"W","email":"a@b.co","mensaje":"\\udc00 trailing"}',
    });
  });

  it('a NUL character in any JSON string, anonymous or signed in', async () => {
    await expect400(REGISTRO, {
      type: 'application/json',
      body: '{"nombre":"W\\u0000","email":"a@b.co"}',
    });
    await expect400(`/api/corporativos/${corp}/leads`, {
      cookie,
      type: 'application/json',
      body: '{"nombre":"Ana","email":"ana@example.com","notas":"x\\u0000y"}',
    });
    await expect400('/api/auth/login', {
      type: 'application/json',
      body: '{"email":"asesor@vitrina.demo\\u0000","password":"x"}',
    });
  });

  it('an unpaired surrogate in a signed-in write (also nested, also as a key)', async () => {
    await expect400(`/api/corporativos/${corp}/leads`, {
      cookie,
      type: 'application/json',
      body: '{"nombre":"Ana \\ud83d","email":"ana@example.com"}',
    });
    await expect400(`/api/corporativos/${corp}/cotizaciones`, {
      cookie,
      type: 'application/json',
      body: '{"idUnidad":"u","idEsquema":"e","divisa":"MXN","nuevoLead":{"nombre":"\\udfff"}}',
    });
    await expect400(`/api/corporativos/${corp}/leads`, {
      cookie,
      type: 'application/json',
      body: '{"nombre":"Ana","email":"ana@example.com","\\ud800":1}',
    });
  });

  it('a paired surrogate (an emoji) is ordinary text', async () => {
    const res = await asesor.post(`/api/corporativos/${corp}/leads`, {
      nombre: 'Ana 😀',
      email: 'ana.emoji@example.com',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
  });

  it('a NUL in a query value, a query key or a path parameter', async () => {
    await expect400('/api/public/registro?medio=Sitio%00web&corp=grupo-horizonte', {
      type: 'application/json',
      body: '{"nombre":"W","email":"a@b.co"}',
    });
    await expect400('/api/public/registro?medio=Sitio%20web&corp=grupo%00horizonte', {
      type: 'application/json',
      body: '{"nombre":"W","email":"a@b.co"}',
    });
    await expect400('/api/wsObtenerCorporativo?id=%00', { cookie });
    await expect400(`/api/wsObtenerLeads?idCorporativo=${corp}&q=a%00`, { cookie });
    await expect400(`/api/wsObtenerLeads?idCorporativo=${corp}&a%00=1`, { cookie });
    await expect400('/api/wsObtenerMedias?id=%00');
    await expect400('/api/corporativos/%00/leads', { cookie });
    await expect400(`/api/corporativos/${corp}/leads/%00`, { cookie });
    await expect400('/api/users/a%00b', { cookie });
  });

  it('a query number written other than in decimal digits (0x10, 1e2, " 5")', async () => {
    const me = (
      await rt.deps.db.query<{ id: string }>('SELECT id FROM rm_users WHERE email = $1', [
        'asesor@vitrina.demo',
      ])
    ).rows[0]!;
    const lists = [
      `/api/wsObtenerLeads?idCorporativo=${corp}&limit=`,
      `/api/wsObtenerNotificaciones?idCorporativo=${corp}&idUsuario=${me.id}&limite=`,
      `/api/users/indices/users?corporateId=${corp}&pagina=`,
      `/api/users/indices/users?corporateId=${corp}&porPagina=`,
    ];
    for (const list of lists) {
      const who = list.startsWith('/api/users') ? adminCookie : cookie;
      for (const bad of ['0x10', '1e2', '%205', '-1', '1.5', '']) {
        await expect400(`${list}${bad}`, { cookie: who });
      }
      const ok = await app.request(`${list}2`, { headers: { cookie: who } });
      expect(ok.status, list).toBe(200);
    }
  });

  it('an appointment list bound too long to be a date (found by the fuzz suite)', async () => {
    const long = 'x'.repeat(41);
    await expect400(
      `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=${long}&fechaFin=2026-12-01`,
      { cookie },
    );
    await expect400(
      `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=2026-11-01&fechaFin=${long}`,
      { cookie },
    );
  });

  it('multipart/form-data whose body is not a form, on the public capture', async () => {
    await expect400(REGISTRO, {
      type: 'multipart/form-data',
      body: '{"nombre":"W","email":"a@b.co"}',
    });
    await expect400(REGISTRO, {
      type: 'multipart/form-data; boundary=xyz',
      body: 'not a multipart body at all',
    });
    await expect400(REGISTRO, {
      type: 'multipart/form-data; boundary=xyz',
      body: '--xyz\r\nContent-Disposition: form-data; name="nombre"\r\n\r\nW\r\n--xyz--',
    });
  });

  it('a NUL in a form-encoded or multipart field of the public capture', async () => {
    await expect400(REGISTRO, {
      type: 'application/x-www-form-urlencoded',
      body: 'nombre=W%00&email=a%40b.co',
    });
    await expect400(REGISTRO, {
      type: 'multipart/form-data; boundary=xyz',
      body:
        '--xyz\r\nContent-Disposition: form-data; name="nombre"\r\n\r\nW\u0000\r\n' +
        '--xyz\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.co\r\n--xyz--\r\n',
    });
  });

  it('a well-formed form capture is still accepted', async () => {
    const res = await app.request(REGISTRO, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'nombre=Wanda&email=wanda%40example.com',
    });
    expect(res.status, await res.text()).toBe(202);
  });

  it('a NUL in an inventory CSV import', async () => {
    await expect400(`/api/corporativos/${corp}/desarrollos/${devId}/importar`, {
      cookie: adminCookie,
      type: 'text/csv',
      body: 'nombre,precio,status\nA\u00001,100,Disponible\n',
    });
  });
});
