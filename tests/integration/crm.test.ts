/**
 * CRM sync (issue 17) on both backends, against the CRM fakes of tests/support/crm-fakes (the
 * vendors' shapes, on loopback):
 *
 * - configuration: the spec's messages per missing piece (es, en), https only, the client secret
 *   write-only, the lead map's preview, administrators only;
 * - connecting: the authorize URL (client id, redirect to /corporativos/{slug}/clientes, state,
 *   scope, Salesforce's PKCE, Zoho's offline access), a wrong / reused / foreign state refused,
 *   Zoho's accounts server checked, who is connected and until when, disconnecting;
 * - leads from the CRM, paged and searchable, mapped to ours; an expired token refreshed once
 *   (one 401, one refresh, one retry), a refused refresh → 409 CRM_REAUTORIZAR;
 * - every lead change synced (create, update, delete) as upserts by our id, no duplicate when
 *   the CRM stores and then times out; each CRM's error shapes: Salesforce's array and 403
 *   REQUEST_LIMIT_EXCEEDED, HubSpot 429 TEN_SECONDLY_ROLLING and 500, Zoho's per-record error
 *   with HTTP 200; the dead letter and the retry route; the corporate's summary;
 * - the classifieds export; and no client secret or token in any answer, log line or the store's
 *   rows in clear.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { Corporate } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { FAKE_CLIENT, startCrmFake, type CrmFake } from '../support/crm-fakes';
import { describeBackends, openSeeded } from './support/backends';
import { eventually } from './support/consumers';
import { client, login } from './support/http';

type Client = ReturnType<typeof client>;

/** A receiver of the classifieds export. */
function exportReceiver() {
  const received: { body: unknown; key: string | undefined }[] = [];
  let status = 200;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString()));
    req.on('end', () => {
      received.push({
        body: JSON.parse(raw) as unknown,
        key: req.headers['idempotency-key'] as string | undefined,
      });
      res.statusCode = status;
      res.setHeader('content-type', 'application/json');
      res.end(status === 200 ? '{"ok":true}' : '{"message":"externalId duplicado"}');
    });
  });
  return {
    received,
    setStatus: (s: number) => (status = s),
    start: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/leads`),
        ),
      ),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describeBackends('CRM sync', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let now = new Date();
  const clock = () => now;
  /** Every answer's text, and every log line: no secret may appear in them. */
  const seen: string[] = [];
  let app: ReturnType<typeof createApp>;
  let admin: Client;
  let gerente: Client;
  let asesor: Client;
  let asesorCookie: string;
  let pacifico: Client;
  let horizonte: Corporate;
  let pacificoCorp: Corporate;
  let hubspot: CrmFake;
  let salesforce: CrmFake;
  let zoho: CrmFake;
  const receiver = exportReceiver();
  let receiverUrl = '';
  const ids: Record<string, string> = {};

  /** A client whose answers are recorded in `seen`. */
  function recorded(cookie: string, lang = 'es'): Client {
    const inner = client(app, cookie);
    const wrap =
      <A extends unknown[]>(
        fn: (...a: A) => Promise<{ status: number; json: any; headers: Headers }>,
      ) =>
      async (...a: A) => {
        const res = await fn(...a);
        seen.push(JSON.stringify(res.json ?? null));
        return res;
      };
    const h = { 'accept-language': lang };
    return {
      get: wrap((p: string, x?: Record<string, string>) => inner.get(p, { ...h, ...x })),
      post: wrap((p: string, b?: unknown, x?: Record<string, string>) =>
        inner.post(p, b, { ...h, ...x }),
      ),
      put: wrap((p: string, b?: unknown, x?: Record<string, string>) =>
        inner.put(p, b, { ...h, ...x }),
      ),
      del: wrap((p: string, x?: Record<string, string>) => inner.del(p, { ...h, ...x })),
    };
  }

  const logSpies: { mock: { calls: unknown[][] }; mockRestore(): void }[] = [];
  const logged = () =>
    logSpies.flatMap((s) =>
      s.mock.calls.map((call) =>
        call.map((a) => (a instanceof Error ? a.message : String(a))).join(' '),
      ),
    );

  beforeAll(async () => {
    for (const m of ['log', 'warn', 'error', 'info'] as const)
      logSpies.push(vi.spyOn(console, m).mockImplementation(() => undefined));
    rt = await openSeeded(backend, {
      clock,
      crm: {
        allowHttpLoopback: true,
        timeoutMs: 700,
        publicBaseUrl: 'https://vitrina.example',
        retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 5_000 },
      },
      background: {
        pollMs: 50,
        sendTimeoutMs: 5_000,
        log: (message, error) =>
          console.error(message, error instanceof Error ? error.message : ''),
      },
    });
    app = createApp(rt.deps);
    const cookie = async (email: string) => {
      const c = await login(app, email);
      ids[email] = (await client(app, c).get('/api/auth/session')).json.id as string;
      return c;
    };
    admin = recorded(await cookie('admin@vitrina.demo'));
    gerente = recorded(await cookie('gerente@vitrina.demo'));
    asesorCookie = await cookie('asesor@vitrina.demo');
    asesor = recorded(asesorCookie);
    pacifico = recorded(await cookie('asesor.pacifico@vitrina.demo'));
    horizonte = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    pacificoCorp = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json;
    [hubspot, salesforce, zoho] = await Promise.all([
      startCrmFake('hubspot'),
      startCrmFake('salesforce'),
      startCrmFake('zoho'),
    ]);
    receiverUrl = await receiver.start();
    rt.deps.work.start();
  });

  afterAll(async () => {
    await rt.dispose();
    await Promise.all([hubspot.close(), salesforce.close(), zoho.close(), receiver.stop()]);
    for (const s of logSpies) s.mockRestore();
  });

  const cfgPath = (corp: Corporate) => `/api/corporativos/${corp.id}/crm/config`;
  const leadsPath = (corp: Corporate) => `/api/corporativos/${corp.id}/leads`;

  /** Moves the injected clock and wakes the background work. */
  function advance(ms: number) {
    now = new Date(now.getTime() + ms);
    rt.deps.work.wake();
  }

  async function syncOf(who: Client, corp: Corporate, leadId: string) {
    return (await who.get(`${leadsPath(corp)}/${leadId}/crm`)).json;
  }

  /**
   * A failed attempt writes the lead's row before the outbox records when to try again (from the
   * clock then): a test that moves the clock must wait for that, or the retry is set from the
   * moved clock and never comes due.
   */
  async function retryScheduled(leadId: string) {
    await eventually(async () => {
      const { rows } = await rt.deps.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM outbox
          WHERE kind = 'crm-lead' AND payload->>'leadId' = $1 AND state = 'sending'`,
        [leadId],
      );
      return rows[0]!.n === 0;
    }, 20_000);
  }

  async function waitSync(who: Client, corp: Corporate, leadId: string, estado: string) {
    let last: unknown;
    await eventually(async () => {
      last = await syncOf(who, corp, leadId);
      return (last as { sync: { estado: string } }).sync.estado === estado;
    }, 20_000).catch((e: Error) => {
      throw new Error(`${e.message}; last: ${JSON.stringify(last)}`);
    });
    if (estado === 'reintentando') await retryScheduled(leadId);
    return last as { sync: { estado: string; crmId?: string; error?: string; intentos: number } };
  }

  async function newLead(who: Client, corp: Corporate, extra: Record<string, unknown> = {}) {
    const n = Math.random().toString(36).slice(2, 8);
    const res = await who.post(leadsPath(corp), {
      nombre: `Cliente ${n}`,
      apellidos: 'Prueba',
      email: `cliente.${n}@example.com`,
      medioContacto: 'Showroom',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.json as { id: string } & Record<string, unknown>;
  }

  async function connect(who: Client, corp: Corporate, fake: CrmFake) {
    const start = await who.post('/api/crm/autorizar', { idCorporativo: corp.id });
    expect(start.status).toBe(200);
    const back = await fake.approve(start.json.url as string);
    const res = await who.post('/api/crm/token', {
      code: back.code,
      state: back.state,
      idCorporativo: corp.id,
      ...(back['accounts-server'] ? { accountsServer: back['accounts-server'] } : {}),
    });
    expect(res.status).toBe(200);
    return { start: start.json.url as string, back, res };
  }

  // ---------------------------------------------------------------------------- configuration

  it('answers the spec’s message for each missing piece, in es and en', async () => {
    expect((await admin.get(cfgPath(horizonte))).json).toMatchObject({
      tipo: null,
      clientSecretSet: false,
      exportacion: { url: null },
    });
    const sf = salesforce.config();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...sf, authorizeUri: '' }, 'No hay authorizeUri', 'authorizeUri is missing'],
      [{ ...sf, tokenUri: '' }, 'No hay tokenUri', 'tokenUri is missing'],
      [{ ...sf, insertLead: '' }, 'No hay insertLead', 'insertLead is missing'],
      [{ ...sf, infoSeller: '' }, 'No hay infoSeller', 'infoSeller is missing'],
      [{ ...hubspot.config(), scope: '' }, 'No hay scope', 'scope is missing'],
      [{ ...zoho.config(), scope: ' ' }, 'No hay scope', 'scope is missing'],
    ];
    for (const [body, es, en] of cases) {
      const res = await admin.put(cfgPath(horizonte), body);
      expect(res.status).toBe(400);
      expect(res.json[0].message).toBe(es);
      const english = await recorded(await login(app, 'admin@vitrina.demo'), 'en').put(
        cfgPath(horizonte),
        body,
      );
      expect(english.json[0].message).toBe(en);
    }
    // Salesforce needs no scope.
    expect((await admin.put(cfgPath(horizonte), { ...sf, scope: '' })).status).toBe(200);
    // Plain http outside loopback, a javascript: URL, a bad field name: refused.
    for (const bad of [
      { ...sf, tokenUri: 'http://crm.example.com/token' },
      { ...sf, authorizeUri: 'javascript:alert(1)' },
      { ...sf, exportacion: { url: 'ftp://example.com/x' } },
      { ...sf, mapaLeads: { nombre: { campo: 'First Name; DROP' } } },
    ]) {
      expect((await admin.put(cfgPath(horizonte), bad)).status).toBe(400);
    }
    // An internal address written as such (server-side request forgery): the cloud metadata
    // service, private networks, IPv4 in IPv6 and in hex; refused at save, the field named,
    // nothing stored.
    const saved = (await admin.get(cfgPath(horizonte))).json;
    for (const [field, url] of [
      ['tokenUri', 'https://169.254.169.254/latest/meta-data/'],
      ['authorizeUri', 'https://10.0.0.5/authorize'],
      ['apiBase', 'https://[::ffff:169.254.169.254]/'],
      ['apiBase', 'https://[fd00::1]/api'],
      ['insertLead', 'https://0xa9fea9fe/leads'],
      ['insertLead', 'https://192.168.1.1./leads'],
      ['exportacion.url', 'https://172.16.0.1/export'],
    ] as const) {
      const body =
        field === 'exportacion.url' ? { ...sf, exportacion: { url } } : { ...sf, [field]: url };
      const res = await admin.put(cfgPath(horizonte), body);
      expect(res.status, url).toBe(400);
      expect(res.json[0].errorCode, url).toBe('CRM_CONFIG_INVALID');
      expect(res.json[0].message, url).toBe(
        'La dirección debe ser https y estar en internet (no en una red interna)',
      );
      expect(res.json[0].details, url).toEqual([{ path: field, code: 'crm_url_invalid' }]);
    }
    expect((await admin.get(cfgPath(horizonte))).json).toEqual(saved);
  });

  it('keeps the client secret write-only', async () => {
    const res = await admin.put(cfgPath(horizonte), hubspot.config());
    expect(res.status).toBe(200);
    expect(res.json.clientSecretSet).toBe(true);
    expect(JSON.stringify(res.json)).not.toContain(FAKE_CLIENT.clientSecret);
    // Absent keeps it; the GET never shows it.
    const { clientSecret: _s, ...withoutSecret } = hubspot.config();
    expect((await admin.put(cfgPath(horizonte), withoutSecret)).json.clientSecretSet).toBe(true);
    const got = await admin.get(cfgPath(horizonte));
    expect(got.json).toMatchObject({ tipo: 'Hubspot', clientId: FAKE_CLIENT.clientId });
    expect(Object.keys(got.json)).not.toContain('clientSecret');
    // '' clears it.
    expect(
      (await admin.put(cfgPath(horizonte), { ...withoutSecret, clientSecret: '' })).json,
    ).toMatchObject({ clientSecretSet: false });
    expect((await admin.put(cfgPath(horizonte), hubspot.config())).json.clientSecretSet).toBe(true);
    // Only administrators.
    expect((await asesor.get(cfgPath(horizonte))).status).toBe(403);
    expect((await gerente.put(cfgPath(horizonte), hubspot.config())).status).toBe(403);
    expect((await pacifico.get(cfgPath(horizonte))).status).toBe(403);
    // The log never holds it in clear.
    const { rows } = await rt.deps.db.query<{ data: unknown }>(
      "SELECT data FROM events WHERE type = 'CrmConfigured'",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(FAKE_CLIENT.clientSecret);
  });

  it('previews the lead map with dotted names and defaults', async () => {
    const res = await admin.post(`${cfgPath(horizonte)}/vista-previa`, {
      mapaLeads: {
        nombre: { campo: 'properties.firstname' },
        apellidos: { campo: 'properties.lastname' },
        tipo: { campo: 'properties.tipo', predeterminado: 'Comprador' },
        empresa: { campo: 'Company', predeterminado: 'Particular' },
        status: { campo: 'Status' },
      },
      lead: { nombre: 'Ana', apellidos: 'Ruiz' },
    });
    expect(res.status).toBe(200);
    expect(res.json.payload).toEqual({
      properties: { firstname: 'Ana', lastname: 'Ruiz', tipo: 'Comprador' },
      Company: 'Particular',
    });
    expect(
      (await asesor.post(`${cfgPath(horizonte)}/vista-previa`, { mapaLeads: {} })).status,
    ).toBe(403);
  });

  // ---------------------------------------------------------------------------- connecting

  it('connects an adviser through the authorization-code flow; a wrong, reused or foreign state is refused', async () => {
    expect((await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`)).json).toEqual({
      estado: 'desconectado',
      tipo: 'Hubspot',
    });
    const start = await asesor.post('/api/crm/autorizar', { idCorporativo: horizonte.id });
    expect(start.status).toBe(200);
    const url = new URL(start.json.url as string);
    expect(url.origin + url.pathname).toBe(`${hubspot.url}/oauth/authorize`);
    expect(url.searchParams.get('client_id')).toBe(FAKE_CLIENT.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(
      'https://vitrina.example/corporativos/grupo-horizonte/clientes',
    );
    expect(url.searchParams.get('scope')).toContain('crm.objects.contacts.write');
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{40,}$/);
    const back = await hubspot.approve(start.json.url as string);
    const body = { code: back.code, state: back.state, idCorporativo: horizonte.id };
    // Wrong state.
    expect(
      (await asesor.post('/api/crm/token', { ...body, state: 'x'.repeat(43) })).json[0],
    ).toMatchObject({ errorCode: 'CRM_STATE_INVALID' });
    // Another session (the same adviser signed in elsewhere), another user: refused.
    const elsewhere = recorded(await login(app, 'asesor@vitrina.demo'));
    expect((await elsewhere.post('/api/crm/token', body)).status).toBe(400);
    expect((await gerente.post('/api/crm/token', body)).status).toBe(400);
    // Another corporate: not a member.
    expect(
      (await asesor.post('/api/crm/token', { ...body, idCorporativo: pacificoCorp.id })).status,
    ).toBe(403);
    // The right one, once.
    const ok = await asesor.post('/api/crm/token', body);
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({
      conectado: true,
      info: { user_id: '7001', email: 'asesor@vitrina.demo', name: 'Asesor Demo' },
    });
    expect(new Date(ok.json.expira as string).getTime() - now.getTime()).toBe(1800 * 1000);
    const reused = await asesor.post('/api/crm/token', body);
    expect(reused.status).toBe(400);
    expect(reused.json[0].message).toBe(
      'La autorización con el CRM no es válida o ya se usó. Vuelve a conectar',
    );
    const user = await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`);
    expect(user.json).toMatchObject({
      estado: 'conectado',
      tipo: 'Hubspot',
      info: { user_id: '7001' },
    });
    // A state expires after 10 minutes.
    const late = await asesor.post('/api/crm/autorizar', { idCorporativo: horizonte.id });
    const lateBack = await hubspot.approve(late.json.url as string);
    advance(11 * 60_000);
    expect(
      (
        await asesor.post('/api/crm/token', {
          code: lateBack.code,
          state: lateBack.state,
          idCorporativo: horizonte.id,
        })
      ).status,
    ).toBe(400);
    // The tokens are stored encrypted.
    const { rows } = await rt.deps.db.query<{ access_token: string; refresh_token: string }>(
      'SELECT access_token, refresh_token FROM crm_credentials',
    );
    expect(rows[0]!.access_token).toMatch(/^v1\./);
    expect(rows[0]!.refresh_token).toMatch(/^v1\./);
  });

  // ---------------------------------------------------------------------------- sync

  it('syncs a lead’s creation, update and deletion as upserts by our id', async () => {
    const lead = await newLead(asesor, horizonte);
    const synced = await waitSync(asesor, horizonte, lead.id, 'sincronizado');
    const record = hubspot.records.get(synced.sync.crmId!);
    expect(record?.fields).toMatchObject({
      vitrina_id: lead.id,
      firstname: lead.nombre,
      lastname: 'Prueba',
      email: lead.email,
      hubspot_owner_id: '7001',
    });
    // Update: the same record.
    const { id: _i, idCorporativo: _c, fechaAlta: _f, eliminado: _e, ...fields } = lead;
    const put = await asesor.put(`${leadsPath(horizonte)}/${lead.id}`, {
      ...fields,
      telefono: '5512345678',
      leadAnterior: fields,
    });
    expect(put.status).toBe(200);
    await eventually(() =>
      Promise.resolve(hubspot.records.get(synced.sync.crmId!)?.fields.phone === '5512345678'),
    );
    expect(
      [...hubspot.records.values()].filter((r) => r.fields.vitrina_id === lead.id),
    ).toHaveLength(1);
    // The leads list from the CRM maps the record to our lead.
    const list = await asesor.get(`/api/corporativos/${horizonte.id}/crm/leads`);
    expect(list.status).toBe(200);
    expect(list.json.items).toContainEqual(
      expect.objectContaining({ crmId: synced.sync.crmId, leadId: lead.id, email: lead.email }),
    );
    // Delete.
    expect((await asesor.del(`${leadsPath(horizonte)}/${lead.id}`)).status).toBe(200);
    await eventually(() => Promise.resolve(!hubspot.records.has(synced.sync.crmId!)));
  });

  it('makes no duplicate when the CRM stores the record and then times out', async () => {
    hubspot.switches.stallNextWriteMs = 1_500;
    const lead = await newLead(asesor, horizonte);
    const failed = await waitSync(asesor, horizonte, lead.id, 'reintentando');
    expect(failed.sync.error).toBe('TIMEOUT: the CRM did not answer in time');
    expect(
      [...hubspot.records.values()].filter((r) => r.fields.vitrina_id === lead.id),
    ).toHaveLength(1);
    advance(10_000);
    const synced = await waitSync(asesor, horizonte, lead.id, 'sincronizado');
    expect(synced.sync.intentos).toBe(2);
    expect(
      [...hubspot.records.values()].filter((r) => r.fields.vitrina_id === lead.id),
    ).toHaveLength(1);
  });

  it('waits 10 s on HubSpot’s TEN_SECONDLY_ROLLING, retries a 500, and dead-letters a refused contact until retried', async () => {
    hubspot.switches.rateLimit = 1;
    const limited = await newLead(asesor, horizonte);
    const waiting = await waitSync(asesor, horizonte, limited.id, 'reintentando');
    expect(waiting.sync.error).toBe('RATE_LIMIT: You have reached your secondly limit.');
    advance(9_000);
    await new Promise((r) => setTimeout(r, 300));
    expect((await syncOf(asesor, horizonte, limited.id)).sync.estado).toBe('reintentando');
    advance(1_500);
    await waitSync(asesor, horizonte, limited.id, 'sincronizado');

    const err500 = {
      status: 500,
      body: { status: 'error', message: 'internal error', category: 'INTERNAL_ERROR' },
    };
    hubspot.switches.nextErrors.push(err500);
    const flaky = await newLead(asesor, horizonte);
    expect((await waitSync(asesor, horizonte, flaky.id, 'reintentando')).sync.error).toBe(
      'INTERNAL_ERROR: internal error',
    );
    advance(10_000);
    await waitSync(asesor, horizonte, flaky.id, 'sincronizado');

    // Three 500s in a row with three attempts: the dead letter, then the retry route.
    hubspot.switches.nextErrors.push(err500, err500, err500, err500, err500, err500);
    const doomed = await newLead(asesor, horizonte);
    for (let i = 0; i < 3; i++) {
      await eventually(async () => (await syncOf(asesor, horizonte, doomed.id)).sync.intentos > i);
      await retryScheduled(doomed.id);
      advance(10_000);
    }
    const dead = await waitSync(asesor, horizonte, doomed.id, 'fallido');
    expect(dead.sync.error).toBe('INTERNAL_ERROR: internal error');
    // The adviser is told (crm.fallo), once.
    const told = await rt.deps.db.query<{ data: { tipo: string; link: string } }>(
      `SELECT data FROM events WHERE type = 'NotificationSent' AND data->>'tipo' = 'crm.fallo'
          AND data->>'link' LIKE $1`,
      [`%/clientes/${doomed.id}`],
    );
    expect(told.rows).toHaveLength(1);
    const summary = await admin.get(`/api/corporativos/${horizonte.id}/crm/sincronizacion`);
    expect(summary.json.fallidos).toBeGreaterThanOrEqual(1);
    expect(summary.json.recientes).toContainEqual(
      expect.objectContaining({
        leadId: doomed.id,
        estado: 'fallido',
        error: 'INTERNAL_ERROR: internal error',
      }),
    );
    expect((await asesor.get(`/api/corporativos/${horizonte.id}/crm/sincronizacion`)).status).toBe(
      403,
    );
    hubspot.switches.nextErrors.length = 0;
    expect((await asesor.post(`${leadsPath(horizonte)}/${doomed.id}/crm/reintentar`)).status).toBe(
      202,
    );
    await waitSync(asesor, horizonte, doomed.id, 'sincronizado');

    // A contact HubSpot refuses (400): dead at once, with HubSpot's words.
    hubspot.switches.nextErrors.push({
      status: 400,
      body: {
        status: 'error',
        message: 'Property values were not valid',
        category: 'VALIDATION_ERROR',
      },
    });
    const refused = await newLead(asesor, horizonte);
    const fallido = await waitSync(asesor, horizonte, refused.id, 'fallido');
    expect(fallido.sync).toMatchObject({
      error: 'VALIDATION_ERROR: Property values were not valid',
      intentos: 1,
    });
    // Another adviser's lead is not theirs to see or retry.
    const other = recorded(await login(app, 'asesor2@vitrina.demo'));
    expect((await other.get(`${leadsPath(horizonte)}/${refused.id}/crm`)).status).toBe(404);
    expect((await other.post(`${leadsPath(horizonte)}/${refused.id}/crm/reintentar`)).status).toBe(
      404,
    );
  });

  it('refreshes an expired token once (one 401, one refresh, one retry); a refused refresh asks to re-authorise', async () => {
    const refreshesBefore = hubspot.tokenCalls.filter((t) => t.grant === 'refresh_token').length;
    hubspot.switches.expireTokens();
    const lead = await newLead(asesor, horizonte);
    await waitSync(asesor, horizonte, lead.id, 'sincronizado');
    expect(hubspot.tokenCalls.filter((t) => t.grant === 'refresh_token').length).toBe(
      refreshesBefore + 1,
    );
    // The refresh-token route, and a refused refresh.
    expect(
      (await asesor.post('/api/crm/refresh-token', { idCorporativo: horizonte.id })).json,
    ).toMatchObject({ conectado: true });
    hubspot.switches.expireTokens();
    hubspot.switches.revokeRefresh = true;
    const list = await asesor.get(`/api/corporativos/${horizonte.id}/crm/leads`);
    expect(list.status).toBe(409);
    expect(list.json[0].errorCode).toBe('CRM_REAUTORIZAR');
    expect((await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`)).json.estado).toBe(
      'reautorizar',
    );
    expect(
      (await asesor.post('/api/crm/refresh-token', { idCorporativo: horizonte.id })).status,
    ).toBe(409);
    hubspot.switches.revokeRefresh = false;
    await connect(asesor, horizonte, hubspot);
    expect((await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`)).json.estado).toBe(
      'conectado',
    );
    // Five calls at once on an expired token: one refresh (single-flight), every call answered.
    hubspot.switches.expireTokens();
    const before = hubspot.tokenCalls.filter((t) => t.grant === 'refresh_token').length;
    const lists = await Promise.all(
      Array.from({ length: 5 }, () => asesor.get(`/api/corporativos/${horizonte.id}/crm/leads`)),
    );
    expect(lists.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect(hubspot.tokenCalls.filter((t) => t.grant === 'refresh_token').length).toBe(before + 1);
  });

  it('lists the CRM’s leads by owner, paged and searchable', async () => {
    for (const n of ['Uno', 'Dos', 'Tres'])
      hubspot.records.set(`90${n}`, {
        id: `90${n}`,
        fields: {
          firstname: `Lista${n}`,
          lastname: 'CRM',
          email: `${n}@crm.example`,
          hubspot_owner_id: '7001',
        },
        createdAt: new Date().toISOString(),
      });
    hubspot.records.set('90Ajeno', {
      id: '90Ajeno',
      fields: { firstname: 'ListaAjeno', lastname: 'CRM', hubspot_owner_id: '7002' },
      createdAt: new Date().toISOString(),
    });
    const names: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await asesor.get(
        `/api/corporativos/${horizonte.id}/crm/leads?q=Lista${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      names.push(...(res.json.items as { nombre: string }[]).map((i) => i.nombre));
      cursor = res.json.next as string | null;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(2);
    expect(names.sort()).toEqual(['ListaDos', 'ListaTres', 'ListaUno']);
    // Without a connection: 409 CRM_DESCONECTADO.
    const res = await gerente.get(`/api/corporativos/${horizonte.id}/crm/leads`);
    expect(res.status).toBe(409);
    expect(res.json[0].errorCode).toBe('CRM_DESCONECTADO');
  });

  it('exports a lead to the classifieds partner through the outbox', async () => {
    const lead = await newLead(asesor, horizonte, { telefono: '5598765432' });
    expect((await asesor.post(`${leadsPath(horizonte)}/${lead.id}/exportar`, {})).status).toBe(400);
    const { clientSecret: _s, ...rest } = hubspot.config();
    expect(
      (await admin.put(cfgPath(horizonte), { ...rest, exportacion: { url: receiverUrl } })).status,
    ).toBe(200);
    expect(
      (await asesor.post(`${leadsPath(horizonte)}/${lead.id}/exportar`, { mensaje: 'Me interesa' }))
        .status,
    ).toBe(202);
    await eventually(
      async () => (await syncOf(asesor, horizonte, lead.id)).exportacion?.estado === 'enviado',
    );
    const got = receiver.received.at(-1)!;
    expect(got.key).toMatch(/[\w-]{8,}/);
    expect(got.body).toEqual({
      externalId: lead.id,
      classifiedUrl: 'https://vitrina.example/public/corporativos/grupo-horizonte',
      asesor: expect.stringMatching(/\S/),
      contact: {
        Name: lead.nombre,
        LastName: 'Prueba',
        Email: lead.email,
        Phone: '5598765432',
        Message: 'Me interesa',
      },
    });
    receiver.setStatus(422);
    await asesor.post(`${leadsPath(horizonte)}/${lead.id}/exportar`, {});
    await eventually(
      async () => (await syncOf(asesor, horizonte, lead.id)).exportacion?.estado === 'fallido',
    );
    expect((await syncOf(asesor, horizonte, lead.id)).exportacion.error).toBe(
      'HTTP_422: externalId duplicado',
    );
    receiver.setStatus(200);
  });

  it('syncs with Salesforce: PKCE, the default map, its error array and REQUEST_LIMIT_EXCEEDED, query pages', async () => {
    expect((await admin.put(cfgPath(pacificoCorp), salesforce.config())).status).toBe(200);
    const { start } = await connect(pacifico, pacificoCorp, salesforce);
    const url = new URL(start);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const exchange = salesforce.tokenCalls.find((t) => t.grant === 'authorization_code')!;
    expect(exchange.form.code_verifier).toMatch(/^[\w-]{43,}$/);
    const user = (await pacifico.get(`/api/crm/user?idCorporativo=${pacificoCorp.id}`)).json;
    expect(user).toMatchObject({ estado: 'conectado', info: { user_id: '005000000000001AAA' } });
    // No expires_in: the spec's 36e5/700 seconds.
    expect(new Date(user.expira as string).getTime() - now.getTime()).toBe(
      Math.round((36e5 / 700) * 1000),
    );

    const lead = await newLead(pacifico, pacificoCorp);
    const synced = await waitSync(pacifico, pacificoCorp, lead.id, 'sincronizado');
    expect(salesforce.records.get(synced.sync.crmId!)?.fields).toMatchObject({
      Vitrina_Id__c: lead.id,
      LastName: 'Prueba',
      Company: 'Particular',
      OwnerId: '005000000000001AAA',
    });

    // A map without Company: Salesforce's REQUIRED_FIELD_MISSING, dead at once.
    expect(
      (
        await admin.put(cfgPath(pacificoCorp), {
          ...salesforce.config(),
          clientSecret: undefined,
          mapaLeads: { nombre: { campo: 'FirstName' }, apellidos: { campo: 'LastName' } },
        })
      ).status,
    ).toBe(200);
    const noCompany = await newLead(pacifico, pacificoCorp);
    expect((await waitSync(pacifico, pacificoCorp, noCompany.id, 'fallido')).sync.error).toBe(
      'REQUIRED_FIELD_MISSING: Company',
    );
    expect(
      (await admin.put(cfgPath(pacificoCorp), { ...salesforce.config(), clientSecret: undefined }))
        .status,
    ).toBe(200);
    // Retried in the moment the failure is on the lead but its message is still being delivered
    // (the dead letter not written yet): the retry still happens.
    await rt.deps.db.query(
      `UPDATE outbox SET state = 'sending', next_attempt_at = now() + interval '1 hour'
        WHERE id = (SELECT outbox_id FROM crm_lead_sync WHERE lead_id = $1)`,
      [noCompany.id],
    );
    expect(
      (await pacifico.post(`${leadsPath(pacificoCorp)}/${noCompany.id}/crm/reintentar`)).status,
    ).toBe(202);
    await waitSync(pacifico, pacificoCorp, noCompany.id, 'sincronizado');

    salesforce.switches.rateLimit = 1;
    const limited = await newLead(pacifico, pacificoCorp);
    expect((await waitSync(pacifico, pacificoCorp, limited.id, 'reintentando')).sync.error).toBe(
      'REQUEST_LIMIT_EXCEEDED: TotalRequests Limit exceeded.',
    );
    advance(16 * 60_000);
    await waitSync(pacifico, pacificoCorp, limited.id, 'sincronizado');

    // The query, page after page (nextRecordsUrl), and a search.
    const all: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await pacifico.get(
        `/api/corporativos/${pacificoCorp.id}/crm/leads${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.status).toBe(200);
      all.push(...(res.json.items as { crmId: string }[]).map((i) => i.crmId));
      cursor = res.json.next as string | null;
      pages++;
    } while (cursor && pages < 10);
    expect(all.length).toBe(salesforce.records.size);
    expect(pages).toBe(Math.ceil(salesforce.records.size / 2));
    const search = await pacifico.get(
      `/api/corporativos/${pacificoCorp.id}/crm/leads?q=${encodeURIComponent(String(lead.email))}`,
    );
    expect(search.json.items).toEqual([
      expect.objectContaining({ crmId: synced.sync.crmId, leadId: lead.id }),
    ]);
    // A cursor that is not Salesforce's: refused, never fetched.
    expect(
      (
        await pacifico.get(
          `/api/corporativos/${pacificoCorp.id}/crm/leads?cursor=https://evil.example/x`,
        )
      ).status,
    ).toBe(400);
  });

  it('syncs with Zoho: the accounts server checked, per-record errors with HTTP 200', async () => {
    const { clientSecret: _s, ...rest } = zoho.config();
    expect(
      (await admin.put(cfgPath(horizonte), { ...rest, clientSecret: FAKE_CLIENT.clientSecret }))
        .status,
    ).toBe(200);
    // The CRM changed: the HubSpot connection no longer counts.
    expect((await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`)).json.estado).toBe(
      'desconectado',
    );
    const start = await asesor.post('/api/crm/autorizar', { idCorporativo: horizonte.id });
    const url = new URL(start.json.url as string);
    expect(url.searchParams.get('access_type')).toBe('offline');
    expect(url.searchParams.get('prompt')).toBe('consent');
    const back = await zoho.approve(start.json.url as string);
    expect(back['accounts-server']).toBe(zoho.url);
    // An accounts server that is not Zoho's (nor the configured one): refused.
    expect(
      (
        await asesor.post('/api/crm/token', {
          code: back.code,
          state: back.state,
          idCorporativo: horizonte.id,
          accountsServer: 'https://accounts.evil.example',
        })
      ).status,
    ).toBe(400);
    const again = await connect(asesor, horizonte, zoho);
    expect(again.res.json.info).toMatchObject({ user_id: '5725767000000411001' });

    const lead = await newLead(asesor, horizonte);
    const synced = await waitSync(asesor, horizonte, lead.id, 'sincronizado');
    expect(zoho.records.get(synced.sync.crmId!)?.fields).toMatchObject({
      Vitrina_Id: lead.id,
      Last_Name: 'Prueba',
      Owner: { id: '5725767000000411001' },
    });
    // Deleted in Zoho by hand, then here: Zoho's INVALID_DATA means already gone, not a failure.
    zoho.records.delete(synced.sync.crmId!);
    expect((await asesor.del(`${leadsPath(horizonte)}/${lead.id}`)).status).toBe(200);
    const deletePath = `/crm/v8/Leads/${synced.sync.crmId}`;
    await eventually(() =>
      Promise.resolve(zoho.calls.some((c) => c.method === 'DELETE' && c.path === deletePath)),
    );
    await eventually(async () => {
      const { rows } = await rt.deps.db.query<{ estado: string; state: string }>(
        `SELECT s.estado, o.state FROM crm_lead_sync s JOIN outbox o ON o.id = s.outbox_id
          WHERE s.lead_id = $1`,
        [lead.id],
      );
      return rows[0]?.state === 'sent' && rows[0].estado === 'sincronizado';
    });
    zoho.switches.nextErrors.push({
      status: 200,
      body: {
        data: [
          {
            code: 'MANDATORY_NOT_FOUND',
            details: { api_name: 'Last_Name' },
            message: 'required field not found',
            status: 'error',
          },
        ],
      },
    });
    const refused = await newLead(asesor, horizonte);
    expect((await waitSync(asesor, horizonte, refused.id, 'fallido')).sync.error).toBe(
      'MANDATORY_NOT_FOUND: Last_Name',
    );
    // An expired token: Zoho's 401 INVALID_TOKEN, one refresh (no refresh_token in the answer:
    // the stored one is kept), one retry.
    zoho.switches.expireTokens();
    const later = await newLead(asesor, horizonte);
    await waitSync(asesor, horizonte, later.id, 'sincronizado');
    zoho.switches.expireTokens();
    expect((await asesor.get(`/api/corporativos/${horizonte.id}/crm/leads`)).status).toBe(200);
    // Disconnecting: the credentials go.
    expect((await asesor.del(`/api/crm/user?idCorporativo=${horizonte.id}`)).status).toBe(204);
    expect((await asesor.get(`/api/crm/user?idCorporativo=${horizonte.id}`)).json.estado).toBe(
      'desconectado',
    );
    const { rows } = await rt.deps.db.query('SELECT 1 FROM crm_credentials WHERE user_id = $1', [
      ids['asesor@vitrina.demo'],
    ]);
    expect(rows).toHaveLength(0);
  });

  it('answers bad input in the error shape', async () => {
    for (const [method, path, body] of [
      ['post', '/api/crm/autorizar', { idCorporativo: '' }],
      ['post', '/api/crm/token', { code: 'x', idCorporativo: horizonte.id }],
      ['get', '/api/crm/user', undefined],
      ['get', `/api/corporativos/${horizonte.id}/crm/leads?q=${'x'.repeat(200)}`, undefined],
      ['put', cfgPath(horizonte), { tipo: 'Pipedrive' }],
      ['post', `${leadsPath(horizonte)}/no-existe/exportar`, {}],
    ] as const) {
      const res =
        method === 'get'
          ? await asesor.get(path)
          : method === 'put'
            ? await admin.put(path, body)
            : await asesor.post(path, body);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(Array.isArray(res.json) && res.json[0].errorCode, path).toBeTruthy();
    }
    // The CRM turned off: the spec's message.
    expect((await admin.put(cfgPath(pacificoCorp), { tipo: null })).json.tipo).toBe(null);
    const res = await pacifico.post('/api/crm/autorizar', { idCorporativo: pacificoCorp.id });
    expect(res.status).toBe(400);
    expect(res.json[0].message).toBe('No existe config CRM en el corporativo');
  });

  it('never shows the client secret or a token in an answer or a log line', () => {
    const secrets = [FAKE_CLIENT.clientSecret];
    for (const fake of [hubspot, salesforce, zoho])
      for (const call of fake.tokenCalls)
        for (const k of ['code', 'refresh_token', 'code_verifier'])
          if (call.form[k]) secrets.push(call.form[k]);
    expect(hubspot.calls.length).toBeGreaterThan(0);
    const texts = [...seen, ...logged()];
    expect(texts.length).toBeGreaterThan(50);
    for (const secret of secrets.filter((s) => !s.startsWith('code-'))) {
      for (const text of texts) expect(text.includes(secret), secret).toBe(false);
    }
    for (const text of texts) {
      expect(text).not.toMatch(/\bat-[0-9a-f]{32}\b/);
      expect(text).not.toMatch(/\brt-[0-9a-f]{32}\b/);
    }
  });
});
