/**
 * `/corporativos/$corporativo`: every page of a corporate. `beforeLoad` waits for the session and
 * resolves the user's membership (a non-member gets the 403 page, an unknown slug 'No se encontró
 * corporativo'); the loader puts the corporate in the query cache; then the corporate layout
 * renders. A signed-out visitor gets the dashboard's login prompt (the session machine decides
 * when to send them to /login).
 */

import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { LoadingScreen } from '../../../components/loading-screen';
import { CorporateFailure } from '../../../features/shell/components/corporate-failure';
import { ForbiddenPage } from '../../../features/shell/components/forbidden-page';
import { NotFoundPage } from '../../../features/shell/components/not-found-page';
import { HelpButton } from '../../../features/content/components/tutorials';
import { ChatWidget } from '../../../features/chat/components/chat-widget';
import { generalConfigQuery } from '../../../features/chat/api/chat';
import { NotificationBell } from '../../../features/notifications/components/notification-bell';
import { CorporateLayout } from '../../../layouts/corporate-layout';
import { DashboardLayout } from '../../../layouts/dashboard-layout';
import {
  isCorporateForbidden,
  loadCorporate,
  requireMembership,
  type CorporateNotFoundData,
} from '../../../lib/corporate-access';
import { settledSession, useSession } from '../../../session';

/** What the top bar holds before the avatar: one element, so the layout need not draw again. */
const TOP_BAR_END = (
  <>
    <HelpButton />
    <NotificationBell />
    {/* Portalled to the page: the floating bubble and its panel (spec §2 Layouts). */}
    <ChatWidget />
  </>
);

function Corporate() {
  // The slug alone: the router's state changes many times while a page loads, and a layout
  // drawn again for each change drew the whole shell (sidebar, top bar, bottom bar) 40 times.
  const corporativo = Route.useParams({ select: (params) => params.corporativo });
  return <CorporateLayout slug={corporativo} topBarEnd={TOP_BAR_END} />;
}

/** While the session is checked (the dashboard's own screen) or the corporate loads. */
function CorporatePending() {
  const signedIn = useSession((s) => s.hasTag('signedIn'));
  return signedIn ? <LoadingScreen fullScreen /> : <DashboardLayout>{null}</DashboardLayout>;
}

function CorporateError({ error }: ErrorComponentProps) {
  const { corporativo } = Route.useParams();
  return isCorporateForbidden(error) ? (
    <ForbiddenPage slug={corporativo} />
  ) : (
    <CorporateFailure error={error} />
  );
}

/** An unknown corporate, or (in the layout's outlet) a path the corporate does not have. */
function CorporateNotFound({ data }: { data?: unknown }) {
  return (data as Partial<CorporateNotFoundData> | undefined)?.corporateSlug ? (
    <CorporateFailure error={null} />
  ) : (
    <NotFoundPage embedded />
  );
}

/**
 * With a CRM connection the clients list comes from the CRM (spec §4; issue 17): the leads
 * feature's source learns the CRM's before any page of the corporate loads data. Imported here,
 * not at the top of a route file, so the CRM code stays out of the main chunk (/login's).
 */
async function connectCrmLeadSource() {
  const [{ setCrmLeadSourceResolver }, { crmListSourceFor }] = await Promise.all([
    import('../../../features/leads/api/lead-source'),
    import('../../../features/crm/api/crm-lead-source'),
  ]);
  setCrmLeadSourceResolver(crmListSourceFor);
}

export const Route = createFileRoute('/corporativos/$corporativo')({
  beforeLoad: async ({ context: { queryClient, session }, params, abortController }) => {
    const [snapshot] = await Promise.all([
      settledSession(session, abortController.signal),
      connectCrmLeadSource(),
    ]);
    const user = snapshot.hasTag('signedIn') ? snapshot.context.user : null;
    if (user)
      await requireMembership(queryClient, user, snapshot.context.corporates, params.corporativo);
    return { user };
  },
  loader: async ({ context: { queryClient, user }, params }) => {
    // The general configuration beside the corporate: whether the chat bubble shows decides the
    // room the dashboard keeps for it, so known before the first draw it moves nothing (it
    // came after the page was drawn and narrowed it: 0.15 of layout shift at 1280 px).
    // `prefetchQuery` never throws: without it the page draws, and the bubble follows.
    if (user)
      await Promise.all([
        loadCorporate(queryClient, params.corporativo),
        queryClient.prefetchQuery(generalConfigQuery()),
      ]);
  },
  // The router's own wait (pendingMs, 1 s) before the loading screen: offered at once, the
  // pending screen was offered again as each of the page's loaders went on, and every offer
  // restarted React's render of the whole page being loaded (the shell drawn ~40 times before
  // its first commit). Until then the document's splash stays (index.html), and once shown the
  // loading screen goes as soon as the page is ready.
  pendingMinMs: 0,
  pendingComponent: CorporatePending,
  errorComponent: CorporateError,
  notFoundComponent: CorporateNotFound,
  component: Corporate,
});
