/**
 * `/corporativos/{slug}/clientes/{leadId}/cotizaciones/{quotationId}`: one saved quotation of a
 * client, opened from the client's page (issue 19, defect 2).
 */

import { createFileRoute } from '@tanstack/react-router';
import { QuotationDetail } from '../../../../features/quotes/components/quotation-detail';

function QuotationDetailPage() {
  const { lead, cotizacion } = Route.useParams();
  return <QuotationDetail key={cotizacion} leadId={lead} quotationId={cotizacion} />;
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/clientes/$lead_/cotizaciones/$cotizacion',
)({
  component: QuotationDetailPage,
});
