import { createFileRoute } from '@tanstack/react-router';
import { useLandingRedirect } from '../../../../../../features/content/api/landing';
import { PublicAvailabilityPage } from '../../../../../../features/inventory/components/public-availability';
import {
  searchNavigation,
  validateUnitSearch,
  type SearchChange,
  type UnitSearch,
} from '../../../../../../features/inventory/utils/unit-search';
import { onlyValidated } from '../../../../../../lib/route-search';

function PublicSimpleAvailability() {
  const { corporativo, desarrollo } = Route.useParams();
  useLandingRedirect(corporativo, desarrollo);
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <PublicAvailabilityPage
      corporateSlug={corporativo}
      developmentSlug={desarrollo}
      mode="table"
      search={search}
      onSearch={(next: UnitSearch, how?: SearchChange) =>
        void navigate(searchNavigation(next, how))
      }
    />
  );
}

export const Route = createFileRoute(
  '/public/corporativos/$corporativo/desarrollos/$desarrollo/disponibilidad-simple',
)({
  validateSearch: onlyValidated(validateUnitSearch),
  component: PublicSimpleAvailability,
});
