/**
 * Prices a quotation in the core worker (`getCoreClient().quote`), as a query: the same input
 * is priced once, a change of scheme, optional or currency cancels the previous call, and the
 * last figures stay on screen while the next ones are computed.
 */

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { QuoteInput } from '../../../../core/pricing';
import { quoteFigures } from '../../../../core/quotation';
import { getCoreClient } from '../../../../workers/core-client';

export function useWorkerQuote(input: QuoteInput | null) {
  return useQuery({
    queryKey: [
      'core',
      'quote',
      input && {
        ...input,
        now: input.now.toISOString(),
        deliveryDate: input.deliveryDate?.toISOString() ?? null,
      },
    ] as const,
    queryFn: async ({ signal }) => quoteFigures(await getCoreClient().quote(input!, { signal })),
    enabled: input !== null,
    staleTime: Infinity,
    gcTime: 60_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
