import { createFileRoute } from '@tanstack/react-router';
import { useLandingRedirect } from '../../../../../../features/content/api/landing';
import { PublicSimulatorPage } from '../../../../../../features/quotes/components/public-simulator';
import { CorporateLabelsProvider } from '../../../../../../lib/corporate-labels';
import {
  validateQuoteSearch,
  type QuoteSearch,
} from '../../../../../../features/quotes/utils/quote-search';
import { onlyValidated } from '../../../../../../lib/route-search';

function PublicQuotationSimulator() {
  const { corporativo, desarrollo } = Route.useParams();
  // A visitor of the development's public simulator goes to its own landing page when the
  // administrator set one (spec §3 `reedireccionarLandingPage`/`landingPage`), as the public
  // availability does. The buyer's shared quotation (/public/cotizacion/:token) does not.
  useLandingRedirect(corporativo, desarrollo);
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    // The corporate's own labels (scheme names) in the visitor's language (issue 19).
    <CorporateLabelsProvider corporate={corporativo}>
      <PublicSimulatorPage
        corporateSlug={corporativo}
        developmentSlug={desarrollo}
        search={search}
        onSearch={(next: QuoteSearch) => void navigate({ search: next, replace: true })}
      />
    </CorporateLabelsProvider>
  );
}

export const Route = createFileRoute(
  '/public/corporativos/$corporativo/desarrollos/$desarrollo/cotizacion',
)({
  validateSearch: onlyValidated(validateQuoteSearch),
  component: PublicQuotationSimulator,
});
