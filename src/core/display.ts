/**
 * How figures are shown (spec §9): prices in the currency chosen in the settings modal (MXN when
 * the corporate does not offer it), whole units, and areas in the chosen unit. Pure, so the core
 * worker builds the display rows with the very rules the pages use (core/display-rows.ts);
 * ui/lib/figures.ts re-exports them for the screens.
 */

import { formatArea, type AreaUnit } from './area';
import { BASE_CURRENCY_CODE, convert, findCurrency, normalizeCurrencies } from './currency';
import { formatMoney, moneyFromMajor } from './money';
import type { Currency } from './types';

/**
 * How figures are shown: the chosen currency (falling back to MXN when the corporate does not
 * offer it) and the chosen area unit. Plain data: it crosses to the worker as is.
 */
export interface Display {
  currencies: Currency[];
  currency: Currency;
  areaUnit: AreaUnit;
}

export function makeDisplay(
  corporateCurrencies: readonly Currency[] | undefined,
  currencyCode: string,
  areaUnit: AreaUnit,
): Display {
  const currencies = normalizeCurrencies(corporateCurrencies ?? []);
  const currency =
    findCurrency(currencies, currencyCode) ?? findCurrency(currencies, BASE_CURRENCY_CODE)!;
  return { currencies, currency, areaUnit };
}

/**
 * The whole number an amount in `from` (default MXN) shows as in the chosen currency: converted,
 * rounded to the cent, then to whole units (spec §9 shows no decimals), half away from zero.
 */
export function displayedPrice(amount: number, display: Display, from?: string | null): number {
  const source =
    findCurrency(display.currencies, from ?? BASE_CURRENCY_CODE) ??
    findCurrency(display.currencies, BASE_CURRENCY_CODE)!;
  const cents = moneyFromMajor(convert(amount, source, display.currency));
  const whole = Math.sign(cents) * Math.round(Math.abs(cents) / 100);
  return whole === 0 ? 0 : whole;
}

/** An amount in `from` (default MXN) shown in the chosen currency: `$4,350,000 MXN`. */
export function formatPrice(amount: number, display: Display, from?: string | null): string {
  const shown = displayedPrice(amount, display, from);
  return `${formatMoney(moneyFromMajor(shown))} ${display.currency.codigo}`;
}

/** An amount in the chosen currency converted back to `to` (default MXN), e.g. a filter bound. */
export function priceFromDisplay(amount: number, display: Display, to?: string | null): number {
  const target =
    findCurrency(display.currencies, to ?? BASE_CURRENCY_CODE) ??
    findCurrency(display.currencies, BASE_CURRENCY_CODE)!;
  return convert(amount, display.currency, target);
}

/** An area in m² shown in the chosen unit, two decimals. */
export function formatAreaIn(area: number | undefined, display: Pick<Display, 'areaUnit'>) {
  return formatArea(area ?? 0, display.areaUnit);
}
