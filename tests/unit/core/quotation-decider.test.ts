import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/core/decider';
import { newQuotation, priceQuotation, type QuotationEvent } from '../../../src/core/quotation';
import {
  decideQuotation,
  QUOTATION_SHARE_MAX_DAYS,
  quotationDecider,
  type QuotationCommand,
  type QuotationDecision,
} from '../../../src/core/quotation-aggregate';
import { defaultStatusColors } from '../../../src/core/status';
import type { PaymentScheme, Unit } from '../../../src/core/types';

const NOW = new Date('2026-11-18T18:00:00Z');
const part = (nombre: string, porcentaje: number) => ({ nombre, porcentaje });
const scheme: PaymentScheme = {
  id: 'sch-1',
  nombre: '30/70',
  descuento: part('Descuento', 0),
  enganche: part('Enganche', 0.3),
  diferido: part('Diferido', 0),
  mensualidades: { ...part('Mensualidades', 0) },
  escrituracion: part('Escrituración', 0),
  contraEntrega: part('Contra entrega', 0.7),
};
const unit: Unit = {
  id: 'uni-1',
  idDesarrollo: 'des-1',
  idCluster: 'clu-1',
  idPrototipo: 'pro-1',
  nombre: 'A101',
  nivel: 1,
  posicion: 1,
  status: 'Disponible',
  precio: 1_000_000,
  divisa: 'MXN',
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 80 },
};
const development = {
  id: 'des-1',
  nombre: 'Torre Norte',
  esquemasPago: [scheme],
  opcionales: [],
  divisa: 'MXN',
  fechaEntrega: '2028-01-01',
};
const pricing = priceQuotation({
  corporate: {
    divisa: [{ codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 }],
    zonaHoraria: 'America/Mexico_City',
  },
  development,
  unit,
  statusColors: defaultStatusColors(),
  rule: 'quotable',
  idEsquema: 'sch-1',
  idsOpcionales: [],
  extras: [],
  divisa: 'MXN',
  now: NOW,
});
if (!pricing.ok) throw new Error('fixture must price');
const cotizacion = newQuotation(pricing.priced, {
  id: 'cot-1',
  idCorporativo: 'corp-1',
  zonaHoraria: 'America/Mexico_City',
  development,
  cluster: { nombre: 'Torre A' },
  prototype: { nombre: 'Doble' },
  unit,
  adviser: { id: 'usr-a', nombre: 'Ana Ruiz' },
  lead: { id: 'lead-1', nombre: 'Carla Ortiz' },
  now: NOW,
});
const base = {
  idCotizacion: 'cot-1',
  idCorporativo: 'corp-1',
  idAsesor: 'usr-a',
  idLead: 'lead-1',
};

const created: QuotationEvent[] = [{ type: 'QuotationCreated', data: { ...base, cotizacion } }];

/** given these events, when this command, then… */
function given(events: QuotationEvent[]) {
  return {
    when: (command: QuotationCommand) => decideQuotation(command, fold(quotationDecider, events)),
  };
}

function eventsOf(decision: QuotationDecision): QuotationEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

const inDays = (days: number) => new Date(NOW.getTime() + days * 86_400_000);
const share = (nonce: string, expiraEn = inDays(14)): QuotationCommand => ({
  type: 'ShareQuotation',
  nonce,
  expiraEn,
  now: NOW,
});

describe('quotation decider: creation', () => {
  it('given nothing, when creating a priced quotation, then QuotationCreated with the base and the document', () => {
    expect(given([]).when({ type: 'CreateQuotation', cotizacion })).toEqual({
      ok: true,
      events: created,
    });
    expect(fold(quotationDecider, created)).toEqual({ quotation: cotizacion, shares: {} });
  });

  it('given a quotation, when creating it again, then QUOTATION_EXISTS', () => {
    expect(given(created).when({ type: 'CreateQuotation', cotizacion })).toEqual({
      ok: false,
      error: { code: 'QUOTATION_EXISTS' },
    });
  });

  it('given nothing, when acting on the quotation, then QUOTATION_NOT_FOUND', () => {
    for (const command of [
      { type: 'SetQuotationFavourite', esFavorito: true },
      share('n1'),
      { type: 'RevokeQuotationShare', nonce: 'n1' },
    ] satisfies QuotationCommand[]) {
      expect(given([]).when(command)).toEqual({
        ok: false,
        error: { code: 'QUOTATION_NOT_FOUND' },
      });
    }
  });
});

describe('quotation decider: favourite (spec §4)', () => {
  it('given a quotation, when setting it favourite, then QuotationFavouriteToggled with the new value', () => {
    const events = eventsOf(
      given(created).when({ type: 'SetQuotationFavourite', esFavorito: true }),
    );
    expect(events).toEqual([
      { type: 'QuotationFavouriteToggled', data: { ...base, esFavorito: true } },
    ]);
    const favourite = [...created, ...events];
    expect(fold(quotationDecider, favourite).quotation?.esFavorito).toBe(true);
    expect(
      eventsOf(given(favourite).when({ type: 'SetQuotationFavourite', esFavorito: false })),
    ).toEqual([{ type: 'QuotationFavouriteToggled', data: { ...base, esFavorito: false } }]);
  });

  it('given a favourite quotation, when setting it favourite again, then no events', () => {
    const favourite: QuotationEvent[] = [
      ...created,
      { type: 'QuotationFavouriteToggled', data: { ...base, esFavorito: true } },
    ];
    expect(given(favourite).when({ type: 'SetQuotationFavourite', esFavorito: true })).toEqual({
      ok: true,
      events: [],
    });
    expect(given(created).when({ type: 'SetQuotationFavourite', esFavorito: false })).toEqual({
      ok: true,
      events: [],
    });
  });
});

describe('quotation decider: share links', () => {
  it('given a quotation, when sharing it, then QuotationShared with the nonce and the ISO expiry', () => {
    const events = eventsOf(given(created).when(share('n1')));
    expect(events).toEqual([
      {
        type: 'QuotationShared',
        data: { ...base, nonce: 'n1', expiraEn: '2026-12-02T18:00:00.000Z' },
      },
    ]);
    expect(fold(quotationDecider, [...created, ...events]).shares).toEqual({
      n1: { expiraEn: '2026-12-02T18:00:00.000Z', revocado: false },
    });
  });

  it('given a shared quotation, when sharing with the same nonce, then SHARE_EXISTS', () => {
    const shared = [...created, ...eventsOf(given(created).when(share('n1')))];
    expect(given(shared).when(share('n1'))).toEqual({
      ok: false,
      error: { code: 'SHARE_EXISTS', nonce: 'n1' },
    });
  });

  it('given a quotation, when the expiry is not after now or beyond the maximum, then SHARE_EXPIRY_INVALID', () => {
    for (const expiry of [NOW, inDays(-1), inDays(QUOTATION_SHARE_MAX_DAYS + 1)]) {
      expect(given(created).when(share('n1', expiry))).toEqual({
        ok: false,
        error: { code: 'SHARE_EXPIRY_INVALID' },
      });
    }
    expect(given(created).when(share('n1', inDays(QUOTATION_SHARE_MAX_DAYS))).ok).toBe(true);
  });

  it('given two links, when revoking one, then QuotationShareRevoked for it and the other stays live', () => {
    const shared = [
      ...created,
      ...eventsOf(given(created).when(share('n1'))),
      ...eventsOf(given(created).when(share('n2'))),
    ];
    const revoked = eventsOf(given(shared).when({ type: 'RevokeQuotationShare', nonce: 'n1' }));
    expect(revoked).toEqual([{ type: 'QuotationShareRevoked', data: { ...base, nonce: 'n1' } }]);
    const { shares } = fold(quotationDecider, [...shared, ...revoked]);
    expect(shares.n1?.revocado).toBe(true);
    expect(shares.n2?.revocado).toBe(false);
  });

  it('given a revoked link, when revoking it again, then no events', () => {
    const shared = [...created, ...eventsOf(given(created).when(share('n1')))];
    const revoked = [
      ...shared,
      ...eventsOf(given(shared).when({ type: 'RevokeQuotationShare', nonce: 'n1' })),
    ];
    expect(given(revoked).when({ type: 'RevokeQuotationShare', nonce: 'n1' })).toEqual({
      ok: true,
      events: [],
    });
  });

  it('given a quotation, when revoking an unknown nonce, then SHARE_NOT_FOUND', () => {
    expect(given(created).when({ type: 'RevokeQuotationShare', nonce: 'toString' })).toEqual({
      ok: false,
      error: { code: 'SHARE_NOT_FOUND', nonce: 'toString' },
    });
  });
});
