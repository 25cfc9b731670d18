/** The money and percentages of a quote as the quotation pages show them. */

import type { Money } from '../../../../core/brands';
import { formatMoney } from '../../../../core/money';

/** Cents of a currency: `$4,350,000 MXN` (spec §9: commas, no decimals, `$`). */
export function formatCents(amount: number, currencyCode: string): string {
  return `${formatMoney(amount as Money)} ${currencyCode}`;
}

/** A fraction as a percentage: 0.15 → `15%`, 0.025 → `2.5%`. */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}
