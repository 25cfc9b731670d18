import { createFileRoute } from '@tanstack/react-router';
import { PrototypesPage } from '../../../../../features/inventory/components/prototypes-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/prototipos',
)({
  component: PrototypesPage,
});
