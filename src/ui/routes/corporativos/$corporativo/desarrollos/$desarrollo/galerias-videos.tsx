import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Gallery } from '../../../../../components/inventory/gallery';
import { useDevelopmentContext } from '../../../../../components/inventory/development-context';

function VideoGalleries() {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  return (
    <Gallery
      items={development.galeriaVideos?.items ?? []}
      title={t('pages.galerias-videos')}
      video
    />
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/galerias-videos',
)({
  component: VideoGalleries,
});
