import { createFileRoute } from '@tanstack/react-router';
import { PresentationPage } from '../../../../../features/inventory/components/presentation-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/presentacion',
)({
  component: PresentationPage,
});
