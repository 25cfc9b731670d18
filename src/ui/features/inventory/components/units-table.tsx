/**
 * The simple availability: the same units as a table, sortable by any column (click a
 * header; again to reverse). What each row shows of a unit — its status colour and label, its
 * price (hidden or converted to the chosen currency) and its area in the chosen unit — is the
 * display row the core worker built (hooks/use-display-rows.ts); nothing here applies the status
 * rules or converts a figure.
 *
 * From {@link VIRTUAL_FROM} rows the table is virtualised (@tanstack/react-virtual): only the rows
 * in view (and a few around them) are in the DOM, between spacer rows that keep the scroll
 * height, so a currency switch on 2,000 units re-renders a few dozen rows, not 20,000 cells. It
 * stays a table for assistive technology: `aria-rowcount` says how many rows there are and each
 * row its `aria-rowindex`; the header row is sticky; the arrow keys, Page Up/Down, Home and End on
 * a unit's button move to the unit that many rows away (scrolled into view and rendered first), and
 * the focused row stays rendered while it scrolls out of view.
 */

import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { css } from 'styled-system/css';
import { bathroomCount } from '../../../../core/filters';
import type { DisplayRow } from '../../../../core/display-rows';
import type { Unit } from '../../../../core/types';
import { StatusBadge } from './status-badge';
import { useNow } from '../../../lib/use-now';
import { holdLeftText, statusWithHold } from '../utils/hold-time';
import { COLUMNS, sortUnits, type Column, type UnitsSort } from '../utils/units-sort';
import { OVERSCAN, ROW_ESTIMATE, rowForKey, VIRTUAL_FROM } from '../utils/table-keys';

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
  // The corporate's own names of its statuses, in the page's language (as the grid and legend).
  const corporateLabel = useCorporateLabel();
  const anyHeld = useMemo(() => units.some((u) => u.apartado), [units]);
  const now = useNow(30_000, anyHeld);
  const [sort, setSort] = useState<UnitsSort>({ column: 'nombre', dir: 1 });
  // Only the price and status columns sort by the display rows: a currency switch re-sorts
  // (2,000 units) only when the table is ordered by one of them.
  const sortRows = sort.column === 'precio' || sort.column === 'status' ? displayRows : null;
  const rows = useMemo(
    () =>
      sortUnits(units, sort, {
        rows: sortRows ?? new Map<string, DisplayRow>(),
        clusterNames,
        prototypeNames,
      }),
    [units, sort, clusterNames, prototypeNames, sortRows],
  );

  const virtual = rows.length >= VIRTUAL_FROM;
  const scroller = useRef<HTMLDivElement>(null);
  const body = useRef<HTMLTableSectionElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  // Where the body starts in the scroll box (under the caption and the header), and the sticky
  // header's height (a row scrolled to must not hide under it).
  const [offsets, setOffsets] = useState({ body: 0, head: 0 });
  useLayoutEffect(() => {
    if (!virtual) return;
    const measure = () => {
      const next = { body: body.current?.offsetTop ?? 0, head: head.current?.offsetHeight ?? 0 };
      setOffsets((o) => (o.body === next.body && o.head === next.head ? o : next));
    };
    measure();
    const observer = new ResizeObserver(measure);
    if (head.current) observer.observe(head.current);
    return () => observer.disconnect();
  }, [virtual]);
  // The focused row is kept rendered, so focus is not lost when it scrolls out of view.
  const focused = useRef<number | null>(null);
  const rangeExtractor = useCallback((range: Range) => {
    const indexes = defaultRangeExtractor(range);
    const f = focused.current;
    if (f === null || f >= range.count || indexes.includes(f)) return indexes;
    return [...indexes, f].sort((a, b) => a - b);
  }, []);
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: OVERSCAN,
    scrollMargin: offsets.body,
    scrollPaddingStart: offsets.head,
    rangeExtractor,
    getItemKey: (i) => rows[i]?.id ?? i,
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const renderedRange = `${items[0]?.index ?? ''}-${items.at(-1)?.index ?? ''}`;
  // A key moved to a row: focus its button once it is rendered.
  const [pendingFocus, setPendingFocus] = useState<number | null>(null);
  useEffect(() => {
    if (pendingFocus === null) return;
    const button = body.current?.querySelector<HTMLElement>(
      `tr[data-index="${pendingFocus}"] [data-unit-row]`,
    );
    if (button) {
      button.focus({ preventScroll: virtual });
      setPendingFocus(null);
    }
    // Again when the rendered rows change: the row may arrive a render after the scroll.
  }, [pendingFocus, virtual, renderedRange]);
  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const target = e.target as HTMLElement;
    if (!target.hasAttribute('data-unit-row')) return;
    const from = Number(target.closest('tr')?.dataset.index ?? NaN);
    if (Number.isNaN(from)) return;
    const to = rowForKey(e.key, from, rows.length);
    if (to === null) return;
    e.preventDefault();
    if (virtual) {
      focused.current = to;
      virtualizer.scrollToIndex(to, { align: 'auto' });
    }
    setPendingFocus(to);
  };

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
          status: statusWithHold(t, u, corporateLabel('status', rowOf(u)?.statusLabel ?? ''), now),
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
      const badge = (
        <StatusBadge
          color={row?.hexColor ?? ''}
          label={corporateLabel('status', row?.statusLabel ?? '')}
        />
      );
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
  const row = (index: number, measure?: (el: HTMLTableRowElement | null) => void) => {
    const u = rows[index]!;
    return (
      <tr
        key={u.id}
        ref={measure}
        data-index={index}
        aria-rowindex={index + 2}
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
    );
  };
  return (
    <div
      ref={scroller}
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
        data-virtual={virtual ? 'true' : 'false'}
        aria-rowcount={rows.length + 1}
      >
        <caption className={css({ textAlign: 'left', p: 3, fontWeight: 'semibold' })}>
          {caption}
        </caption>
        <thead ref={head}>
          <tr aria-rowindex={1}>
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
        <tbody
          ref={body}
          onKeyDown={onKeyDown}
          onFocus={(e) => {
            const index = Number((e.target as HTMLElement).closest('tr')?.dataset.index ?? NaN);
            focused.current = Number.isNaN(index) ? null : index;
          }}
          onBlur={() => {
            focused.current = null;
          }}
        >
          {virtual
            ? withSpacers(
                items.map((item) => ({
                  index: item.index,
                  start: item.start - offsets.body,
                  end: item.end - offsets.body,
                })),
                virtualizer.getTotalSize(),
                (index) => row(index, virtualizer.measureElement),
              )
            : rows.map((_, index) => row(index))}
        </tbody>
      </table>
    </div>
  );
});

/**
 * The rendered rows of a virtualised table with an empty row before, between and after them for
 * every stretch of rows not rendered, so the scroll height and each row's place stay true.
 */
function withSpacers(
  items: readonly { index: number; start: number; end: number }[],
  total: number,
  render: (index: number) => ReactNode,
): ReactNode[] {
  const out: ReactNode[] = [];
  let at = 0;
  const spacer = (height: number, key: string) =>
    height > 0 ? (
      <tr key={key} aria-hidden="true" data-spacer="true" style={{ height }}>
        <td colSpan={COLUMNS.length} className={css({ p: 0, border: 0 })} />
      </tr>
    ) : null;
  for (const item of items) {
    out.push(spacer(item.start - at, `gap-${item.index}`));
    out.push(render(item.index));
    at = item.end;
  }
  out.push(spacer(total - at, 'gap-end'));
  return out;
}
