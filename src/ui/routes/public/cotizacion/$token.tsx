import { createFileRoute } from '@tanstack/react-router';
import { PublicQuotationPage } from '../../../features/quotes/components/public-quotation';

function PublicQuotation() {
  const { token } = Route.useParams();
  return <PublicQuotationPage token={token} />;
}

export const Route = createFileRoute('/public/cotizacion/$token')({ component: PublicQuotation });
