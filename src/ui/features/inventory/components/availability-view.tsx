/**
 * The availability screen shared by the signed-in and public pages: legend, filter panel
 * (evaluated in the worker), the building grid or the sortable table, and the detail of the
 * selected unit. The selection (`?unidad=…&s=caracteristicas`) and the filters
 * (`?recamaras=[2]&precioMax=…`, utils/filter-search.ts) live in the URL, owned by the route.
 */

import { useDeferredValue, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from 'styled-system/css';
import { matchesOnlyWithHiddenPrice, type FilterContext } from '../../../../core/filters';
import type { StatusColors, Unit } from '../../../../core/types';
import { AvailabilityGrid, type GridCluster } from './availability-grid';
import { FilterPanel } from './filter-panel';
import { figureUnitsOf, searchInDisplay, toUnitFilters, useFilterForm } from '../utils/filter-form';
import { filterSearchKey, type FilterSearch } from '../utils/filter-search';
import type { SearchChange } from '../utils/unit-search';
import type { Display } from '../../../lib/figures';
import { useCorporateLabelsSettled } from '../../../lib/corporate-labels';
import { StatusLegend } from './status-legend';
import { UnitsTable } from './units-table';
import { useUnitFilter } from '../hooks/use-unit-filter';
import { useDisplayRows } from '../hooks/use-display-rows';

export function AvailabilityView({
  mode,
  developmentId,
  clusters,
  units,
  colors,
  ctx,
  prototypes,
  display,
  unitCurrency,
  selectedId,
  onSelect,
  filters: filterSearch,
  onFilters,
  renderDetail,
  independentColours = true,
}: {
  mode: 'grid' | 'table';
  developmentId: string;
  clusters: readonly GridCluster[];
  units: readonly Unit[];
  colors: StatusColors;
  ctx: FilterContext;
  prototypes: readonly { id: string; nombre: string }[];
  display: Display;
  unitCurrency: string | undefined;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** The filters in the URL, and how a change is written there (`replace`: while typing). */
  filters: FilterSearch;
  onFilters: (next: FilterSearch, how: SearchChange) => void;
  renderDetail: (unit: Unit) => ReactNode;
  /** The façade colours each unit by its status (`mostrarColorIndependienteFachada`); else one. */
  independentColours?: boolean;
}) {
  const { t } = useTranslation('inventory');
  // Bounds a link wrote in another currency or area unit (or these before the settings changed)
  // in the ones shown here; the address is then rewritten to say them (no history entry).
  const inDisplay = useMemo(
    () => searchInDisplay(filterSearch, display, unitCurrency),
    [filterSearch, display, unitCurrency],
  );
  const convertedKey = inDisplay.converted ? filterSearchKey(inDisplay.search) : null;
  useEffect(() => {
    if (convertedKey !== null) onFilters(inDisplay.search, { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per converted search
  }, [convertedKey]);
  const figureUnits = useMemo(() => figureUnitsOf(display), [display]);
  const [form, setForm] = useFilterForm(inDisplay.search, onFilters, figureUnits);
  const filters = useMemo(
    () => toUnitFilters(form, display, unitCurrency),
    [form, display, unitCurrency],
  );
  const result = useUnitFilter(`dev:${developmentId}`, units, filters, ctx);
  // Status colours and labels, shown prices and areas: built in the core worker, again on a
  // currency or area-unit change (issue 20, the card's worker).
  const displayRows = useDisplayRows(`dev:${developmentId}`, units, colors, display, unitCurrency);
  // Below lg the filters come first, folded into a bar that opens them (issue 19, defect 5: at
  // 820 px they sat under both towers, 2,000 px down); from lg they are a column beside the grid.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const filtersId = useId();
  const selected = selectedId ? units.find((u) => u.id === selectedId) : undefined;
  const clusterNames = useMemo(() => new Map(clusters.map((c) => [c.id, c.nombre])), [clusters]);
  const prototypeNames = useMemo(
    () => new Map(prototypes.map((p) => [p.id, p.nombre])),
    [prototypes],
  );
  // Matches only because the price is hidden (the range criteria skip them): said apart.
  const hiddenPriceCount = useMemo(
    () =>
      result.matching
        ? units.filter(
            (u) => result.matching!.has(u.id) && matchesOnlyWithHiddenPrice(u, filters, ctx),
          ).length
        : 0,
    [units, result.matching, filters, ctx],
  );
  const tableUnits = useMemo(
    () => (result.matching ? units.filter((u) => result.matching!.has(u.id)) : units),
    [units, result.matching],
  );
  // The legend, filters and grid wait for the worker's display rows (their colours, labels and
  // counts) and then render in the background (deferred: a transition React slices), so the
  // page's heading paints first, no long task draws every cell at once, and the legend filling
  // in does not push a grid already drawn down (Lighthouse, issue 19).
  // The corporate's labels in the page's language too: the legend's chips wrap by their length,
  // so labels arriving after it is drawn moved the grid (0.67 of layout shift at 1280 px in
  // English, the corporate's Spanish names first).
  const labelsHere = useCorporateLabelsSettled();
  const rowsHere = (displayRows.rows !== null || displayRows.error !== null) && labelsHere;
  const shown = useDeferredValue(rowsHere, false);
  if (!shown) {
    return (
      <p role="status" className={css({ color: 'muted' })}>
        {t('availability.loading')}
      </p>
    );
  }
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: 4 })}>
      <StatusLegend
        units={units}
        statuses={displayRows.rows?.statuses ?? null}
        matching={result.matching}
      />
      {/*
        One detail panel, placed by CSS: above the grid in the main column below xl, in a third
        column from xl (the main wrapper then becomes `display: contents`).
      */}
      <div
        className={css({
          display: 'grid',
          gap: 4,
          alignItems: 'start',
          gridTemplateColumns: { base: 'minmax(0, 1fr)', lg: '17rem minmax(0, 1fr)' },
          gridTemplateAreas: { base: '"filters" "main"', lg: '"filters main"' },
          '&[data-detail="true"]': {
            xl: {
              // The detail stays narrow enough for the table's main columns beside it.
              gridTemplateColumns: '17rem minmax(0, 1fr) 20rem',
              gridTemplateAreas: '"filters main detail"',
            },
          },
        })}
        data-detail={selected ? 'true' : 'false'}
      >
        <div className={css({ gridArea: 'filters', position: { lg: 'sticky' }, top: 4 })}>
          {/* Below lg the filters are a disclosure whose button is the section's heading (the
              panel's own heading shows from lg), so the towers' headings never follow the
              page's h1 without an h2 between. */}
          <h2 className={css({ lg: { display: 'none' } })}>
            <button
              type="button"
              aria-expanded={filtersOpen}
              aria-controls={filtersId}
              onClick={() => setFiltersOpen((open) => !open)}
              className={css({
                display: 'flex',
                alignItems: 'center',
                gap: 2,
                w: '100%',
                minH: '2.75rem',
                px: 4,
                bg: 'surface',
                border: '1px solid token(colors.border)',
                borderRadius: 'lg',
                fontWeight: 'semibold',
                cursor: 'pointer',
                _focusVisible: { outline: '3px solid', outlineColor: 'primary' },
                '&[aria-expanded="true"]': { borderBottomRadius: 0 },
              })}
            >
              <span aria-hidden="true">{filtersOpen ? '▾' : '▸'}</span>
              {t('filters.title')}
              {result.matching ? (
                <span className={css({ ml: 'auto', fontWeight: 'normal', fontSize: 'sm' })}>
                  {t('filters.barSummary', { count: result.matching.size, total: units.length })}
                </span>
              ) : null}
            </button>
          </h2>
          <div
            id={filtersId}
            data-open={filtersOpen ? 'true' : 'false'}
            className={css({
              display: { base: 'none', lg: 'block' },
              '&[data-open="true"]': { display: 'block' },
            })}
          >
            <FilterPanel
              form={form}
              onChange={setForm}
              prototypes={prototypes}
              statuses={displayRows.rows?.statuses ?? null}
              display={display}
              matchCount={result.matching?.size ?? null}
              hiddenPriceCount={hiddenPriceCount}
              total={units.length}
              pending={result.pending}
            />
          </div>
        </div>
        <div
          className={css({
            gridArea: 'main',
            minW: 0,
            display: 'flex',
            flexDirection: 'column',
            gap: 4,
            '[data-detail="true"] > &': { xl: { display: 'contents' } },
          })}
        >
          {selected ? (
            <div
              className={css({ minW: 0, xl: { gridArea: 'detail', position: 'sticky', top: 4 } })}
            >
              {renderDetail(selected)}
            </div>
          ) : null}
          <div
            className={css({
              gridArea: 'main',
              minW: 0,
              display: 'flex',
              flexDirection: 'column',
              gap: 4,
            })}
          >
            {result.error ? (
              <p role="alert" className={css({ color: 'danger' })}>
                {t('filters.error')}
              </p>
            ) : null}
            {mode === 'grid' ? (
              <AvailabilityGrid
                clusters={clusters}
                units={units}
                rows={displayRows.byId}
                matching={result.matching}
                appliedKey={result.appliedKey}
                selectedId={selectedId}
                onSelect={onSelect}
                independentColours={independentColours}
              />
            ) : displayRows.byId ? (
              <UnitsTable
                units={tableUnits}
                rows={displayRows.byId}
                engine={displayRows.engine}
                version={displayRows.version}
                clusterNames={clusterNames}
                prototypeNames={prototypeNames}
                selectedId={selectedId}
                onSelect={onSelect}
                caption={t('table.caption', { count: tableUnits.length })}
              />
            ) : (
              <p role="status" className={css({ color: 'muted' })}>
                {t('availability.loading')}
              </p>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}
