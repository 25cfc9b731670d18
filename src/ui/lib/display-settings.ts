/**
 * The display preferences of the settings modal (spec §2, §3 local storage): the area unit
 * (m², default) and the currency (MXN, default). They belong to the device and survive a
 * logout. Inventory and quotation pages read them with `useDisplaySettings()`:
 *
 * ```ts
 * const { areaUnit, currency } = useDisplaySettings();
 * formatArea(unit.metrajes.areaTotal, areaUnit);
 * ```
 */

import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import { DEFAULT_AREA_UNIT, type AreaUnit } from '../../core/area';
import { BASE_CURRENCY_CODE } from '../../core/currency';

export const AREA_UNIT_KEY = 'vitrina:unidadMedida';
export const CURRENCY_KEY = 'vitrina:divisa';

export interface DisplaySettings {
  areaUnit: AreaUnit;
  /** A currency code (`MXN`, `USD`); pages fall back to MXN when the corporate lacks it. */
  currency: string;
}

const listeners = new Set<() => void>();

function read(): DisplaySettings {
  let unit: string | null = null;
  let currency: string | null = null;
  try {
    unit = localStorage.getItem(AREA_UNIT_KEY);
    currency = localStorage.getItem(CURRENCY_KEY);
  } catch {
    // No storage (private mode, tests): the defaults.
  }
  return {
    areaUnit: unit === 'ft2' || unit === 'm2' ? unit : DEFAULT_AREA_UNIT,
    currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : BASE_CURRENCY_CODE,
  };
}

let snapshot: DisplaySettings =
  typeof window === 'undefined'
    ? { areaUnit: DEFAULT_AREA_UNIT, currency: BASE_CURRENCY_CODE }
    : read();

function write(key: string, value: string) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Storage full or unavailable: the choice lasts for this page only.
  }
  snapshot = {
    ...read(),
    ...(key === AREA_UNIT_KEY ? { areaUnit: value as AreaUnit } : { currency: value }),
  };
  listeners.forEach((l) => l());
}

export function setAreaUnit(unit: AreaUnit) {
  write(AREA_UNIT_KEY, unit);
}

export function setCurrency(code: string) {
  write(CURRENCY_KEY, code);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === AREA_UNIT_KEY || e.key === CURRENCY_KEY) {
      snapshot = read();
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

type WithSetters = DisplaySettings & {
  setAreaUnit: typeof setAreaUnit;
  setCurrency: typeof setCurrency;
};

/**
 * The settings as pages render them. A change reaches them in a transition: a currency switch
 * re-renders a whole page (tables of thousands of units, cards, figures) in slices React can
 * interrupt, so the click's own task stays short; the control that made the choice shows it at
 * once through {@link useDisplayChoice}.
 */
export function useDisplaySettings(): WithSetters {
  const [settings, setSettings] = useState(() => snapshot);
  useEffect(() => {
    const update = () => startTransition(() => setSettings(snapshot));
    update(); // a change between this render and the subscription
    return subscribe(update);
  }, []);
  return { ...settings, setAreaUnit, setCurrency };
}

/**
 * The settings as the controls that change them show them: synchronously, so a select never
 * snaps back to the old value while the pages catch up.
 */
export function useDisplayChoice(): WithSetters {
  const settings = useSyncExternalStore(subscribe, () => snapshot);
  return { ...settings, setAreaUnit, setCurrency };
}

/**
 * A currency's name in the page's language: the corporate's own name in Spanish (the language
 * it writes its settings in), the browser's name for the code in any other ("Mexican Peso" for
 * MXN), the corporate's name where the browser has none.
 */
export function currencyName(currency: { codigo: string; nombre: string }, language: string) {
  if (language.startsWith('es')) return currency.nombre;
  try {
    return (
      new Intl.DisplayNames([language], { type: 'currency' }).of(currency.codigo) ?? currency.nombre
    );
  } catch {
    return currency.nombre;
  }
}
