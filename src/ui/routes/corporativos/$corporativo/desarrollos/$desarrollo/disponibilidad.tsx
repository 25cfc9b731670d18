import { createFileRoute } from '@tanstack/react-router';
import { preloadAvailability } from '../../../../../features/inventory/api/preload-availability';
import { SignedInAvailability } from '../../../../../features/inventory/components/signed-in-availability';
import {
  searchNavigation,
  validateUnitSearch,
  type SearchChange,
  type UnitSearch,
} from '../../../../../features/inventory/utils/unit-search';
import { onlyValidated } from '../../../../../lib/route-search';

function Availability() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SignedInAvailability
      mode="grid"
      search={search}
      onSearch={(next: UnitSearch, how?: SearchChange) =>
        void navigate(searchNavigation(next, how))
      }
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/disponibilidad',
)({
  validateSearch: onlyValidated(validateUnitSearch),
  loader: ({ context, params }) =>
    preloadAvailability(context, params.corporativo, params.desarrollo),
  component: Availability,
});
