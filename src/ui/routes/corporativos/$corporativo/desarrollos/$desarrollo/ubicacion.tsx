import { createFileRoute } from '@tanstack/react-router';
import { LocationPage } from '../../../../../features/inventory/components/location-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/ubicacion',
)({
  component: LocationPage,
});
