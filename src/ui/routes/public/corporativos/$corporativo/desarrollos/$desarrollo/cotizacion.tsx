import { createFileRoute } from '@tanstack/react-router';
import { PublicSimulatorPage } from '../../../../../../features/quotes/components/public-simulator';
import {
  validateQuoteSearch,
  type QuoteSearch,
} from '../../../../../../features/quotes/utils/quote-search';

function PublicQuotationSimulator() {
  const { corporativo, desarrollo } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PublicSimulatorPage
      corporateSlug={corporativo}
      developmentSlug={desarrollo}
      search={search}
      onSearch={(next: QuoteSearch) => void navigate({ search: next, replace: true })}
    />
  );
}

export const Route = createFileRoute(
  '/public/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion',
)({
  validateSearch: validateQuoteSearch,
  component: PublicQuotationSimulator,
});
