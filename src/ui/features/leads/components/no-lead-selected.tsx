/** `/corporativos/{slug}/clientes` with no lead selected: a hint beside the list (wide screens). */

import { useTranslation } from 'react-i18next';
import { css, cx } from 'styled-system/css';
import { sectionCard } from '../utils/lead-styles';

export function NoLeadSelected() {
  const { t } = useTranslation('leads');
  return (
    <div
      className={cx(
        sectionCard,
        css({ display: 'grid', placeItems: 'center', minH: '20rem', textAlign: 'center' }),
      )}
    >
      <p className={css({ color: 'muted', maxW: '24rem' })}>{t('detail.noneSelected')}</p>
    </div>
  );
}
