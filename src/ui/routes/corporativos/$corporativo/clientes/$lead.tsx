/** `/corporativos/{slug}/clientes/{leadId}`: one lead, deep-linkable. */

import { createFileRoute } from '@tanstack/react-router';
import { LeadDetail } from '../../../../components/leads/lead-detail';

function LeadPage() {
  const { lead } = Route.useParams();
  return <LeadDetail key={lead} leadId={lead} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/clientes/$lead')({
  component: LeadPage,
});
