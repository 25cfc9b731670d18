import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { bathroomCount, priceFrom } from '../../../../core/filters';
import type { Prototype } from '../../../../core/types';
import { card } from '../../../components/styles';
import { useComparator } from '../utils/comparator-store';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { allUnits, clustersQuery, mediaUrl, prototypesQuery } from '../../../lib/catalogue';
import { formatAreaIn, formatPrice } from '../../../lib/figures';
import { useLiveStream } from '../../../lib/live-stream';
import { actionButton, addToComparator } from './unit-detail';

export function PrototypesPage() {
  const { t } = useTranslation('inventory');
  const { corporate, development, display, colors } = useDevelopmentContext();
  useLiveStream();
  const prototypes = useQuery(prototypesQuery(corporate.id, development.id));
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const scope = { idCorporativo: corporate.id, idDesarrollo: development.id };
  const compared = useComparator(scope);
  const figures = useMemo(() => {
    const units = allUnits(clusters.data);
    const map = new Map<string, { from: number | undefined; available: number; total: number }>();
    for (const p of prototypes.data ?? []) {
      const mine = units.filter((u) => u.idPrototipo === p.id);
      map.set(p.id, {
        from: priceFrom(mine, colors),
        available: mine.filter((u) => u.status === 'Disponible').length,
        total: mine.length,
      });
    }
    return map;
  }, [clusters.data, prototypes.data, colors]);

  if (prototypes.isPending) return <p role="status">{t('availability.loading')}</p>;
  if (prototypes.isError) return <p role="alert">{t('availability.loadFailed')}</p>;
  const active = prototypes.data.filter((p) => p.activo);
  const compare = (p: Prototype) =>
    addToComparator(scope, { tipo: 'prototipo', id: p.id, nombre: p.nombre });
  return (
    <ul
      className={css({
        display: 'grid',
        gap: 4,
        gridTemplateColumns: 'repeat(auto-fill, minmax(18rem, 1fr))',
      })}
    >
      {active.map((p) => {
        const f = figures.get(p.id);
        const inComparator = compared.some((c) => c.tipo === 'prototipo' && c.id === p.id);
        return (
          <li
            key={p.id}
            className={`${card()} ${css({ overflow: 'hidden', display: 'flex', flexDirection: 'column' })}`}
          >
            {p.imagen ? (
              <img
                src={mediaUrl(p.imagen)}
                alt={t('prototypes.plan', { name: p.nombre })}
                className={css({
                  w: '100%',
                  aspectRatio: '4 / 3',
                  objectFit: 'cover',
                  bg: '#f0f3f7',
                })}
              />
            ) : null}
            <div
              className={css({ p: 4, display: 'flex', flexDirection: 'column', gap: 2, flex: 1 })}
            >
              <h3 className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{p.nombre}</h3>
              <p className={css({ fontSize: 'sm', color: 'muted' })}>
                {t('prototypes.summary', {
                  bedrooms: t('prototypes.bedrooms', { count: p.caracteristicas.recamaras }),
                  bathrooms: t('prototypes.bathrooms', {
                    count: bathroomCount(p.caracteristicas),
                  }),
                  parking: t('prototypes.parking', { count: p.caracteristicas.cajones }),
                })}
              </p>
              <p className={css({ fontSize: 'sm' })}>
                {t('prototypes.area', { area: formatAreaIn(p.metrajes.areaTotal, display) })}
              </p>
              <p className={css({ fontWeight: 'semibold' })}>
                {f?.from !== undefined
                  ? t('list.priceFromValue', {
                      price: formatPrice(f.from, display, development.divisa),
                    })
                  : t('list.noPrice')}
              </p>
              <p className={css({ fontSize: 'sm', color: 'muted' })}>
                {t('prototypes.available', { available: f?.available ?? 0, count: f?.total ?? 0 })}
              </p>
              <div className={css({ mt: 'auto', pt: 2 })}>
                <button
                  type="button"
                  className={actionButton}
                  disabled={inComparator}
                  onClick={() => compare(p)}
                >
                  {inComparator ? t('detail.inComparator') : t('detail.compare')}
                </button>
              </div>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
