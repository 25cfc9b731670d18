/**
 * `/corporativos/{slug}/desarrollos[?folio=…]`: the developments list. Its top bar has the
 * check-in banner and the quotation report button (spec §2); a showroom's QR code opens it with
 * a `folio`, which the banner checks in with (spec §3: tipoRegistro QR), then drops.
 */

import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { CheckInBanner } from '../../../../features/check-in/components/check-in-banner';
import { DevelopmentsPage } from '../../../../features/inventory/components/developments-page';
import { QuoteReportButton } from '../../../../features/quotes/components/quote-report-button';
import {
  developmentsQuery,
  searchCategoriesQuery,
  searchTagsQuery,
} from '../../../../lib/catalogue';
import { featuredQuery } from '../../../../lib/content';
import { preloadCorporatePage } from '../../../../lib/corporate-access';
import { onlyValidated } from '../../../../lib/route-search';

interface DevelopmentsSearch {
  folio?: string;
}

function Developments() {
  const { folio } = Route.useSearch();
  const navigate = Route.useNavigate();
  const dropFolio = useCallback(() => {
    void navigate({
      search: (s: DevelopmentsSearch) => ({ ...s, folio: undefined }),
      replace: true,
    });
  }, [navigate]);
  return (
    <DevelopmentsPage
      actions={
        <>
          <CheckInBanner folio={folio ?? null} onFolioUsed={dropFolio} />
          <QuoteReportButton />
        </>
      }
    />
  );
}

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/')({
  validateSearch: onlyValidated((search: Record<string, unknown>): DevelopmentsSearch =>
    typeof search.folio === 'string' && search.folio.length > 0 && search.folio.length <= 600
      ? { folio: search.folio }
      : {},
  ),
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      Promise.all([
        context.queryClient.ensureQueryData(developmentsQuery(corporate.id)),
        // What the page draws above the list (the featured block, the search's categories and
        // tags): known before its first draw, so none of it pushes the drawn cards down (the
        // featured block arriving after them moved the list 450 px: 0.20 of layout shift).
        context.queryClient.prefetchQuery(featuredQuery(corporate.id)),
        context.queryClient.prefetchQuery(searchCategoriesQuery(corporate.id)),
        context.queryClient.prefetchQuery(searchTagsQuery(corporate.id)),
      ]),
    ),
  component: Developments,
});
