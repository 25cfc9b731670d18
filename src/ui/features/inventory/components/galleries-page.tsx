import { useTranslation } from 'react-i18next';
import { Gallery } from './gallery';
import { useDevelopmentContext } from '../../../layouts/development-context';

/** The development's image gallery, or its video gallery with `video`. */
export function GalleriesPage({ video = false }: { video?: boolean }) {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  return video ? (
    <Gallery
      items={development.galeriaVideos?.items ?? []}
      title={t('pages.galerias-videos')}
      video
    />
  ) : (
    <Gallery items={development.galeria.items} title={t('pages.galerias')} />
  );
}
