import { describe, expect, it } from 'vitest';
import type { Money } from '../../../src/core/brands';
import {
  apportionMoney,
  formatMoney,
  money,
  moneyFromMajor,
  multiplyMoney,
  roundMoney,
} from '../../../src/core/money';
import {
  PaymentSchemeError,
  displayedQuote,
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

describe('displayed amounts (spec §9: whole units, and what is shown adds up)', () => {
  it('rounds half away from zero, like formatMoney', () => {
    expect(roundMoney(m(14_212_150))).toBe(14_212_200);
    expect(roundMoney(m(14_212_149))).toBe(14_212_100);
    expect(roundMoney(m(-150))).toBe(-200);
    expect(roundMoney(m(-149))).toBe(-100);
    expect(roundMoney(m(1_234), 1_000)).toBe(1_000);
  });

  it('apportions by the largest remainder: the missing units go to the largest remainders, ties to the earlier', () => {
    // $10.40 + $10.35 + $10.25 = $31.00; each rounded alone: $10 + $10 + $10 = $30.
    expect(apportionMoney([m(1_040), m(1_035), m(1_025)])).toEqual([1_100, 1_000, 1_000]);
    // Equal remainders: the earlier one gets the unit.
    expect(apportionMoney([m(140), m(140)])).toEqual([200, 100]);
    // To a given total within a unit of the sum (an amount shown elsewhere).
    expect(apportionMoney([m(140), m(140)], m(200))).toEqual([100, 100]);
    expect(() => apportionMoney([m(140), m(140)], m(400))).toThrow(RangeError);
    expect(() => apportionMoney([m(150)], m(250))).toThrow(RangeError);
    expect(apportionMoney([])).toEqual([]);
  });

  const financing = (contado: Partial<Record<string, number>>, months?: number) =>
    scheme(contado, months);

  it('given A1602 at $17,582,000 on 30/70 with 3 % off, then the 12 instalments add up to the $1,705,454 part shown (not 12 × $142,121 = $1,705,452)', () => {
    const q = quote({
      unitPrice: moneyFromMajor(17_582_000),
      scheme: financing(
        { descuento: 0.03, enganche: 0.2, mensualidades: 0.1, contraEntrega: 0.7 },
        12,
      ),
      now: new Date('2026-11-21T12:00:00Z'),
    });
    expect(q.finalPrice).toBe(moneyFromMajor(17_054_540));
    expect(q.instalments.map((i) => i.amount)).toEqual([
      ...Array<number>(11).fill(14_212_116),
      14_212_124,
    ]);
    const shown = displayedQuote(q);
    expect(shown.parts).toEqual([341_090_800, 0, 170_545_400, 0, 1_193_817_800]);
    expect(shown.instalments.reduce((a, b) => a + b, 0)).toBe(170_545_400);
    // 0.24 is the largest remainder, then the first 0.16.
    expect(shown.instalments).toEqual([
      14_212_200,
      ...Array<number>(10).fill(14_212_100),
      14_212_200,
    ]);
  });

  it('given A1602 in USD at 18.5 on "Financiamiento a entrega", then the parts shown add up to the $950,378 final price (each rounded alone: $950,379)', () => {
    const q = quote({
      unitPrice: m(95_037_838),
      scheme: financing(
        {
          enganche: 0.1,
          diferido: 0.05,
          mensualidades: 0.25,
          escrituracion: 0.02,
          contraEntrega: 0.58,
        },
        12,
      ),
      now: new Date('2026-11-21T12:00:00Z'),
    });
    const parts = q.parts.map((p) => p.amount);
    expect(parts.map((p) => roundMoney(p)).reduce((a, b) => a + b, 0)).toBe(95_037_900);
    const shown = displayedQuote(q);
    expect(shown.finalPrice).toBe(95_037_800);
    expect(shown.parts).toEqual([9_503_800, 4_751_900, 23_759_500, 1_900_700, 55_121_900]);
    expect(shown.parts.reduce((a, b) => a + b, 0)).toBe(shown.finalPrice);
    expect(shown.instalments.reduce((a, b) => a + b, 0)).toBe(shown.parts[2]);
  });

  it('the summary subtracts and adds up as shown: list − discount = after discount, + optionals = final', () => {
    // $100.60 list, $50.10 off, plus two additions of $5.70 and $5.65.
    const s = scheme({ descuento: 0 });
    const q = quote({ unitPrice: m(10_060), scheme: s, now: new Date('2026-01-01T00:00:00Z') });
    const figures = {
      ...q,
      discount: m(5_010),
      priceAfterDiscount: m(5_050),
      extras: m(1_135),
      finalPrice: m(6_185),
      parts: q.parts.map((p, i) => ({ ...p, amount: m([1_855, 0, 1_237, 0, 3_093][i]!) })),
      instalments: [],
    };
    const shown = displayedQuote(figures, [m(570), m(565)]);
    expect(shown.listPrice).toBe(10_100);
    expect(shown.priceAfterDiscount).toBe(5_100);
    expect(shown.discount).toBe(5_000);
    expect(shown.finalPrice).toBe(6_200);
    expect(shown.extras).toBe(1_100);
    expect(shown.additions).toEqual([600, 500]);
    expect(shown.parts.reduce((a, b) => a + b, 0)).toBe(6_200);
  });
});
