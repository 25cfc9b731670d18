/** `/corporativos/{slug}/desarrollos/{slug}/registro-clientes`: walk-in registration at the showroom. */

import { createFileRoute } from '@tanstack/react-router';
import { useDevelopmentContext } from '../../../../../layouts/development-context';
import { ShowroomRegistration } from '../../../../../features/leads/components/showroom-registration';

function WalkIn() {
  const { corporate, development } = useDevelopmentContext();
  return <ShowroomRegistration corporate={corporate} development={development} />;
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/registro-clientes',
)({ component: WalkIn });
