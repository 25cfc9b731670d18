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
import { squareFeetToArea } from '../../../../core/area';
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

/** The form a search's filters say (a bound as its number). */
export function formFromSearch(f: FilterSearch): FilterForm {
  const text = (n: number | undefined) => (n === undefined ? '' : String(n));
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

/** The search that keeps the form: every key, `undefined` for no criterion or an unread bound. */
export function searchFromForm(form: FilterForm): FilterSearch {
  const list = <T>(values: T[]) => (values.length > 0 ? values : undefined);
  return {
    recamaras: list(form.recamaras),
    banios: list(form.banios),
    cajones: list(form.cajones),
    precioMin: number(form.precioMin),
    precioMax: number(form.precioMax),
    areaMin: number(form.areaMin),
    areaMax: number(form.areaMax),
    idPrototipo: list(form.idPrototipo),
    status: list(form.status),
  };
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
    if (filterSearchKey(searchFromForm(form)) !== addressKey) {
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
    const search = searchFromForm(next);
    // Text the address does not keep ("2,000," after "2,000", "abc") changes nothing there.
    if (filterSearchKey(search) === addressKey) return;
    onFilters(search, { replace: field !== null && field === typing });
  };
  return [shown, change] as const;
}
