/**
 * The filter form's state, kept in the address (`utils/filter-search.ts`), and its translation
 * into the core's `UnitFilters` (spec §5): prices typed in the chosen currency go back to the
 * unit's currency, areas typed in ft² back to m².
 *
 * A price bound is compared with the price as shown: the screens show whole units of the chosen
 * currency, so a unit shown at exactly the typed bound matches it, whichever way the exact
 * conversion falls (at USD 18.5, 2,650,000 MXN shows as $143,243 USD and is 143,243.24 USD).
 */

import { useState } from 'react';
import type { UnitFilters } from '../../../../core/filters';
import { areaToSquareFeet, squareFeetToArea } from '../../../../core/area';
import { findCurrency } from '../../../../core/currency';
import { displayedPrice, priceFromDisplay, type Display } from '../../../lib/figures';
import { filterSearchKey, type FilterSearch } from './filter-search';
import type { SearchChange } from './unit-search';

export interface FilterForm {
  recamaras: number[];
  banios: number[];
  cajones: number[];
  /** In the chosen currency, as typed. */
  precioMin: string;
  precioMax: string;
  /** In the chosen area unit, as typed. */
  areaMin: string;
  areaMax: string;
  idPrototipo: string[];
  status: string[];
}

export const EMPTY_FORM: FilterForm = {
  recamaras: [],
  banios: [],
  cajones: [],
  precioMin: '',
  precioMax: '',
  areaMin: '',
  areaMax: '',
  idPrototipo: [],
  status: [],
};

function number(text: string): number | undefined {
  const v = Number(text.replace(/[,\s$]/g, ''));
  return text.trim() === '' || !Number.isFinite(v) ? undefined : v;
}

/**
 * The amounts in `currency` split by whether their shown price passes `passes`: the last amount
 * that passes and the first that fails, two neighbouring numbers. `passes` holds for 0 and fails
 * from some amount on, because shown prices only grow with the amount, so bisection finds the
 * boundary exactly whatever the rates and the rounding. Undefined when no amount up to
 * `Number.MAX_SAFE_INTEGER` fails (no real price is that high).
 */
function shownPriceBoundary(
  passes: (shown: number) => boolean,
  start: number,
  display: Display,
  currency: string | undefined,
): [number, number] | undefined {
  const amountPasses = (amount: number) => passes(displayedPrice(amount, display, currency));
  let low = 0;
  let high = Math.max(1, start);
  while (amountPasses(high)) {
    low = high;
    high *= 2;
    if (high > Number.MAX_SAFE_INTEGER) return undefined;
  }
  for (;;) {
    const middle = low + (high - low) / 2;
    if (middle <= low || middle >= high) return [low, high];
    if (amountPasses(middle)) low = middle;
    else high = middle;
  }
}

/**
 * The lowest amount in `currency` (the unit's) shown at `typed` or more: a minimum typed in the
 * chosen currency.
 */
export function priceMinFromDisplay(typed: number, display: Display, currency?: string): number {
  const exact = priceFromDisplay(typed, display, currency);
  // 0 already shows at the bound or more: every price passes.
  if (displayedPrice(0, display, currency) >= typed) return Math.min(0, exact);
  const boundary = shownPriceBoundary((shown) => shown < typed, exact + 1, display, currency);
  return boundary ? boundary[1] : exact;
}

/**
 * The highest amount in `currency` (the unit's) shown at `typed` or less: a maximum typed in
 * the chosen currency.
 */
export function priceMaxFromDisplay(typed: number, display: Display, currency?: string): number {
  const exact = priceFromDisplay(typed, display, currency);
  // Even 0 shows above the bound: no price passes.
  if (displayedPrice(0, display, currency) > typed) return Math.min(-1, exact);
  const boundary = shownPriceBoundary((shown) => shown <= typed, exact + 1, display, currency);
  return boundary ? boundary[0] : exact;
}

/** The core's filters from the form: prices back to `unitCurrency`, areas back to m². */
export function toUnitFilters(
  form: FilterForm,
  display: Display,
  unitCurrency?: string,
): UnitFilters {
  const f: UnitFilters = {
    recamaras: form.recamaras,
    banios: form.banios,
    cajones: form.cajones,
    idPrototipo: form.idPrototipo,
    status: form.status,
  };
  const pMin = number(form.precioMin);
  const pMax = number(form.precioMax);
  if (pMin !== undefined) f.precioMin = priceMinFromDisplay(pMin, display, unitCurrency);
  if (pMax !== undefined) f.precioMax = priceMaxFromDisplay(pMax, display, unitCurrency);
  const toM2 = (v: number) => (display.areaUnit === 'ft2' ? squareFeetToArea(v) : v);
  const aMin = number(form.areaMin);
  const aMax = number(form.areaMax);
  if (aMin !== undefined) f.areaMin = toM2(aMin);
  if (aMax !== undefined) f.areaMax = toM2(aMax);
  return f;
}

/**
 * A bound as the form shows it: its digits grouped by thousands with commas, as the page's
 * figures are ("3,000,000"; the form reads commas back), decimals as they are.
 */
export function boundText(n: number | undefined): string {
  if (n === undefined) return '';
  const text = String(n);
  const [whole = '', decimals] = text.split('.');
  if (!/^\d+$/.test(whole)) return text; // 1e+21: as JavaScript writes it
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return decimals === undefined ? grouped : `${grouped}.${decimals}`;
}

/** The form a search's filters say (a bound as its number, grouped: {@link boundText}). */
export function formFromSearch(f: FilterSearch): FilterForm {
  const text = boundText;
  return {
    recamaras: f.recamaras ?? [],
    banios: f.banios ?? [],
    cajones: f.cajones ?? [],
    precioMin: text(f.precioMin),
    precioMax: text(f.precioMax),
    areaMin: text(f.areaMin),
    areaMax: text(f.areaMax),
    idPrototipo: f.idPrototipo ?? [],
    status: f.status ?? [],
  };
}

/** The currency and area unit a page shows its figures in, as a search names them. */
export interface FigureUnits {
  divisa: string;
  unidadArea: 'm2' | 'ft2';
}

/** The units of `display`'s figures. */
export const figureUnitsOf = (display: Display): FigureUnits => ({
  divisa: display.currency.codigo,
  unidadArea: display.areaUnit,
});

/**
 * The search that keeps the form: every key, `undefined` for no criterion or an unread bound.
 * With `units`, a price bound is written with its currency and an area bound with its unit.
 */
export function searchFromForm(form: FilterForm, units?: FigureUnits): FilterSearch {
  const list = <T>(values: T[]) => (values.length > 0 ? values : undefined);
  const precioMin = number(form.precioMin);
  const precioMax = number(form.precioMax);
  const areaMin = number(form.areaMin);
  const areaMax = number(form.areaMax);
  const priced = precioMin !== undefined || precioMax !== undefined;
  const sized = areaMin !== undefined || areaMax !== undefined;
  return {
    recamaras: list(form.recamaras),
    banios: list(form.banios),
    cajones: list(form.cajones),
    precioMin,
    precioMax,
    areaMin,
    areaMax,
    idPrototipo: list(form.idPrototipo),
    status: list(form.status),
    divisa: units && priced ? units.divisa : undefined,
    unidadArea: units && sized ? units.unidadArea : undefined,
  };
}

/**
 * The search's filters in the figures `display` shows: a price range written in another currency
 * (`divisa`, one the corporate offers) converted to the chosen one, and an area range in the
 * other unit converted (two decimals, as areas are shown); then `divisa` and `unidadArea` name
 * the display's units wherever a bound is set. `converted` says a bound changed, which the page
 * writes back to the address. A search without them, or in a currency the corporate does not
 * offer, is taken as in the display's.
 *
 * A price bound becomes the price shown, in the chosen currency, of the last (first) amount in
 * `unitCurrency` the link's bound let through: shown prices only grow with the amount, so every
 * unit the link matched still matches, and the bound's own unit too (whole dollars are coarser
 * than whole pesos: a maximum of $10,000 USD lets through up to 185,009.24 MXN at 18.5).
 */
export function searchInDisplay(
  search: FilterSearch,
  display: Display,
  unitCurrency?: string,
): { search: FilterSearch; converted: boolean } {
  const units = figureUnitsOf(display);
  const priced = search.precioMin !== undefined || search.precioMax !== undefined;
  const sized = search.areaMin !== undefined || search.areaMax !== undefined;
  const out: FilterSearch = {
    ...search,
    divisa: priced ? units.divisa : undefined,
    unidadArea: sized ? units.unidadArea : undefined,
  };
  let converted = false;
  const from =
    priced && search.divisa && search.divisa !== units.divisa
      ? findCurrency(display.currencies, search.divisa)
      : undefined;
  if (from) {
    const link: Display = { ...display, currency: from };
    const shown = (amount: number) => displayedPrice(amount, display, unitCurrency);
    if (search.precioMin !== undefined)
      out.precioMin = shown(priceMinFromDisplay(search.precioMin, link, unitCurrency));
    if (search.precioMax !== undefined)
      out.precioMax = shown(priceMaxFromDisplay(search.precioMax, link, unitCurrency));
    converted = true;
  }
  if (sized && search.unidadArea && search.unidadArea !== units.unidadArea) {
    const to = units.unidadArea === 'ft2' ? areaToSquareFeet : squareFeetToArea;
    if (search.areaMin !== undefined) out.areaMin = to(search.areaMin);
    if (search.areaMax !== undefined) out.areaMax = to(search.areaMax);
    converted = true;
  }
  return { search: out, converted };
}

/** The fields typed key by key. */
const TYPED: readonly (keyof FilterForm)[] = ['precioMin', 'precioMax', 'areaMin', 'areaMax'];

/**
 * The form over the filters in the address (`filters`, the route's validated search): a change
 * is written there through `onFilters`, and the address changing otherwise (back, forward, a
 * link) resets the form to it. A chip or a box is a new history entry; so is the first keystroke
 * in a field, whose next keystrokes replace it (one entry per typed bound, not per key). The form
 * keeps what is typed ("2,000,", "abc"): the address holds what it reads as a number.
 */
export function useFilterForm(
  filters: FilterSearch,
  onFilters: (next: FilterSearch, how: SearchChange) => void,
  units?: FigureUnits,
) {
  const [form, setForm] = useState<FilterForm>(() => formFromSearch(filters));
  const addressKey = filterSearchKey(filters);
  const [seenKey, setSeenKey] = useState(addressKey);
  // The field the last change typed in, while the next keystroke there continues it.
  const [typing, setTyping] = useState<keyof FilterForm | null>(null);
  let shown = form;
  if (addressKey !== seenKey) {
    // Set while rendering (React's pattern for state that follows a prop): the form's own change
    // arriving in the address says what the form says and changes nothing.
    setSeenKey(addressKey);
    if (filterSearchKey(searchFromForm(form, units)) !== addressKey) {
      shown = formFromSearch(filters);
      setForm(shown);
      setTyping(null);
    }
  }
  const change = (next: FilterForm) => {
    const changed = (Object.keys(next) as (keyof FilterForm)[]).filter(
      (key) => next[key] !== shown[key],
    );
    const field = changed.length === 1 && TYPED.includes(changed[0]!) ? changed[0]! : null;
    setForm(next);
    setTyping(field);
    const search = searchFromForm(next, units);
    // Text the address does not keep ("2,000," after "2,000", "abc") changes nothing there.
    if (filterSearchKey(search) === addressKey) return;
    onFilters(search, { replace: field !== null && field === typing });
  };
  return [shown, change] as const;
}
