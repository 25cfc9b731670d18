/** `/corporativos/{slug}`: the corporate home (inventory dashboard). */

import { createFileRoute } from '@tanstack/react-router';
import { homeDevelopmentsQuery } from '../../../features/home/api/home-queries';
import { FirstVisitTour } from '../../../features/content/components/tutorials';
import { prefetchFirstVisitTour } from '../../../features/content/utils/first-visit';
import { CorporateHome } from '../../../features/home/components/corporate-home';
import { preloadCorporatePage } from '../../../lib/corporate-access';

export const Route = createFileRoute('/corporativos/$corporativo/')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      Promise.all([
        context.queryClient.ensureQueryData(homeDevelopmentsQuery(corporate.id)),
        context.user
          ? prefetchFirstVisitTour(context.queryClient, context.user.id, corporate.id)
          : null,
      ]),
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
