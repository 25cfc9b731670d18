import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { areaToSquareFeet, squareFeetToArea } from '../../src/core/area';
import { convert } from '../../src/core/currency';

const rate = fc.double({ min: 0.0001, max: 10_000, noNaN: true, noDefaultInfinity: true });

describe('conversion properties', () => {
  it('currency conversion round-trips within one cent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }),
        rate,
        rate,
        (amountCents, a, b) => {
          const from = { tipoCambio: a };
          const to = { tipoCambio: b };
          const back = convert(convert(amountCents, from, to), to, from);
          expect(Math.abs(back - amountCents)).toBeLessThanOrEqual(1);
        },
      ),
    );
  });

  it('area conversion round-trips within 0.01', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1_000_000, noNaN: true }), (m2) => {
        expect(Math.abs(squareFeetToArea(areaToSquareFeet(m2)) - m2)).toBeLessThanOrEqual(0.01);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100_000_000 }), (hundredths) => {
        const m2 = hundredths / 100;
        expect(Math.abs(squareFeetToArea(areaToSquareFeet(m2)) - m2)).toBeLessThanOrEqual(0.01);
      }),
    );
  });
});
