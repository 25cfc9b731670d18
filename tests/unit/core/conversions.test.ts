import { describe, expect, it } from 'vitest';
import type { Money } from '../../../src/core/brands';
import {
  DEFAULT_AREA_UNIT,
  SQUARE_FEET_PER_SQUARE_METER,
  areaToSquareFeet,
  formatArea,
  squareFeetToArea,
} from '../../../src/core/area';
import {
  DEFAULT_CURRENCY,
  convert,
  convertMoney,
  findCurrency,
  normalizeCurrencies,
} from '../../../src/core/currency';

describe('currency (spec §3, §9)', () => {
  it('defaults to MXN, Pesos, rate 1', () => {
    expect(DEFAULT_CURRENCY).toEqual({
      codigo: 'MXN',
      activo: true,
      nombre: 'Pesos',
      tipoCambio: 1,
    });
    expect(normalizeCurrencies(undefined)).toEqual([DEFAULT_CURRENCY]);
    expect(normalizeCurrencies([])).toEqual([DEFAULT_CURRENCY]);
  });

  it('adds MXN when missing and keeps it when present', () => {
    const usd = { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 17 };
    expect(normalizeCurrencies([usd])).toEqual([DEFAULT_CURRENCY, usd]);
    const mxn = { codigo: 'MXN', activo: true, nombre: 'Pesos mexicanos', tipoCambio: 1 };
    expect(normalizeCurrencies([usd, mxn])).toEqual([usd, mxn]);
    expect(findCurrency([usd, mxn], 'usd')).toEqual(usd);
  });

  it('converts by the ratio of exchange rates', () => {
    const mxn = { tipoCambio: 1 };
    const usd = { tipoCambio: 20 };
    const eur = { tipoCambio: 25 };
    expect(convert(2_000, mxn, usd)).toBe(100);
    expect(convert(100, usd, mxn)).toBe(2_000);
    expect(convert(100, eur, usd)).toBe(125);
    expect(convertMoney(1_000 as Money, mxn, { tipoCambio: 3 })).toBe(333);
    expect(() => convert(1, mxn, { tipoCambio: 0 })).toThrow(RangeError);
  });
});

describe('area (spec §9)', () => {
  it('1 m² = 10.7639 ft², two decimals, m² by default', () => {
    expect(SQUARE_FEET_PER_SQUARE_METER).toBe(10.7639);
    expect(areaToSquareFeet(1)).toBe(10.76);
    expect(areaToSquareFeet(100)).toBe(1076.39);
    expect(squareFeetToArea(1076.39)).toBe(100);
    expect(DEFAULT_AREA_UNIT).toBe('m2');
    expect(formatArea(1234.5)).toBe('1,234.50 m²');
    expect(formatArea(100, 'ft2')).toBe('1,076.39 ft²');
  });
});
