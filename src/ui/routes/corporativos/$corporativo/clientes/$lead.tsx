/** `/corporativos/{slug}/clientes/{leadId}`: one lead, deep-linkable. */

import { createFileRoute } from '@tanstack/react-router';
import { leadQuery } from '../../../../features/leads/api/lead-queries';
import { leadSourceFor } from '../../../../features/leads/api/lead-source';
import { LeadDetail } from '../../../../features/leads/components/lead-detail';
import { LeadSyncPanel } from '../../../../features/crm/components/lead-sync-panel';
import { useCorporateContext } from '../../../../layouts/corporate-context';
import { preloadCorporatePage } from '../../../../lib/corporate-access';

function LeadPage() {
  const { lead } = Route.useParams();
  const { corporate } = useCorporateContext();
  return (
    <LeadDetail
      key={lead}
      leadId={lead}
      syncPanel={<LeadSyncPanel corporateId={corporate.id} leadId={lead} />}
    />
  );
}

export const Route = createFileRoute('/corporativos/$corporativo/clientes/$lead')({
  loader: ({ context, params }) =>
    preloadCorporatePage(context, params.corporativo, (corporate) =>
      context.queryClient.ensureQueryData(
        leadQuery(leadSourceFor(corporate), corporate.id, params.lead),
      ),
    ),
  component: LeadPage,
});
