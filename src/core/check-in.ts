/**
 * Showroom check-in (spec §3 Check-in, §4 Check-in, §9): an adviser checks in at a showroom
 * when their shift starts there, by their device's position or by the showroom's QR code; the
 * check-in is active until they check out or it is older than 43200 s (12 hours), when it
 * expires and a timer checks them out by 'Sistema'.
 *
 * The aggregate is one adviser's check-ins in one corporate (stream
 * `check-in:<corporateId>:<userId>`), so "one active check-in per adviser" holds under the
 * stream's lock: a second check-in while one is active writes nothing and the active one is
 * answered. Check-out is idempotent: checking out a check-in that already ended writes nothing.
 *
 * The proximity rule is core/geo.ts's, so the worker (the adviser's screen) and the server
 * (which re-checks, since a client's coordinates can be forged) decide the same way:
 * {@link checkInCandidate} answers which showroom a position is within, or how far it is from
 * the nearest one. A QR check-in carries a folio the server has verified (signed for the
 * showroom and the corporate's day: {@link folioDay}); it needs no position.
 *
 * Events (`data` keeps the spec's names): `CheckedIn { checkIn }`, `CheckedOut { id,
 * idUsuario, idShowroom, fechaSalida, motivo, idUsuarioSalida }`.
 */

import { TZDate } from '@date-fns/tz';
import type { Kilometers } from './brands';
import { accept, reject, type Decider, type Decision } from './decider';
import {
  CHECK_IN_VALIDITY_SECONDS,
  distanceKm,
  isCheckInExpired,
  isWithinShowroom,
  showroomPoint,
  showroomRadiusKm,
  type DevicePosition,
} from './geo';
import type { Showroom } from './types';

/** How the check-in was registered: the device's position, or the showroom's QR code (spec §3). */
export type TipoRegistro = 'Geolocalizacion' | 'QR';

/** A device position as the calls carry it (the spec's `coordenadas`), accuracy in metres. */
export interface CheckInCoordinates {
  _latitude: number;
  _longitude: number;
  _accuracy: number;
}

/** Why a check-in ended: the adviser (or a host administrator) by hand, or its 12 hours. */
export type MotivoSalida = 'manual' | 'expirado';

/** A check-in (spec §3 Check-in), as `wsObtenerCheckIn` and the history answer it. */
export interface CheckIn {
  id: string;
  idCorporativo: string;
  idUsuario: string;
  /** Always true: the record is a check-in (the spec's `check`). */
  check: true;
  idShowroom: string;
  nombreShowroom: string;
  /** The device's position; null for a QR check-in made without one. */
  coordenadas: CheckInCoordinates | null;
  tipoRegistro: TipoRegistro;
  /** When it was made, whole seconds since the epoch. */
  fechaAlta: { _seconds: number };
  /** True until the check-out. */
  checkInActivo: boolean;
  /** The distance measured at check-in (km, geolocation only), as the server computed it. */
  distanciaKm?: number;
  /** When it ended (the expiry instant for an expired one); absent while active. */
  fechaSalida?: { _seconds: number };
  motivoSalida?: MotivoSalida;
  /** Who checked out: the adviser, a host administrator, or null for 'Sistema' (expiry). */
  idUsuarioSalida?: string | null;
}

// ---------------------------------------------------------------------------------------------
// Positions and the proximity rule

/**
 * The least precise position a check-in accepts (metres). A position this rough is a whole
 * neighbourhood (the radius would be over 5 km): it cannot show the adviser is at the
 * showroom, and a client could claim it to be let in from anywhere near. Such a device is
 * offered the QR code instead.
 */
export const MAX_CHECK_IN_ACCURACY_METERS = 5000;

/** What is wrong with a position, field by field (empty: it is a possible position). */
export function positionProblems(
  position: DevicePosition,
): ('latitude' | 'longitude' | 'accuracy')[] {
  const out: ('latitude' | 'longitude' | 'accuracy')[] = [];
  const { latitude, longitude, accuracy } = position;
  if (!Number.isFinite(latitude) || latitude < -90 || latitude > 90) out.push('latitude');
  if (!Number.isFinite(longitude) || longitude < -180 || longitude > 180) out.push('longitude');
  if (!Number.isFinite(accuracy) || accuracy < 0 || accuracy > MAX_CHECK_IN_ACCURACY_METERS)
    out.push('accuracy');
  return out;
}

/** The spec's `coordenadas` as a {@link DevicePosition}. */
export function positionOf(c: CheckInCoordinates): DevicePosition {
  return { latitude: c._latitude, longitude: c._longitude, accuracy: c._accuracy };
}

/** A {@link DevicePosition} as the spec's `coordenadas`. */
export function coordinatesOf(p: DevicePosition): CheckInCoordinates {
  return { _latitude: p.latitude, _longitude: p.longitude, _accuracy: p.accuracy };
}

/** Where a position stands for checking in at a corporate's showrooms. */
export type CheckInCandidate<S extends Pick<Showroom, 'id' | 'nombre' | 'activo' | 'coordenadas'>> =
  /** Within an active showroom (the nearest such one). */
  | { kind: 'inside'; showroom: S; distanciaKm: Kilometers; radioKm: Kilometers }
  /** Outside every active showroom: the nearest one, how far it is, and the allowed radius. */
  | { kind: 'tooFar'; showroom: S; distanciaKm: Kilometers; radioKm: Kilometers }
  /** The position is too rough to check in by ({@link MAX_CHECK_IN_ACCURACY_METERS}). */
  | { kind: 'inaccurate'; accuracy: number; maxAccuracy: number }
  /** The corporate has no active showroom. */
  | { kind: 'noShowrooms' };

/**
 * Which of the corporate's showrooms a position is within (spec §9, core/geo.ts), or how far it
 * is from the nearest active one. The adviser's screen asks it in the worker before saving; the
 * server asks {@link isWithinShowroom} again for the showroom named in the call.
 */
export function checkInCandidate<
  S extends Pick<Showroom, 'id' | 'nombre' | 'activo' | 'coordenadas'>,
>(showrooms: readonly S[], position: DevicePosition): CheckInCandidate<S> {
  if (positionProblems(position).length > 0)
    return {
      kind: 'inaccurate',
      accuracy: position.accuracy,
      maxAccuracy: MAX_CHECK_IN_ACCURACY_METERS,
    };
  const radioKm = showroomRadiusKm(position.accuracy);
  let inside: { showroom: S; d: Kilometers } | undefined;
  let nearest: { showroom: S; d: Kilometers } | undefined;
  for (const showroom of showrooms) {
    if (!showroom.activo) continue;
    const d = distanceKm(showroomPoint(showroom), position);
    if (!nearest || d < nearest.d) nearest = { showroom, d };
    if (isWithinShowroom(showroom, position) && (!inside || d < inside.d)) inside = { showroom, d };
  }
  if (inside) return { kind: 'inside', showroom: inside.showroom, distanciaKm: inside.d, radioKm };
  if (nearest)
    return { kind: 'tooFar', showroom: nearest.showroom, distanciaKm: nearest.d, radioKm };
  return { kind: 'noShowrooms' };
}

// ---------------------------------------------------------------------------------------------
// Time

/** The instant a check-in made at `fechaAltaSeconds` is first expired (spec §4: after 43200 s). */
export function checkInExpiresAt(fechaAltaSeconds: number): Date {
  // Exactly 43200 s is still valid; the first millisecond after it is not.
  return new Date((fechaAltaSeconds + CHECK_IN_VALIDITY_SECONDS) * 1000 + 1);
}

/** Whole seconds left of a check-in at `now` (0 once expired), for the banner's countdown. */
export function checkInSecondsLeft(fechaAltaSeconds: number, now: Date): number {
  const left = fechaAltaSeconds + CHECK_IN_VALIDITY_SECONDS - now.getTime() / 1000;
  return left > 0 ? Math.ceil(left) : 0;
}

/** `now` as whole seconds since the epoch (the spec's `fechaAlta._seconds`). */
export const epochSeconds = (now: Date): number => Math.floor(now.getTime() / 1000);

/** The check-in is active and not expired at `now`. */
export function isCheckInCurrent(checkIn: Pick<CheckIn, 'checkInActivo' | 'fechaAlta'>, now: Date) {
  return (
    checkIn.checkInActivo && !isCheckInExpired(checkIn.fechaAlta._seconds, now.getTime() / 1000)
  );
}

const DAY_SHAPE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The corporate's time zone, or UTC when it has none or an unknown one. */
export function corporateZone(corporate: { zonaHoraria?: string | null }): string {
  const zone = corporate.zonaHoraria;
  if (!zone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return zone;
  } catch {
    return 'UTC';
  }
}

/** `now`'s calendar day in `timeZone` as `YYYY-MM-DD`. */
export function localDay(now: Date, timeZone: string): string {
  const d = new TZDate(now.getTime(), timeZone);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Whether `day` is a real calendar day written `YYYY-MM-DD`, from 1970 to 9998: the last day of
 * 9999 ends, west of Greenwich, in the year 10000, an instant the database cannot read.
 */
export function isCalendarDay(day: string): boolean {
  const m = DAY_SHAPE.exec(day);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    y >= 1970 &&
    y <= 9998 &&
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d
  );
}

/** The instants a calendar day (`YYYY-MM-DD`) starts and ends in `timeZone`: `[start, end)`. */
export function dayBounds(day: string, timeZone: string): { start: Date; end: Date } {
  const m = DAY_SHAPE.exec(day);
  if (!m) throw new Error(`not a day: ${day}`);
  const [y, mo, d] = [Number(m[1]), Number(m[2]) - 1, Number(m[3])];
  const start = new TZDate(y, mo, d, 0, 0, 0, 0, timeZone);
  const end = new TZDate(y, mo, d + 1, 0, 0, 0, 0, timeZone);
  return { start: new Date(start.getTime()), end: new Date(end.getTime()) };
}

/**
 * The validity window of a showroom's QR folio: the corporate's calendar day. A poster printed
 * (or shown on a screen) today stops working at midnight, so a photo of an old one is refused.
 */
export function folioDay(now: Date, timeZone: string): string {
  return localDay(now, timeZone);
}

// ---------------------------------------------------------------------------------------------
// The aggregate

export type CheckInEvent =
  | { type: 'CheckedIn'; data: { checkIn: CheckIn } }
  | {
      type: 'CheckedOut';
      data: {
        id: string;
        idUsuario: string;
        idShowroom: string;
        fechaSalida: { _seconds: number };
        motivo: MotivoSalida;
        /** The adviser or a host administrator; null when the expiry ended it ('Sistema'). */
        idUsuarioSalida: string | null;
      };
    };

export type CheckInEventType = CheckInEvent['type'];

export const CHECK_IN_EVENT_TYPES: readonly CheckInEventType[] = ['CheckedIn', 'CheckedOut'];

/** One adviser's check-ins in one corporate: the active one, and the ids of those that ended. */
export interface CheckInState {
  active: CheckIn | null;
  ended: string[];
}

export const initialCheckInState: CheckInState = { active: null, ended: [] };

/** How the check-in is made: by position, or by a QR folio the server verified. */
export type CheckInVia =
  | { tipoRegistro: 'Geolocalizacion'; position: DevicePosition }
  | { tipoRegistro: 'QR'; position: DevicePosition | null };

export type CheckInCommand =
  | {
      type: 'CheckIn';
      id: string;
      idCorporativo: string;
      idUsuario: string;
      /** The corporate's showroom of that id, or null when it has none. */
      showroom: Showroom | null;
      via: CheckInVia;
      now: Date;
    }
  | {
      type: 'CheckOut';
      id: string;
      motivo: MotivoSalida;
      /** Who checks out (null: the expiry timer). */
      by: string | null;
      now: Date;
    };

export type CheckInError =
  | { code: 'SHOWROOM_NOT_FOUND' }
  | { code: 'SHOWROOM_INACTIVE' }
  /** The position is not a possible one (fields named). */
  | { code: 'POSITION_INVALID'; campos: ('latitude' | 'longitude' | 'accuracy')[] }
  /** Outside the showroom's radius: the distance and the radius allowed for that accuracy. */
  | { code: 'CHECK_IN_TOO_FAR'; distanciaKm: number; radioKm: number }
  | { code: 'CHECK_IN_NOT_FOUND' };

export type CheckInDecision = Decision<CheckInEvent, CheckInError>;

/** What a command produces given the adviser's check-ins: events, or why it cannot happen. */
export function decideCheckIn(command: CheckInCommand, state: CheckInState): CheckInDecision {
  switch (command.type) {
    case 'CheckIn': {
      const { via, showroom, now } = command;
      if (via.position) {
        const campos = positionProblems(via.position);
        if (campos.length > 0) return reject({ code: 'POSITION_INVALID', campos });
      }
      // An unknown (or another corporate's) or inactive showroom is refused, checked in or not.
      if (!showroom) return reject({ code: 'SHOWROOM_NOT_FOUND' });
      if (!showroom.activo) return reject({ code: 'SHOWROOM_INACTIVE' });
      const active = state.active;
      // A second check-in while one is active: nothing is written, the active one stands.
      if (active && isCheckInCurrent(active, now)) return accept();
      let distanciaKm: number | undefined;
      if (via.tipoRegistro === 'Geolocalizacion') {
        distanciaKm = distanceKm(showroomPoint(showroom), via.position);
        if (!isWithinShowroom(showroom, via.position))
          return reject({
            code: 'CHECK_IN_TOO_FAR',
            distanciaKm,
            radioKm: showroomRadiusKm(via.position.accuracy),
          });
      }
      const checkIn: CheckIn = {
        id: command.id,
        idCorporativo: command.idCorporativo,
        idUsuario: command.idUsuario,
        check: true,
        idShowroom: showroom.id,
        nombreShowroom: showroom.nombre,
        coordenadas: via.position ? coordinatesOf(via.position) : null,
        tipoRegistro: via.tipoRegistro,
        fechaAlta: { _seconds: epochSeconds(now) },
        checkInActivo: true,
        ...(distanciaKm === undefined ? {} : { distanciaKm }),
      };
      // An active one past its 12 hours whose timer has not run yet ends first, as the timer would.
      const before: CheckInEvent[] = active ? [expiredOut(active)] : [];
      return accept(...before, { type: 'CheckedIn', data: { checkIn } });
    }
    case 'CheckOut': {
      const active = state.active;
      if (!active || active.id !== command.id) {
        if (state.ended.includes(command.id)) return accept();
        return reject({ code: 'CHECK_IN_NOT_FOUND' });
      }
      if (command.motivo === 'expirado') {
        // The timer of a check-in that is not expired yet (it cannot be: it is due after).
        if (!isCheckInExpired(active.fechaAlta._seconds, command.now.getTime() / 1000))
          return accept();
        return accept(expiredOut(active));
      }
      return accept({
        type: 'CheckedOut',
        data: {
          id: active.id,
          idUsuario: active.idUsuario,
          idShowroom: active.idShowroom,
          fechaSalida: { _seconds: epochSeconds(command.now) },
          motivo: 'manual',
          idUsuarioSalida: command.by,
        },
      });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The check-out of an expired check-in: by 'Sistema', at the instant it expired. */
function expiredOut(active: CheckIn): CheckInEvent {
  return {
    type: 'CheckedOut',
    data: {
      id: active.id,
      idUsuario: active.idUsuario,
      idShowroom: active.idShowroom,
      fechaSalida: { _seconds: active.fechaAlta._seconds + CHECK_IN_VALIDITY_SECONDS },
      motivo: 'expirado',
      idUsuarioSalida: null,
    },
  };
}

/** The check-in after a check-out event. */
export function endedCheckIn(
  checkIn: CheckIn,
  out: Extract<CheckInEvent, { type: 'CheckedOut' }>['data'],
): CheckIn {
  return {
    ...checkIn,
    checkInActivo: false,
    fechaSalida: out.fechaSalida,
    motivoSalida: out.motivo,
    idUsuarioSalida: out.idUsuarioSalida,
  };
}

/** The adviser's check-ins after one event (never mutated). */
export function evolveCheckIn(state: CheckInState, event: CheckInEvent): CheckInState {
  switch (event.type) {
    case 'CheckedIn':
      return { ...state, active: event.data.checkIn };
    case 'CheckedOut':
      return state.active?.id === event.data.id
        ? { active: null, ended: [...state.ended, event.data.id] }
        : state;
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The check-in aggregate as a {@link Decider}. */
export const checkInDecider: Decider<CheckInCommand, CheckInState, CheckInEvent, CheckInError> = {
  initialState: initialCheckInState,
  decide: decideCheckIn,
  evolve: evolveCheckIn,
};
