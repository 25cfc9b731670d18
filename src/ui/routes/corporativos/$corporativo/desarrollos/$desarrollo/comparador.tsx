import { createFileRoute } from '@tanstack/react-router';
import { ComparatorPage } from '../../../../../features/inventory/components/comparator-page';

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/comparador',
)({
  component: ComparatorPage,
});
