import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distanceKm, isWithinShowroom } from '../../src/core/geo';

const point = fc.record({
  latitude: fc.double({ min: -90, max: 90, noNaN: true }),
  longitude: fc.double({ min: -180, max: 180, noNaN: true }),
});

describe('proximity properties', () => {
  it('distance is symmetric and never negative', () => {
    fc.assert(
      fc.property(point, point, (a, b) => {
        const ab = distanceKm(a, b);
        expect(ab).toBeCloseTo(distanceKm(b, a), 9);
        expect(ab).toBeGreaterThanOrEqual(0);
      }),
    );
  });

  it('at zero distance an active showroom is always within reach', () => {
    fc.assert(
      fc.property(point, fc.double({ min: 0, max: 100_000, noNaN: true }), (p, accuracy) => {
        const showroom = {
          activo: true,
          coordenadas: { _latitude: p.latitude, _longitude: p.longitude },
        };
        expect(distanceKm(p, p)).toBe(0);
        expect(isWithinShowroom(showroom, { ...p, accuracy })).toBe(true);
        expect(isWithinShowroom({ ...showroom, activo: false }, { ...p, accuracy })).toBe(false);
      }),
    );
  });
});
