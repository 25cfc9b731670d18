import { createFileRoute } from '@tanstack/react-router';
import { ExtrasPage } from '../../../../../features/quotes/components/extras-page';
import {
  validateQuoteSearch,
  type QuoteSearch,
} from '../../../../../features/quotes/utils/quote-search';
import { onlyValidated } from '../../../../../lib/route-search';

function QuotationExtras() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <ExtrasPage
      search={search}
      onSearch={(next: QuoteSearch) => void navigate({ search: next, replace: true })}
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion-adicionales',
)({
  validateSearch: onlyValidated(validateQuoteSearch),
  component: QuotationExtras,
});
