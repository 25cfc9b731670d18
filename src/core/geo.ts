/**
 * Showroom proximity and check-in validity (spec §4, §9).
 */

import type { Kilometers } from './brands';
import type { Showroom } from './types';

/** Earth radius used by the haversine distance (spec §9). */
export const EARTH_RADIUS_KM = 6371;

/** A check-in older than this many seconds (12 hours) is expired (spec §4, §9). */
export const CHECK_IN_VALIDITY_SECONDS = 43200;

/** Accuracy (metres) up to which the tight base radius applies. */
export const ACCURACY_THRESHOLD_METERS = 500;
/** Base radius when the accuracy is 500 m or better. */
export const BASE_RADIUS_PRECISE_KM = 0.1 as Kilometers;
/** Base radius when the accuracy is worse than 500 m. */
export const BASE_RADIUS_IMPRECISE_KM = 0.25 as Kilometers;

/** A point in degrees. */
export interface LatLng {
  latitude: number;
  longitude: number;
}

/** A device position as the browser's geolocation reports it; `accuracy` in metres. */
export interface DevicePosition extends LatLng {
  accuracy: number;
}

const toRad = (deg: number): number => (deg * Math.PI) / 180;

/** Great-circle distance by the haversine formula with {@link EARTH_RADIUS_KM}. */
export function distanceKm(a: LatLng, b: LatLng): Kilometers {
  const dLat = toRad(b.latitude - a.latitude);
  const dLon = toRad(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(toRad(a.latitude)) * Math.cos(toRad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return (2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)))) as Kilometers;
}

/**
 * The check-in radius for a position of that accuracy (metres): 0.1 km if the accuracy is
 * 500 m or less, else 0.25 km, plus accuracy/1000 km.
 */
export function showroomRadiusKm(accuracyMeters: number): Kilometers {
  const base =
    accuracyMeters <= ACCURACY_THRESHOLD_METERS ? BASE_RADIUS_PRECISE_KM : BASE_RADIUS_IMPRECISE_KM;
  return (base + accuracyMeters / 1000) as Kilometers;
}

/** The showroom's coordinates as a {@link LatLng}. */
export function showroomPoint(showroom: Pick<Showroom, 'coordenadas'>): LatLng {
  return { latitude: showroom.coordenadas._latitude, longitude: showroom.coordenadas._longitude };
}

/**
 * Spec §9: the showroom is active and the distance is under {@link showroomRadiusKm} of the
 * position's accuracy.
 */
export function isWithinShowroom(
  showroom: Pick<Showroom, 'activo' | 'coordenadas'>,
  position: DevicePosition,
): boolean {
  if (!showroom.activo) return false;
  return distanceKm(showroomPoint(showroom), position) < showroomRadiusKm(position.accuracy);
}

/** The nearest active showroom the position is within, if any. */
export function showroomAt<S extends Pick<Showroom, 'activo' | 'coordenadas'>>(
  showrooms: readonly S[],
  position: DevicePosition,
): S | undefined {
  let best: S | undefined;
  let bestKm = Infinity;
  for (const s of showrooms) {
    if (!isWithinShowroom(s, position)) continue;
    const d = distanceKm(showroomPoint(s), position);
    if (d < bestKm) {
      best = s;
      bestKm = d;
    }
  }
  return best;
}

/** Spec §4: a check-in older than 43200 seconds is expired (exactly 43200 s is still valid). */
export function isCheckInExpired(fechaAltaSeconds: number, nowSeconds: number): boolean {
  return nowSeconds - fechaAltaSeconds > CHECK_IN_VALIDITY_SECONDS;
}
