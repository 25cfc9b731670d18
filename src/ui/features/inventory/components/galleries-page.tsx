import { useTranslation } from 'react-i18next';
import { Gallery } from './gallery';
import { MediaUpload } from './media-upload';
import { useDevelopmentContext } from '../../../layouts/development-context';

/**
 * The development's image gallery, or its video gallery with `video`; administrators get the
 * upload control above it (media-upload.tsx).
 */
export function GalleriesPage({ video = false }: { video?: boolean }) {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  return video ? (
    <>
      <MediaUpload tipo="video" />
      <Gallery
        items={development.galeriaVideos?.items ?? []}
        title={t('pages.galerias-videos')}
        video
      />
    </>
  ) : (
    <>
      <MediaUpload tipo="imagen" />
      <Gallery items={development.galeria.items} title={t('pages.galerias')} />
    </>
  );
}
