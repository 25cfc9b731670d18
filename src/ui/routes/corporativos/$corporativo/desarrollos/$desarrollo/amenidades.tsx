import { createFileRoute } from '@tanstack/react-router';
import { AmenitiesPage } from '../../../../../features/inventory/components/amenities-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/amenidades',
)({
  component: AmenitiesPage,
});
