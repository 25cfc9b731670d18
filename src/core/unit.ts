/**
 * The unit aggregate (spec §3 Unit, §4 unit availability): a pure decider over one unit's
 * stream. Inventory administrators change a unit's status and list price; each change names
 * what the user saw on screen (`seen`), so of two concurrent changes one wins and the other is
 * told the unit moved on (`UNIT_STALE`, with the current unit) instead of overwriting it. That
 * keeps the history a chain: every change's `from` is the previous change's `to`.
 *
 * The events' `data` are the wire format of the unit streams (projections and seeded logs read
 * them): `UnitListed { unit }`, `UnitStatusChanged { idUnidad, from, to }`,
 * `UnitPriceChanged { idUnidad, from, to }`, and the hold's `UnitHeld`, `UnitHoldExtended`,
 * `UnitHoldReleased`.
 *
 * A hold ("apartado"): an adviser holds an available unit for one of their leads until a time
 * (`hastaEn`); the unit shows 'Apartado'. The hold ends by hand (`ReleaseHold` 'manual'), by
 * itself at `hastaEn` (`ReleaseHold` 'expired', sent by a timer: a hold extended meanwhile is
 * not released), or when the unit's status changes away from 'Apartado' (a sale, a
 * reservation): `UnitStatusChanged` clears it.
 */

import { accept, reject, type Decider, type Decision } from './decider';
import { UNIT_STATUSES, type Corporate, type StatusColors, type Unit } from './types';

/** How long a hold lasts when the corporate does not say (`horasApartado`). */
export const DEFAULT_HOLD_HOURS = 48;

/** The corporate's hold time in hours: its `horasApartado` when a positive number, else 48. */
export function holdHoursOf(corporate: Pick<Corporate, 'horasApartado'>): number {
  const hours = corporate.horasApartado;
  return typeof hours === 'number' && Number.isFinite(hours) && hours > 0
    ? hours
    : DEFAULT_HOLD_HOURS;
}

/** When a hold made at `now` ends for a corporate that holds units `hours` hours. */
export function holdEndsAt(now: Date, hours: number): Date {
  return new Date(now.getTime() + Math.round(hours * 3_600_000));
}

export type UnitEvent =
  | { type: 'UnitListed'; data: { unit: Unit } }
  | {
      type: 'UnitStatusChanged';
      /** `from` is null for a unit listed without a status. */
      data: { idUnidad: string; from: string | null; to: string };
    }
  | { type: 'UnitPriceChanged'; data: { idUnidad: string; from: number; to: number } }
  | {
      type: 'UnitHeld';
      data: {
        idUnidad: string;
        idLead: string;
        idVendedor: string;
        /** ISO time the hold started. */
        desde: string;
        /** ISO time the hold ends by itself. */
        hastaEn: string;
        from: string;
        to: typeof HELD_STATUS;
      };
    }
  | {
      type: 'UnitHoldExtended';
      data: { idUnidad: string; idLead: string; hastaAnterior: string; hastaEn: string };
    }
  | {
      type: 'UnitHoldReleased';
      data: {
        idUnidad: string;
        idLead: string;
        idVendedor: string;
        motivo: HoldReleaseReason;
        from: typeof HELD_STATUS;
        to: typeof RELEASED_STATUS;
      };
    };

/** The status of a held unit, and the one it goes back to when the hold ends (spec §4). */
export const HELD_STATUS = 'Apartado';
export const RELEASED_STATUS = 'Disponible';

/** Why a hold ended: by hand (the holder or a manager) or by itself at its time. */
export type HoldReleaseReason = 'manual' | 'expired';

/** A unit's hold: for which lead, by which adviser, since and until when (ISO times). */
export interface UnitHold {
  idLead: string;
  idVendedor: string;
  desde: string;
  hastaEn: string;
}

export type UnitEventType = UnitEvent['type'];

export const UNIT_EVENT_TYPES: readonly UnitEventType[] = [
  'UnitListed',
  'UnitStatusChanged',
  'UnitPriceChanged',
  'UnitHeld',
  'UnitHoldExtended',
  'UnitHoldReleased',
];

/** The aggregate's state: the unit (null before it is listed) and its hold, if any. */
export interface UnitState {
  unit: Unit | null;
  hold: UnitHold | null;
}

export const initialUnitState: UnitState = { unit: null, hold: null };

export type UnitCommand =
  | {
      type: 'ListUnit';
      unit: Unit;
      /** Statuses the unit may be listed with; {@link UNIT_STATUSES} when absent. */
      validStatuses?: readonly string[];
    }
  | {
      type: 'ChangeUnitStatus';
      to: string;
      /** The status the user saw on screen (null: the unit showed none). */
      seen: string | null;
      /** Statuses a unit may take; {@link UNIT_STATUSES} when absent (see {@link validUnitStatuses}). */
      validStatuses?: readonly string[];
    }
  | {
      type: 'ChangeUnitPrice';
      /** The new list price in major units (cents allowed). */
      to: number;
      /** The price the user saw on screen. */
      seen: number;
    }
  | {
      type: 'HoldUnit';
      idLead: string;
      idVendedor: string;
      now: Date;
      /** When the hold ends by itself (the corporate's hold time after `now`). */
      hastaEn: Date;
      /** The status the user saw on screen. */
      seen: string | null;
    }
  | { type: 'ExtendHold'; hastaEn: Date; now: Date }
  | { type: 'ReleaseHold'; now: Date; motivo: HoldReleaseReason };

export type UnitError =
  | { code: 'UNIT_NOT_FOUND' }
  | { code: 'UNIT_EXISTS' }
  /** What the user saw is no longer the unit's: `current` is the unit as it is now. */
  | { code: 'UNIT_STALE'; current: Unit }
  | { code: 'UNIT_STATUS_INVALID'; status: string }
  | { code: 'UNIT_PRICE_INVALID'; precio: number }
  /** A hold needs a 'Disponible' unit: `current` is the unit as it is now. */
  | { code: 'UNIT_NOT_AVAILABLE'; current: Unit }
  /** There is no hold to extend. */
  | { code: 'UNIT_NOT_HELD' }
  /** A hold must end after it starts. */
  | { code: 'UNIT_HOLD_INVALID' };

export type UnitDecision = Decision<UnitEvent, UnitError>;

/** The highest list price a unit may have (as the inventory routes and the CSV import). */
export const UNIT_PRICE_MAX = 10_000_000_000;

/**
 * A valid list price in major units, from 0 to {@link UNIT_PRICE_MAX}, with at most cents (the
 * administrator's price field takes `4,350,000.50`).
 */
export function isValidUnitPrice(precio: number): boolean {
  if (!Number.isFinite(precio) || precio < 0 || precio > UNIT_PRICE_MAX) return false;
  const cents = precio * 100;
  return Math.abs(cents - Math.round(cents)) < 1e-6;
}

/**
 * The statuses a unit of a corporate may take: the spec §4 statuses plus any the corporate's
 * (or development's) status colours configure (e.g. 'FRACTIONAL'), each once.
 */
export function validUnitStatuses(...statusColors: (StatusColors | undefined)[]): string[] {
  const all = new Set<string>(UNIT_STATUSES);
  for (const colors of statusColors) {
    for (const status of Object.keys(colors ?? {})) all.add(status);
  }
  return [...all];
}

const isValidStatus = (status: string, valid: readonly string[] = UNIT_STATUSES) =>
  status.trim() !== '' && valid.includes(status);

/**
 * What a command produces given the unit's state. A change to the value the unit already has
 * produces no events whatever the user saw (so a retried request succeeds); otherwise what the
 * user saw must still hold, else `UNIT_STALE`.
 */
export function decideUnit(command: UnitCommand, state: UnitState): UnitDecision {
  if (command.type === 'ListUnit') {
    if (state.unit) return reject({ code: 'UNIT_EXISTS' });
    const { unit } = command;
    if (unit.status !== undefined && !isValidStatus(unit.status, command.validStatuses))
      return reject({ code: 'UNIT_STATUS_INVALID', status: unit.status });
    if (!isValidUnitPrice(unit.precio))
      return reject({ code: 'UNIT_PRICE_INVALID', precio: unit.precio });
    return accept({ type: 'UnitListed', data: { unit } });
  }
  const unit = state.unit;
  if (!unit) return reject({ code: 'UNIT_NOT_FOUND' });
  switch (command.type) {
    case 'ChangeUnitStatus': {
      if (!isValidStatus(command.to, command.validStatuses))
        return reject({ code: 'UNIT_STATUS_INVALID', status: command.to });
      const current = unit.status ?? null;
      if (command.to === current) return accept();
      if (command.seen !== current) return reject({ code: 'UNIT_STALE', current: unit });
      return accept({
        type: 'UnitStatusChanged',
        data: { idUnidad: unit.id, from: current, to: command.to },
      });
    }
    case 'ChangeUnitPrice': {
      if (!isValidUnitPrice(command.to))
        return reject({ code: 'UNIT_PRICE_INVALID', precio: command.to });
      if (command.to === unit.precio) return accept();
      if (command.seen !== unit.precio) return reject({ code: 'UNIT_STALE', current: unit });
      return accept({
        type: 'UnitPriceChanged',
        data: { idUnidad: unit.id, from: unit.precio, to: command.to },
      });
    }
    case 'HoldUnit':
      return decideHold(command, unit, state.hold);
    case 'ExtendHold': {
      const hold = state.hold;
      if (!hold) return reject({ code: 'UNIT_NOT_HELD' });
      if (command.hastaEn.getTime() <= command.now.getTime())
        return reject({ code: 'UNIT_HOLD_INVALID' });
      const hastaEn = command.hastaEn.toISOString();
      if (hastaEn === hold.hastaEn) return accept();
      return accept({
        type: 'UnitHoldExtended',
        data: { idUnidad: unit.id, idLead: hold.idLead, hastaAnterior: hold.hastaEn, hastaEn },
      });
    }
    case 'ReleaseHold': {
      const hold = state.hold;
      // Nothing to release (released already, or cleared by a sale): a repeat is a no-op.
      if (!hold) return accept();
      // The timer of a hold that was extended meanwhile: the hold is not over yet.
      if (command.motivo === 'expired' && Date.parse(hold.hastaEn) > command.now.getTime())
        return accept();
      return accept({
        type: 'UnitHoldReleased',
        data: {
          idUnidad: unit.id,
          idLead: hold.idLead,
          idVendedor: hold.idVendedor,
          motivo: command.motivo,
          from: HELD_STATUS,
          to: RELEASED_STATUS,
        },
      });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

function decideHold(
  command: Extract<UnitCommand, { type: 'HoldUnit' }>,
  unit: Unit,
  hold: UnitHold | null,
): UnitDecision {
  // A retried request of the hold that already stands succeeds without a second event.
  if (hold && hold.idLead === command.idLead && hold.idVendedor === command.idVendedor)
    return accept();
  const current = unit.status ?? null;
  if (current !== RELEASED_STATUS) return reject({ code: 'UNIT_NOT_AVAILABLE', current: unit });
  if (command.seen !== current) return reject({ code: 'UNIT_STALE', current: unit });
  if (command.hastaEn.getTime() <= command.now.getTime())
    return reject({ code: 'UNIT_HOLD_INVALID' });
  return accept({
    type: 'UnitHeld',
    data: {
      idUnidad: unit.id,
      idLead: command.idLead,
      idVendedor: command.idVendedor,
      desde: command.now.toISOString(),
      hastaEn: command.hastaEn.toISOString(),
      from: current,
      to: HELD_STATUS,
    },
  });
}

/** The unit after one event (state is never mutated). */
export function evolveUnit(state: UnitState, event: UnitEvent): UnitState {
  switch (event.type) {
    case 'UnitListed':
      return { ...state, unit: { ...event.data.unit } };
    case 'UnitStatusChanged':
      // A sale, a reservation or any move away from 'Apartado' ends the hold.
      return state.unit
        ? {
            unit: { ...state.unit, status: event.data.to },
            hold: event.data.to === HELD_STATUS ? state.hold : null,
          }
        : state;
    case 'UnitPriceChanged':
      return state.unit ? { ...state, unit: { ...state.unit, precio: event.data.to } } : state;
    case 'UnitHeld': {
      const { idLead, idVendedor, desde, hastaEn, to } = event.data;
      return state.unit
        ? { unit: { ...state.unit, status: to }, hold: { idLead, idVendedor, desde, hastaEn } }
        : state;
    }
    case 'UnitHoldExtended':
      return state.hold
        ? { ...state, hold: { ...state.hold, hastaEn: event.data.hastaEn } }
        : state;
    case 'UnitHoldReleased':
      return state.unit
        ? { unit: { ...state.unit, status: event.data.to }, hold: null }
        : { ...state, hold: null };
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The unit aggregate as a {@link Decider}. */
export const unitDecider: Decider<UnitCommand, UnitState, UnitEvent, UnitError> = {
  initialState: initialUnitState,
  decide: decideUnit,
  evolve: evolveUnit,
};
