/**
 * Unit availability statuses and what each allows (spec §4).
 */

import type {
  Corporate,
  Development,
  StatusColorEntry,
  StatusColors,
  Unit,
  UnitStatus,
} from './types';

/** The spec's colour names for the eight statuses (§4 table). */
export type StatusColorName = 'green' | 'yellow' | 'gray' | 'red' | 'yellow-green' | 'dark gray';

/** Default presentation of a status when the corporate configures nothing better. */
export interface StatusDefault {
  colorName: StatusColorName;
  hexColor: string;
  esCotizable: boolean;
  esPrecioVisible: boolean;
}

/** The spec §4 table: only Disponible is quotable and shows its price. */
export const STATUS_DEFAULTS: Readonly<Record<UnitStatus, StatusDefault>> = {
  Disponible: { colorName: 'green', hexColor: '#2E9E44', esCotizable: true, esPrecioVisible: true },
  Apartado: {
    colorName: 'yellow',
    hexColor: '#F2C200',
    esCotizable: false,
    esPrecioVisible: false,
  },
  Bloqueado: { colorName: 'gray', hexColor: '#9E9E9E', esCotizable: false, esPrecioVisible: false },
  Reservado: { colorName: 'red', hexColor: '#D32F2F', esCotizable: false, esPrecioVisible: false },
  Vendido: { colorName: 'red', hexColor: '#D32F2F', esCotizable: false, esPrecioVisible: false },
  'No Disponible': {
    colorName: 'red',
    hexColor: '#D32F2F',
    esCotizable: false,
    esPrecioVisible: false,
  },
  Incompleto: {
    colorName: 'yellow-green',
    hexColor: '#9ACD32',
    esCotizable: false,
    esPrecioVisible: false,
  },
  'Sin Estatus': {
    colorName: 'dark gray',
    hexColor: '#555555',
    esCotizable: false,
    esPrecioVisible: false,
  },
};

/**
 * The second cue, besides colour, of the statuses the spec paints alike (§4: Reservado, Vendido
 * and No Disponible are all red): WCAG 1.4.1 asks that status is not told by colour alone. The
 * grid and its legend draw the same mark for the same status.
 */
export type StatusMark = 'reserved' | 'sold' | 'unavailable';

const STATUS_MARKS: Readonly<Partial<Record<string, StatusMark>>> = {
  Reservado: 'reserved',
  Vendido: 'sold',
  'No Disponible': 'unavailable',
};

/** The mark of a unit status, or null for a status told apart by its colour (and label). */
export function statusMark(status: string | undefined): StatusMark | null {
  return status !== undefined && Object.hasOwn(STATUS_MARKS, status)
    ? (STATUS_MARKS[status] ?? null)
    : null;
}

/** What the screens need to know about a unit's status. */
export interface StatusInfo {
  hexColor: string;
  disponibilidad: string;
  esCotizable: boolean;
  esPrecioVisible: boolean;
}

/**
 * Used when the corporate has no entry for a status. The spec states two readings; we take
 * the strict one (white, 'Sin estatus', not quotable, price hidden) so that an unconfigured
 * status never exposes a price or lets a unit be quoted.
 */
export const ABSENT_STATUS_INFO: Readonly<StatusInfo> = {
  hexColor: '#FFFFFF',
  disponibilidad: 'Sin estatus',
  esCotizable: false,
  esPrecioVisible: false,
};

/** The status a unit is stored with when it is fractional (spec §5). */
export const FRACTIONAL_STATUS = 'FRACTIONAL';
/** The category a fractional unit is stored with (spec §5). */
export const FRACTION_CATEGORY = 'Fraction';

function entryFor(
  status: string | undefined,
  statusColors: StatusColors,
): StatusColorEntry | undefined {
  // Own properties only: a status named 'constructor' must not find Object.prototype.
  if (status === undefined || !Object.hasOwn(statusColors, status)) return undefined;
  return statusColors[status];
}

/**
 * The colour, label and permissions of a status, read from the corporate's (or the
 * development's) status-colour map; {@link ABSENT_STATUS_INFO} when the map has no entry.
 */
export function statusInfo(status: string | undefined, statusColors: StatusColors): StatusInfo {
  const entry = entryFor(status, statusColors);
  if (entry === undefined) return { ...ABSENT_STATUS_INFO };
  return {
    hexColor: entry.color.hexColor,
    disponibilidad: entry.disponibilidad,
    esCotizable: entry.esCotizable,
    esPrecioVisible: entry.esPrecioVisible,
  };
}

/** The status colours that apply in a development: its own when it has any, else the corporate's. */
export function effectiveStatusColors(
  corporate: Pick<Corporate, 'coloresStatus'>,
  development?: Pick<Development, 'coloresStatus'> | null,
): StatusColors {
  const own = development?.coloresStatus;
  return own && Object.keys(own).length > 0 ? own : corporate.coloresStatus;
}

/** Whether the unit may be quoted: its status entry says `esCotizable`. */
export function isUnitQuotable(unit: Pick<Unit, 'status'>, statusColors: StatusColors): boolean {
  return entryFor(unit.status, statusColors)?.esCotizable ?? false;
}

/** Whether the unit's price may be shown: its status entry says `esPrecioVisible`. */
export function isPriceVisible(unit: Pick<Unit, 'status'>, statusColors: StatusColors): boolean {
  return entryFor(unit.status, statusColors)?.esPrecioVisible ?? false;
}

/**
 * Spec §5: a unit counts as priced when `precio > 0`, or — when the corporate hides the
 * prices of unavailable units — when its price is visible.
 */
export function isUnitPriced(
  unit: Pick<Unit, 'status' | 'precio'>,
  statusColors: StatusColors,
  pricesHidden: boolean,
): boolean {
  return unit.precio > 0 || (pricesHidden && isPriceVisible(unit, statusColors));
}

/** A fractional unit: `categoria` 'Fraction' or status 'FRACTIONAL' (spec §5). */
export function isFractionalUnit(unit: Pick<Unit, 'status' | 'categoria'>): boolean {
  return unit.categoria === FRACTION_CATEGORY || unit.status === FRACTIONAL_STATUS;
}

/**
 * A status-colour map built from the spec §4 table, for corporates that configure none
 * (and for tests and seeds).
 */
export function defaultStatusColors(): StatusColors {
  const colors: StatusColors = {};
  for (const [status, d] of Object.entries(STATUS_DEFAULTS)) {
    colors[status] = {
      color: { hexColor: d.hexColor },
      disponibilidad: status,
      esCotizable: d.esCotizable,
      esPrecioVisible: d.esPrecioVisible,
    };
  }
  return colors;
}
