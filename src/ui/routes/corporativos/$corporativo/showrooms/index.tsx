/** `/corporativos/{slug}/showrooms`: showroom administration for host administrators (issue 14). */

import { createFileRoute } from '@tanstack/react-router';
import { ShowroomsPage } from '../../../../features/check-in/components/showrooms-page';

export const Route = createFileRoute('/corporativos/$corporativo/showrooms/')({
  component: ShowroomsPage,
});
