import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Money } from '../../src/core/brands';
import { priceAfterDiscount, quote, splitByFractions } from '../../src/core/pricing';
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
