import { useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../../core/filters';
import { card } from '../../../components/styles';
import {
  comparator,
  COMPARATOR_MAX,
  useComparator,
  type ComparatorScope,
} from '../utils/comparator-store';
import { comparatorEntries, type ComparatorEntry } from '../utils/comparator-view';
import { useDevelopmentContext } from '../../../layouts/development-context';
import { allUnits, clustersQuery, prototypesQuery } from '../../../lib/catalogue';
import { formatAreaIn, formatPrice } from '../../../lib/figures';
import { useLiveStream } from '../../../lib/live-stream';
import { useDisplayRows } from '../hooks/use-display-rows';
import { StatusBadge } from './status-badge';
import { actionButton } from './unit-detail';

type Present = Exclude<ComparatorEntry, { kind: 'gone' }>;

const ROWS = [
  'type',
  'prototype',
  'status',
  'price',
  'bedrooms',
  'bathrooms',
  'parking',
  'areaTotal',
  'areaInterior',
  'areaBalcon',
  'terraza',
] as const;

/**
 * The development's comparator: the stored items, each shown with the inventory's current
 * figures (status, price and whether it may show), kept live by the event stream.
 */
export function ComparatorPage() {
  const { t } = useTranslation('inventory');
  const { corporate, development, display, colors } = useDevelopmentContext();
  useLiveStream();
  const scope: ComparatorScope = { idCorporativo: corporate.id, idDesarrollo: development.id };
  const items = useComparator(scope);
  const clusters = useQuery(clustersQuery(corporate.id, development.id));
  const prototypes = useQuery(prototypesQuery(corporate.id, development.id));
  // A unit's status, shown price and areas: the display rows the core worker builds (issue 20).
  const units = useMemo(() => (clusters.data ? allUnits(clusters.data) : []), [clusters.data]);
  const displayRows = useDisplayRows(
    `dev:${development.id}`,
    units,
    colors,
    display,
    development.divisa,
  );
  const entries = useMemo(
    () =>
      clusters.data && prototypes.data
        ? comparatorEntries(items, {
            units: allUnits(clusters.data),
            prototypes: prototypes.data,
            colors,
            divisa: development.divisa,
          })
        : null,
    [items, clusters.data, prototypes.data, colors, development.divisa],
  );

  const cell = (e: Present, row: (typeof ROWS)[number]): ReactNode => {
    const m = e.metrajes;
    const shown = e.kind === 'unidad' ? displayRows.byId?.get(e.item.id) : undefined;
    if (shown) {
      switch (row) {
        case 'status':
          return <StatusBadge color={shown.hexColor} label={shown.statusLabel} />;
        case 'price':
          return shown.priceText ?? t('detail.priceHidden');
        case 'areaTotal':
          return shown.areaText;
        case 'areaInterior':
          return shown.interiorText ?? '—';
        case 'areaBalcon':
          return shown.balconyText ?? '—';
        case 'terraza':
          return shown.terraceText ?? '—';
        default:
          break;
      }
    }
    switch (row) {
      case 'type':
        return t(`comparator.types.${e.kind}`);
      case 'prototype':
        return e.kind === 'unidad' ? (e.prototipo ?? '—') : e.nombre;
      case 'status':
        return e.kind === 'unidad' ? (
          <StatusBadge color={e.status.hexColor} label={e.status.label} />
        ) : (
          '—'
        );
      case 'price':
        if (e.precio === undefined) return t('detail.priceHidden');
        return e.kind === 'prototipo'
          ? t('list.priceFromValue', { price: formatPrice(e.precio, display, e.divisa) })
          : formatPrice(e.precio, display, e.divisa);
      case 'bedrooms':
        return e.caracteristicas.recamaras;
      case 'bathrooms':
        return bathroomCount(e.caracteristicas);
      case 'parking':
        return e.caracteristicas.cajones;
      case 'areaTotal':
        return formatAreaIn(m.areaTotal, display);
      case 'areaInterior':
        return m.areaInterior ? formatAreaIn(m.areaInterior, display) : '—';
      case 'areaBalcon':
        return m.areaBalcon ? formatAreaIn(m.areaBalcon, display) : '—';
      case 'terraza':
        return m.terraza ? formatAreaIn(m.terraza, display) : '—';
      default: {
        const unhandled: never = row;
        throw new Error(`unknown row ${String(unhandled)}`);
      }
    }
  };

  let body: ReactNode;
  if (items.length === 0) {
    body = <p className={css({ color: 'muted' })}>{t('comparator.empty')}</p>;
  } else if (clusters.isError || prototypes.isError) {
    body = (
      <p role="alert" className={css({ color: 'danger' })}>
        {t('availability.loadFailed')}
      </p>
    );
  } else if (!entries) {
    body = (
      <p role="status" className={css({ color: 'muted' })}>
        {t('availability.loading')}
      </p>
    );
  } else {
    body = (
      <div className={css({ overflowX: 'auto' })}>
        <table
          className={css({
            w: '100%',
            borderCollapse: 'collapse',
            tableLayout: 'fixed',
            minW: '40rem',
          })}
        >
          <caption className={css({ srOnly: true })}>{t('comparator.caption')}</caption>
          <thead>
            <tr>
              <td className={css({ w: '11rem' })} />
              {entries.map((e) => (
                <th
                  key={`${e.item.tipo}-${e.item.id}`}
                  scope="col"
                  data-gone={e.kind === 'gone' ? 'true' : undefined}
                  className={css({ textAlign: 'left', p: 3, verticalAlign: 'top' })}
                >
                  <div className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{e.nombre}</div>
                  {e.kind === 'gone' ? (
                    <div className={css({ fontSize: 'sm', color: 'danger', fontWeight: 'medium' })}>
                      {t('comparator.gone')}
                    </div>
                  ) : null}
                  <button
                    type="button"
                    className={css({
                      fontSize: 'sm',
                      color: 'link',
                      cursor: 'pointer',
                      fontWeight: 'normal',
                      _hover: { textDecoration: 'underline' },
                    })}
                    onClick={() => comparator.remove(scope, e.item)}
                    aria-label={t('comparator.removeItem', { name: e.nombre })}
                  >
                    {t('comparator.remove')}
                  </button>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <tr key={row} className={css({ borderTop: '1px solid token(colors.border)' })}>
                <th
                  scope="row"
                  className={css({
                    textAlign: 'left',
                    p: 3,
                    color: 'muted',
                    fontWeight: 'medium',
                    fontSize: 'sm',
                  })}
                >
                  {t(`comparator.rows.${row}`)}
                </th>
                {entries.map((e) => (
                  <td
                    key={`${e.item.tipo}-${e.item.id}`}
                    className={css({
                      p: 3,
                      fontVariantNumeric: 'tabular-nums',
                      '&[data-gone="true"]': { color: 'muted' },
                    })}
                    data-gone={e.kind === 'gone' ? 'true' : undefined}
                  >
                    {e.kind === 'gone'
                      ? row === 'type'
                        ? t(`comparator.types.${e.item.tipo}`)
                        : row === 'status'
                          ? t('comparator.unavailable')
                          : '—'
                      : cell(e, row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }

  return (
    <section
      aria-labelledby="comparator-title"
      className={`${card()} ${css({ p: 5, display: 'flex', flexDirection: 'column', gap: 4 })}`}
    >
      <div className={css({ display: 'flex', alignItems: 'center', gap: 3, flexWrap: 'wrap' })}>
        <h2 id="comparator-title" className={css({ fontSize: 'xl', fontWeight: 'bold', flex: 1 })}>
          {t('comparator.title', { count: items.length, max: COMPARATOR_MAX })}
        </h2>
        {items.length > 0 ? (
          <button type="button" className={actionButton} onClick={() => comparator.clear(scope)}>
            {t('comparator.clear')}
          </button>
        ) : null}
      </div>
      {body}
    </section>
  );
}
