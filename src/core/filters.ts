/**
 * Unit filters and the listing rules of spec §5.
 */

import { isFractionalUnit, isPriceVisible, isUnitPriced } from './status';
import type { Corporate, Development, Prototype, StatusColors, Unit } from './types';

/**
 * What the adviser selected in the availability filters. Empty lists and absent bounds mean
 * "no criterion". Prices are in the unit's major currency units (like `Unit.precio`), areas in
 * square metres (like `metrajes.areaTotal`).
 */
export interface UnitFilters {
  recamaras: number[];
  banios: number[];
  cajones: number[];
  precioMin?: number;
  precioMax?: number;
  areaMin?: number;
  areaMax?: number;
  idPrototipo?: string[];
  status?: string[];
}

/** The corporate settings the filters depend on. Plain data, so it crosses to the worker. */
export interface FilterContext {
  statusColors: StatusColors;
  /** `corporate.configFiltros.ocultarPrecioUnidadesNoDisponibles`. */
  hideUnavailablePrices: boolean;
}

/** A selected count of 4 means "4 or more" (spec §5, §9). */
export const OR_MORE_VALUE = 4;

/** No criteria: every unit matches. */
export function emptyUnitFilters(): UnitFilters {
  return { recamaras: [], banios: [], cajones: [] };
}

/**
 * The filter context of a development: its own status colours when it has them, else the
 * corporate's.
 */
export function filterContextFor(
  corporate: Pick<Corporate, 'coloresStatus' | 'configFiltros'>,
  development?: Pick<Development, 'coloresStatus'>,
): FilterContext {
  return {
    statusColors: development?.coloresStatus ?? corporate.coloresStatus,
    hideUnavailablePrices: corporate.configFiltros.ocultarPrecioUnidadesNoDisponibles === true,
  };
}

/** Bathrooms as the filters count them: half-baths add 0.5 (spec §5). */
export function bathroomCount(features: Unit['caracteristicas']): number {
  return features.banios + 0.5 * (features.baniosMedios || 0);
}

/**
 * A count criterion: matches when nothing is selected, or the value equals a selected item,
 * where a selected 4 matches 4 or more.
 */
export function countMatches(value: number, selected: readonly number[]): boolean {
  if (selected.length === 0) return true;
  for (const s of selected) {
    if (s === OR_MORE_VALUE ? value >= OR_MORE_VALUE : value === s) return true;
  }
  return false;
}

function hasPriceRange(f: UnitFilters): boolean {
  return f.precioMin !== undefined || f.precioMax !== undefined;
}

function inRange(value: number, min: number | undefined, max: number | undefined): boolean {
  return (min === undefined || value >= min) && (max === undefined || value <= max);
}

/**
 * Whether a unit passes the filters (spec §5):
 * - bedrooms, bathrooms (`banios + 0.5 × baniosMedios`) and parking: empty selection or an
 *   equal item, 4 meaning 4+;
 * - prototype and status lists: empty or containing the unit's value;
 * - price: within min and max inclusive; with a price criterion a unit must also count as
 *   priced ({@link isUnitPriced}), except fractional units, which are excluded from that
 *   priced check;
 * - area (`metrajes.areaTotal`): matches when min equals max, or within the range;
 * - when the corporate hides the prices of unavailable units, the range criteria (price and
 *   area) are ignored for units whose price is hidden.
 */
export function unitMatchesFilters(unit: Unit, filters: UnitFilters, ctx: FilterContext): boolean {
  const c = unit.caracteristicas;
  if (!countMatches(c.recamaras, filters.recamaras)) return false;
  if (filters.banios.length > 0 && !countMatches(bathroomCount(c), filters.banios)) return false;
  if (!countMatches(c.cajones, filters.cajones)) return false;
  const protos = filters.idPrototipo;
  if (protos !== undefined && protos.length > 0 && !protos.includes(unit.idPrototipo)) {
    return false;
  }
  const statuses = filters.status;
  if (statuses !== undefined && statuses.length > 0 && !statuses.includes(unit.status ?? '')) {
    return false;
  }

  const priceCriterion = hasPriceRange(filters);
  const areaCriterion = filters.areaMin !== undefined || filters.areaMax !== undefined;
  if (!priceCriterion && !areaCriterion) return true;
  if (ctx.hideUnavailablePrices && !isPriceVisible(unit, ctx.statusColors)) return true;

  if (priceCriterion) {
    if (
      !isFractionalUnit(unit) &&
      !isUnitPriced(unit, ctx.statusColors, ctx.hideUnavailablePrices)
    ) {
      return false;
    }
    if (!inRange(unit.precio, filters.precioMin, filters.precioMax)) return false;
  }
  if (areaCriterion && filters.areaMin !== filters.areaMax) {
    if (!inRange(unit.metrajes.areaTotal, filters.areaMin, filters.areaMax)) return false;
  }
  return true;
}

/**
 * Whether a unit passes the filters only because the corporate hides its price: there is a
 * range criterion (price or area), and the unit's hidden price made {@link unitMatchesFilters}
 * skip it. The availability says how many of the matches these are ("n coinciden; m más sin
 * precio visible"; issue 19, defect 3) instead of counting sold and blocked units as matches.
 */
export function matchesOnlyWithHiddenPrice(
  unit: Unit,
  filters: UnitFilters,
  ctx: FilterContext,
): boolean {
  const range =
    hasPriceRange(filters) || filters.areaMin !== undefined || filters.areaMax !== undefined;
  if (!range || !ctx.hideUnavailablePrices || isPriceVisible(unit, ctx.statusColors)) return false;
  return unitMatchesFilters(unit, filters, ctx);
}

/** What is wrong with a typed range: a bound that is not a number, or min above max. */
export type RangeProblem = 'notNumber' | 'minOverMax';

/**
 * Checks a range as typed (thousands separators, spaces and `$` allowed): null when both bounds
 * are empty or numbers with min ≤ max.
 */
export function rangeProblem(min: string, max: string): RangeProblem | null {
  const parse = (text: string): number | null | undefined => {
    if (text.trim() === '') return undefined;
    const v = Number(text.replace(/[,\s$]/g, ''));
    return Number.isFinite(v) ? v : null;
  };
  const lo = parse(min);
  const hi = parse(max);
  if (lo === null || hi === null) return 'notNumber';
  if (lo !== undefined && hi !== undefined && lo > hi) return 'minOverMax';
  return null;
}

/** The units that pass the filters, in their original order. */
export function filterUnits(
  units: readonly Unit[],
  filters: UnitFilters,
  ctx: FilterContext,
): Unit[] {
  return units.filter((u) => unitMatchesFilters(u, filters, ctx));
}

/**
 * Indexes (into `units`) of the units that pass the filters, as a compact typed array that can
 * be transferred between threads.
 */
export function filterUnitIndexes(
  units: readonly Unit[],
  filters: UnitFilters,
  ctx: FilterContext,
): Uint32Array {
  const out = new Uint32Array(units.length);
  let n = 0;
  for (let i = 0; i < units.length; i++) {
    if (unitMatchesFilters(units[i]!, filters, ctx)) out[n++] = i;
  }
  return out.slice(0, n);
}

/**
 * Spec §5: a signed-in user sees units with no status, or with status Disponible that are
 * not fractional.
 */
export function isUnitListedForSignedInUser(unit: Pick<Unit, 'status' | 'categoria'>): boolean {
  if (unit.status === undefined || unit.status === null || unit.status === '') return true;
  return unit.status === 'Disponible' && !isFractionalUnit(unit);
}

/** Units listed for a signed-in user ({@link isUnitListedForSignedInUser}). */
export function unitsListedForSignedInUser<U extends Pick<Unit, 'status' | 'categoria'>>(
  units: readonly U[],
): U[] {
  return units.filter(isUnitListedForSignedInUser);
}

/** Developments shown in the app: `enApp` only, sorted by `orden` (stable). */
export function developmentsForApp<D extends Pick<Development, 'enApp' | 'orden'>>(
  developments: readonly D[],
): D[] {
  return developments.filter((d) => d.enApp).sort((a, b) => a.orden - b.orden);
}

/**
 * The development's rent price: the minimum `precioRenta` over units whose `precioRenta` is a
 * finite number; `undefined` when none has one.
 */
export function rentPrice(units: readonly Pick<Unit, 'precioRenta'>[]): number | undefined {
  let min: number | undefined;
  for (const u of units) {
    const p = u.precioRenta;
    if (typeof p === 'number' && Number.isFinite(p) && (min === undefined || p < min)) min = p;
  }
  return min;
}

/**
 * Spec §4: when clusters load, unit prices are recomputed from the matching prototype
 * (`idPrototipo`). Read with the product's data: a unit without its own price (`precio` 0 or
 * absent) takes its prototype's price; a unit with its own price keeps it (a per-unit premium —
 * a view, a corner — is a fact of the product, not an error to overwrite). A unit whose
 * prototype is missing or has no price keeps what it has. Returns new objects for the changed
 * units; the input is not changed. The server applies it to every read that prices a unit
 * (catalogue/queries.ts `loadUnitsPriced`, `findUnitPriced`), so the grid, the quotation and the
 * saved quotation's `precioEnCotizacion` agree.
 */
export function recomputePricesFromPrototypes<U extends Pick<Unit, 'idPrototipo' | 'precio'>>(
  units: readonly U[],
  prototypes: readonly Pick<Prototype, 'id' | 'precio'>[],
): U[] {
  const prices = new Map<string, number>();
  for (const p of prototypes) {
    if (Number.isFinite(p.precio) && p.precio > 0) prices.set(p.id, p.precio);
  }
  return units.map((u) => {
    if (hasOwnPrice(u)) return u;
    const precio = prices.get(u.idPrototipo);
    return precio === undefined ? u : { ...u, precio };
  });
}

/** A unit's own price: a finite number above 0 (0 or absent means "the prototype's"). */
export function hasOwnPrice(unit: Pick<Unit, 'precio'>): boolean {
  const p = (unit as { precio?: unknown }).precio;
  return typeof p === 'number' && Number.isFinite(p) && p > 0;
}

/**
 * "Price from": the lowest price greater than 0 among units whose price is visible;
 * `undefined` when no unit qualifies.
 */
export function priceFrom(
  units: readonly Pick<Unit, 'precio' | 'status'>[],
  statusColors: StatusColors,
): number | undefined {
  let min: number | undefined;
  for (const u of units) {
    if (u.precio > 0 && isPriceVisible(u, statusColors) && (min === undefined || u.precio < min)) {
      min = u.precio;
    }
  }
  return min;
}
