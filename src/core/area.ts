/**
 * Areas (spec §9): stored in m², shown in m² (default) or ft², two decimals.
 */

import type { SquareFeet, SquareMeters } from './brands';

/** 1 m² = 10.7639 ft² (spec §9). */
export const SQUARE_FEET_PER_SQUARE_METER = 10.7639;

/** The units an area can be shown in. */
export type AreaUnit = 'm2' | 'ft2';

/** Spec §3 local storage: the unit of measurement defaults to m². */
export const DEFAULT_AREA_UNIT: AreaUnit = 'm2';

/** Rounded to two decimals, half away from zero. */
function round2(x: number): number {
  const r = (Math.sign(x) * Math.round(Math.abs(x) * 100)) / 100;
  return r === 0 ? 0 : r;
}

/** An area from a number of square metres. */
export function squareMeters(value: number): SquareMeters {
  return value as SquareMeters;
}

/** m² to ft², two decimals. */
export function areaToSquareFeet(area: SquareMeters | number): SquareFeet {
  return round2(area * SQUARE_FEET_PER_SQUARE_METER) as SquareFeet;
}

/** ft² to m², two decimals. */
export function squareFeetToArea(area: SquareFeet | number): SquareMeters {
  return round2(area / SQUARE_FEET_PER_SQUARE_METER) as SquareMeters;
}

/** The area in the requested unit, two decimals. */
export function areaIn(area: SquareMeters | number, unit: AreaUnit): number {
  return unit === 'ft2' ? areaToSquareFeet(area) : round2(area);
}

/**
 * `'1,234.50 m²'` or `'13,288.04 ft²'`: two decimals, thousands commas, the unit's symbol.
 */
export function formatArea(
  area: SquareMeters | number,
  unit: AreaUnit = DEFAULT_AREA_UNIT,
): string {
  const value = areaIn(area, unit);
  const [whole = '0', frac = '00'] = Math.abs(value).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${value < 0 ? '-' : ''}${grouped}.${frac} ${unit === 'ft2' ? 'ft²' : 'm²'}`;
}
