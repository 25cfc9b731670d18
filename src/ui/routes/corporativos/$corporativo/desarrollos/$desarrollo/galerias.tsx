import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Gallery } from '../../../../../components/inventory/gallery';
import { useDevelopmentContext } from '../../../../../components/inventory/development-context';

function Galleries() {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  return <Gallery items={development.galeria.items} title={t('pages.galerias')} />;
}

export const Route = createFileRoute('/corporativos/$corporativo/desarrollos/$desarrollo/galerias')(
  {
    component: Galleries,
  },
);
