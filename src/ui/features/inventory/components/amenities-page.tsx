import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';

export function AmenitiesPage() {
  const { t } = useTranslation('inventory');
  const { development } = useDevelopmentContext();
  return (
    <section aria-labelledby="amenities-title" className={`${card()} ${css({ p: 6 })}`}>
      <h2 id="amenities-title" className={css({ fontSize: 'xl', fontWeight: 'bold', mb: 4 })}>
        {t('pages.amenidades')}
      </h2>
      {development.amenidades.length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('amenities.none')}</p>
      ) : (
        <ul
          className={css({
            display: 'grid',
            gridTemplateColumns: 'repeat(auto-fill, minmax(14rem, 1fr))',
            gap: 3,
          })}
        >
          {development.amenidades.map((a) => (
            <li
              key={a}
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: 3,
                p: 4,
                borderRadius: 'lg',
                border: '1px solid token(colors.border)',
                fontWeight: 'medium',
              })}
            >
              <span
                aria-hidden="true"
                className={css({
                  display: 'grid',
                  placeItems: 'center',
                  w: 8,
                  h: 8,
                  borderRadius: 'full',
                  bg: 'primary',
                  color: 'primaryText',
                })}
              >
                ✓
              </span>
              {a}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
