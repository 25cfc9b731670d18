/** `/corporativos/{slug}/clientes` with no lead selected: a hint beside the list (wide screens). */

import { createFileRoute } from '@tanstack/react-router';
import { NoLeadSelected } from '../../../../features/leads/components/no-lead-selected';

export const Route = createFileRoute('/corporativos/$corporativo/clientes/')({
  component: NoLeadSelected,
});
