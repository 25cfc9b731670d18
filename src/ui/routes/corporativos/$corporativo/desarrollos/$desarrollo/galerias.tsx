import { createFileRoute } from '@tanstack/react-router';
import { GalleriesPage } from '../../../../../features/inventory/components/galleries-page';

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo/galerias')(
  {
    component: GalleriesPage,
  },
);
