import { describe, expect, it } from 'vitest';
import {
  CHECK_IN_VALIDITY_SECONDS,
  EARTH_RADIUS_KM,
  distanceKm,
  isCheckInExpired,
  isWithinShowroom,
  showroomAt,
  showroomRadiusKm,
} from '../../../src/core/geo';

// One degree of latitude on a 6371 km sphere.
const KM_PER_DEGREE = (Math.PI * 6371) / 180;
const showroom = {
  activo: true,
  coordenadas: { _latitude: 19.4326, _longitude: -99.1332 },
};
/** A position `km` north of the showroom. */
const north = (km: number, accuracy: number) => ({
  latitude: 19.4326 + km / KM_PER_DEGREE,
  longitude: -99.1332,
  accuracy,
});

describe('showroom proximity (spec §9)', () => {
  it('uses the haversine distance with an Earth radius of 6371 km', () => {
    expect(EARTH_RADIUS_KM).toBe(6371);
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 })).toBeCloseTo(
      Math.PI * 6371,
      6,
    );
    expect(distanceKm({ latitude: 0, longitude: 0 }, { latitude: 1, longitude: 0 })).toBeCloseTo(
      111.195,
      3,
    );
  });

  it('radius: 0.1 km if accuracy ≤ 500 m, else 0.25 km, plus accuracy/1000 km', () => {
    expect(showroomRadiusKm(0)).toBe(0.1);
    expect(showroomRadiusKm(500)).toBe(0.6);
    expect(showroomRadiusKm(501)).toBeCloseTo(0.751, 12);
    expect(showroomRadiusKm(20)).toBeCloseTo(0.12, 12);
  });

  it('is inside under the radius and outside beyond it', () => {
    expect(isWithinShowroom(showroom, north(0.119, 20))).toBe(true);
    expect(isWithinShowroom(showroom, north(0.121, 20))).toBe(false);
    expect(isWithinShowroom(showroom, north(0.749, 501))).toBe(true);
    expect(isWithinShowroom(showroom, north(0.59, 500))).toBe(true);
    expect(isWithinShowroom(showroom, north(0.61, 500))).toBe(false);
  });

  it('an inactive showroom is never inside', () => {
    expect(isWithinShowroom({ ...showroom, activo: false }, north(0, 0))).toBe(false);
  });

  it('picks the nearest showroom the position is within', () => {
    const far = {
      id: 'far',
      ...showroom,
      coordenadas: { _latitude: 19.4336, _longitude: -99.1332 },
    };
    const near = { id: 'near', ...showroom };
    expect(showroomAt([far, near], north(0.01, 50))?.id).toBe('near');
    expect(showroomAt([far, near], north(5, 50))).toBeUndefined();
  });
});

describe('check-in validity (spec §4)', () => {
  it('expires after 43200 seconds', () => {
    expect(CHECK_IN_VALIDITY_SECONDS).toBe(43200);
    expect(isCheckInExpired(1_000, 1_000 + 43200)).toBe(false);
    expect(isCheckInExpired(1_000, 1_000 + 43201)).toBe(true);
  });
});
