/**
 * Prices a quotation in the core worker (`getCoreClient().quote`), as a query: the same input
 * is priced once, a change of scheme, optional or currency cancels the previous call, and the
 * last figures stay on screen while the next ones are computed.
 *
 * The answer carries the currency, the additions and the precision it was priced with: while the
 * next figures are computed, the ones on screen keep their own currency, lines and cents, never
 * the new choice's (a switch to USD does not label peso amounts as dollars for a moment).
 */

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QuoteInput } from '../../../../core/pricing';
import { quoteFigures, type QuoteFigures } from '../../../../core/quotation';
import { getCoreClient } from '../../../../workers/core-client';
import type { FigureAddition } from '../components/quote-figures';

export interface QuoteRequest {
  input: QuoteInput;
  /** The optionals and extras whose amounts are `input.extras`, in the same order. */
  additions: readonly FigureAddition[];
  /** The currency of every amount of `input`. */
  currency: string;
  /** The payment scheme's name, shown as the parts' heading. */
  schemeName: string | undefined;
  /** Shown to the cent (core `quotationInCents`). */
  toTheCent: boolean;
}

export interface PricedQuote {
  figures: QuoteFigures;
  additions: readonly FigureAddition[];
  currency: string;
  schemeName: string | undefined;
  toTheCent: boolean;
}

export function useWorkerQuote(request: QuoteRequest | null) {
  const input = request?.input;
  return useQuery({
    queryKey: [
      'core',
      'quote',
      request && {
        ...request.input,
        now: request.input.now.toISOString(),
        deliveryDate: request.input.deliveryDate?.toISOString() ?? null,
        additions: request.additions.map((a) => [a.tipo, a.nombre, a.monto]),
        currency: request.currency,
        schemeName: request.schemeName ?? null,
        toTheCent: request.toTheCent,
      },
    ] as const,
    queryFn: async ({ signal }): Promise<PricedQuote> => ({
      figures: quoteFigures(await getCoreClient().quote(input!, { signal })),
      additions: request!.additions,
      currency: request!.currency,
      schemeName: request!.schemeName,
      toTheCent: request!.toTheCent,
    }),
    enabled: request !== null,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
