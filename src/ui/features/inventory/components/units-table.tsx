/**
 * The simple availability: the same units as a table, sortable by any column (click a
 * header; again to reverse). What each row shows of a unit — its status colour and label, its
 * price (hidden or converted to the chosen currency) and its area in the chosen unit — is the
 * display row the core worker built (hooks/use-display-rows.ts); nothing here applies the status
 * rules or converts a figure.
 */

import { memo, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../../core/filters';
import type { DisplayRow } from '../../../../core/display-rows';
import type { Unit } from '../../../../core/types';
import { StatusBadge } from './status-badge';
import { useNow } from '../hooks/use-now';
import { holdLeftText, statusWithHold } from '../utils/hold-time';
import { COLUMNS, sortUnits, type Column, type UnitsSort } from '../utils/units-sort';

/**
 * The secondary columns show only while the table's box is wide enough for them, so the unit,
 * its area, price and status stay in view beside the filters and the unit detail (1440 px wide,
 * a unit open) instead of behind a horizontal scroll; the detail shows what they would. They
 * go in this order as the box narrows: tower, level, parking, bathrooms, type, bedrooms. Each
 * width is what the columns up to it take with the seed's data in the wider of Spanish and
 * English, plus a sort arrow; longer data falls back on the box's horizontal scroll.
 */
const COLUMN_FITS: Partial<Record<Column, string>> = {
  cluster: css({ '@container (width < 61rem)': { display: 'none' } }),
  nivel: css({ '@container (width < 57rem)': { display: 'none' } }),
  cajones: css({ '@container (width < 53rem)': { display: 'none' } }),
  banios: css({ '@container (width < 48.5rem)': { display: 'none' } }),
  prototipo: css({ '@container (width < 44.5rem)': { display: 'none' } }),
  recamaras: css({ '@container (width < 36rem)': { display: 'none' } }),
};

/**
 * Memoised: a settings change re-renders the page around it, but the table waits for the rows the
 * worker builds for the new settings (a new `rows`), so its thousands of cells render once.
 */
export const UnitsTable = memo(function UnitsTable({
  units,
  rows: displayRows,
  engine,
  version,
  clusterNames,
  prototypeNames,
  selectedId,
  onSelect,
  caption,
}: {
  units: readonly Unit[];
  /** Each unit's display row, from the core worker. */
  rows: ReadonlyMap<string, DisplayRow>;
  /** Where the rows were built and how many answers so far (marked on the table for tests). */
  engine: 'worker' | 'main';
  version: number;
  clusterNames: ReadonlyMap<string, string>;
  prototypeNames: ReadonlyMap<string, string>;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  caption: string;
}) {
  const { t } = useTranslation('inventory');
  const anyHeld = useMemo(() => units.some((u) => u.apartado), [units]);
  const now = useNow(30_000, anyHeld);
  const [sort, setSort] = useState<UnitsSort>({ column: 'nombre', dir: 1 });
  const rows = useMemo(
    () => sortUnits(units, sort, { rows: displayRows, clusterNames, prototypeNames }),
    [units, sort, clusterNames, prototypeNames, displayRows],
  );

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
    px: 2,
    py: 2,
    fontSize: 'sm',
    borderBottom: '1px solid token(colors.border)',
    whiteSpace: 'nowrap',
  });
  const rowOf = (u: Unit) => displayRows.get(u.id);
  const cells: Record<Column, (u: Unit) => ReactNode> = {
    nombre: (u) => (
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
          status: statusWithHold(t, u, rowOf(u)?.statusLabel ?? '', now),
        })}
        data-unit-row={u.id}
        onClick={() => onSelect(u.id)}
      >
        {u.nombre}
      </button>
    ),
    cluster: (u) => clusterNames.get(u.idCluster) ?? '—',
    nivel: (u) => u.nivel,
    prototipo: (u) => prototypeNames.get(u.idPrototipo) ?? '—',
    recamaras: (u) => u.caracteristicas.recamaras,
    banios: (u) => bathroomCount(u.caracteristicas),
    cajones: (u) => u.caracteristicas.cajones,
    area: (u) => rowOf(u)?.areaText ?? '',
    precio: (u) => rowOf(u)?.priceText ?? t('detail.priceHidden'),
    status: (u) => {
      const row = rowOf(u);
      const badge = <StatusBadge color={row?.hexColor ?? ''} label={row?.statusLabel ?? ''} />;
      if (!u.apartado) return badge;
      return (
        <span className={css({ display: 'inline-flex', alignItems: 'center', gap: 2 })}>
          {badge}
          <span data-testid="unit-hold-left" className={css({ fontSize: 'xs', color: 'muted' })}>
            {holdLeftText(t, u.apartado.hastaEn, now)}
          </span>
        </span>
      );
    },
  };
  return (
    <div
      className={css({
        overflow: 'auto',
        bg: 'surface',
        border: '1px solid token(colors.border)',
        borderRadius: 'xl',
        maxH: '75vh',
        // The columns below query this box's width (see COLUMN_FITS).
        containerType: 'inline-size',
      })}
    >
      <table
        className={css({ w: '100%', borderCollapse: 'collapse' })}
        data-testid="units-table"
        data-rows-engine={engine}
        data-rows-version={version}
      >
        <caption className={css({ textAlign: 'left', p: 3, fontWeight: 'semibold' })}>
          {caption}
        </caption>
        <thead>
          <tr>
            {COLUMNS.map((col) => (
              <th
                key={col}
                className={`${th} ${COLUMN_FITS[col] ?? ''}`}
                scope="col"
                aria-sort={
                  sort.column === col ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'
                }
              >
                <button
                  type="button"
                  className={css({
                    px: 2,
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
          {rows.map((u) => (
            <tr
              key={u.id}
              aria-selected={u.id === selectedId}
              className={css({
                _hover: { bg: 'rgba(0,0,0,0.03)' },
                '&[aria-selected="true"]': { bg: 'rgba(11,107,203,0.08)' },
              })}
            >
              {COLUMNS.map((col) => (
                <td key={col} className={`${td} ${COLUMN_FITS[col] ?? ''}`}>
                  {cells[col](u)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
});
