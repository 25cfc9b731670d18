import { createFileRoute } from '@tanstack/react-router';
import { QuotationPage } from '../../../../../features/quotes/components/quotation-page';
import {
  validateQuoteSearch,
  type QuoteSearch,
} from '../../../../../features/quotes/utils/quote-search';
import { onlyValidated } from '../../../../../lib/route-search';

function Quotation() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <QuotationPage
      search={search}
      onSearch={(next: QuoteSearch) => void navigate({ search: next, replace: true })}
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion',
)({
  validateSearch: onlyValidated(validateQuoteSearch),
  component: Quotation,
});
