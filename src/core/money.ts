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

/**
 * `amount` rounded to a whole number of `unit` cents (default 100: whole pesos), half away
 * from zero, as {@link formatMoney} rounds it for 0 decimals.
 */
export function roundMoney(amount: Money, unit = 100): Money {
  checkUnit(unit);
  const floor = floorTo(amount, unit);
  const rest = amount - floor;
  // Half away from zero: a positive half goes up, a negative half goes down (to the floor).
  const up = amount >= 0 ? rest * 2 >= unit : rest * 2 > unit;
  const r = up ? floor + unit : floor;
  return (r === 0 ? 0 : r) as Money;
}

/**
 * Rounds amounts to whole `unit`s (default 100 cents: whole pesos, spec §9 shows no decimals)
 * so that the rounded amounts add up exactly to `total`, by the largest-remainder method:
 * every amount is floored to a whole unit, then the units still missing go one each to the
 * amounts with the largest remainders, a tie to the earlier amount. Each result is within less
 * than one unit of its amount, and the result depends only on the amounts and their order.
 *
 * `total` defaults to the amounts' sum rounded by {@link roundMoney}; when given (say, the
 * total as already shown) it must be a whole number of units less than one unit away from the
 * sum. Exact in integer cents.
 */
export function apportionMoney(amounts: readonly Money[], total?: Money, unit = 100): Money[] {
  checkUnit(unit);
  const sum = sumMoney(amounts);
  const target = total ?? roundMoney(sum, unit);
  if (!Number.isSafeInteger(target) || floorTo(target, unit) !== target) {
    throw new RangeError(`apportionMoney: total ${target} is not a whole number of ${unit} cents`);
  }
  if (Math.abs(target - sum) >= unit) {
    throw new RangeError(`apportionMoney: total ${target} is a unit or more away from ${sum}`);
  }
  const out = amounts.map((a) => floorTo(a, unit));
  let missing = (target - sumMoney(out)) / unit;
  if (missing > 0) {
    const order = amounts
      .map((a, i) => ({ i, rest: a - out[i]! }))
      .filter((x) => x.rest > 0)
      .sort((x, y) => y.rest - x.rest || x.i - y.i);
    for (const { i } of order) {
      if (missing-- <= 0) break;
      out[i] = (out[i]! + unit) as Money;
    }
  }
  return out.map((a) => (a === 0 ? 0 : a) as Money);
}

function checkUnit(unit: number): void {
  if (!Number.isSafeInteger(unit) || unit < 1) {
    throw new RangeError(
      `money: the rounding unit must be a whole number of cents ≥ 1, got ${unit}`,
    );
  }
}

/** The largest multiple of `unit` at or below `amount` (integers, exact). */
function floorTo(amount: number, unit: number): Money {
  const rest = ((amount % unit) + unit) % unit;
  return (amount - rest) as Money;
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
