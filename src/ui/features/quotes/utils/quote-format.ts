/** The money and percentages of a quote as the quotation pages show them. */

import type { Money } from '../../../../core/brands';
import { formatMoney } from '../../../../core/money';

/**
 * Cents of a currency: `$4,350,000 MXN` (spec §9: commas, no decimals, `$`), or to the cent,
 * `$25,000.50 MXN`, in a quotation shown to the cent (core `quotationInCents`).
 */
export function formatCents(amount: number, currencyCode: string, toTheCent = false): string {
  return `${formatMoney(amount as Money, { decimals: toTheCent ? 2 : 0 })} ${currencyCode}`;
}

/** A fraction as a percentage: 0.15 → `15%`, 0.025 → `2.5%`. */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}
