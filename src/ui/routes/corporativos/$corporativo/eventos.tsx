/** `/corporativos/{slug}/eventos`: the day's appointments and the showrooms. */

import { createFileRoute } from '@tanstack/react-router';
import { showroomsQuery } from '../../../features/events/api/showrooms';
import { EventsPage } from '../../../features/events/components/events-page';
import { preloadCorporatePage } from '../../../lib/corporate-access';

export const Route = createFileRoute('/corporativos/$corporativo/eventos')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(showroomsQuery(corporate.id)),
    ),
  component: EventsPage,
});
