/**
 * `/corporativos/{slug}/eventos`: the appointments calendar (agenda, day, week, month). Search:
 * `vista`, `fecha` (YYYY-MM-DD), filters `showroom`, `asesor`, `desarrollo`; `agendar` (a lead
 * id) opens the booking form, with `idDesarrollo` and `titulo` when the quotation sends them.
 */

import { createFileRoute } from '@tanstack/react-router';
import { showroomsQuery } from '../../../features/events/api/showrooms';
import { EventsPage } from '../../../features/events/components/events-page';
import { validateEventsSearch } from '../../../features/events/utils/events-search';
import { preloadCorporatePage } from '../../../lib/corporate-access';
import { onlyValidated } from '../../../lib/route-search';

function Events() {
  return <EventsPage search={Route.useSearch()} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/eventos')({
  validateSearch: onlyValidated(validateEventsSearch),
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(showroomsQuery(corporate.id)),
    ),
  component: Events,
});
