/**
 * Currencies (spec §3, §9): MXN is the base; conversion uses the ratio of exchange rates.
 */

import type { CurrencyCode, Money } from './brands';
import type { Currency } from './types';

/** The base currency code. */
export const BASE_CURRENCY_CODE = 'MXN' as CurrencyCode;

/** The default currency: MXN, Pesos, rate 1. */
export const DEFAULT_CURRENCY: Readonly<Currency> = {
  codigo: 'MXN',
  activo: true,
  nombre: 'Pesos',
  tipoCambio: 1,
};

/** A currency code from a string (trimmed, upper-cased). */
export function currencyCode(code: string): CurrencyCode {
  return code.trim().toUpperCase() as CurrencyCode;
}

/**
 * The corporate's currency list with the spec's defaults: the default MXN when the list is
 * empty or absent, and MXN added (first) when missing. Entries without a usable rate
 * (not a finite number > 0) are dropped, since no amount can be converted with them.
 */
export function normalizeCurrencies(list: readonly Currency[] | null | undefined): Currency[] {
  const usable = (list ?? []).filter((c) => Number.isFinite(c.tipoCambio) && c.tipoCambio > 0);
  if (!usable.some((c) => currencyCode(c.codigo) === BASE_CURRENCY_CODE)) {
    return [{ ...DEFAULT_CURRENCY }, ...usable];
  }
  return usable.map((c) => ({ ...c }));
}

/** The currency with that code in the list, if any. */
export function findCurrency(
  list: readonly Currency[],
  code: string | CurrencyCode,
): Currency | undefined {
  const wanted = currencyCode(code);
  return list.find((c) => currencyCode(c.codigo) === wanted);
}

/**
 * Converts an amount by the ratio of exchange rates: `amount × from.tipoCambio /
 * to.tipoCambio`, where `tipoCambio` is the value of one unit of the currency in MXN. Exact
 * (not rounded), so a round trip only carries floating-point noise; use
 * {@link convertMoney} for cents.
 */
export function convert(
  amount: number,
  from: Pick<Currency, 'tipoCambio'>,
  to: Pick<Currency, 'tipoCambio'>,
): number {
  if (!(from.tipoCambio > 0) || !(to.tipoCambio > 0)) {
    throw new RangeError('convert: exchange rates must be greater than 0');
  }
  if (from.tipoCambio === to.tipoCambio) return amount;
  return (amount * from.tipoCambio) / to.tipoCambio;
}

/** {@link convert} for cents, rounded to the nearest cent (half away from zero). */
export function convertMoney(
  amount: Money,
  from: Pick<Currency, 'tipoCambio'>,
  to: Pick<Currency, 'tipoCambio'>,
): Money {
  const v = convert(amount, from, to);
  const r = Math.sign(v) * Math.round(Math.abs(v));
  return (r === 0 ? 0 : r) as Money;
}
