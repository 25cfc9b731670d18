/**
 * Quotations: discount, payment-scheme parts and monthly instalments, all in integer cents.
 */

import { addMonths } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import type { Money } from './brands';
import { monthsBetween } from './misc';
import { apportionMoney, multiplyMoney, roundMoney, sumMoney } from './money';
import type { MonthlyPart, PaymentScheme, SchemePart } from './types';

/** The parts of a scheme that share the final price, in the order the quote lists them. */
export const SCHEME_PART_KEYS = [
  'enganche',
  'diferido',
  'mensualidades',
  'escrituracion',
  'contraEntrega',
] as const;

/** One of {@link SCHEME_PART_KEYS}. */
export type SchemePartKey = (typeof SCHEME_PART_KEYS)[number];

/** How far the part fractions may drift from 1 and still count as summing to 1. */
export const SCHEME_SUM_TOLERANCE = 1e-9;

/** Why a payment scheme was rejected. */
export type PaymentSchemeErrorCode = 'invalid_fraction' | 'invalid_months' | 'parts_not_one';

/** A payment scheme that cannot be used for a quote, with a message that says why. */
export class PaymentSchemeError extends Error {
  override readonly name = 'PaymentSchemeError';
  constructor(
    readonly code: PaymentSchemeErrorCode,
    message: string,
    readonly schemeId: string,
  ) {
    super(message);
  }
}

/** The outcome of {@link validateScheme}. */
export type SchemeValidation = { ok: true } | { ok: false; error: PaymentSchemeError };

function badFraction(p: SchemePart): boolean {
  return !Number.isFinite(p.porcentaje) || p.porcentaje < 0 || p.porcentaje > 1;
}

/**
 * Checks a payment scheme: every fraction (discount included) is a number in 0..1; the month
 * count, when given, is a whole number ≥ 1; and enganche + diferido + mensualidades +
 * escrituracion + contraEntrega sum to 1 (within {@link SCHEME_SUM_TOLERANCE}).
 */
export function validateScheme(scheme: PaymentScheme): SchemeValidation {
  const fail = (code: PaymentSchemeErrorCode, message: string): SchemeValidation => ({
    ok: false,
    error: new PaymentSchemeError(code, `Payment scheme '${scheme.nombre}': ${message}`, scheme.id),
  });
  for (const key of ['descuento', ...SCHEME_PART_KEYS] as const) {
    const part = scheme[key];
    if (badFraction(part)) {
      return fail(
        'invalid_fraction',
        `${key} must be a fraction between 0 and 1, got ${part.porcentaje}`,
      );
    }
  }
  const n = scheme.mensualidades.numeroMensualidades;
  if (n !== undefined && (!Number.isSafeInteger(n) || n < 1)) {
    return fail('invalid_months', `numeroMensualidades must be a whole number ≥ 1, got ${n}`);
  }
  let sum = 0;
  for (const key of SCHEME_PART_KEYS) sum += scheme[key].porcentaje;
  if (Math.abs(sum - 1) > SCHEME_SUM_TOLERANCE) {
    return fail(
      'parts_not_one',
      `enganche + diferido + mensualidades + escrituracion + contraEntrega must sum to 1, got ${sum}`,
    );
  }
  return { ok: true };
}

/**
 * Spec §9: price after discount = list price − discount fraction × list price, with the
 * discount rounded to the cent. The fraction must lie in 0..1, so the result never exceeds
 * the list price.
 */
export function priceAfterDiscount(listPrice: Money, discountFraction: number): Money {
  if (!Number.isFinite(discountFraction) || discountFraction < 0 || discountFraction > 1) {
    throw new RangeError(`discount fraction must be between 0 and 1, got ${discountFraction}`);
  }
  return (listPrice - multiplyMoney(listPrice, discountFraction)) as Money;
}

/**
 * Splits `total` by `fractions` (which sum to 1) into cents that add up exactly to `total`:
 * each part is rounded to the nearest cent and the last non-zero part takes the remainder. A
 * part is capped at what is left, so no part is ever negative, even for a total of a few
 * cents. Requires `total ≥ 0`.
 */
export function splitByFractions(total: Money, fractions: readonly number[]): Money[] {
  let last = -1;
  for (let i = 0; i < fractions.length; i++) if (fractions[i]! > 0) last = i;
  const out: Money[] = [];
  let left = total as number;
  for (let i = 0; i < fractions.length; i++) {
    const f = fractions[i]!;
    let amount: number;
    if (i === last) amount = left;
    else if (f <= 0) amount = 0;
    else amount = Math.min(multiplyMoney(total, f), left);
    left -= amount;
    out.push(amount as Money);
  }
  return out;
}

/** One monthly instalment of a quote. */
export interface Instalment {
  /** 1-based. */
  number: number;
  /** Due date: `number` calendar months after `now` (end-of-month days are clamped). */
  date: Date;
  amount: Money;
}

/** One part of the payment scheme, priced. */
export interface QuotePart {
  key: SchemePartKey;
  nombre: string;
  porcentaje: number;
  amount: Money;
}

/** A priced quotation. Every amount is in cents. */
export interface Quote {
  listPrice: Money;
  discountFraction: number;
  discount: Money;
  priceAfterDiscount: Money;
  extras: Money;
  /** Price after discount plus extras; the parts add up to exactly this. */
  finalPrice: Money;
  parts: QuotePart[];
  /** The monthly instalments of the `mensualidades` part; they add up to exactly its amount. */
  instalments: Instalment[];
  months: number;
}

/** Input of {@link quote}. */
export interface QuoteInput {
  /** The unit's list price in cents. */
  unitPrice: Money;
  scheme: PaymentScheme;
  /** Optionals and extras (cents), added to the final price after the discount. */
  extras?: readonly Money[];
  now: Date;
  /** The development's delivery date: gives the month count when the scheme has none. */
  deliveryDate?: Date;
  /** Calendar used for instalment dates and month counting; default 'UTC'. */
  timeZone?: string;
}

/**
 * Prices a quotation. Throws {@link PaymentSchemeError} for an invalid scheme and RangeError
 * for a negative price or extra.
 *
 * The discount applies to the list price; extras are added after it; the five parts share the
 * final price ({@link splitByFractions}); the `mensualidades` part is spread over its month
 * count — the scheme's `numeroMensualidades`, else the whole months from `now` to the delivery
 * date (at least 1) — in equal cents with the remainder on the last instalment, dated one
 * month apart starting next month.
 */
export function quote(input: QuoteInput): Quote {
  const { unitPrice, scheme, now } = input;
  const validation = validateScheme(scheme);
  if (!validation.ok) throw validation.error;
  if (!Number.isSafeInteger(unitPrice) || unitPrice < 0) {
    throw new RangeError(
      `unit price must be a whole, non-negative number of cents, got ${unitPrice}`,
    );
  }
  let extras = 0;
  for (const e of input.extras ?? []) {
    if (!Number.isSafeInteger(e) || e < 0) {
      throw new RangeError(`extras must be whole, non-negative cents, got ${e}`);
    }
    extras += e;
  }
  const discountFraction = scheme.descuento.porcentaje;
  const afterDiscount = priceAfterDiscount(unitPrice, discountFraction);
  const finalPrice = (afterDiscount + extras) as Money;
  const amounts = splitByFractions(
    finalPrice,
    SCHEME_PART_KEYS.map((k) => scheme[k].porcentaje),
  );
  const parts: QuotePart[] = SCHEME_PART_KEYS.map((key, i) => ({
    key,
    nombre: scheme[key].nombre,
    porcentaje: scheme[key].porcentaje,
    amount: amounts[i]!,
  }));
  const monthly = parts[2]!;
  const timeZone = input.timeZone ?? 'UTC';
  const months =
    monthly.porcentaje > 0
      ? monthCount(scheme.mensualidades, now, input.deliveryDate, timeZone)
      : 0;
  return {
    listPrice: unitPrice,
    discountFraction,
    discount: (unitPrice - afterDiscount) as Money,
    priceAfterDiscount: afterDiscount,
    extras: extras as Money,
    finalPrice,
    parts,
    instalments: instalments(monthly.amount, months, now, timeZone),
    months,
  };
}

function monthCount(
  part: MonthlyPart,
  now: Date,
  deliveryDate: Date | undefined,
  timeZone: string,
): number {
  if (part.numeroMensualidades !== undefined) return part.numeroMensualidades;
  if (deliveryDate === undefined) return 1;
  return Math.max(1, monthsBetween(now, deliveryDate, timeZone));
}

/**
 * `total` cents spread over `count` monthly instalments: equal whole cents, the remainder on
 * the last one, the first due one month after `now`.
 */
export function instalments(
  total: Money,
  count: number,
  now: Date,
  timeZone = 'UTC',
): Instalment[] {
  if (count <= 0) return [];
  const base = Math.floor(total / count);
  const start = new TZDate(now.getTime(), timeZone);
  const out: Instalment[] = [];
  for (let i = 1; i <= count; i++) {
    const amount = i === count ? total - base * (count - 1) : base;
    out.push({ number: i, date: new Date(addMonths(start, i).getTime()), amount: amount as Money });
  }
  return out;
}

/** The figures of a quote as shown: whole units (spec §9: 0 decimals) that add up as shown. */
export interface DisplayedQuote {
  listPrice: Money;
  discount: Money;
  priceAfterDiscount: Money;
  /** The optionals and extras line. */
  extras: Money;
  finalPrice: Money;
  /** Each addition, in the order given; they add up to `extras`. */
  additions: Money[];
  /** Each part, in the order of the quote's `parts`; they add up to `finalPrice`. */
  parts: Money[];
  /** Each instalment, in order; they add up to the shown `mensualidades` part. */
  instalments: Money[];
}

/** What {@link displayedQuote} reads of a quote (its instalments may carry ISO dates). */
export type DisplayedQuoteInput = Pick<
  Quote,
  'listPrice' | 'priceAfterDiscount' | 'extras' | 'finalPrice' | 'parts'
> & { instalments: readonly { amount: Money }[] };

/**
 * The figures of a quote rounded for display so that every breakdown adds up exactly to the
 * total shown beside it, each figure less than one unit (default 100 cents) from its exact
 * value. Rounding each figure on its own does not: 12 instalments of $142,121.16 and one of
 * $142,121.24 show as 12 × $142,121 = $1,705,452 under a part of $1,705,454.
 *
 * - The list price, the price after discount and the final price are rounded on their own
 *   ({@link roundMoney}); the discount shown is list − after discount and the extras line final
 *   − after discount, so the summary subtracts and adds up as printed.
 * - The additions share the extras line, the parts the final price and the instalments the
 *   `mensualidades` part as shown, by {@link apportionMoney}.
 *
 * A breakdown that does not add up in cents to its total (figures from elsewhere) is rounded
 * to its own sum instead, so a mismatch stays visible rather than hidden.
 */
export function displayedQuote(
  q: DisplayedQuoteInput,
  additions: readonly Money[] = [],
  unit = 100,
): DisplayedQuote {
  const listPrice = roundMoney(q.listPrice, unit);
  const priceAfterDiscount = roundMoney(q.priceAfterDiscount, unit);
  const finalPrice = roundMoney(q.finalPrice, unit);
  const extras =
    q.finalPrice - q.priceAfterDiscount === q.extras
      ? ((finalPrice - priceAfterDiscount) as Money)
      : roundMoney(q.extras, unit);
  const share = (amounts: readonly Money[], exact: Money, shown: Money): Money[] =>
    apportionMoney(amounts, sumMoney(amounts) === exact ? shown : undefined, unit);
  const parts = share(
    q.parts.map((p) => p.amount),
    q.finalPrice,
    finalPrice,
  );
  const monthlyIndex = q.parts.findIndex((p) => p.key === 'mensualidades');
  const monthly = q.parts[monthlyIndex];
  const instalmentAmounts = q.instalments.map((i) => i.amount);
  return {
    listPrice,
    discount: (listPrice - priceAfterDiscount) as Money,
    priceAfterDiscount,
    extras,
    finalPrice,
    additions: share(additions, q.extras, extras),
    parts,
    instalments: monthly
      ? share(instalmentAmounts, monthly.amount, parts[monthlyIndex]!)
      : apportionMoney(instalmentAmounts, undefined, unit),
  };
}
