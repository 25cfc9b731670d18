import { createFileRoute } from '@tanstack/react-router';
import { SignedInAvailability } from '../../../../../features/inventory/components/signed-in-availability';
import {
  validateUnitSearch,
  type UnitSearch,
} from '../../../../../features/inventory/utils/unit-search';

function Availability() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <SignedInAvailability
      mode="grid"
      search={search}
      onSearch={(next: UnitSearch) => void navigate({ search: next })}
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/disponibilidad',
)({
  validateSearch: validateUnitSearch,
  component: Availability,
});
