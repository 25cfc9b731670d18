/** `/corporativos/{slug}`: the corporate home (inventory dashboard). */

import { createFileRoute } from '@tanstack/react-router';
import { homeDevelopmentsQuery } from '../../../features/home/api/home-queries';
import { FirstVisitTour } from '../../../features/content/components/tutorials';
import { CorporateHome } from '../../../features/home/components/corporate-home';
import { preloadCorporatePage } from '../../../lib/corporate-access';

export const Route = createFileRoute('/corporativos/$corporativo/')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(homeDevelopmentsQuery(corporate.id)),
    ),
  component: HomeWithTour,
});

/** The home, with the tutorials' first-visit tour above it (issue 20). */
function HomeWithTour() {
  return (
    <>
      <FirstVisitTour />
      <CorporateHome />
    </>
  );
}
