import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitFor } from 'xstate';
import { pageOf } from '../../src/core/navigation';
import { ApiRequestError } from '../../src/ui/lib/api';
import {
  crmFieldErrors,
  isCrmDisconnected,
  isCrmUnauthorised,
} from '../../src/ui/features/crm/api/crm';
import {
  crmCallbackParams,
  startCrmConnection,
  withoutCallbackParams,
} from '../../src/ui/features/crm/api/crm-connection';
import { crmItemAsLead, crmListSourceFor } from '../../src/ui/features/crm/api/crm-lead-source';
import {
  isCrmOnlyLead,
  leadSourceFor,
  setCrmLeadSourceResolver,
  vitrinaLeadSource,
} from '../../src/ui/features/leads/api/lead-source';

const apiError = (status: number, body: unknown) => {
  const first = (Array.isArray(body) ? body[0] : body) as { errorCode?: string; message?: string };
  return new ApiRequestError(status, first?.errorCode ?? null, first?.message ?? '', body);
};

describe('CRM configuration errors at their fields', () => {
  it("places the spec's missing-piece messages at the field they name", () => {
    const errors = crmFieldErrors(
      apiError(400, [
        { errorCode: 'VALIDATION', message: 'No hay scope' },
        { errorCode: 'VALIDATION', message: 'No hay authorizeUri' },
      ]),
    );
    expect(errors).toEqual({ scope: 'No hay scope', authorizeUri: 'No hay authorizeUri' });
  });

  it('the server’s answer (details with codes only): each field its own text, in the language', async () => {
    const { createInstance } = await import('i18next');
    const es = (await import('../../src/ui/i18n/locales/es/errors.json')).default;
    const en = (await import('../../src/ui/i18n/locales/en/errors.json')).default;
    const body = [
      {
        errorCode: 'CRM_CONFIG_INVALID',
        message: 'No hay authorizeUri',
        details: [
          { path: 'authorizeUri', code: 'crm_no_authorize_uri' },
          { path: 'scope', code: 'crm_no_scope' },
          { path: 'tokenUri', code: 'crm_no_token_uri' },
        ],
      },
    ];
    for (const [lng, expected] of [
      [
        'es',
        { authorizeUri: 'No hay authorizeUri', scope: 'No hay scope', tokenUri: 'No hay tokenUri' },
      ],
      [
        'en',
        { authorizeUri: en.crm.noAuthorizeUri, scope: en.crm.noScope, tokenUri: en.crm.noTokenUri },
      ],
    ] as const) {
      const i18n = createInstance();
      await i18n.init({ lng, resources: { es: { errors: es }, en: { errors: en } } });
      expect(crmFieldErrors(apiError(400, body), i18n)).toEqual(expected);
    }
  });

  it('uses the field the answer names (campo / field / details), else the form', () => {
    expect(
      crmFieldErrors(
        apiError(400, [{ errorCode: 'X', message: 'No hay tokenUri', campo: 'tokenUri' }]),
      ),
    ).toEqual({ tokenUri: 'No hay tokenUri' });
    expect(
      crmFieldErrors(
        apiError(400, [
          {
            errorCode: 'VALIDATION',
            message: 'Datos no válidos',
            details: [{ path: 'exportacion.url', message: 'URL no válida' }],
          },
        ]),
      ),
    ).toEqual({ exportacion: 'URL no válida' });
    expect(
      crmFieldErrors(apiError(403, [{ errorCode: 'FORBIDDEN', message: 'Sin permiso' }])),
    ).toEqual({
      _form: 'Sin permiso',
    });
  });
});

describe('the CRM settings page', () => {
  it('is a page of its own (the document title), nothing below it', () => {
    expect(pageOf('/corporativos/grupo-horizonte/crm')).toBe('crmSettings');
    expect(pageOf('/corporativos/grupo-horizonte/crm/')).toBe('crmSettings');
    expect(pageOf('/corporativos/grupo-horizonte/crm/x')).toBe('notFound');
  });
});

describe('CRM answers the client acts on', () => {
  it('409 CRM_REAUTORIZAR is unauthorised; CRM_DESCONECTADO is disconnected; others are neither', () => {
    const reauth = apiError(409, [{ errorCode: 'CRM_REAUTORIZAR', message: '' }]);
    const gone = apiError(409, [{ errorCode: 'CRM_DESCONECTADO', message: '' }]);
    const conflict = apiError(409, [{ errorCode: 'CONFLICT', message: '' }]);
    expect([isCrmUnauthorised(reauth), isCrmDisconnected(reauth)]).toEqual([true, false]);
    expect([isCrmUnauthorised(gone), isCrmDisconnected(gone)]).toEqual([false, true]);
    expect([isCrmUnauthorised(conflict), isCrmDisconnected(conflict)]).toEqual([false, false]);
  });

  it("reads the callback's code and state (and Zoho's accounts-server), then removes them", () => {
    expect(crmCallbackParams('?code=abc&state=s1')).toEqual({
      code: 'abc',
      state: 's1',
      accountsServer: null,
    });
    expect(
      crmCallbackParams('?code=abc&state=s1&accounts-server=https%3A%2F%2Faccounts.zoho.eu')
        ?.accountsServer,
    ).toBe('https://accounts.zoho.eu');
    expect(crmCallbackParams('?code=abc')).toBeNull();
    expect(crmCallbackParams('?q=ana')).toBeNull();
    expect(
      withoutCallbackParams(
        'http://x.test/corporativos/g/clientes?q=ana&code=abc&state=s1&location=us&accounts-server=z#top',
      ),
    ).toBe('/corporativos/g/clientes?q=ana#top');
  });

  it('a CRM record mapped to our lead opens it; an unmapped one is a CRM-only row', () => {
    const mapped = crmItemAsLead('c1', {
      crmId: '501',
      nombre: 'Ana',
      apellidos: 'Ruiz',
      email: 'ana@example.com',
      telefono: null,
      fechaAlta: '2026-11-20T10:00:00.000Z',
      leadId: 'lead-9',
    });
    expect(mapped).toMatchObject({ id: 'lead-9', nombre: 'Ana', fechaAlta: 1795168800 });
    expect(isCrmOnlyLead(mapped)).toBe(false);
    const only = crmItemAsLead('c1', {
      crmId: '502',
      nombre: 'Luis',
      apellidos: '',
      email: null,
      telefono: '5512345678',
      leadId: null,
    });
    expect(only.id).toBe('crm:502');
    expect(only.fechaAlta).toBe(0);
    expect(isCrmOnlyLead(only)).toBe(true);
  });
});

describe('the CRM as the lead source (against a stubbed server)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setCrmLeadSourceResolver(() => null);
  });

  /** A server that answers the CRM calls as `routes` says (path → status and body). */
  function stubServer(routes: Record<string, () => { status: number; body: unknown }>) {
    const calls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((input: string, init?: RequestInit) => {
        const url = new URL(input, 'http://x.test');
        const key = `${init?.method ?? 'GET'} ${url.pathname}`;
        calls.push(`${key}${url.search}`);
        const route = routes[key];
        const { status, body } = route
          ? route()
          : { status: 404, body: [{ errorCode: 'NOT_FOUND' }] };
        return Promise.resolve(
          new Response(body === null ? null : JSON.stringify(body), {
            status,
            headers: { 'Content-Type': 'application/json' },
          }),
        );
      }),
    );
    return calls;
  }

  const page = { cursor: null, limit: 50 };

  it('without a connection the source is Vitrina’s; connected, the list is the CRM’s', async () => {
    const calls = stubServer({
      'GET /api/crm/user': () => ({
        status: 200,
        body: {
          estado: 'conectado',
          tipo: 'Hubspot',
          info: { user_id: '1', email: 'a@b.c', name: 'A' },
          expira: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
      'GET /api/corporativos/c-ok/crm/leads': () => ({
        status: 200,
        body: {
          items: [
            {
              crmId: '1',
              nombre: 'Ana',
              apellidos: 'R',
              email: null,
              telefono: null,
              leadId: 'l1',
            },
          ],
          next: 'n2',
        },
      }),
    });
    setCrmLeadSourceResolver(crmListSourceFor);
    expect(leadSourceFor({ id: 'c-ok' })).toBe(vitrinaLeadSource);
    const actor = startCrmConnection('c-ok');
    await waitFor(actor, (s) => s.matches('connected'));
    const source = leadSourceFor({ id: 'c-ok' });
    expect(source.id).toMatch(/^crm-Hubspot-1-on$/);
    // Reading and writing a lead stay Vitrina's calls.
    expect(source.create === vitrinaLeadSource.create && source.get === vitrinaLeadSource.get).toBe(
      true,
    );
    const answer = await source.list('c-ok', { q: ' ana ' }, page);
    expect(answer.leads.map((l) => l.id)).toEqual(['l1']);
    expect(answer.nextCursor).toBe('n2');
    expect(calls).toContain('GET /api/corporativos/c-ok/crm/leads?q=ana');
    actor.stop();
  });

  it('HubSpot: a list answered 409 CRM_REAUTORIZAR is empty and shows the reconnect prompt', async () => {
    const calls = stubServer({
      'GET /api/crm/user': () => ({
        status: 200,
        body: {
          estado: 'conectado',
          tipo: 'Hubspot',
          info: { user_id: '1', email: 'a@b.c', name: 'A' },
          expira: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
      'GET /api/corporativos/c-exp/crm/leads': () => ({
        status: 409,
        body: [{ errorCode: 'CRM_REAUTORIZAR', message: 'Reautoriza' }],
      }),
    });
    setCrmLeadSourceResolver(crmListSourceFor);
    const actor = startCrmConnection('c-exp');
    await waitFor(actor, (s) => s.matches('connected'));
    const answer = await leadSourceFor({ id: 'c-exp' }).list('c-exp', {}, page);
    expect(answer).toEqual({ leads: [], nextCursor: null, total: 0 });
    expect(actor.getSnapshot().hasTag('reconnectPrompt')).toBe(true);
    expect(calls.filter((c) => c.includes('/crm/leads'))).toHaveLength(1);
    expect(calls.some((c) => c.includes('refresh-token'))).toBe(false);
    actor.stop();
  });

  it('Zoho: one refresh on the server, then the list is asked once more', async () => {
    let refreshed = false;
    const calls = stubServer({
      'GET /api/crm/user': () => ({
        status: 200,
        body: {
          estado: 'conectado',
          tipo: 'Zoho',
          info: { user_id: '2', email: 'z@b.c', name: 'Z' },
          expira: new Date(Date.now() + 3_600_000).toISOString(),
        },
      }),
      'POST /api/crm/refresh-token': () => {
        refreshed = true;
        return {
          status: 200,
          body: { conectado: true, expira: new Date(Date.now() + 7_200_000).toISOString() },
        };
      },
      'GET /api/corporativos/c-zoho/crm/leads': () =>
        refreshed
          ? { status: 200, body: { items: [], next: null } }
          : { status: 409, body: [{ errorCode: 'CRM_REAUTORIZAR', message: '' }] },
    });
    setCrmLeadSourceResolver(crmListSourceFor);
    const actor = startCrmConnection('c-zoho');
    await waitFor(actor, (s) => s.matches('connected'));
    const source = leadSourceFor({ id: 'c-zoho' });
    const [a, b] = await Promise.all([
      source.list('c-zoho', {}, page),
      source.list('c-zoho', {}, page),
    ]);
    expect(a.leads).toEqual([]);
    expect(b.total).toBe(0);
    expect(calls.filter((c) => c.includes('refresh-token'))).toHaveLength(1);
    expect(calls.filter((c) => c.includes('/crm/leads'))).toHaveLength(4);
    expect(actor.getSnapshot().value).toBe('connected');
    actor.stop();
  });
});
