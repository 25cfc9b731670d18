/**
 * The input of the core's `quote()` for a quotation on screen, built exactly as the server's
 * `priceQuotation` builds it (core/quotation.ts): the unit's price and the optionals converted
 * to the quoted currency, extras as entered, the cash-scheme month count dropped, the
 * development's delivery date and the corporate's calendar. The worker then prices it, so the
 * figures on screen are those the server will record.
 */

import { convertMoney, findCurrency } from '../../../core/currency';
import { moneyFromMajor } from '../../../core/money';
import type { QuoteInput } from '../../../core/pricing';
import { schemeForQuote, type QuotationAddition } from '../../../core/quotation';
import type { Currency, Optional, PaymentScheme, Unit } from '../../../core/types';
import type { QuotationExtra } from '../../../core/quotation';

export interface QuoteInputParts {
  unit: Pick<Unit, 'precio' | 'divisa'>;
  scheme: PaymentScheme;
  developmentCurrency: string | undefined;
  fechaEntrega: string | undefined | null;
  timeZone: string;
  currencies: readonly Currency[];
  /** The currency quoted in. */
  to: Currency;
  optionals: readonly Optional[];
  extras: readonly QuotationExtra[];
  now: Date;
}

/** The worker's input and the lines added to the final price (cents of `to`). */
export function buildQuoteInput(p: QuoteInputParts): {
  input: QuoteInput;
  additions: QuotationAddition[];
} {
  const unitCode = p.unit.divisa ?? p.developmentCurrency ?? 'MXN';
  const from = findCurrency(p.currencies, unitCode) ?? p.to;
  const devCurrency = findCurrency(p.currencies, p.developmentCurrency ?? 'MXN') ?? from;
  const additions: QuotationAddition[] = [
    ...p.optionals.map((o): QuotationAddition => ({
      tipo: 'opcional',
      id: o.id,
      nombre: o.nombre,
      monto: convertMoney(moneyFromMajor(o.precio), devCurrency, p.to),
    })),
    ...p.extras.map((e): QuotationAddition => ({
      tipo: 'extra',
      nombre: e.nombre,
      monto: moneyFromMajor(e.precio),
    })),
  ];
  const delivery = p.fechaEntrega ? new Date(p.fechaEntrega) : undefined;
  const input: QuoteInput = {
    unitPrice: convertMoney(moneyFromMajor(p.unit.precio), from, p.to),
    scheme: schemeForQuote(p.scheme),
    extras: additions.map((a) => a.monto),
    now: p.now,
    ...(delivery && !Number.isNaN(delivery.getTime()) ? { deliveryDate: delivery } : {}),
    timeZone: p.timeZone,
  };
  return { input, additions };
}
