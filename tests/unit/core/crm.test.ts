/**
 * core/crm.ts: the configuration's requirements (spec §5, §8 messages), the lead map (dotted
 * names, `predeterminado` defaults), the expiry (expires_in, legacy ms, the spec's 36e5/700), the
 * connection's state and the corporate-crm decider (given / when / then).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  authorizeIssue,
  connectionState,
  crmConfigDecider,
  crmConfigIssues,
  crmExpiry,
  defaultLeadMap,
  EMPTY_CRM_CONFIG,
  exportPayload,
  failedSyncState,
  isValidCampo,
  mapLead,
  SAMPLE_LEAD,
  SPEC_EXPIRY_SECONDS,
  type CrmConfig,
  type CrmPayload,
  type LeadMap,
} from '../../../src/core/crm';

const salesforce: CrmConfig = {
  ...EMPTY_CRM_CONFIG,
  tipo: 'Salesforce',
  clientId: 'cliente',
  authorizeUri: 'https://login.salesforce.com/services/oauth2/authorize',
  tokenUri: 'https://login.salesforce.com/services/oauth2/token',
  insertLead: '/sobjects/Lead',
  infoSeller: '/services/oauth2/userinfo',
};
const hubspot: CrmConfig = {
  ...EMPTY_CRM_CONFIG,
  tipo: 'Hubspot',
  authorizeUri: 'https://app.hubspot.com/oauth/authorize',
  tokenUri: 'https://api.hubapi.com/oauth/v1/token',
  scope: 'crm.objects.contacts.write',
};

describe('the configuration’s requirements', () => {
  it('asks nothing of a CRM that is off', () => {
    expect(crmConfigIssues(EMPTY_CRM_CONFIG)).toEqual([]);
    expect(authorizeIssue(EMPTY_CRM_CONFIG)).toBe('crm_no_config');
    expect(authorizeIssue(null)).toBe('crm_no_config');
  });

  it('needs authorizeUri and tokenUri always, scope for Zoho and Hubspot, insertLead and infoSeller for Salesforce', () => {
    expect(crmConfigIssues(salesforce)).toEqual([]);
    expect(crmConfigIssues(hubspot)).toEqual([]);
    expect(crmConfigIssues({ ...salesforce, insertLead: '', infoSeller: ' ' })).toEqual([
      { campo: 'insertLead', code: 'crm_no_insert_lead' },
      { campo: 'infoSeller', code: 'crm_no_info_seller' },
    ]);
    expect(crmConfigIssues({ ...hubspot, scope: '' })).toEqual([
      { campo: 'scope', code: 'crm_no_scope' },
    ]);
    expect(crmConfigIssues({ ...hubspot, tipo: 'Zoho', scope: '' })[0]?.code).toBe('crm_no_scope');
    // Salesforce takes no scope, HubSpot no insertLead.
    expect(crmConfigIssues({ ...salesforce, scope: '' })).toEqual([]);
    expect(crmConfigIssues({ ...hubspot, insertLead: '', infoSeller: '' })).toEqual([]);
    expect(authorizeIssue({ ...hubspot, authorizeUri: '' })).toBe('crm_no_authorize_uri');
    expect(authorizeIssue({ ...hubspot, scope: '' })).toBe('crm_no_scope');
    expect(authorizeIssue({ ...salesforce, tokenUri: '' })).toBe('crm_no_token_uri');
    expect(authorizeIssue(salesforce)).toBeNull();
  });
});

describe('the lead map', () => {
  it('nests dotted names and fills defaults where the lead has no value', () => {
    const mapa: LeadMap = {
      nombre: { campo: 'Contacto.Nombre' },
      apellidos: { campo: 'Contacto.Apellidos' },
      email: { campo: 'Email' },
      tipo: { campo: 'Tipo', predeterminado: 'Comprador' },
      empresa: { campo: 'Company', predeterminado: 'Particular' },
      status: { campo: 'Status' },
    };
    expect(mapLead({ ...SAMPLE_LEAD, email: null }, mapa)).toEqual({
      Contacto: { Nombre: 'María', Apellidos: 'González Pérez' },
      Tipo: 'Comprador',
      Company: 'Particular',
    });
  });

  it('uses the lead’s value over the default, and skips blank values without a default', () => {
    expect(
      mapLead(
        { ...SAMPLE_LEAD, tipo: 'Inversionista', notas: '  ' },
        {
          tipo: { campo: 'Tipo', predeterminado: 'Comprador' },
          notas: { campo: 'Description' },
        },
      ),
    ).toEqual({ Tipo: 'Inversionista' });
  });

  it('keeps the first of two colliding paths and ignores invalid names', () => {
    expect(
      mapLead(SAMPLE_LEAD, {
        apellidos: { campo: 'Owner' },
        nombre: { campo: 'Owner.id' },
        email: { campo: 'bad name' },
      }),
    ).toEqual({ Owner: 'González Pérez' });
    expect(isValidCampo('Owner.id')).toBe(true);
    expect(isValidCampo('a..b')).toBe(false);
    expect(isValidCampo('__proto__.x')).toBe(false);
    expect(isValidCampo('a.constructor')).toBe(false);
  });

  it('never pollutes prototypes through a dotted name', () => {
    const out = mapLead(SAMPLE_LEAD, { nombre: { campo: '__proto__.polluted' } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it('default maps cover the required fields of each CRM', () => {
    expect(mapLead({ ...SAMPLE_LEAD, apellidos: '' }, defaultLeadMap('Salesforce'))).toMatchObject({
      LastName: 'Sin apellido',
      Company: 'Particular',
    });
    expect(mapLead(SAMPLE_LEAD, defaultLeadMap('Zoho'))).toMatchObject({
      Last_Name: 'González Pérez',
    });
    expect(mapLead(SAMPLE_LEAD, defaultLeadMap('Hubspot'))).toMatchObject({
      email: SAMPLE_LEAD.email,
    });
  });

  /** The value at a dotted path of a payload. */
  const at = (payload: CrmPayload, path: string): unknown =>
    path.split('.').reduce<unknown>((node, key) => {
      if (node === null || typeof node !== 'object') return undefined;
      return Object.prototype.hasOwnProperty.call(node, key)
        ? (node as Record<string, unknown>)[key]
        : undefined;
    }, payload);

  const segment = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,8}$/);
  const campo = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => s.join('.'));
  const fields = ['nombre', 'apellidos', 'email', 'telefono', 'notas', 'empresa'] as const;

  it('puts every value at its path unless another path claimed it (property)', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.constantFrom(...fields),
          fc.record({
            campo,
            predeterminado: fc.option(fc.string({ maxLength: 5 }), { nil: undefined }),
          }),
        ),
        fc.record({
          nombre: fc.string({ maxLength: 6 }),
          email: fc.option(fc.string({ maxLength: 6 })),
        }),
        (mapa, sample) => {
          const lead = { ...SAMPLE_LEAD, ...sample };
          const payload = mapLead(lead, mapa);
          // Deterministic: the map's order does not matter.
          const reversed = Object.fromEntries(Object.entries(mapa).reverse()) as LeadMap;
          expect(mapLead(lead, reversed)).toEqual(payload);
          for (const [field, entry] of Object.entries(mapa)) {
            const own = (lead as unknown as Record<string, unknown>)[field];
            const expected =
              typeof own === 'string' && own.trim() !== ''
                ? own
                : entry.predeterminado || undefined;
            const found = at(payload, entry.campo);
            if (expected === undefined) continue;
            // Either it is there, or an earlier entry took the path (or a prefix of it).
            const clashes = Object.entries(mapa).some(
              ([other, e]) =>
                other < field &&
                (e.campo === entry.campo ||
                  e.campo.startsWith(`${entry.campo}.`) ||
                  entry.campo.startsWith(`${e.campo}.`)),
            );
            if (!clashes) expect(found).toBe(expected);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('expiry', () => {
  const t0 = new Date('2026-01-01T00:00:00Z');
  it('uses expires_in seconds, the legacy expires_in_sec marker (then ms), else 36e5/700 s', () => {
    expect(crmExpiry(t0, { expires_in: 1800 }).getTime() - t0.getTime()).toBe(1_800_000);
    expect(
      crmExpiry(t0, { expires_in: 3_600_000, expires_in_sec: 3600 }).getTime() - t0.getTime(),
    ).toBe(3_600_000);
    expect(crmExpiry(t0, {}).getTime() - t0.getTime()).toBe(Math.trunc(SPEC_EXPIRY_SECONDS * 1000));
    expect(crmExpiry(t0, { expires_in: 'nonsense' }).getTime()).toBe(crmExpiry(t0, {}).getTime());
    expect(SPEC_EXPIRY_SECONDS).toBeCloseTo(5142.857, 3);
  });

  it('tells the connection’s state', () => {
    expect(connectionState(null, t0)).toBe('desconectado');
    expect(connectionState({ estado: 'conectado', expira: new Date(t0.getTime() + 1) }, t0)).toBe(
      'conectado',
    );
    expect(connectionState({ estado: 'conectado', expira: t0 }, t0)).toBe('expirado');
    expect(
      connectionState({ estado: 'reautorizar', expira: new Date(t0.getTime() + 9e9) }, t0),
    ).toBe('reautorizar');
  });

  it('ends a failed write in the dead letter when permanent or out of attempts', () => {
    expect(failedSyncState(1, 8, false)).toBe('reintentando');
    expect(failedSyncState(1, 8, true)).toBe('fallido');
    expect(failedSyncState(8, 8, false)).toBe('fallido');
  });
});

describe('the classifieds export payload (spec §7)', () => {
  it('carries our id, the URL, the adviser and the contact', () => {
    expect(
      exportPayload({ ...SAMPLE_LEAD, telefono: null }, 'https://x/y', 'Asesor Demo', 'Hola'),
    ).toEqual({
      externalId: 'lead-ejemplo',
      classifiedUrl: 'https://x/y',
      asesor: 'Asesor Demo',
      contact: {
        Name: 'María',
        LastName: 'González Pérez',
        Email: 'maria.gonzalez@example.com',
        Phone: '+52 55 8765 4321',
        Message: 'Hola',
      },
    });
  });
});

describe('the corporate-crm decider', () => {
  const decide = (...a: Parameters<typeof crmConfigDecider.decide>) =>
    crmConfigDecider.decide(...a);
  const evolve = (...a: Parameters<typeof crmConfigDecider.evolve>) =>
    crmConfigDecider.evolve(...a);
  const initialState = crmConfigDecider.initialState;

  it('given no configuration, when configured, then one CrmConfigured with the secret sealed', () => {
    const d = decide(
      { type: 'ConfigureCrm', idCorporativo: 'c1', config: hubspot, secret: { set: 'v1.sealed' } },
      initialState,
    );
    expect(d.ok && d.events).toEqual([
      {
        type: 'CrmConfigured',
        data: { idCorporativo: 'c1', config: { ...hubspot, clientSecretCifrado: 'v1.sealed' } },
      },
    ]);
  });

  it('given a configuration, when the same settings come with the secret kept, then nothing', () => {
    const state = evolve(initialState, {
      type: 'CrmConfigured',
      data: { idCorporativo: 'c1', config: { ...hubspot, clientSecretCifrado: 'v1.sealed' } },
    });
    // Keys in another order (a stored event comes back so).
    const reordered = Object.fromEntries(Object.entries(hubspot).reverse()) as unknown as CrmConfig;
    const same = decide(
      { type: 'ConfigureCrm', idCorporativo: 'c1', config: reordered, secret: { keep: true } },
      state,
    );
    expect(same).toEqual({ ok: true, events: [] });
    const cleared = decide(
      { type: 'ConfigureCrm', idCorporativo: 'c1', config: hubspot, secret: { clear: true } },
      state,
    );
    expect(cleared.ok && cleared.events[0]?.data.config.clientSecretCifrado).toBeNull();
  });

  it('refuses a configuration that lacks a required piece', () => {
    const d = decide(
      {
        type: 'ConfigureCrm',
        idCorporativo: 'c1',
        config: { ...salesforce, tokenUri: '' },
        secret: { keep: true },
      },
      initialState,
    );
    expect(d).toEqual({
      ok: false,
      error: {
        code: 'CRM_CONFIG_INVALID',
        issues: [{ campo: 'tokenUri', code: 'crm_no_token_uri' }],
      },
    });
  });
});
