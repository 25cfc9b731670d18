import { createFileRoute } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../../../../core/filters';
import { statusInfo } from '../../../../../../core/status';
import { card } from '../../../../../components/styles';
import {
  comparator,
  COMPARATOR_MAX,
  useComparator,
  type ComparatorItem,
} from '../../../../../components/inventory/comparator-store';
import { useDevelopmentContext } from '../../../../../components/inventory/development-context';
import { formatAreaIn, formatPrice } from '../../../../../components/inventory/inventory-data';
import { actionButton } from '../../../../../components/inventory/unit-detail';

function Comparator() {
  const { t } = useTranslation('inventory');
  const { display, colors } = useDevelopmentContext();
  const items = useComparator();
  const rows: [string, (i: ComparatorItem) => string | number][] = [
    ['type', (i) => t(`comparator.types.${i.tipo}`)],
    ['development', (i) => i.desarrollo],
    ['prototype', (i) => i.prototipo ?? (i.tipo === 'prototipo' ? i.nombre : '—')],
    ['status', (i) => (i.status ? statusInfo(i.status, colors).disponibilidad : '—')],
    [
      'price',
      (i) =>
        typeof i.precio === 'number' && i.precio > 0
          ? formatPrice(i.precio, display, i.divisa)
          : t('detail.priceHidden'),
    ],
    ['bedrooms', (i) => i.caracteristicas.recamaras],
    ['bathrooms', (i) => bathroomCount(i.caracteristicas)],
    ['parking', (i) => i.caracteristicas.cajones],
    ['areaTotal', (i) => formatAreaIn(i.metrajes.areaTotal, display)],
    [
      'areaInterior',
      (i) => (i.metrajes.areaInterior ? formatAreaIn(i.metrajes.areaInterior, display) : '—'),
    ],
    ['terraza', (i) => (i.metrajes.terraza ? formatAreaIn(i.metrajes.terraza, display) : '—')],
  ];
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
          <button type="button" className={actionButton} onClick={() => comparator.clear()}>
            {t('comparator.clear')}
          </button>
        ) : null}
      </div>
      {items.length === 0 ? (
        <p className={css({ color: 'muted' })}>{t('comparator.empty')}</p>
      ) : (
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
                {items.map((i) => (
                  <th
                    key={`${i.tipo}-${i.id}`}
                    scope="col"
                    className={css({ textAlign: 'left', p: 3, verticalAlign: 'top' })}
                  >
                    <div className={css({ fontSize: 'lg', fontWeight: 'bold' })}>{i.nombre}</div>
                    <button
                      type="button"
                      className={css({
                        fontSize: 'sm',
                        color: 'link',
                        cursor: 'pointer',
                        fontWeight: 'normal',
                        _hover: { textDecoration: 'underline' },
                      })}
                      onClick={() => comparator.remove(i)}
                      aria-label={t('comparator.removeItem', { name: i.nombre })}
                    >
                      {t('comparator.remove')}
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(([key, value]) => (
                <tr key={key} className={css({ borderTop: '1px solid token(colors.border)' })}>
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
                    {t(`comparator.rows.${key}`)}
                  </th>
                  {items.map((i) => (
                    <td
                      key={`${i.tipo}-${i.id}`}
                      className={css({ p: 3, fontVariantNumeric: 'tabular-nums' })}
                    >
                      {value(i)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

export const Route = createFileRoute(
  '/corporativos/$corporativo/desarrollos/$desarrollo/comparador',
)({
  component: Comparator,
});
