/**
 * A development's presentation: its text, stages, first gallery image, project name and
 * subcategories (`proyecto`, `subcategorias`: development settings), and its figures. The price from and the rent (spec §5: the
 * lowest numeric `precioRenta` among units whose price may be shown) are the display rows' (built
 * in the core worker in the chosen currency, issue 20).
 */

import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { card } from '../../../components/styles';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { allUnits, clustersQuery, mediaUrl } from '../../../lib/catalogue';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { useDateFormat } from '../../../lib/dates';
import { useDisplayRows } from '../hooks/use-display-rows';
import { subcategoriesOf } from '../../../../core/development-settings';

/** The development's subcategories (spec §3 `subcategorias`); nothing when it has none. */
export function DevelopmentSubcategories({ items }: { items: readonly string[] }) {
  const { t } = useTranslation('inventory');
  if (items.length === 0) return null;
  return (
    <ul
      aria-label={t('presentation.subcategories')}
      data-testid="development-subcategories"
      className={css({ display: 'flex', flexWrap: 'wrap', gap: 2, mt: -2 })}
    >
      {items.map((item) => (
        <li
          key={item}
          className={css({
            px: 3,
            py: 1,
            borderRadius: 'full',
            border: '1px solid token(colors.border)',
            fontSize: 'sm',
          })}
        >
          {item}
        </li>
      ))}
    </ul>
  );
}

export function PresentationPage() {
  const { t } = useTranslation('inventory');
  const { corporate, development, display, colors } = useDevelopmentContext();
  const corporateLabel = useCorporateLabel();
  const formatDate = useDateFormat(corporate.zonaHoraria);
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const units = useMemo(() => allUnits(clusters.data), [clusters.data]);
  const figures = useDisplayRows(
    `dev:${development.id}`,
    units,
    colors,
    display,
    development.divisa,
  );
  const from = clusters.data ? figures.rows?.priceFromText : undefined;
  const rent = clusters.data ? figures.rows?.rentText : undefined;
  const available = units.filter((u) => u.status === 'Disponible').length;
  const stat = css({ display: 'flex', flexDirection: 'column', gap: 1, p: 4 });
  return (
    <div
      className={css({
        display: 'grid',
        gap: 4,
        gridTemplateColumns: { base: '1fr', lg: '2fr 1fr' },
        alignItems: 'start',
      })}
    >
      <article
        className={`${card()} ${css({ p: 6, display: 'flex', flexDirection: 'column', gap: 4 })}`}
      >
        <h2 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>
          {development.presentacion.titulo}
        </h2>
        {development.proyecto ? (
          <p data-testid="development-project" className={css({ color: 'muted', mt: -2 })}>
            {t('presentation.project', { name: development.proyecto })}
          </p>
        ) : null}
        <DevelopmentSubcategories items={subcategoriesOf(development)} />
        <p className={css({ lineHeight: 1.7 })}>{development.presentacion.descripcion}</p>
        {development.tagsEtapaEntrega.length > 0 ? (
          <ul
            aria-label={t('list.stages')}
            className={css({ display: 'flex', flexWrap: 'wrap', gap: 2 })}
          >
            {development.tagsEtapaEntrega.map((tag) => (
              <li
                key={tag}
                className={css({
                  px: 3,
                  py: 1,
                  borderRadius: 'full',
                  bg: 'rgba(11,107,203,0.1)',
                  color: 'link',
                  fontSize: 'sm',
                  fontWeight: 'medium',
                })}
              >
                {corporateLabel('etapa', tag)}
              </li>
            ))}
          </ul>
        ) : null}
        {development.galeria.items[0] ? (
          <img
            src={mediaUrl(development.galeria.items[0].imagenRef.idMedia)}
            alt={development.galeria.items[0].titulo}
            className={css({
              w: '100%',
              borderRadius: 'lg',
              aspectRatio: '16 / 9',
              objectFit: 'cover',
            })}
          />
        ) : null}
      </article>
      <aside
        className={`${card()} ${css({ display: 'grid', gridTemplateColumns: '1fr 1fr' })}`}
        aria-label={t('presentation.figures')}
        data-testid="presentation-figures"
        data-rows-engine={figures.engine}
        data-rows-version={figures.version}
      >
        <div className={stat}>
          <span className={css({ fontSize: 'sm', color: 'muted' })}>{t('list.priceFrom')}</span>
          <strong className={css({ fontSize: 'lg' })}>{from ?? '—'}</strong>
        </div>
        {rent ? (
          <div className={stat} data-testid="rent-from">
            <span className={css({ fontSize: 'sm', color: 'muted' })}>{t('list.rentFrom')}</span>
            <strong className={css({ fontSize: 'lg' })}>{rent}</strong>
          </div>
        ) : null}
        <div className={stat}>
          <span className={css({ fontSize: 'sm', color: 'muted' })}>
            {t('presentation.available')}
          </span>
          <strong className={css({ fontSize: 'lg' })}>
            {clusters.data
              ? t('presentation.availableOf', { available, total: units.length })
              : '—'}
          </strong>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'sm', color: 'muted' })}>
            {t('presentation.delivery')}
          </span>
          <strong className={css({ fontSize: 'lg' })}>
            {development.fechaEntrega ? formatDate(development.fechaEntrega, 'monthYear') : '—'}
          </strong>
        </div>
        <div className={stat}>
          <span className={css({ fontSize: 'sm', color: 'muted' })}>
            {t('presentation.clusters')}
          </span>
          <strong className={css({ fontSize: 'lg' })}>{clusters.data?.length ?? '—'}</strong>
        </div>
      </aside>
    </div>
  );
}
