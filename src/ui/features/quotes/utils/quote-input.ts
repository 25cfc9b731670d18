/**
 * The input of the core's `quote()` for a quotation on screen, built exactly as the server's
 * `priceQuotation` builds it (core/quotation.ts): the unit's price, the optionals and the
 * extras converted to the quoted currency (each extra from the currency it was entered in),
 * the cash-scheme month count dropped, the development's delivery date and the corporate's
 * calendar. The worker then prices it, so the figures on screen are those the server will
 * record.
 */

import { convertMoney, findCurrency } from '../../../../core/currency';
import { moneyFromMajor } from '../../../../core/money';
import type { QuoteInput } from '../../../../core/pricing';
import {
  extraAmount,
  schemeForQuote,
  type QuotationAddition,
  type QuotationExtra,
} from '../../../../core/quotation';
import type { Currency, Optional, PaymentScheme, Unit } from '../../../../core/types';

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
  /** Extras in a currency not in `currencies` are left out ({@link priceableExtras}). */
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
    ...p.extras.flatMap((e): QuotationAddition[] => {
      const monto = extraAmount(e, p.currencies, p.to);
      return monto === null ? [] : [{ tipo: 'extra', nombre: e.nombre, monto }];
    }),
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

/**
 * The extras that can be priced with the corporate's currencies. One entered in a currency the
 * corporate no longer has (a link kept from before) cannot be converted; the server would refuse
 * the quotation, so it is left out rather than counted in the wrong currency.
 */
export function priceableExtras(
  extras: readonly QuotationExtra[],
  currencies: readonly Currency[],
): QuotationExtra[] {
  return extras.filter((e) => e.divisa === undefined || !!findCurrency(currencies, e.divisa));
}
