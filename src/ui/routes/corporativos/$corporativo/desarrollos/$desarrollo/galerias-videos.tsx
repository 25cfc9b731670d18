import { createFileRoute } from '@tanstack/react-router';
import { GalleriesPage } from '../../../../../features/inventory/components/galleries-page';

function VideoGalleries() {
  return <GalleriesPage video />;
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/galerias-videos',
)({
  component: VideoGalleries,
});
