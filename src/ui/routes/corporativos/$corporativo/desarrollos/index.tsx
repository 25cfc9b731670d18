/** `/corporativos/{slug}/desarrollos`: the developments list. */

import { createFileRoute } from '@tanstack/react-router';
import { DevelopmentsPage } from '../../../../features/inventory/components/developments-page';
import { QuoteReportButton } from '../../../../features/quotes/components/quote-report-button';
import { developmentsQuery } from '../../../../lib/catalogue';
import { preloadCorporatePage } from '../../../../lib/corporate-access';

function Developments() {
  // Spec §2: the list shows the quotation report button in the top bar.
  return <DevelopmentsPage actions={<QuoteReportButton />} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(developmentsQuery(corporate.id)),
    ),
  component: Developments,
});
