import { describe, expect, it } from 'vitest';
import {
  applicableOptionals,
  effectiveSchemes,
  extraAmount,
  priceQuotation,
  quotationInCents,
  schemeForQuote,
  type QuotationExtra,
} from '../../../src/core/quotation';
import { validateScheme } from '../../../src/core/pricing';
import type { Development, PaymentScheme, StatusColors, Unit } from '../../../src/core/types';
import { defaultStatusColors } from '../../../src/core/status';

const part = (nombre: string, porcentaje: number) => ({ nombre, porcentaje });
const scheme = (id: string, nombre: string, idCluster?: string): PaymentScheme => ({
  id,
  nombre,
  ...(idCluster ? { idCluster } : {}),
  descuento: part('Descuento', 0.1),
  enganche: part('Enganche', 0.3),
  diferido: part('Diferido', 0),
  mensualidades: { ...part('Mensualidades', 0.2), numeroMensualidades: 10 },
  escrituracion: part('Escrituración', 0),
  contraEntrega: part('Contra entrega', 0.5),
});

const schemes = [
  scheme('a', 'Contado'),
  scheme('b', '30/70'),
  scheme('b-x', '30/70', 'clu-x'),
  scheme('c-x', 'Solo X', 'clu-x'),
  scheme('b-y', '30/70', 'clu-y'),
];

describe('effectiveSchemes', () => {
  it('keeps the defaults without a cluster', () => {
    expect(effectiveSchemes(schemes).map((s) => s.id)).toEqual(['a', 'b']);
  });
  it('puts a cluster variant in place of the default with the same nombre, then its own extras', () => {
    expect(effectiveSchemes(schemes, 'clu-x').map((s) => s.id)).toEqual(['a', 'b-x', 'c-x']);
    expect(effectiveSchemes(schemes, 'clu-y').map((s) => s.id)).toEqual(['a', 'b-y']);
    expect(effectiveSchemes(schemes, 'clu-z').map((s) => s.id)).toEqual(['a', 'b']);
  });
});

describe('applicableOptionals', () => {
  it('keeps optionals without a cluster and those of the cluster', () => {
    const opcionales = [
      { id: '1', nombre: 'Bodega', precio: 1 },
      { id: '2', nombre: 'Acabados', precio: 2, idCluster: 'clu-x' },
    ];
    expect(applicableOptionals(opcionales, 'clu-x').map((o) => o.id)).toEqual(['1', '2']);
    expect(applicableOptionals(opcionales, 'clu-y').map((o) => o.id)).toEqual(['1']);
  });
});

describe('schemeForQuote', () => {
  it('drops a zero month count when the monthly part is zero, so a cash scheme validates', () => {
    const cash: PaymentScheme = {
      ...scheme('k', 'Contado'),
      enganche: part('Enganche', 1),
      mensualidades: { ...part('Mensualidades', 0), numeroMensualidades: 0 },
      contraEntrega: part('Contra entrega', 0),
    };
    expect(validateScheme(cash).ok).toBe(false);
    expect(validateScheme(schemeForQuote(cash)).ok).toBe(true);
    const s = scheme('s', 'x');
    expect(schemeForQuote(s)).toBe(s);
  });
});

describe('priceQuotation', () => {
  const unit: Unit = {
    id: 'u1',
    idDesarrollo: 'd1',
    idCluster: 'clu-x',
    idPrototipo: 'p1',
    nombre: 'A101',
    nivel: 1,
    posicion: 1,
    status: 'Disponible',
    precio: 1_000_000,
    divisa: 'MXN',
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
    metrajes: { areaTotal: 80 },
  };
  const development: Pick<Development, 'esquemasPago' | 'opcionales' | 'divisa' | 'fechaEntrega'> =
    {
      esquemasPago: schemes,
      opcionales: [{ id: 'o1', nombre: 'Bodega', precio: 50_000 }],
      divisa: 'MXN',
      fechaEntrega: '2028-01-01',
    };
  const colors: StatusColors = defaultStatusColors();
  const base = {
    corporate: {
      divisa: [
        { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 },
        { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 20 },
      ],
      zonaHoraria: 'America/Mexico_City',
    },
    development,
    unit,
    statusColors: colors,
    rule: 'quotable' as const,
    idEsquema: 'b-x',
    idsOpcionales: ['o1'],
    extras: [{ nombre: 'Cortinas', precio: 10_000 }],
    divisa: 'MXN',
    now: new Date('2026-11-18T18:00:00Z'),
  };

  it('prices with the core: 10 % off 1,000,000, plus 60,000 of additions, parts summing exactly', () => {
    const r = priceQuotation(base);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const f = r.priced.figuras;
    expect(f.listPrice).toBe(100_000_000);
    expect(f.discount).toBe(10_000_000);
    expect(f.extras).toBe(6_000_000);
    expect(f.finalPrice).toBe(96_000_000);
    expect(f.parts.map((p) => p.amount)).toEqual([28_800_000, 0, 19_200_000, 0, 48_000_000]);
    expect(f.instalments).toHaveLength(10);
    expect(f.instalments[0]).toEqual({
      number: 1,
      date: '2026-12-18T18:00:00.000Z',
      amount: 1_920_000,
    });
  });

  it('converts the unit and the optionals to the quoted currency before pricing', () => {
    const r = priceQuotation({ ...base, divisa: 'USD', extras: [] });
    if (!r.ok) throw new Error('expected ok');
    expect(r.priced.figuras.listPrice).toBe(5_000_000);
    expect(r.priced.adicionales[0]!.monto).toBe(250_000);
  });

  it('converts an extra from the currency it was entered in: 50,000 MXN is 2,500 USD at 20', () => {
    const cortinas = { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' };
    const r = priceQuotation({ ...base, divisa: 'USD', idsOpcionales: [], extras: [cortinas] });
    if (!r.ok) throw new Error('expected ok');
    expect(r.priced.adicionales).toEqual([{ tipo: 'extra', nombre: 'Cortinas', monto: 250_000 }]);
    expect(r.priced.figuras.extras).toBe(250_000);
    expect(r.priced.figuras.finalPrice).toBe(4_500_000 + 250_000);
    // Recorded as entered, so the quotation says what the adviser typed.
    expect(r.priced.extras).toEqual([cortinas]);
    // And the other way: 100 USD quoted in pesos.
    const back = priceQuotation({
      ...base,
      idsOpcionales: [],
      extras: [{ nombre: 'Persianas', precio: 100, divisa: 'usd' }],
    });
    if (!back.ok) throw new Error('expected ok');
    expect(back.priced.adicionales[0]!.monto).toBe(200_000);
    expect(back.priced.extras[0]!.divisa).toBe('USD');
  });

  it('an extra without a currency (links from before) is in the quoted currency', () => {
    const r = priceQuotation({
      ...base,
      divisa: 'USD',
      idsOpcionales: [],
      extras: [{ nombre: 'Cortinas', precio: 1_000 }],
    });
    if (!r.ok) throw new Error('expected ok');
    expect(r.priced.adicionales[0]!.monto).toBe(100_000);
    expect(r.priced.extras).toEqual([{ nombre: 'Cortinas', precio: 1_000 }]);
  });

  it('extraAmount converts by the ratio of rates (18.5: 50,000 MXN ≈ 2,702.70 USD) and knows no other currency', () => {
    const mxn = { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 };
    const usd = { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 18.5 };
    const cortinas = { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' };
    expect(extraAmount(cortinas, [mxn, usd], usd)).toBe(270_270);
    expect(extraAmount(cortinas, [mxn, usd], mxn)).toBe(5_000_000);
    expect(extraAmount({ ...cortinas, divisa: 'EUR' }, [mxn, usd], usd)).toBeNull();
  });

  it('quotationInCents: a price entered with cents shows the quotation to the cent; whole prices and a conversion’s cents do not', () => {
    const whole = { precioEnCotizacion: 4_350_000, opcionales: [{ precio: 85_000 }], extras: [] };
    expect(quotationInCents(whole)).toBe(false);
    expect(quotationInCents({ ...whole, extras: [{ precio: 25_000.5 }] })).toBe(true);
    expect(quotationInCents({ ...whole, opcionales: [{ precio: 1_500.25 }] })).toBe(true);
    expect(quotationInCents({ ...whole, precioEnCotizacion: 4_350_000.01 })).toBe(true);
    // 50,000 MXN quoted in USD is 2,702.70 USD, but 50,000 is what was entered.
    const pesos: QuotationExtra = { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' };
    expect(quotationInCents({ ...whole, extras: [pesos] })).toBe(false);
  });

  it('says why a quotation cannot be priced', () => {
    const codes = [
      priceQuotation({ ...base, unit: { ...unit, status: 'Vendido' } }),
      priceQuotation({ ...base, idEsquema: 'b' }),
      priceQuotation({ ...base, idEsquema: 'b-y' }),
      priceQuotation({ ...base, idsOpcionales: ['nope'] }),
      priceQuotation({ ...base, extras: [{ nombre: 'x', precio: -0.01 }] }),
      priceQuotation({ ...base, divisa: 'EUR' }),
      priceQuotation({ ...base, extras: [{ nombre: 'x', precio: 1, divisa: 'EUR' }] }),
      priceQuotation({ ...base, rule: 'priceVisible', unit: { ...unit, status: 'Apartado' } }),
    ].map((r) => (r.ok ? 'ok' : r.error.code));
    expect(codes).toEqual([
      'UNIT_NOT_QUOTABLE',
      'SCHEME_NOT_FOUND',
      'SCHEME_NOT_FOUND',
      'OPTIONAL_NOT_FOUND',
      'EXTRA_INVALID',
      'CURRENCY_NOT_FOUND',
      'CURRENCY_NOT_FOUND',
      'PRICE_NOT_VISIBLE',
    ]);
    const broken = priceQuotation({
      ...base,
      development: {
        ...development,
        esquemasPago: [{ ...scheme('z', 'Roto'), contraEntrega: part('Contra entrega', 0.4) }],
      },
      idEsquema: 'z',
    });
    expect(broken.ok ? 'ok' : broken.error.code).toBe('SCHEME_INVALID');
  });
});
