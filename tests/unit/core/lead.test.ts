import { describe, expect, it } from 'vitest';
import {
  addedContactKeys,
  leadContactKeys,
  PHONE_MATCH_DIGITS,
  phoneMatchKey,
  decide,
  foldLead,
  historyFromEvents,
  isValidEmail,
  isValidPhone,
  internationalPhoneDigits,
  leadDecider,
  leadMatchesQuery,
  MEXICO_PHONE,
  normalizeLeadFields,
  phoneCountryForTimeZone,
  validateLeadFields,
  visibleNotes,
  type LeadCommand,
  type LeadDecision,
  type LeadEvent,
  type LeadFields,
} from '../../../src/core/lead';
import { decideAll, fold } from '../../../src/core/decider';

const NOW = 1_790_000_000;

const fields = (over: Partial<LeadFields> = {}): LeadFields =>
  normalizeLeadFields({
    nombre: 'Carla',
    apellidos: 'Ortiz',
    email: 'carla@example.com',
    telefono: '55 1234 5678',
    medioContacto: 'Showroom',
    status: 'nuevo',
    ...over,
  });

const register: LeadCommand = {
  type: 'RegisterLead',
  idLead: 'lead-1',
  idCorporativo: 'corp-1',
  idVendedor: 'usr-a',
  fields: fields(),
  now: NOW,
};

function eventsOf(decision: LeadDecision): LeadEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

/** given these events, when this command, then… */
function given(events: LeadEvent[]) {
  return { when: (command: LeadCommand) => decide(command, foldLead(events)) };
}

const registered = eventsOf(decide(register, foldLead([])));

describe('lead decider', () => {
  it('given nothing, when registering, then LeadRegistered with fechaAlta in seconds and owner in the data', () => {
    const [event] = registered;
    expect(registered).toHaveLength(1);
    expect(event).toMatchObject({
      type: 'LeadRegistered',
      data: {
        idLead: 'lead-1',
        idCorporativo: 'corp-1',
        idVendedor: 'usr-a',
        lead: { nombre: 'Carla', fechaAlta: NOW, eliminado: false, email: 'carla@example.com' },
      },
    });
  });

  it('given nothing, when registering without a name or with a bad email, then LEAD_INVALID per field', () => {
    const bad = decide(
      { ...register, fields: fields({ nombre: '  ', email: 'no-at-sign', telefono: '12' }) },
      foldLead([]),
    );
    expect(bad).toEqual({
      ok: false,
      error: {
        code: 'LEAD_INVALID',
        issues: [
          { campo: 'nombre', code: 'required' },
          { campo: 'email', code: 'invalid_email' },
          { campo: 'telefono', code: 'invalid_phone' },
        ],
      },
    });
  });

  it('given a registered lead, when registering again, then LEAD_EXISTS', () => {
    expect(given(registered).when(register)).toEqual({ ok: false, error: { code: 'LEAD_EXISTS' } });
  });

  it('given nothing, when updating, then LEAD_NOT_FOUND', () => {
    expect(given([]).when({ type: 'UpdateLead', changes: { nombre: 'X' }, expected: {} })).toEqual({
      ok: false,
      error: { code: 'LEAD_NOT_FOUND' },
    });
  });

  it('given a lead, when updating with matching leadAnterior, then LeadUpdated lists only real changes', () => {
    const events = eventsOf(
      given(registered).when({
        type: 'UpdateLead',
        changes: { nombre: 'Carla', status: 'contactado', celular: '33 9999 0000' },
        expected: { nombre: 'Carla', status: 'nuevo', celular: '' },
      }),
    );
    expect(events).toEqual([
      {
        type: 'LeadUpdated',
        data: {
          idLead: 'lead-1',
          idCorporativo: 'corp-1',
          idVendedor: 'usr-a',
          changes: {
            celular: { from: null, to: '33 9999 0000' },
            status: { from: 'nuevo', to: 'contactado' },
          },
        },
      },
    ]);
  });

  it('given a lead changed meanwhile, when updating with a stale leadAnterior, then LEAD_STALE with the current lead', () => {
    const changed = [
      ...registered,
      ...eventsOf(
        given(registered).when({ type: 'UpdateLead', changes: { status: 'visita' }, expected: {} }),
      ),
    ];
    const result = given(changed).when({
      type: 'UpdateLead',
      changes: { status: 'cerrado' },
      expected: { status: 'nuevo' },
    });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('LEAD_STALE');
      expect(result.error).toMatchObject({ current: { status: 'visita' } });
    }
  });

  it('given a lead, when an update changes nothing, then no events', () => {
    expect(
      given(registered).when({ type: 'UpdateLead', changes: { nombre: ' Carla ' }, expected: {} }),
    ).toEqual({
      ok: true,
      events: [],
    });
  });

  it('given a lead, when assigning to another adviser, then LeadAssigned carries the new owner', () => {
    expect(eventsOf(given(registered).when({ type: 'AssignLead', idVendedor: 'usr-b' }))).toEqual([
      {
        type: 'LeadAssigned',
        data: {
          idLead: 'lead-1',
          idCorporativo: 'corp-1',
          idVendedor: 'usr-b',
          from: 'usr-a',
          to: 'usr-b',
        },
      },
    ]);
    expect(given(registered).when({ type: 'AssignLead', idVendedor: 'usr-a' })).toEqual({
      ok: true,
      events: [],
    });
  });

  it("given a lead, when the capture's round robin assigns it, then LeadAssigned records the turn", () => {
    const events = eventsOf(
      given(registered).when({ type: 'AssignLead', idVendedor: 'usr-b', turno: 7 }),
    );
    expect(events).toEqual([
      {
        type: 'LeadAssigned',
        data: expect.objectContaining({ from: 'usr-a', to: 'usr-b', turno: 7 }),
      },
    ]);
  });

  it('given a deleted lead, when updating or deleting again, then LEAD_DELETED', () => {
    const deleted = [...registered, ...eventsOf(given(registered).when({ type: 'DeleteLead' }))];
    expect(foldLead(deleted).lead?.eliminado).toBe(true);
    expect(given(deleted).when({ type: 'DeleteLead' })).toEqual({
      ok: false,
      error: { code: 'LEAD_DELETED' },
    });
    expect(
      given(deleted).when({ type: 'UpdateLead', changes: { nombre: 'Y' }, expected: {} }),
    ).toEqual({
      ok: false,
      error: { code: 'LEAD_DELETED' },
    });
  });

  it('given notes, when deleting one softly, then it is hidden and an unknown key is NOTE_NOT_FOUND', () => {
    const add = (key: string, now: number) =>
      eventsOf(
        given(registered).when({
          type: 'AddLeadNote',
          key,
          nota: `nota ${key}`,
          idUsuario: 'usr-a',
          now,
        }),
      );
    const withNotes = [
      ...registered,
      ...add('n1', NOW + 10),
      ...add('n2', NOW + 20),
      ...add('n3', NOW + 30),
    ];
    const deleted = [
      ...withNotes,
      ...eventsOf(given(withNotes).when({ type: 'DeleteLeadNote', key: 'n2' })),
    ];
    const state = foldLead(deleted);
    expect(state.notes.n2?.eliminado).toBe(true);
    expect(visibleNotes(Object.values(state.notes)).map((n) => n.key)).toEqual(['n3', 'n1']);
    expect(given(deleted).when({ type: 'DeleteLeadNote', key: 'n2' })).toEqual({
      ok: false,
      error: { code: 'NOTE_NOT_FOUND', key: 'n2' },
    });
    expect(given(deleted).when({ type: 'DeleteLeadNote', key: 'nope' })).toEqual({
      ok: false,
      error: { code: 'NOTE_NOT_FOUND', key: 'nope' },
    });
    expect(
      given(deleted).when({
        type: 'AddLeadNote',
        key: 'n4',
        nota: '   ',
        idUsuario: null,
        now: NOW,
      }),
    ).toEqual({
      ok: false,
      error: { code: 'NOTE_INVALID' },
    });
  });

  it('given two leads, when merging, then empty fields are filled, notes copied and the duplicate deleted', () => {
    const survivor = eventsOf(
      decide(
        {
          ...register,
          idLead: 'lead-2',
          fields: fields({ telefono: null, email: 'c@example.com' }),
        },
        foldLead([]),
      ),
    );
    const dupEvents = [
      ...registered,
      ...eventsOf(
        given(registered).when({
          type: 'AddLeadNote',
          key: 'k1',
          nota: 'llamar',
          idUsuario: 'usr-a',
          now: NOW,
        }),
      ),
    ];
    const merged = eventsOf(
      given(survivor).when({ type: 'MergeLead', duplicate: foldLead(dupEvents) }),
    );
    const state = foldLead([...survivor, ...merged]);
    expect(state.lead?.telefono).toBe('55 1234 5678');
    expect(state.lead?.email).toBe('c@example.com');
    expect(Object.keys(state.notes)).toEqual(['k1']);
    const into = eventsOf(
      given(dupEvents).when({ type: 'MarkLeadMerged', idLeadPrincipal: 'lead-2' }),
    );
    expect(foldLead([...dupEvents, ...into]).lead?.eliminado).toBe(true);
    expect(given(survivor).when({ type: 'MergeLead', duplicate: foldLead(survivor) })).toEqual({
      ok: false,
      error: { code: 'MERGE_INVALID' },
    });
  });
});

describe('leadDecider', () => {
  const note = (key: string): LeadCommand => ({
    type: 'AddLeadNote',
    key,
    nota: `nota ${key}`,
    idUsuario: 'usr-a',
    now: NOW,
  });

  it('folds and decides like decide/foldLead', () => {
    expect(fold(leadDecider, registered)).toEqual(foldLead(registered));
    expect(leadDecider.decide(register, leadDecider.initialState)).toEqual(
      decide(register, foldLead([])),
    );
  });

  it('given a lead edited concurrently, when a note decided before the edit is re-decided after it, then the same note is added (notes never conflict)', () => {
    const edit: LeadCommand = {
      type: 'UpdateLead',
      changes: { status: 'contactado' },
      expected: {},
    };
    const before = eventsOf(leadDecider.decide(note('n1'), fold(leadDecider, registered)));
    const edited = [...registered, ...eventsOf(given(registered).when(edit))];
    const after = eventsOf(leadDecider.decide(note('n1'), fold(leadDecider, edited)));
    expect(after).toEqual(before);
    const both = eventsOf(
      decideAll(leadDecider, [note('n1'), note('n2')], fold(leadDecider, edited)),
    );
    expect(both.map((e) => e.type)).toEqual(['LeadNoteAdded', 'LeadNoteAdded']);
  });
});

describe('lead change history', () => {
  it('lists registration fields, each update field, the reassignment and the deletion exactly once', () => {
    const update = eventsOf(
      given(registered).when({ type: 'UpdateLead', changes: { status: 'visita' }, expected: {} }),
    );
    const s1 = [...registered, ...update];
    const assign = eventsOf(given(s1).when({ type: 'AssignLead', idVendedor: 'usr-b' }));
    const s2 = [...s1, ...assign];
    const del = eventsOf(given(s2).when({ type: 'DeleteLead' }));
    const at = (i: number) => new Date((NOW + i) * 1000).toISOString();
    const envelopes = [...s2, ...del].map((e, i) => ({
      ...e,
      actorId: 'usr-g',
      occurredAt: at(i),
    }));
    const history = historyFromEvents(envelopes);
    expect(history.filter((h) => h.evento === 'LeadRegistered').map((h) => h.campo)).toEqual([
      'nombre',
      'apellidos',
      'email',
      'telefono',
      'medioContacto',
      'status',
      'idVendedor',
    ]);
    expect(history.slice(-3)).toEqual([
      {
        fecha: NOW + 1,
        actor: 'usr-g',
        campo: 'status',
        anterior: 'nuevo',
        nuevo: 'visita',
        evento: 'LeadUpdated',
      },
      {
        fecha: NOW + 2,
        actor: 'usr-g',
        campo: 'idVendedor',
        anterior: 'usr-a',
        nuevo: 'usr-b',
        evento: 'LeadAssigned',
      },
      {
        fecha: NOW + 3,
        actor: 'usr-g',
        campo: 'eliminado',
        anterior: false,
        nuevo: true,
        evento: 'LeadDeleted',
      },
    ]);
  });
});

describe('lead validation and search', () => {
  it('accepts well-formed emails and phones and refuses malformed ones', () => {
    expect(isValidEmail('ana.maria@dominio.com.mx')).toBe(true);
    expect(isValidEmail('ana@dominio')).toBe(false);
    expect(isValidEmail('ana maria@dominio.com')).toBe(false);
    expect(isValidPhone('+52 (55) 1234-5678')).toBe(true);
    expect(isValidPhone('123456')).toBe(false);
    expect(isValidPhone('55-abc-1234')).toBe(false);
    expect(isValidPhone('1234567890123456')).toBe(false);
    expect(validateLeadFields(fields())).toEqual([]);
  });

  it('matches a prefix of the name, the surname, the email or the phone digits, ignoring accents', () => {
    const lead = fields({ nombre: 'José Ángel', apellidos: 'Núñez' });
    expect(leadMatchesQuery(lead, 'jose an')).toBe(true);
    expect(leadMatchesQuery(lead, 'NUÑ')).toBe(true);
    expect(leadMatchesQuery(lead, 'carla@')).toBe(true);
    expect(leadMatchesQuery(lead, '55 12')).toBe(true);
    expect(leadMatchesQuery(lead, 'angel')).toBe(false);
    expect(leadMatchesQuery(lead, '12')).toBe(false);
  });

  it('finds a phone by a prefix of its national number whether or not it was saved with the country code', () => {
    const international = fields({ telefono: '+52 55 1234 5678' });
    expect(leadMatchesQuery(international, '55 1234 5678')).toBe(true);
    expect(leadMatchesQuery(international, '5512345678')).toBe(true);
    expect(leadMatchesQuery(international, '55 12')).toBe(true);
    expect(leadMatchesQuery(international, '+52 55 12')).toBe(true);
    expect(
      leadMatchesQuery(fields({ telefono: null, celular: '+52 1 55 1234 5678' }), '551234'),
    ).toBe(true);
    // The other way round: the number typed with the country code, saved without it.
    const national = fields({ telefono: '55 1234 5678' });
    expect(leadMatchesQuery(national, '+52 55 1234 5678')).toBe(true);
    expect(leadMatchesQuery(national, '+52 1 55 1234 5678')).toBe(true);
    // Still a prefix search: a fragment from the middle of the number finds nothing.
    expect(leadMatchesQuery(international, '1234 5678')).toBe(false);
    expect(leadMatchesQuery(national, '+52 55 9999 5678')).toBe(false);
  });
});

describe('international phone numbers (WhatsApp links)', () => {
  const mx = MEXICO_PHONE;
  it('gives a national number the country code of the corporate', () => {
    expect(internationalPhoneDigits('33 1111 2222', mx)).toBe('523311112222');
    expect(internationalPhoneDigits('(55) 1234-5678', mx)).toBe('525512345678');
  });

  it('keeps numbers written with + or with their country code', () => {
    expect(internationalPhoneDigits('+52 55 1234 5678', mx)).toBe('525512345678');
    expect(internationalPhoneDigits('52 55 1234 5678', mx)).toBe('525512345678');
    expect(internationalPhoneDigits('+1 (212) 555-0100', mx)).toBe('12125550100');
    expect(internationalPhoneDigits('+34 612 345 678', mx)).toBe('34612345678');
    expect(internationalPhoneDigits('0034 612 345 678', mx)).toBe('34612345678');
  });

  it('drops the old Mexican mobile prefixes (1 after 52, 044/045, 01)', () => {
    expect(internationalPhoneDigits('+52 1 55 1234 5678', mx)).toBe('525512345678');
    expect(internationalPhoneDigits('521 55 1234 5678', mx)).toBe('525512345678');
    expect(internationalPhoneDigits('044 55 1234 5678', mx)).toBe('525512345678');
    expect(internationalPhoneDigits('045 33 1111 2222', mx)).toBe('523311112222');
    expect(internationalPhoneDigits('01 33 1111 2222', mx)).toBe('523311112222');
  });

  it('has no international form for a number too short to be national', () => {
    expect(internationalPhoneDigits('620 0002', mx)).toBeNull();
    expect(internationalPhoneDigits('', mx)).toBeNull();
    expect(internationalPhoneDigits('+52', mx)).toBeNull();
  });

  it("takes the country from the corporate's time zone, Mexico by default", () => {
    expect(phoneCountryForTimeZone('America/Mexico_City')).toEqual({
      code: '52',
      nationalDigits: 10,
    });
    expect(phoneCountryForTimeZone('America/Tijuana')).toEqual(mx);
    expect(phoneCountryForTimeZone('America/Cancun')).toEqual(mx);
    expect(phoneCountryForTimeZone('America/New_York')).toEqual({ code: '1', nationalDigits: 10 });
    expect(phoneCountryForTimeZone('America/Bogota')).toEqual({ code: '57', nationalDigits: 10 });
    expect(phoneCountryForTimeZone('Europe/Madrid')).toEqual({ code: '34', nationalDigits: 9 });
    expect(phoneCountryForTimeZone('UTC')).toEqual(mx);
    expect(phoneCountryForTimeZone(undefined)).toEqual(mx);
    expect(internationalPhoneDigits('612 345 678', phoneCountryForTimeZone('Europe/Madrid'))).toBe(
      '34612345678',
    );
  });
});

describe('contact keys for duplicate detection', () => {
  it('compares phones by their last 10 digits, so the country code does not matter', () => {
    expect(PHONE_MATCH_DIGITS).toBe(10);
    expect(phoneMatchKey('+52 (55) 1234-5678')).toBe('5512345678');
    expect(phoneMatchKey('+52 1 55 1234 5678')).toBe('5512345678');
    expect(phoneMatchKey('55 1234 5678')).toBe('5512345678');
    expect(phoneMatchKey('123 4567')).toBe('1234567');
  });

  it('normalises the email and drops blank and repeated phones', () => {
    expect(
      leadContactKeys({
        email: ' Ana@Example.COM ',
        telefono: '55 1234 5678',
        celular: '+52 5512345678',
      }),
    ).toEqual({ email: 'ana@example.com', phones: ['5512345678'] });
    expect(leadContactKeys({ email: null, telefono: '', celular: null })).toEqual({
      email: '',
      phones: [],
    });
  });

  it('an edit claims only the contacts the lead did not have', () => {
    const before = leadContactKeys({ email: 'a@x.mx', telefono: '55 1111 2222', celular: null });
    expect(addedContactKeys(before, before)).toEqual({ email: '', phones: [] });
    const after = leadContactKeys({
      email: 'b@x.mx',
      telefono: '+52 55 1111 2222',
      celular: '55 3333 4444',
    });
    expect(addedContactKeys(before, after)).toEqual({ email: 'b@x.mx', phones: ['5533334444'] });
  });
});
