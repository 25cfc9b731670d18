import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Money } from '../../src/core/brands';
import { apportionMoney, roundMoney } from '../../src/core/money';
import {
  displayedQuote,
  priceAfterDiscount,
  quote,
  splitByFractions,
} from '../../src/core/pricing';
import type { PaymentScheme } from '../../src/core/types';

const cents = fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => n as Money);
const fraction = fc.double({ min: 0, max: 1, noNaN: true });

/** Five part fractions summing to 1, some of them zero. */
const partFractions = fc
  .array(fc.integer({ min: 0, max: 1_000 }), { minLength: 5, maxLength: 5 })
  .filter((w) => w.some((x) => x > 0))
  .map((w) => {
    const total = w.reduce((s, x) => s + x, 0);
    return w.map((x) => x / total);
  });

const scheme = fc
  .record({
    parts: partFractions,
    descuento: fraction,
    months: fc.option(fc.integer({ min: 1, max: 120 }), { nil: undefined }),
  })
  .map(({ parts, descuento, months }): PaymentScheme => {
    const [enganche, diferido, mensualidades, escrituracion, contraEntrega] = parts as [
      number,
      number,
      number,
      number,
      number,
    ];
    return {
      id: 's',
      nombre: 'generated',
      descuento: { nombre: 'Descuento', porcentaje: descuento },
      enganche: { nombre: 'Enganche', porcentaje: enganche },
      diferido: { nombre: 'Diferido', porcentaje: diferido },
      mensualidades: {
        nombre: 'Mensualidades',
        porcentaje: mensualidades,
        ...(months === undefined ? {} : { numeroMensualidades: months }),
      },
      escrituracion: { nombre: 'Escrituración', porcentaje: escrituracion },
      contraEntrega: { nombre: 'Contra entrega', porcentaje: contraEntrega },
    };
  });

const date = fc.date({
  min: new Date('2000-01-01T00:00:00Z'),
  max: new Date('2060-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('pricing properties', () => {
  it('payment parts always sum to the final price and are never negative', () => {
    fc.assert(
      fc.property(
        cents,
        scheme,
        fc.array(fc.integer({ min: 0, max: 100_000_000 }), { maxLength: 3 }),
        date,
        date,
        (unitPrice, s, extras, now, delivery) => {
          const q = quote({
            unitPrice,
            scheme: s,
            extras: extras as Money[],
            now,
            deliveryDate: delivery,
          });
          expect(q.parts.reduce((sum, p) => sum + p.amount, 0)).toBe(q.finalPrice);
          for (const p of q.parts) expect(p.amount).toBeGreaterThanOrEqual(0);
          expect(q.finalPrice).toBe(q.priceAfterDiscount + extras.reduce((a, b) => a + b, 0));
          const monthly = q.parts[2]!.amount;
          expect(q.instalments.reduce((sum, i) => sum + i.amount, 0)).toBe(
            q.instalments.length > 0 ? monthly : 0,
          );
          for (const i of q.instalments) expect(i.amount).toBeGreaterThanOrEqual(0);
          if (s.mensualidades.porcentaje > 0) expect(q.months).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });

  it('split by fractions adds up exactly, never negative, each part within its share', () => {
    fc.assert(
      fc.property(cents, partFractions, (total, fractions) => {
        const parts = splitByFractions(total, fractions);
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total);
        parts.forEach((p, i) => {
          expect(p).toBeGreaterThanOrEqual(0);
          if (fractions[i] === 0) expect(p).toBe(0);
        });
      }),
    );
  });

  it('a discount never raises the price', () => {
    fc.assert(
      fc.property(cents, fraction, (list, d) => {
        const after = priceAfterDiscount(list, d);
        expect(after).toBeLessThanOrEqual(list);
        expect(after).toBeGreaterThanOrEqual(0);
        expect(Number.isInteger(after)).toBe(true);
      }),
    );
  });
});

/** Amounts in cents, signed, including ties and whole units. */
const amounts = fc.array(
  fc.oneof(
    fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }),
    fc.integer({ min: 0, max: 20 }).map((n) => n * 100 + 50),
  ),
  { maxLength: 30 },
);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const rest = (a: number) => ((a % 100) + 100) % 100;

describe('largest-remainder apportionment (what is shown adds up)', () => {
  it('the rounded parts are whole units that sum exactly to the rounded total', () => {
    fc.assert(
      fc.property(amounts, (xs) => {
        const out = apportionMoney(xs as Money[]);
        expect(out).toHaveLength(xs.length);
        for (const o of out) expect(rest(o)).toBe(0);
        expect(sum(out)).toBe(roundMoney(sum(xs) as Money));
      }),
    );
  });

  it('each rounded part differs from its exact value by less than one unit, to any total within a unit', () => {
    fc.assert(
      fc.property(amounts, fc.boolean(), (xs, up) => {
        const s = sum(xs);
        const floor = s - rest(s);
        const total = up && rest(s) > 0 ? floor + 100 : floor;
        const out = apportionMoney(xs as Money[], total as Money);
        expect(sum(out)).toBe(total);
        out.forEach((o, i) => expect(Math.abs(o - xs[i]!)).toBeLessThan(100));
      }),
    );
  });

  it('is order-stable: permuting the amounts permutes the result, ties going to the earlier', () => {
    fc.assert(
      fc.property(
        amounts.chain((xs) =>
          fc.tuple(
            fc.constant(xs),
            fc.shuffledSubarray(
              xs.map((_, i) => i),
              {
                minLength: xs.length,
                maxLength: xs.length,
              },
            ),
          ),
        ),
        ([xs, order]) => {
          const out = apportionMoney(xs as Money[]);
          const permuted = apportionMoney(order.map((i) => xs[i]!) as Money[]);
          const raised = (i: number) => out[i]! > xs[i]! - rest(xs[i]!);
          // The result only depends on each amount and its position among equal remainders.
          order.forEach((from, to) => {
            const tied = xs.filter((x) => rest(x) === rest(xs[from]!)).length > 1;
            if (!tied) expect(permuted[to]).toBe(out[from]);
          });
          // A larger remainder is never left down while a smaller one, or an equal later one,
          // goes up.
          xs.forEach((a, i) =>
            xs.forEach((b, j) => {
              if (raised(j) && (rest(a) > rest(b) || (rest(a) === rest(b) && i < j))) {
                expect(raised(i)).toBe(true);
              }
            }),
          );
          expect(sum(permuted)).toBe(sum(out));
        },
      ),
    );
  });

  it('every breakdown of a priced quote adds up as shown: summary, additions, parts, instalments', () => {
    fc.assert(
      fc.property(
        cents,
        scheme,
        fc.array(fc.integer({ min: 0, max: 100_000_000 }), { maxLength: 4 }),
        date,
        (unitPrice, s, extras, now) => {
          const q = quote({ unitPrice, scheme: s, extras: extras as Money[], now });
          const shown = displayedQuote(q, extras as Money[]);
          expect(shown.listPrice - shown.discount).toBe(shown.priceAfterDiscount);
          expect(shown.priceAfterDiscount + shown.extras).toBe(shown.finalPrice);
          expect(sum(shown.additions)).toBe(extras.length > 0 ? shown.extras : 0);
          expect(sum(shown.parts)).toBe(shown.finalPrice);
          const monthly = q.parts.findIndex((p) => p.key === 'mensualidades');
          if (q.instalments.length > 0) {
            expect(sum(shown.instalments)).toBe(shown.parts[monthly]);
          }
          const exact: [number, number][] = [
            [shown.listPrice, q.listPrice],
            [shown.discount, q.discount],
            [shown.priceAfterDiscount, q.priceAfterDiscount],
            [shown.extras, q.extras],
            [shown.finalPrice, q.finalPrice],
            ...shown.additions.map((a, i): [number, number] => [a, extras[i]!]),
            ...shown.parts.map((p, i): [number, number] => [p, q.parts[i]!.amount]),
            ...shown.instalments.map((a, i): [number, number] => [a, q.instalments[i]!.amount]),
          ];
          for (const [display, value] of exact) {
            expect(rest(display)).toBe(0);
            expect(Math.abs(display - value)).toBeLessThan(100);
          }
        },
      ),
    );
  });
});
