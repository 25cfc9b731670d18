/**
 * `/corporativos/{slug}/eventos`: the appointments calendar (agenda, day, week, month). Search:
 * `vista`, `fecha` (YYYY-MM-DD), filters `showroom`, `asesor`, `desarrollo`; `agendar` (a lead
 * id) opens the booking form, with `idDesarrollo` and `titulo` when the quotation sends them.
 */

import { createFileRoute } from '@tanstack/react-router';
import { bookableAdvisersQuery } from '../../../features/events/api/appointments';
import { showroomsQuery } from '../../../features/events/api/showrooms';
import { developmentsQuery } from '../../../lib/catalogue';
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
      Promise.all([
        context.queryClient.ensureQueryData(showroomsQuery(corporate.id)),
        // The filters' other options: a select drawn empty grew when they came and, on a
        // tablet or a phone, wrapped to a row of its own, moving the calendar down (0.40 of
        // layout shift at 820 px). `prefetchQuery` never throws.
        context.queryClient.prefetchQuery(developmentsQuery(corporate.id)),
        context.queryClient.prefetchQuery(bookableAdvisersQuery(corporate.id)),
      ]),
    ),
  component: Events,
});
