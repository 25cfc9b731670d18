/**
 * The simple availability: the same units as a table, sortable by any column (click a
 * header; again to reverse). Prices follow the status rules; areas the chosen unit.
 */

import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../core/filters';
import { statusInfo, isPriceVisible } from '../../../core/status';
import type { StatusColors, Unit } from '../../../core/types';
import { formatAreaIn, formatPrice, textOn, type Display } from './inventory-data';

type Column =
  | 'nombre'
  | 'cluster'
  | 'nivel'
  | 'prototipo'
  | 'recamaras'
  | 'banios'
  | 'cajones'
  | 'area'
  | 'precio'
  | 'status';
const COLUMNS: Column[] = [
  'nombre',
  'cluster',
  'nivel',
  'prototipo',
  'recamaras',
  'banios',
  'cajones',
  'area',
  'precio',
  'status',
];

export function UnitsTable({
  units,
  colors,
  display,
  clusterNames,
  prototypeNames,
  selectedId,
  onSelect,
  caption,
}: {
  units: readonly Unit[];
  colors: StatusColors;
  display: Display;
  clusterNames: ReadonlyMap<string, string>;
  prototypeNames: ReadonlyMap<string, string>;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  caption: string;
}) {
  const { t } = useTranslation('inventory');
  const [sort, setSort] = useState<{ column: Column; dir: 1 | -1 }>({ column: 'nombre', dir: 1 });
  const rows = useMemo(() => {
    const value = (u: Unit): string | number => {
      switch (sort.column) {
        case 'nombre':
          return u.nombre;
        case 'cluster':
          return clusterNames.get(u.idCluster) ?? '';
        case 'nivel':
          return u.nivel;
        case 'prototipo':
          return prototypeNames.get(u.idPrototipo) ?? '';
        case 'recamaras':
          return u.caracteristicas.recamaras;
        case 'banios':
          return bathroomCount(u.caracteristicas);
        case 'cajones':
          return u.caracteristicas.cajones;
        case 'area':
          return u.metrajes.areaTotal;
        case 'precio':
          // Hidden prices sort after every visible one.
          return isPriceVisible(u, colors) && u.precio > 0 ? u.precio : Number.POSITIVE_INFINITY;
        case 'status':
          return statusInfo(u.status, colors).disponibilidad;
        default: {
          const unhandled: never = sort.column;
          throw new Error(`unknown column ${String(unhandled)}`);
        }
      }
    };
    return [...units].sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      const cmp =
        typeof va === 'number' && typeof vb === 'number'
          ? va === vb
            ? 0
            : va < vb
              ? -1
              : 1
          : String(va).localeCompare(String(vb), undefined, { numeric: true });
      return cmp * sort.dir || a.nombre.localeCompare(b.nombre, undefined, { numeric: true });
    });
  }, [units, sort, clusterNames, prototypeNames, colors]);

  const th = css({
    position: 'sticky',
    top: 0,
    bg: 'surface',
    textAlign: 'left',
    fontSize: 'xs',
    textTransform: 'uppercase',
    color: 'muted',
    borderBottom: '2px solid token(colors.border)',
    whiteSpace: 'nowrap',
  });
  const td = css({
    px: 3,
    py: 2,
    fontSize: 'sm',
    borderBottom: '1px solid token(colors.border)',
    whiteSpace: 'nowrap',
  });
  return (
    <div
      className={css({
        overflow: 'auto',
        bg: 'surface',
        border: '1px solid token(colors.border)',
        borderRadius: 'xl',
        maxH: '75vh',
      })}
    >
      <table className={css({ w: '100%', borderCollapse: 'collapse' })}>
        <caption className={css({ textAlign: 'left', p: 3, fontWeight: 'semibold' })}>
          {caption}
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((col) => (
              <th
                key={col}
                className={th}
                scope="col"
                aria-sort={
                  sort.column === col ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'
                }
              >
                <button
                  type="button"
                  className={css({
                    px: 3,
                    py: 2,
                    cursor: 'pointer',
                    fontWeight: 'semibold',
                    textTransform: 'inherit',
                  })}
                  onClick={() =>
                    setSort((s) =>
                      s.column === col
                        ? { column: col, dir: s.dir === 1 ? -1 : 1 }
                        : { column: col, dir: 1 },
                    )
                  }
                >
                  {t(`table.${col}`)}
                  {sort.column === col ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
                </button>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((u) => {
            const info = statusInfo(u.status, colors);
            const visible = isPriceVisible(u, colors) && u.precio > 0;
            return (
              <tr
                key={u.id}
                aria-selected={u.id === selectedId}
                className={css({
                  _hover: { bg: 'rgba(0,0,0,0.03)' },
                  '&[aria-selected="true"]': { bg: 'rgba(11,107,203,0.08)' },
                })}
              >
                <td className={td}>
                  <button
                    type="button"
                    className={css({
                      color: 'link',
                      fontWeight: 'semibold',
                      cursor: 'pointer',
                      _hover: { textDecoration: 'underline' },
                    })}
                    aria-label={t('grid.unitLabel', {
                      name: u.nombre,
                      status: info.disponibilidad,
                    })}
                    onClick={() => onSelect(u.id)}
                  >
                    {u.nombre}
                  </button>
                </td>
                <td className={td}>{clusterNames.get(u.idCluster) ?? '—'}</td>
                <td className={td}>{u.nivel}</td>
                <td className={td}>{prototypeNames.get(u.idPrototipo) ?? '—'}</td>
                <td className={td}>{u.caracteristicas.recamaras}</td>
                <td className={td}>{bathroomCount(u.caracteristicas)}</td>
                <td className={td}>{u.caracteristicas.cajones}</td>
                <td className={td}>{formatAreaIn(u.metrajes.areaTotal, display)}</td>
                <td className={td}>
                  {visible ? formatPrice(u.precio, display, u.divisa) : t('detail.priceHidden')}
                </td>
                <td className={td}>
                  <span
                    className={css({
                      px: 2,
                      py: 0.5,
                      borderRadius: 'full',
                      fontSize: 'xs',
                      fontWeight: 'semibold',
                    })}
                    style={{ background: info.hexColor, color: textOn(info.hexColor) }}
                  >
                    {info.disponibilidad}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
