/** `/corporativos/{slug}/destacados`: the corporate's featured developments (issue 20). */

import { createFileRoute } from '@tanstack/react-router';
import { FeaturedPage } from '../../../features/inventory/components/featured-page';

export const Route = createFileRoute('/corporativos/$corporativo/destacados')({
  component: FeaturedPage,
});
