/**
 * The availability filters as search params (`…/disponibilidad?recamaras=[2,4]&precioMax=3000000&divisa=MXN`),
 * so a reload, the back and forward buttons and a shared link keep them. The names are the filter
 * form's (core `UnitFilters`'); a price is in the currency the page showed (`divisa`) and an area
 * in the unit it showed (`unidadArea`), as typed, so a link opened by someone who chose another
 * currency or unit keeps its meaning (utils/filter-form.ts `searchInDisplay` converts it). A link
 * without them is in the currency and unit of whoever opens it. A malformed value is no filter,
 * never an error.
 *
 * Written by hand, not with a schema library, and importing nothing: the routes' search
 * validation is in the router's main chunk, which every page loads.
 */

/** A count criterion's 4 means "4 or more" (core/filters `OR_MORE_VALUE`). */
export const BEDROOM_OPTIONS = [1, 2, 3, 4];
export const BATHROOM_OPTIONS = [1, 1.5, 2, 2.5, 3, 3.5, 4];
export const PARKING_OPTIONS = [1, 2, 3, 4];

export interface FilterSearch {
  recamaras?: number[] | undefined;
  banios?: number[] | undefined;
  cajones?: number[] | undefined;
  precioMin?: number | undefined;
  precioMax?: number | undefined;
  areaMin?: number | undefined;
  areaMax?: number | undefined;
  idPrototipo?: string[] | undefined;
  status?: string[] | undefined;
  /** The currency code `precioMin` and `precioMax` are in (written with them). */
  divisa?: string | undefined;
  /** The unit `areaMin` and `areaMax` are in (written with them). */
  unidadArea?: 'm2' | 'ft2' | undefined;
}

const MAX_ITEMS = 50;
const ID = /^[\w-]{1,64}$/;
const MAX_STATUS = 120;
const CURRENCY_CODE = /^[A-Z]{3}$/;

/** A value or a list of them (`?status=Disponible` is one), as a list. */
function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value.slice(0, MAX_ITEMS) : value === undefined ? [] : [value];
}

/** The chosen options among `options`, each once and in order; none is no criterion. */
function counts(value: unknown, options: readonly number[]): number[] | undefined {
  const chosen = options.filter((o) => list(value).some((v) => Number(v) === o));
  return chosen.length > 0 ? chosen : undefined;
}

/** A bound: a number of zero or more (the router reads `?precioMin=2000000` as one). */
function bound(value: unknown): number | undefined {
  if (typeof value === 'string' && value.trim() === '') return undefined;
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/** Texts that pass `valid`, each once, sorted; none is no criterion. */
function texts(value: unknown, valid: (text: string) => boolean): string[] | undefined {
  const kept = [
    ...new Set(
      list(value)
        .map((v) => (typeof v === 'number' ? String(v) : v))
        .filter((v): v is string => typeof v === 'string' && valid(v)),
    ),
  ].sort();
  return kept.length > 0 ? kept : undefined;
}

/**
 * The filters of a search: every key, `undefined` when absent or malformed (the router spreads a
 * route's validated search over its parent's raw one, so a key left out would come back
 * unchecked).
 */
export function validateFilterSearch(search: Record<string, unknown>): FilterSearch {
  return {
    recamaras: counts(search.recamaras, BEDROOM_OPTIONS),
    banios: counts(search.banios, BATHROOM_OPTIONS),
    cajones: counts(search.cajones, PARKING_OPTIONS),
    precioMin: bound(search.precioMin),
    precioMax: bound(search.precioMax),
    areaMin: bound(search.areaMin),
    areaMax: bound(search.areaMax),
    idPrototipo: texts(search.idPrototipo, (t) => ID.test(t)),
    status: texts(search.status, (t) => t.trim().length > 0 && t.length <= MAX_STATUS),
    divisa:
      typeof search.divisa === 'string' && CURRENCY_CODE.test(search.divisa)
        ? search.divisa
        : undefined,
    unidadArea:
      search.unidadArea === 'm2' || search.unidadArea === 'ft2' ? search.unidadArea : undefined,
  };
}

/** The same filters say the same text, whatever their order or absent keys. */
export function filterSearchKey(f: FilterSearch): string {
  return JSON.stringify(validateFilterSearch({ ...f }));
}
