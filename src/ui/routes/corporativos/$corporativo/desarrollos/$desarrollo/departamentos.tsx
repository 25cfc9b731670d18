import { createFileRoute } from '@tanstack/react-router';
import { SignedInAvailability } from '../../../../../features/inventory/components/signed-in-availability';
import {
  searchNavigation,
  validateUnitSearch,
  type SearchChange,
  type UnitSearch,
} from '../../../../../features/inventory/utils/unit-search';
import { onlyValidated } from '../../../../../lib/route-search';

function ListedUnits() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SignedInAvailability
      mode="listed"
      search={search}
      onSearch={(next: UnitSearch, how?: SearchChange) =>
        void navigate(searchNavigation(next, how))
      }
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/departamentos',
)({
  validateSearch: onlyValidated(validateUnitSearch),
  component: ListedUnits,
});
