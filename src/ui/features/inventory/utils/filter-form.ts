/**
 * The filter form's state and its translation into the core's `UnitFilters` (spec §5): prices
 * typed in the chosen currency go back to the unit's currency, areas typed in ft² back to m².
 *
 * A price bound is compared with the price as shown: the screens show whole units of the chosen
 * currency, so a unit shown at exactly the typed bound matches it, whichever way the exact
 * conversion falls (at USD 18.5, 2,650,000 MXN shows as $143,243 USD and is 143,243.24 USD).
 */

import { useEffect, useState } from 'react';
import { OR_MORE_VALUE, type UnitFilters } from '../../../../core/filters';
import { squareFeetToArea } from '../../../../core/area';
import { displayedPrice, priceFromDisplay, type Display } from '../../../lib/figures';

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

export const BEDROOM_OPTIONS = [1, 2, 3, OR_MORE_VALUE];
export const BATHROOM_OPTIONS = [1, 1.5, 2, 2.5, 3, 3.5, OR_MORE_VALUE];
export const PARKING_OPTIONS = [1, 2, 3, OR_MORE_VALUE];

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

/** Restores a saved form (session storage), ignoring anything malformed. */
export function readSavedForm(key: string): FilterForm {
  try {
    const raw = sessionStorage.getItem(key);
    if (!raw) return EMPTY_FORM;
    const v = JSON.parse(raw) as Partial<FilterForm>;
    const nums = (x: unknown) =>
      Array.isArray(x) ? x.filter((n): n is number => typeof n === 'number') : [];
    const strs = (x: unknown) =>
      Array.isArray(x) ? x.filter((n): n is string => typeof n === 'string') : [];
    const str = (x: unknown) => (typeof x === 'string' ? x : '');
    return {
      recamaras: nums(v.recamaras),
      banios: nums(v.banios),
      cajones: nums(v.cajones),
      precioMin: str(v.precioMin),
      precioMax: str(v.precioMax),
      areaMin: str(v.areaMin),
      areaMax: str(v.areaMax),
      idPrototipo: strs(v.idPrototipo),
      status: strs(v.status),
    };
  } catch {
    return EMPTY_FORM;
  }
}

/** The form, remembered for the browser tab so a reload keeps the filters. */
export function useSavedForm(key: string) {
  const [form, setForm] = useState<FilterForm>(() => readSavedForm(key));
  useEffect(() => {
    try {
      sessionStorage.setItem(key, JSON.stringify(form));
    } catch {
      // Not remembered; the filters still apply.
    }
  }, [key, form]);
  return [form, setForm] as const;
}
