/**
 * The proximity rule at its boundaries (spec §9), shared by the client (the worker's
 * `checkInCandidate`) and the server (the check-in decider): a position just inside
 * 0.1 km + accuracy/1000 (accuracy ≤ 500 m) or 0.25 km + accuracy/1000 (accuracy > 500 m) is
 * let in, one just outside is not, and both sides always agree.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkInCandidate,
  decideCheckIn,
  initialCheckInState,
  MAX_CHECK_IN_ACCURACY_METERS,
} from '../../src/core/check-in';
import { showroomRadiusKm } from '../../src/core/geo';
import type { Showroom } from '../../src/core/types';

// One degree of latitude on a 6371 km sphere: moving along a meridian is an exact distance.
const KM_PER_DEGREE = (Math.PI * 6371) / 180;
/** A millimetre: far above the haversine's floating-point error at these distances. */
const EPS_KM = 1e-6;

const showroomAt = (latitude: number, longitude: number): Showroom => ({
  id: 'sr',
  nombre: 'Showroom',
  activo: true,
  coordenadas: { _latitude: latitude, _longitude: longitude },
});

const place = fc.record({
  latitude: fc.double({ min: -80, max: 80, noNaN: true }),
  longitude: fc.double({ min: -179, max: 179, noNaN: true }),
});
const accuracy = fc.double({ min: 0, max: MAX_CHECK_IN_ACCURACY_METERS, noNaN: true });

const now = new Date('2026-11-22T15:00:00Z');
const serverLetsIn = (
  showroom: Showroom,
  position: { latitude: number; longitude: number; accuracy: number },
) =>
  decideCheckIn(
    {
      type: 'CheckIn',
      id: 'ci',
      idCorporativo: 'c',
      idUsuario: 'u',
      showroom,
      via: { tipoRegistro: 'Geolocalizacion', position },
      now,
    },
    initialCheckInState,
  ).ok;

describe('proximity boundaries (client and server)', () => {
  it('just inside the radius is inside, just outside is too far, on both sides', () => {
    fc.assert(
      fc.property(place, accuracy, fc.boolean(), (p, acc, south) => {
        const showroom = showroomAt(p.latitude, p.longitude);
        const radius = showroomRadiusKm(acc);
        const sign = south ? -1 : 1;
        const at = (km: number) => ({
          latitude: p.latitude + (sign * km) / KM_PER_DEGREE,
          longitude: p.longitude,
          accuracy: acc,
        });
        const inside = at(radius - EPS_KM);
        const outside = at(radius + EPS_KM);
        expect(checkInCandidate([showroom], inside).kind).toBe('inside');
        expect(serverLetsIn(showroom, inside)).toBe(true);
        expect(checkInCandidate([showroom], outside).kind).toBe('tooFar');
        expect(serverLetsIn(showroom, outside)).toBe(false);
      }),
    );
  });

  it('the radius is 0.1 km + accuracy/1000 up to 500 m, then 0.25 km + accuracy/1000', () => {
    fc.assert(
      fc.property(accuracy, (acc) => {
        const base = acc <= 500 ? 0.1 : 0.25;
        expect(showroomRadiusKm(acc)).toBeCloseTo(base + acc / 1000, 12);
      }),
    );
    // The 500 m switch: 0.6 km at 500 m, 0.75 km just past it.
    expect(showroomRadiusKm(500)).toBeCloseTo(0.6, 12);
    expect(showroomRadiusKm(500.001)).toBeCloseTo(0.750001, 9);
  });

  it('between 0.6 and 0.75 km the 500 m switch decides: in at 500.001 m, out at 500 m', () => {
    fc.assert(
      fc.property(
        place,
        fc.double({ min: 0.6 + EPS_KM, max: 0.75 - EPS_KM, noNaN: true }),
        (p, km) => {
          const showroom = showroomAt(p.latitude, p.longitude);
          const position = (acc: number) => ({
            latitude: p.latitude + km / KM_PER_DEGREE,
            longitude: p.longitude,
            accuracy: acc,
          });
          expect(serverLetsIn(showroom, position(500))).toBe(false);
          expect(serverLetsIn(showroom, position(500.001))).toBe(true);
          expect(checkInCandidate([showroom], position(500)).kind).toBe('tooFar');
          expect(checkInCandidate([showroom], position(500.001)).kind).toBe('inside');
        },
      ),
    );
  });

  it('client and server agree on any position near any showroom', () => {
    fc.assert(
      fc.property(
        place,
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        fc.double({ min: -0.05, max: 0.05, noNaN: true }),
        accuracy,
        (p, dLat, dLng, acc) => {
          const showroom = showroomAt(p.latitude, p.longitude);
          const position = {
            latitude: p.latitude + dLat,
            longitude: p.longitude + dLng,
            accuracy: acc,
          };
          expect(checkInCandidate([showroom], position).kind === 'inside').toBe(
            serverLetsIn(showroom, position),
          );
        },
      ),
    );
  });

  it('an impossible accuracy is never let in, however close', () => {
    fc.assert(
      fc.property(
        place,
        fc.oneof(
          fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
          fc.double({ min: MAX_CHECK_IN_ACCURACY_METERS + 1e-9, noNaN: true }),
          fc.constant(Number.NaN),
        ),
        (p, acc) => {
          const showroom = showroomAt(p.latitude, p.longitude);
          const position = { ...p, accuracy: acc };
          expect(serverLetsIn(showroom, position)).toBe(false);
          expect(checkInCandidate([showroom], position).kind).toBe('inaccurate');
        },
      ),
    );
  });
});
