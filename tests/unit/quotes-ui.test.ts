import { describe, expect, it } from 'vitest';
import type { QuotationExtra } from '../../src/core/quotation';
import type { PaymentScheme } from '../../src/core/types';
import { buildQuoteInput, priceableExtras } from '../../src/ui/features/quotes/utils/quote-input';
import {
  validateQuoteSearch,
  type QuoteSearch,
} from '../../src/ui/features/quotes/utils/quote-search';
import { formatDate } from '../../src/ui/lib/dates';
import { developmentPageSearch } from './support/development-router';

const mxn = { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 };
const usd = { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 18.5 };
const part = (nombre: string, porcentaje: number) => ({ nombre, porcentaje });
const scheme: PaymentScheme = {
  id: 's',
  nombre: 'Contado',
  descuento: part('Descuento', 0),
  enganche: part('Enganche', 1),
  diferido: part('Diferido', 0),
  mensualidades: { ...part('Mensualidades', 0), numeroMensualidades: 0 },
  escrituracion: part('Escrituración', 0),
  contraEntrega: part('Contra entrega', 0),
};

describe('the quotation on screen: extras keep the currency they were entered in', () => {
  const cortinas = { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' };
  const build = (to: typeof mxn, extras: QuotationExtra[] = [cortinas]) =>
    buildQuoteInput({
      unit: { precio: 1_850_000, divisa: 'MXN' },
      scheme,
      developmentCurrency: 'MXN',
      fechaEntrega: null,
      timeZone: 'America/Mexico_City',
      currencies: [mxn, usd],
      to,
      optionals: [],
      extras,
      now: new Date('2026-11-21T12:00:00Z'),
    });

  it('an extra of 50,000 MXN quoted in USD at 18.5 is $2,702.70, not $50,000', () => {
    const { input, additions } = build(usd);
    expect(additions).toEqual([{ tipo: 'extra', nombre: 'Cortinas', monto: 270_270 }]);
    expect(input.extras).toEqual([270_270]);
    expect(input.unitPrice).toBe(10_000_000);
    expect(build(mxn).additions[0]!.monto).toBe(5_000_000);
  });

  it('an extra without a currency is in the quoted one; one in a currency no longer offered is left out', () => {
    expect(build(usd, [{ nombre: 'Cortinas', precio: 100 }]).additions[0]!.monto).toBe(10_000);
    const euro = { nombre: 'Lámparas', precio: 10, divisa: 'EUR' };
    expect(build(usd, [cortinas, euro]).additions).toHaveLength(1);
    expect(priceableExtras([cortinas, euro], [mxn, usd])).toEqual([cortinas]);
  });
});

describe('the quotation pages’ search validation', () => {
  it('keeps well-formed extras with their currency and drops malformed ones', () => {
    const long = 'x'.repeat(121);
    expect(
      validateQuoteSearch({
        unidad: 'u1',
        extras: [
          { nombre: ' Cortinas ', precio: 50_000, divisa: 'mxn' },
          { nombre: 'Persianas', precio: 120.5 },
          { nombre: 'x', precio: -5 },
          { nombre: 'y', precio: '12' },
          { nombre: long, precio: 1 },
          { nombre: 'z', precio: 1, divisa: 'MX N' },
          { nombre: '', precio: 1 },
          'nope',
        ],
      }),
    ).toMatchObject({
      unidad: 'u1',
      extras: [
        { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' },
        { nombre: 'Persianas', precio: 120.5 },
      ],
    });
  });

  /** The search the quotation page gets, in the app's route shape. */
  function pageSearch(url: string): QuoteSearch {
    // The matches the router renders: each route's validated search over its parent's.
    const match = developmentPageSearch('cotizacion', validateQuoteSearch, url);
    expect(match.routeId).toBe(match.pageId);
    return match.search as QuoteSearch;
  }

  it('invalid extras in the URL never reach the page, though the parent routes pass the raw params on', () => {
    const extras = JSON.stringify([
      { nombre: 'x', precio: -5 },
      { nombre: 'y', precio: 'mucho' },
    ]);
    const search = pageSearch(
      `/corporativos/c/desarrollos/d/cotizacion?unidad=u1&esquema=${'e'.repeat(65)}&extras=${encodeURIComponent(extras)}`,
    );
    expect(search.unidad).toBe('u1');
    expect(search.extras).toBeUndefined();
    expect(search.esquema).toBeUndefined();
  });

  it('valid extras and the ones mixed with invalid ones come through validated', () => {
    const extras = JSON.stringify([
      { nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' },
      { nombre: 'x', precio: -5 },
    ]);
    const search = pageSearch(
      `/corporativos/c/desarrollos/d/cotizacion?unidad=u1&extras=${encodeURIComponent(extras)}`,
    );
    expect(search.extras).toEqual([{ nombre: 'Cortinas', precio: 50_000, divisa: 'MXN' }]);
  });
});

describe('quotation dates', () => {
  it('show the day without a leading zero, like the app’s other dates: 5 dic 2026 / Dec 5, 2026', () => {
    const iso = '2026-12-05T18:00:00.000Z';
    expect(formatDate(iso, 'es', 'America/Mexico_City')).toBe('5 dic 2026');
    expect(formatDate(iso, 'en', 'America/Mexico_City')).toBe('Dec 5, 2026');
    expect(formatDate('2027-12-15', 'es')).toBe('15 dic 2027');
  });
});
