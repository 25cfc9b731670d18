/**
 * What a signed-in availability page (grid or table) needs first, asked for by its route's loader
 * (issue 21). Left to the page, the first clusters and the prototypes were asked for once the
 * page had rendered around the development, and the core worker started only when the units had
 * arrived: three steps one after the other. From the loader, the reads start as soon as the
 * development is known and the worker's script loads beside them.
 */
import type { QueryClient } from '@tanstack/react-query';
import { FIRST_PAGE } from '../../../../core/availability-pages';
import type { User } from '../../../../core/types';
import { getCoreClient } from '../../../../workers/core-client';
import { clustersPageQuery, developmentQuery, prototypesQuery } from '../../../lib/catalogue';
import { preloadCorporatePage } from '../../../lib/corporate-access';
import { mainThreadRequested } from '../hooks/use-unit-filter';

/**
 * Starts the availability's first reads and its worker. Resolves once the reads have started
 * (not when they end: the page shows its own progress); never throws (preloadCorporatePage).
 */
export function preloadAvailability(
  context: { queryClient: QueryClient; user: User | null },
  corporateSlug: string,
  developmentSlug: string,
): Promise<void> {
  return preloadCorporatePage(context, corporateSlug, async (corporate) => {
    if (!mainThreadRequested()) getCoreClient().warm();
    const { queryClient } = context;
    const development = await queryClient.ensureQueryData(
      developmentQuery(corporate.id, developmentSlug),
    );
    // Cached answers are kept (the loader runs again on every change of the page's search);
    // a failure is the page's to show when it reads the same query.
    const ignore = () => undefined;
    void queryClient
      .ensureQueryData(clustersPageQuery(corporate.id, development.id, FIRST_PAGE))
      .catch(ignore);
    void queryClient.ensureQueryData(prototypesQuery(corporate.id, development.id)).catch(ignore);
  });
}
