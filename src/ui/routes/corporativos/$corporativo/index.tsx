/** `/corporativos/{slug}`: the corporate home (inventory dashboard). */

import { createFileRoute } from '@tanstack/react-router';
import { homeDevelopmentsQuery } from '../../../features/home/api/home-queries';
import { CorporateHome } from '../../../features/home/components/corporate-home';
import { preloadCorporatePage } from '../../../lib/corporate-access';

export const Route = createFileRoute('/corporativos/$corporativo/')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(homeDevelopmentsQuery(corporate.id)),
    ),
  component: CorporateHome,
});
