/**
 * Money as integer cents (`Money`), with exact arithmetic and spec §9 formatting.
 */

import type { Money } from './brands';

export type { Money } from './brands';

/** Cents from an integer; throws on a fractional, infinite or NaN value. */
export function money(cents: number): Money {
  if (!Number.isSafeInteger(cents))
    throw new RangeError(`money: ${cents} is not a whole number of cents`);
  return cents as Money;
}

/** Zero cents. */
export const ZERO_MONEY = 0 as Money;

/** Cents from an amount in major units (pesos), rounded half away from zero. */
export function moneyFromMajor(major: number): Money {
  if (!Number.isFinite(major)) throw new RangeError(`moneyFromMajor: ${major} is not finite`);
  // 1.005 * 100 is 100.49999999999999: nudge by a relative epsilon so it rounds to the cent
  // the decimal literal meant.
  const scaled = Math.abs(major * 100);
  const rounded = Math.sign(major) * Math.round(scaled + scaled * Number.EPSILON * 4);
  return (rounded === 0 ? 0 : rounded) as Money;
}

/** The amount in major units (pesos), for display or for an API that wants them. */
export function moneyToMajor(amount: Money): number {
  return amount / 100;
}

/** a + b. */
export function addMoney(a: Money, b: Money): Money {
  return (a + b) as Money;
}

/** a − b. */
export function subtractMoney(a: Money, b: Money): Money {
  return (a - b) as Money;
}

/** The sum of the amounts. */
export function sumMoney(amounts: readonly Money[]): Money {
  let s = 0;
  for (const a of amounts) s += a;
  return s as Money;
}

/** `amount × factor`, rounded to the nearest cent (half away from zero). */
export function multiplyMoney(amount: Money, factor: number): Money {
  const v = amount * factor;
  const r = Math.sign(v) * Math.round(Math.abs(v));
  return (Object.is(r, -0) ? 0 : r) as Money;
}

/** Options of {@link formatMoney}; the defaults are spec §9's: `$`, 0 decimals, commas. */
export interface FormatMoneyOptions {
  symbol?: string;
  decimals?: 0 | 1 | 2;
  thousandsSeparator?: string;
  decimalSeparator?: string;
}

function groupThousands(digits: string, sep: string): string {
  let out = '';
  const head = digits.length % 3;
  if (head > 0) out = digits.slice(0, head);
  for (let i = head; i < digits.length; i += 3) {
    out += (out.length > 0 ? sep : '') + digits.slice(i, i + 3);
  }
  return out.length > 0 ? out : '0';
}

/**
 * Spec §9: thousands commas, 0 decimals by default, symbol `$`:
 * `formatMoney(123456789)` → `'$1,234,568'`, `formatMoney(-150, { decimals: 2 })` → `'-$1.50'`.
 * Rounds half away from zero to the requested decimals.
 */
export function formatMoney(amount: Money, options: FormatMoneyOptions = {}): string {
  const symbol = options.symbol ?? '$';
  const decimals = options.decimals ?? 0;
  const sep = options.thousandsSeparator ?? ',';
  const dec = options.decimalSeparator ?? '.';
  const negative = amount < 0;
  const unitsPerStep = 10 ** (2 - decimals);
  const steps = Math.round(Math.abs(amount) / unitsPerStep);
  const scale = 10 ** decimals;
  const whole = Math.floor(steps / scale);
  const frac = steps - whole * scale;
  let text = symbol + groupThousands(String(whole), sep);
  if (decimals > 0) text += dec + String(frac).padStart(decimals, '0');
  return negative && steps > 0 ? '-' + text : text;
}
