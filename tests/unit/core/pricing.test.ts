import { describe, expect, it } from 'vitest';
import type { Money } from '../../../src/core/brands';
import { formatMoney, money, moneyFromMajor, multiplyMoney } from '../../../src/core/money';
import {
  PaymentSchemeError,
  instalments,
  priceAfterDiscount,
  quote,
  splitByFractions,
  validateScheme,
} from '../../../src/core/pricing';
import type { PaymentScheme } from '../../../src/core/types';

const m = (cents: number) => cents as Money;

function scheme(over: Partial<Record<string, number>> = {}, months?: number): PaymentScheme {
  const part = (nombre: string, key: string, dflt: number) => ({
    nombre,
    porcentaje: over[key] ?? dflt,
  });
  return {
    id: 's1',
    nombre: '30/70',
    descuento: part('Descuento', 'descuento', 0),
    enganche: part('Enganche', 'enganche', 0.3),
    diferido: part('Diferido', 'diferido', 0),
    mensualidades: {
      ...part('Mensualidades', 'mensualidades', 0.2),
      ...(months === undefined ? {} : { numeroMensualidades: months }),
    },
    escrituracion: part('Escrituración', 'escrituracion', 0),
    contraEntrega: part('Contra entrega', 'contraEntrega', 0.5),
  };
}

describe('money', () => {
  it('formats with thousands commas, 0 decimals and $ by default (spec §9)', () => {
    expect(formatMoney(m(123_456_789))).toBe('$1,234,568');
    expect(formatMoney(m(0))).toBe('$0');
    expect(formatMoney(m(99_999))).toBe('$1,000');
    expect(formatMoney(m(-150), { decimals: 2 })).toBe('-$1.50');
    expect(formatMoney(m(123_456_789), { symbol: 'US$', decimals: 2 })).toBe('US$1,234,567.89');
  });

  it('keeps integer cents', () => {
    expect(moneyFromMajor(1.005)).toBe(101);
    expect(moneyFromMajor(2_500_000)).toBe(250_000_000);
    expect(() => money(1.5)).toThrow(RangeError);
    expect(multiplyMoney(m(1_001), 0.5)).toBe(501);
  });
});

describe('pricing', () => {
  it('price after discount = list − fraction × list (spec §9)', () => {
    expect(priceAfterDiscount(m(250_000_000), 0.05)).toBe(237_500_000);
    expect(priceAfterDiscount(m(100_001), 0.1)).toBe(90_001);
    expect(priceAfterDiscount(m(100), 0)).toBe(100);
    expect(() => priceAfterDiscount(m(100), 1.2)).toThrow(RangeError);
  });

  it('accepts a scheme whose parts sum to 1', () => {
    expect(validateScheme(scheme())).toEqual({ ok: true });
    expect(validateScheme(scheme({ enganche: 0.1, diferido: 0.2 }))).toEqual({ ok: true });
  });

  it('rejects a scheme whose parts do not sum to 1, saying so', () => {
    const result = validateScheme(scheme({ contraEntrega: 0.4 }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(PaymentSchemeError);
    expect(result.error.code).toBe('parts_not_one');
    expect(result.error.message).toBe(
      "Payment scheme '30/70': enganche + diferido + mensualidades + escrituracion + contraEntrega must sum to 1, got 0.9",
    );
  });

  it('rejects negative, NaN and >1 fractions and bad month counts', () => {
    for (const bad of [-0.1, Number.NaN, 1.5]) {
      const r = validateScheme(scheme({ enganche: bad }));
      expect(r.ok ? 'ok' : r.error.code).toBe('invalid_fraction');
    }
    const r = validateScheme(scheme({}, 0));
    expect(r.ok ? 'ok' : r.error.code).toBe('invalid_months');
  });

  it('quote() throws the scheme error', () => {
    expect(() =>
      quote({ unitPrice: m(100), scheme: scheme({ contraEntrega: 0.4 }), now: new Date(0) }),
    ).toThrow(PaymentSchemeError);
  });

  it('splits to cents, the last non-zero part taking the remainder', () => {
    expect(splitByFractions(m(100), [1 / 3, 1 / 3, 1 / 3, 0])).toEqual([33, 33, 34, 0]);
    expect(splitByFractions(m(3), [0.2, 0.2, 0.2, 0.2, 0.2])).toEqual([1, 1, 1, 0, 0]);
  });

  describe('given a 2,500,000 unit, 5 % discount, 30 % down, 20 % in 12 months, 50 % on delivery', () => {
    const now = new Date('2024-01-31T18:00:00Z');
    const q = quote({
      unitPrice: m(250_000_000),
      scheme: scheme({ descuento: 0.05 }, 12),
      extras: [m(15_000_000)],
      now,
    });

    it('then the final price is the discounted price plus the extras', () => {
      expect(q.discount).toBe(12_500_000);
      expect(q.priceAfterDiscount).toBe(237_500_000);
      expect(q.finalPrice).toBe(252_500_000);
    });

    it('then the parts add up exactly to the final price', () => {
      expect(q.parts.map((p) => [p.key, p.amount])).toEqual([
        ['enganche', 75_750_000],
        ['diferido', 0],
        ['mensualidades', 50_500_000],
        ['escrituracion', 0],
        ['contraEntrega', 126_250_000],
      ]);
    });

    it('then 12 instalments, one month apart from next month, add up to their part', () => {
      expect(q.months).toBe(12);
      expect(q.instalments).toHaveLength(12);
      expect(q.instalments.reduce((s, i) => s + i.amount, 0)).toBe(50_500_000);
      expect(q.instalments[0]!.date.toISOString()).toBe('2024-02-29T18:00:00.000Z');
      expect(q.instalments[1]!.date.toISOString()).toBe('2024-03-31T18:00:00.000Z');
      expect(q.instalments[11]!.date.toISOString()).toBe('2025-01-31T18:00:00.000Z');
    });
  });

  it('without a month count, uses the whole months until delivery, at least 1', () => {
    const now = new Date('2024-01-15T00:00:00Z');
    const base = { unitPrice: m(1_000_000), scheme: scheme(), now };
    expect(quote({ ...base, deliveryDate: new Date('2024-07-20T00:00:00Z') }).months).toBe(6);
    expect(quote({ ...base, deliveryDate: new Date('2024-01-20T00:00:00Z') }).months).toBe(1);
    expect(quote({ ...base, deliveryDate: new Date('2023-01-01T00:00:00Z') }).months).toBe(1);
  });

  it('puts the instalment remainder on the last one', () => {
    expect(instalments(m(1_000), 3, new Date(0)).map((i) => i.amount)).toEqual([333, 333, 334]);
  });
});
