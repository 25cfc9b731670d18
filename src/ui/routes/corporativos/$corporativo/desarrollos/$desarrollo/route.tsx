/** `/corporativos/{slug}/desarrollos/{slug}`: the development layout around its pages. */

import { createFileRoute } from '@tanstack/react-router';
import { DevelopmentLayout } from '../../../../../features/inventory/components/development-layout';
import { developmentQuery } from '../../../../../lib/catalogue';
import { preloadCorporatePage } from '../../../../../lib/corporate-access';

function Development() {
  const { corporativo, desarrollo } = Route.useParams();
  return <DevelopmentLayout corporateSlug={corporativo} developmentSlug={desarrollo} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(developmentQuery(corporate.id, params.desarrollo)),
    ),
  component: Development,
});
