import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MEXICO_PHONE, phoneCountryForTimeZone, type Lead } from '../../src/core/lead';
import {
  changesFrom,
  conflictingFields,
  emptyLeadForm,
  formValuesFromLead,
  leadSaveFailure,
  validateLeadForm,
} from '../../src/ui/features/leads/utils/lead-form';
import {
  applyLeadToCache,
  leadKeys,
  leadMatchesFilters,
  normalizeFilters,
  patchLeadPages,
} from '../../src/ui/features/leads/api/lead-queries';
import {
  LeadConflictError,
  LeadDuplicateError,
  LeadGoneError,
  vitrinaLeadSource,
} from '../../src/ui/features/leads/api/lead-source';
import { validateClientsSearch } from '../../src/ui/features/leads/utils/clients-search';
import { whatsappLink } from '../../src/ui/features/leads/utils/whatsapp';
import { ApiRequestError } from '../../src/ui/lib/api';

const lead = (id: string, fechaAlta: number, over: Partial<Lead> = {}): Lead => ({
  id,
  idCorporativo: 'c1',
  nombre: `Cliente ${id}`,
  apellidos: 'Prueba',
  email: `${id}@example.com`,
  telefono: null,
  celular: null,
  notas: '',
  medioContacto: 'Showroom',
  tipo: null,
  status: 'nuevo',
  desarrollo: null,
  idVendedor: 'u1',
  fechaAlta,
  eliminado: false,
  ...over,
});

const data = (pages: { leads: Lead[]; nextCursor: string | null }[]) => ({
  pages: pages.map((p, i) => ({ ...p, total: i === 0 ? 6 : null })),
  pageParams: pages.map((_, i) => (i === 0 ? null : `c${i}`)),
});

describe('patchLeadPages: live changes patch cached lists without refetching', () => {
  const list = data([
    { leads: [lead('a', 500), lead('b', 400)], nextCursor: 'x' },
    { leads: [lead('c', 300), lead('d', 200)], nextCursor: 'y' },
  ]);
  const ids = (d: ReturnType<typeof data>) => d.pages.map((p) => p.leads.map((l) => l.id));

  it('replaces a changed lead in place', () => {
    const next = patchLeadPages(list, {}, 'c', lead('c', 300, { nombre: 'Nuevo nombre' }));
    expect(ids(next)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(next.pages[1]!.leads[0]!.nombre).toBe('Nuevo nombre');
  });

  it('removes a lead that is gone or no longer matches the filters', () => {
    expect(ids(patchLeadPages(list, {}, 'b', null))).toEqual([['a'], ['c', 'd']]);
    const filtered = patchLeadPages(
      list,
      { status: 'nuevo' },
      'a',
      lead('a', 500, { status: 'cerrado' }),
    );
    expect(ids(filtered)).toEqual([['b'], ['c', 'd']]);
  });

  it('inserts a new lead newest first, and not when it is older than what is loaded', () => {
    expect(ids(patchLeadPages(list, {}, 'n', lead('n', 600)))).toEqual([
      ['n', 'a', 'b'],
      ['c', 'd'],
    ]);
    expect(ids(patchLeadPages(list, {}, 'm', lead('m', 350)))).toEqual([
      ['a', 'b'],
      ['m', 'c', 'd'],
    ]);
    // Older than the last loaded row while more pages exist: a later page will bring it.
    expect(patchLeadPages(list, {}, 'o', lead('o', 100))).toBe(list);
    // A lead that does not match the list's search is not inserted.
    expect(patchLeadPages(list, { q: 'zz' }, 'n', lead('n', 600))).toBe(list);
  });
});

describe('applyLeadToCache: a lead that is gone', () => {
  it('a page showing it reads it again and gets the 404 (keeping what it showed); nobody else keeps it', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const shown = lead('a', 1);
    client.setQueryData(leadKeys.lead('c1', 'a'), shown);
    client.setQueryData(leadKeys.lead('c1', 'b'), lead('b', 2));
    const queryFn = vi.fn(() =>
      Promise.reject(new ApiRequestError(404, 'NOT_FOUND', 'No se encontró el recurso', null)),
    );
    const page = new QueryObserver<Lead>(client, {
      queryKey: leadKeys.lead('c1', 'a'),
      queryFn,
      staleTime: Infinity,
    });
    const stop = page.subscribe(() => {});
    try {
      applyLeadToCache(client, 'c1', 'a', null);
      applyLeadToCache(client, 'c1', 'b', null);
      await vi.waitFor(() => expect(page.getCurrentResult().isError).toBe(true));
      expect(page.getCurrentResult().data).toEqual(shown);
      expect(queryFn).toHaveBeenCalledTimes(1);
      expect(client.getQueryCache().find({ queryKey: leadKeys.lead('c1', 'b') })).toBeUndefined();
    } finally {
      stop();
    }
  });
});

describe('leadMatchesFilters mirrors the server', () => {
  const l = lead('a', 1, {
    nombre: 'José',
    apellidos: 'Pérez',
    telefono: '55 1234 5678',
    desarrollo: 'd1',
  });
  it('search by name prefix (accents ignored), surname first, email and phone digits', () => {
    expect(leadMatchesFilters(l, { q: 'jose p' })).toBe(true);
    expect(leadMatchesFilters(l, { q: 'perez' })).toBe(true);
    expect(leadMatchesFilters(l, { q: 'a@exa' })).toBe(true);
    expect(leadMatchesFilters(l, { q: '551 234' })).toBe(true);
    expect(leadMatchesFilters(l, { q: 'maria' })).toBe(false);
  });
  it('status, development, adviser, deleted', () => {
    expect(leadMatchesFilters(l, { status: 'nuevo', desarrollo: 'd1', idVendedor: 'u1' })).toBe(
      true,
    );
    expect(leadMatchesFilters(l, { desarrollo: 'd2' })).toBe(false);
    expect(leadMatchesFilters(l, { idVendedor: 'u2' })).toBe(false);
    expect(leadMatchesFilters({ ...l, eliminado: true }, {})).toBe(false);
  });
  it('empty filters share one cache key', () => {
    expect(normalizeFilters({ q: '  ', status: '', desarrollo: '', idVendedor: '' })).toEqual({});
  });
});

describe('lead forms', () => {
  it('name required, email and phone formats, per field', () => {
    expect(validateLeadForm(emptyLeadForm())).toEqual({ nombre: 'required' });
    expect(
      validateLeadForm(
        emptyLeadForm({ nombre: 'Ana', email: 'ana@', telefono: '12ab', celular: '123' }),
      ),
    ).toEqual({ email: 'invalid_email', telefono: 'invalid_phone', celular: 'invalid_phone' });
    expect(
      validateLeadForm(
        emptyLeadForm({ nombre: 'Ana', email: 'ana@example.com', telefono: '+52 (55) 1234-5678' }),
      ),
    ).toEqual({});
  });
  it('an edit sends only the normalised fields that changed', () => {
    const base = lead('a', 1);
    const values = { ...formValuesFromLead(base), email: ' A@EXAMPLE.COM ', tipo: 'Inversionista' };
    expect(changesFrom(base, values)).toEqual({ tipo: 'Inversionista' });
    expect(changesFrom(base, { ...values, celular: '' })).toEqual({ tipo: 'Inversionista' });
    expect(conflictingFields(base, { ...base, apellidos: 'Otro' })).toEqual(['apellidos']);
  });
  it("a failed save, read into the lead editor machine's failure", () => {
    const current = lead('a', 1, { status: 'cita' });
    expect(leadSaveFailure(new LeadConflictError(current, 'changed'))).toEqual({
      kind: 'conflict',
      current,
    });
    expect(leadSaveFailure(new LeadGoneError('gone'))).toEqual({ kind: 'gone' });
    expect(
      leadSaveFailure(
        new ApiRequestError(400, 'VALIDATION', 'invalid', [
          { errorCode: 'VALIDATION', details: [{ path: 'status', code: 'unknown_value' }] },
        ]),
      ),
    ).toEqual({ kind: 'invalid', errors: { status: 'unknown_value' } });
    expect(leadSaveFailure(new ApiRequestError(0, null, 'No hay conexión', null))).toEqual({
      kind: 'failed',
      message: 'No hay conexión',
    });
  });
});

describe('whatsappLink', () => {
  const template =
    'Hola {nombre}, soy {asesor} de {corporativo}. Te comparto la información de {desarrollo}.';
  const base = {
    nombre: 'A',
    asesor: 'B',
    corporativo: 'C',
    desarrollo: 'D',
    country: MEXICO_PHONE,
  };
  it('fills the prospecto template and encodes it for wa.me', () => {
    expect(
      whatsappLink({
        template,
        phone: '+52 55 9876-5432',
        nombre: 'Lucía',
        asesor: 'Sofía Navarro',
        corporativo: 'Grupo Horizonte',
        desarrollo: 'Torre Alameda',
        country: MEXICO_PHONE,
      }),
    ).toBe(
      `https://wa.me/525598765432?text=${encodeURIComponent('Hola Lucía, soy Sofía Navarro de Grupo Horizonte. Te comparto la información de Torre Alameda.')}`,
    );
  });
  it('no phone, no link; no template, a link without text', () => {
    expect(whatsappLink({ ...base, template, phone: null })).toBeNull();
    expect(whatsappLink({ ...base, template: undefined, phone: '+52 55 1234 5678' })).toBe(
      'https://wa.me/525512345678',
    );
  });
  it("a national number gets the corporate's country code (33… is Guadalajara, not France)", () => {
    expect(whatsappLink({ ...base, template: undefined, phone: '33 1111 2222' })).toBe(
      'https://wa.me/523311112222',
    );
    expect(
      whatsappLink({
        ...base,
        template: undefined,
        phone: '212 555 0100',
        country: phoneCountryForTimeZone('America/New_York'),
      }),
    ).toBe('https://wa.me/12125550100');
  });
  it('keeps a number written with its country code, and drops the old Mexican mobile 1', () => {
    expect(whatsappLink({ ...base, template: undefined, phone: '+34 612 345 678' })).toBe(
      'https://wa.me/34612345678',
    );
    expect(whatsappLink({ ...base, template: undefined, phone: '+52 1 55 1234 5678' })).toBe(
      'https://wa.me/525512345678',
    );
  });
  it('no link for a local number without its area code (WhatsApp could not dial it)', () => {
    expect(whatsappLink({ ...base, template, phone: '620 0002' })).toBeNull();
  });
});

describe('vitrinaLeadSource', () => {
  afterEach(() => vi.unstubAllGlobals());
  const stub = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const fetch = vi.fn((_url: string, _init?: RequestInit) =>
      Promise.resolve(new Response(JSON.stringify(body), { status, headers })),
    );
    vi.stubGlobal('fetch', fetch);
    return fetch;
  };

  it('lists one page with the server-side search, the next cursor from X-Next-Cursor and the total from X-Total-Count', async () => {
    const fetch = stub(200, [lead('a', 1)], { 'X-Next-Cursor': 'abc', 'X-Total-Count': '1234' });
    const page = await vitrinaLeadSource.list(
      'c1',
      { q: ' ana ', status: 'nuevo' },
      { cursor: null, limit: 100 },
    );
    expect(page.nextCursor).toBe('abc');
    expect(page.total).toBe(1234);
    expect(page.leads.map((l) => l.id)).toEqual(['a']);
    expect(fetch.mock.calls[0]![0]).toBe(
      '/api/wsObtenerLeads?idCorporativo=c1&q=ana&status=nuevo&limit=100',
    );
  });

  it('a page without X-Total-Count has no total', async () => {
    stub(200, [lead('b', 1)]);
    const page = await vitrinaLeadSource.list('c1', {}, { cursor: 'abc', limit: 100 });
    expect(page).toEqual({ leads: [lead('b', 1)], nextCursor: null, total: null });
  });

  it('a 409 LEAD_DUPLICATE becomes LeadDuplicateError with the owner name', async () => {
    stub(409, [
      {
        errorCode: 'LEAD_DUPLICATE',
        message: 'Ya existe',
        propietario: { nombre: 'Sofía Navarro' },
      },
    ]);
    const error = await vitrinaLeadSource.create('c1', { nombre: 'X' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadDuplicateError);
    expect((error as LeadDuplicateError).ownerName).toBe('Sofía Navarro');
    expect((error as LeadDuplicateError).leadId).toBeNull();
    expect((error as LeadDuplicateError).own).toBe(false);
  });

  it('a 409 LEAD_DUPLICATE for a lead the user may see carries its id, and whether it is theirs', async () => {
    stub(409, [
      {
        errorCode: 'LEAD_DUPLICATE',
        message: 'Ya existe',
        propietario: { nombre: 'Sofía Navarro' },
        idLead: 'lead-7',
        propio: true,
      },
    ]);
    const error = await vitrinaLeadSource.create('c1', { nombre: 'X' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ ownerName: 'Sofía Navarro', leadId: 'lead-7', own: true });
  });

  it('a 404 on update (deleted in another tab) becomes LeadGoneError', async () => {
    stub(404, [{ errorCode: 'NOT_FOUND', message: 'No se encontró el recurso' }]);
    const error = await vitrinaLeadSource
      .update('c1', 'a', { tipo: 'X' }, lead('a', 1))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadGoneError);
  });

  it('a 409 CONFLICT on update becomes LeadConflictError with the current lead, sending leadAnterior', async () => {
    const current = lead('a', 1, { apellidos: 'Nuevo' });
    const fetch = stub(409, [{ errorCode: 'CONFLICT', message: 'cambió', lead: current }]);
    const base = lead('a', 1);
    const error = await vitrinaLeadSource
      .update('c1', 'a', { tipo: 'X' }, base)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LeadConflictError);
    expect((error as LeadConflictError).current).toEqual(current);
    expect(JSON.parse(fetch.mock.calls[0]![1]!.body as string)).toEqual({
      tipo: 'X',
      leadAnterior: base,
    });
  });
});

describe('the clients list’s search params (a filtered list is a link)', () => {
  const parse = validateClientsSearch;

  it('keeps the four filters, trimmed; empty values are no filter', () => {
    expect(
      parse({ q: ' ana ', status: 'nuevo', desarrollo: 'd1', idVendedor: 'u2', otro: 'x' }),
    ).toEqual({ q: 'ana', status: 'nuevo', desarrollo: 'd1', idVendedor: 'u2' });
    expect(parse({ q: '', status: '  ' })).toEqual({ q: undefined, status: undefined });
    expect(parse({})).toEqual({});
  });

  it('a phone search the router read as a number is still text; anything else is dropped', () => {
    expect(parse({ q: 5512 }).q).toBe('5512');
    expect(parse({ q: { a: 1 }, status: ['x'] })).toEqual({ q: undefined, status: undefined });
  });
});
