/**
 * Each cluster drawn as a building: its levels stacked with the top level on top, each level a
 * row of units by position, every unit coloured by its status colour. A stage of houses
 * (core/site-plan.ts) is drawn as a site plan instead: each street a road with its lots on both
 * sides, the same cells. Units that do not match
 * the filters are dimmed (still selectable). Cells are memoised, so a filter change only
 * repaints the cells whose state changed.
 */

import { memo, startTransition, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { compileTranslation } from '../../../i18n/template';
import { css } from 'styled-system/css';
import { isSitePlan, streetsOf, type Street } from '../../../../core/site-plan';
import { ABSENT_STATUS_INFO, statusMark, type StatusMark } from '../../../../core/status';
import type { DisplayRow } from '../../../../core/display-rows';
import { facadeCellColour } from '../../../../core/development-settings';
import type { Unit } from '../../../../core/types';
import { useCorporateLabel } from '../../../lib/corporate-labels';
import { textOn } from '../../../theme/contrast';
import { useNow } from '../../../lib/use-now';
import { statusWithHold } from '../utils/hold-time';
import { StatusMarkIcon } from './status-mark';

export interface GridCluster {
  id: string;
  nombre: string;
  niveles: number;
  unidadesPorNivel: number;
  etapa?: string | null;
  calles?: string[] | null;
}

interface CellProps {
  id: string;
  nombre: string;
  color: string;
  text: string;
  mark: StatusMark | null;
  label: string;
  dimmed: boolean;
  selected: boolean;
  column: number;
  onSelect: (id: string) => void;
}

/**
 * The narrowest a unit cell gets: a four-digit name in the cell's type still fits, and ten units
 * a level fit two buildings side by side beside the filters at 1440 px.
 */
const CELL_MIN_REM = 2.25;
/**
 * A cell's width for a name of `chars` characters: the cell's type (0.75rem semibold) takes about
 * 0.64em a character, plus its padding and border. Longer names (Torre Alameda's "A1601") widen
 * the cells of their building instead of being cut.
 */
function cellMinRem(chars: number): number {
  return Math.max(CELL_MIN_REM, Math.ceil((chars * 0.64 * 0.75 + 0.4) * 100) / 100);
}
/** The level number's column and the gap between cells (as in the styles below). */
const LEVEL_LABEL = '1.75rem';
const CELL_GAP_PX = 3;

/**
 * A building card's height before it is laid out (its levels of cells, the roof, the header and
 * the paddings): a card off screen is not laid out until it nears the view (`content-visibility:
 * auto`: half the first layout on a phone, issue 19) and holds this height meanwhile, so the page
 * does not jump when it is.
 */
function buildingHeight(levels: number): string {
  return `calc(${levels} * 2rem + ${Math.max(0, levels - 1) * CELL_GAP_PX}px + 18px + 5rem)`;
}

/**
 * The narrowest a building's card gets: its widest level with every cell at its width ({@link cellMinRem}),
 * plus the level label, the row's and the card's paddings, so no unit is cut.
 */
function buildingMinWidth(columns: number, cellRem: number): string {
  return `calc(${columns} * ${cellRem}rem + ${Math.max(0, columns - 1) * CELL_GAP_PX}px + ${LEVEL_LABEL} + 6px + 12px + 2rem + 2px)`;
}

const cellClass = css({
  position: 'relative',
  minW: 0,
  h: '2rem',
  px: '2px',
  // The name sits a little low, leaving the top corner to the status mark.
  pt: '4px',
  borderRadius: 'sm',
  // 12 px: the cells are most of a tower page's text, and a phone reads less below that
  // (Lighthouse's legible-text check: 29 % of the adviser's availability was at 11.2 px).
  fontSize: '0.75rem',
  fontWeight: 'semibold',
  fontVariantNumeric: 'tabular-nums',
  cursor: 'pointer',
  border: '1px solid rgba(0,0,0,0.12)',
  _hover: { boxShadow: '0 2px 6px rgba(0,0,0,0.25)' },
  _focusVisible: { outline: '3px solid', outlineColor: 'primary', outlineOffset: '1px' },
  // Filtered out (issue 19, axe): the colour fades, the text does not. A white veil with a hatch
  // over the status colour (still telling the status) and a dashed border say "filtered out";
  // the name and mark turn dark on it: 5.8:1 or more on any status colour, where opacity left
  // 1.3:1. No filter or transition: thousands of cells repaint on every filter change.
  '&[data-match="false"]': {
    color: '#1d2433 !important',
    backgroundImage:
      'repeating-linear-gradient(135deg, rgba(255,255,255,0.8) 0 5px, rgba(255,255,255,0.62) 5px 7px) !important',
    borderStyle: 'dashed',
    borderColor: 'rgba(29,36,51,0.5)',
  },
  // The status mark sits in the top corner, above the name (both in the cell's text colour).
  '& svg': { position: 'absolute', top: '1px', right: '1px', w: '0.55rem', h: '0.55rem' },
  '&[aria-current="true"]': {
    outline: '3px solid',
    outlineColor: 'text',
    outlineOffset: '2px',
    zIndex: 1,
  },
});

const UnitCell = memo(function UnitCell(props: CellProps) {
  const { id, nombre, color, text, mark, label, dimmed, selected, column, onSelect } = props;
  return (
    <button
      type="button"
      className={cellClass}
      style={{ background: color, color: text, gridColumn: column }}
      aria-label={label}
      aria-current={selected ? 'true' : undefined}
      data-match={dimmed ? 'false' : 'true'}
      data-unit-id={id}
      data-mark={mark ?? undefined}
      onClick={() => onSelect(id)}
    >
      {mark ? <StatusMarkIcon mark={mark} /> : null}
      {nombre}
    </button>
  );
});

/** What a cell shows; computed once per units/colours/language, not per filter change. */
interface CellModel {
  id: string;
  nombre: string;
  color: string;
  text: string;
  mark: StatusMark | null;
  label: string;
  column: number;
}

interface BuildingModel {
  cluster: GridCluster;
  columns: number;
  /** The width of this building's cells, from its longest unit name. */
  cellRem: number;
  unitCount: number;
  levels: { nivel: number; cells: CellModel[] }[];
  /** A stage of houses: its streets (then `levels` is empty). */
  streets: Street<CellModel>[] | null;
}

/** A row's cells, dimmed when the filters leave them out. */
function unitCells(
  cells: readonly CellModel[],
  matching: ReadonlySet<string> | null,
  selectedId: string | undefined,
  onSelect: (id: string) => void,
) {
  return cells.map((c) => (
    <UnitCell
      key={c.id}
      {...c}
      dimmed={matching !== null && !matching.has(c.id)}
      selected={c.id === selectedId}
      onSelect={onSelect}
    />
  ));
}

function buildModel(
  cluster: GridCluster,
  units: readonly Unit[],
  rows: ReadonlyMap<string, DisplayRow>,
  label: (unit: Unit, status: string) => string,
  independentColours: boolean,
): BuildingModel {
  const cellOf = (u: Unit, column: number): CellModel => {
    // The status colour and label come from the core worker's display rows (use-display-rows.ts);
    // one façade colour instead when the development turns independent colours off.
    const row = rows.get(u.id);
    const hexColor = facadeCellColour(
      row?.hexColor ?? ABSENT_STATUS_INFO.hexColor,
      independentColours,
    );
    return {
      id: u.id,
      nombre: u.nombre,
      color: hexColor,
      text: textOn(hexColor),
      mark: statusMark(u.status),
      label: label(u, row?.statusLabel ?? ABSENT_STATUS_INFO.disponibilidad),
      column,
    };
  };
  if (isSitePlan(units)) {
    const streets = streetsOf(cluster, units).map((street) => ({
      ...street,
      north: street.north.map((u, i) => cellOf(u, i + 1)),
      south: street.south.map((u, i) => cellOf(u, i + 1)),
    }));
    const longest = units.reduce((max, u) => Math.max(max, u.nombre.length), 0);
    return {
      cluster,
      columns: streets.reduce((max, st) => Math.max(max, st.columns), 1),
      cellRem: cellMinRem(longest),
      unitCount: units.length,
      levels: [],
      streets,
    };
  }
  const byLevel = new Map<number, Unit[]>();
  let columns = cluster.unidadesPorNivel;
  let maxLevel = cluster.niveles;
  let longest = 0;
  for (const u of units) {
    if (u.nombre.length > longest) longest = u.nombre.length;
    let list = byLevel.get(u.nivel);
    if (!list) byLevel.set(u.nivel, (list = []));
    list.push(u);
    if (u.posicion > columns) columns = u.posicion;
    if (u.nivel > maxLevel) maxLevel = u.nivel;
  }
  const levels: BuildingModel['levels'] = [];
  for (let n = maxLevel; n >= 1; n--) {
    const list = (byLevel.get(n) ?? []).sort((a, b) => a.posicion - b.posicion);
    levels.push({
      nivel: n,
      cells: list.map((u) => cellOf(u, Math.max(1, Math.min(columns, u.posicion)))),
    });
  }
  return {
    cluster,
    columns,
    cellRem: cellMinRem(longest),
    unitCount: units.length,
    levels,
    streets: null,
  };
}

/** A stage of houses: each street a road between its two rows of lots. */
function SitePlan({
  model,
  matching,
  selectedId,
  onSelect,
}: {
  model: BuildingModel;
  matching: ReadonlySet<string> | null;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation('inventory');
  const { cluster, columns, cellRem } = model;
  const row = (cells: CellModel[]) => (
    <div
      className={css({ display: 'grid', gap: '3px' })}
      style={{ gridTemplateColumns: `repeat(${columns}, minmax(${cellRem}rem, 1fr))` }}
    >
      {unitCells(cells, matching, selectedId, onSelect)}
    </div>
  );
  return (
    <div
      role="list"
      aria-label={t('grid.sitePlanLabel', { name: cluster.nombre })}
      data-layout="site-plan"
      className={css({
        display: 'flex',
        flexDirection: 'column',
        gap: 3,
        p: '6px',
        bg: 'rgba(46,125,50,0.07)',
        borderRadius: 'md',
        border: '1px dashed rgba(20,32,46,0.25)',
      })}
    >
      {model.streets!.map((street) => {
        const name = street.nombre ?? t('grid.street', { number: street.numero });
        return (
          <div
            role="listitem"
            key={street.numero}
            aria-label={name}
            className={css({ display: 'flex', flexDirection: 'column', gap: '3px' })}
          >
            {row(street.north)}
            <div
              aria-hidden="true"
              className={css({
                h: '1.1rem',
                borderRadius: 'sm',
                bg: 'rgba(20,32,46,0.16)',
                fontSize: '0.65rem',
                fontWeight: 'semibold',
                color: 'text',
                display: 'flex',
                alignItems: 'center',
                px: 2,
                letterSpacing: '0.02em',
                backgroundImage:
                  'linear-gradient(90deg, rgba(255,255,255,0.7) 50%, transparent 50%)',
                backgroundSize: '14px 1px',
                backgroundRepeat: 'repeat-x',
                backgroundPosition: '0 50%',
              })}
            >
              <span className={css({ bg: '#e4e6e8', px: 1, borderRadius: 'sm' })}>{name}</span>
            </div>
            {row(street.south)}
          </div>
        );
      })}
    </div>
  );
}

const Building = memo(function Building({
  model,
  matching,
  selectedId,
  onSelect,
  levelsShown,
}: {
  model: BuildingModel;
  matching: ReadonlySet<string> | null;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /**
   * How many of its levels, from the top, are drawn yet (see AvailabilityGrid); the others are
   * rows of their height until then.
   */
  levelsShown: number;
}) {
  const { t } = useTranslation('inventory');
  // The stage's state ("En obra") is the corporate's word, in the reader's language.
  const corporateLabel = useCorporateLabel();
  const { cluster, levels, columns, cellRem } = model;
  const waiting = !model.streets && levelsShown < levels.length;
  const headingId = `cluster-${cluster.id}`;
  return (
    <section
      aria-labelledby={headingId}
      aria-busy={waiting || undefined}
      style={
        model.streets
          ? undefined
          : {
              // From the first frame, drawn in part or not: switching it on later makes the
              // browser skip the card for a frame at its estimated height (a shift of 0.3).
              contentVisibility: 'auto',
              containIntrinsicBlockSize: `auto ${buildingHeight(levels.length)}`,
            }
      }
      className={css({
        bg: 'surface',
        borderRadius: 'xl',
        border: '1px solid token(colors.border)',
        boxShadow: '0 1px 2px rgba(16,24,40,0.06)',
        p: 4,
        minW: 0,
      })}
    >
      {/* Wraps rather than squeezing the name: a stage's state in English can be long
          ("Under construction"). */}
      <header
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'baseline',
          columnGap: 2,
          rowGap: 1,
          mb: 3,
        })}
      >
        <h3 id={headingId} className={css({ fontWeight: 'bold', fontSize: 'md' })}>
          {cluster.nombre}
        </h3>
        {cluster.etapa ? (
          <span className={css({ fontSize: 'xs', color: 'muted' })} data-testid="cluster-stage">
            {corporateLabel('etapa', cluster.etapa)}
          </span>
        ) : null}
        <span className={css({ ml: 'auto', fontSize: 'xs', color: 'muted' })}>
          {model.streets
            ? t('grid.levelsAndUnits', {
                levels: t('grid.streets', { count: model.streets.length }),
                units: t('grid.houses', { count: model.unitCount }),
              })
            : t('grid.levelsAndUnits', {
                levels: t('grid.levels', { count: cluster.niveles }),
                units: t('grid.units', { count: model.unitCount }),
              })}
        </span>
      </header>
      {model.streets ? (
        <div className={css({ overflowX: 'auto', pb: 1 })}>
          <SitePlan model={model} matching={matching} selectedId={selectedId} onSelect={onSelect} />
        </div>
      ) : (
        <div className={css({ overflowX: 'auto', pb: 1 })}>
          <div className={css({ display: 'inline-block', minW: '100%' })}>
            <div
              aria-hidden="true"
              className={css({
                h: '0.5rem',
                mx: '2.25rem',
                borderRadius: '6px 6px 0 0',
                bg: 'rgba(20,32,46,0.18)',
              })}
            />
            <div
              role="list"
              aria-label={t('grid.buildingLabel', { name: cluster.nombre })}
              className={css({
                display: 'flex',
                flexDirection: 'column',
                gap: '3px',
                p: '6px',
                bg: 'rgba(20,32,46,0.05)',
                borderRadius: 'md',
                borderBottom: '4px solid rgba(20,32,46,0.25)',
              })}
            >
              {levels.map((level, index) =>
                index >= levelsShown && level.cells.length > 0 ? (
                  // A level still to be drawn: a row of the level's height, so the card has its
                  // final size from the first frame and nothing moves when the cells come.
                  <div key={level.nivel} aria-hidden="true" className={css({ h: '2rem' })} />
                ) : (
                  <div
                    role="listitem"
                    key={level.nivel}
                    aria-label={t('grid.level', { level: level.nivel })}
                    // A level without units is still a floor of the building, as tall as the
                    // others (and as {@link buildingHeight} counts it).
                    className={css({
                      display: 'flex',
                      alignItems: 'center',
                      gap: '6px',
                      minH: '2rem',
                    })}
                  >
                    <span
                      aria-hidden="true"
                      className={css({
                        w: '1.75rem',
                        flexShrink: 0,
                        textAlign: 'right',
                        fontSize: '0.75rem',
                        color: 'muted',
                        // Stays in view while a phone scrolls the building sideways.
                        position: 'sticky',
                        left: 0,
                        zIndex: 2,
                        bg: '#f3f4f5',
                        alignSelf: 'stretch',
                        display: 'flex',
                        alignItems: 'center',
                        justifyContent: 'flex-end',
                        fontVariantNumeric: 'tabular-nums',
                      })}
                    >
                      {level.nivel}
                    </span>
                    <div
                      className={css({ display: 'grid', gap: '3px', flex: 1 })}
                      style={{
                        gridTemplateColumns: `repeat(${columns}, minmax(${cellRem}rem, 1fr))`,
                      }}
                    >
                      {unitCells(level.cells, matching, selectedId, onSelect)}
                    </div>
                  </div>
                ),
              )}
            </div>
          </div>
        </div>
      )}
    </section>
  );
});

/** About how many cells the grid draws in one task (see AvailabilityGrid). */
export const DRAW_STEP_CELLS = 96;

/**
 * The grid's drawing in parts: for each part, how many levels of each building are drawn. Whole
 * levels in page order, at least one level a part, a part closing before it would pass
 * `stepCells` cells; the last part draws everything. A site plan (1: drawn) is in every part.
 */
export function drawPlan(
  models: readonly {
    levels: readonly { cells: readonly unknown[] }[];
    streets: unknown;
  }[],
  stepCells: number,
): number[][] {
  const parts: number[][] = [];
  const current = models.map(() => 0);
  let inPart = 0;
  models.forEach((model, b) => {
    if (model.streets) {
      current[b] = 1;
      return;
    }
    for (const size of model.levels.map((l) => l.cells.length)) {
      if (inPart > 0 && inPart + size > stepCells) {
        parts.push([...current]);
        inPart = 0;
      }
      current[b]! += 1;
      inPart += size;
    }
  });
  parts.push(models.map((m) => (m.streets ? 1 : m.levels.length)));
  return parts;
}

export const AvailabilityGrid = memo(function AvailabilityGrid({
  clusters,
  units,
  rows,
  matching,
  appliedKey,
  selectedId,
  onSelect,
  independentColours = true,
}: {
  clusters: readonly GridCluster[];
  units: readonly Unit[];
  /** Each unit's display row, built in the core worker (null until its first answer). */
  rows: ReadonlyMap<string, DisplayRow> | null;
  matching: ReadonlySet<string> | null;
  appliedKey: string;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
  /** `configVistaNivel.mostrarColorIndependienteFachada` (core/development-settings.ts). */
  independentColours?: boolean;
}) {
  const { t } = useTranslation('inventory');
  const anyHeld = useMemo(() => units.some((u) => u.apartado), [units]);
  const now = useNow(60_000, anyHeld);
  // The corporate's own name for a status in the interface's language (issue 19).
  const corporateLabel = useCorporateLabel();
  const models = useMemo(() => {
    const byCluster = new Map<string, Unit[]>();
    for (const u of units) {
      let list = byCluster.get(u.idCluster);
      if (!list) byCluster.set(u.idCluster, (list = []));
      list.push(u);
    }
    // A held unit's name says the hold and its time left (refreshed each minute).
    const unitLabel = compileTranslation(t, 'grid.unitLabel', ['name', 'status']);
    const label = (u: Unit, status: string) =>
      unitLabel({
        name: u.nombre,
        status: statusWithHold(t, u, corporateLabel('status', status), now),
      });
    const shown = rows ?? new Map<string, DisplayRow>();
    return clusters.map((c) =>
      buildModel(c, byCluster.get(c.id) ?? [], shown, label, independentColours),
    );
  }, [clusters, units, rows, t, now, corporateLabel, independentColours]);
  const widest = models.reduce((max, m) => Math.max(max, m.columns), 1);
  const widestCell = models.reduce((max, m) => Math.max(max, m.cellRem), CELL_MIN_REM);
  // The cells are drawn in parts, whole levels from the top of the first building down, about
  // DRAW_STEP_CELLS a task, each part after the first in a task of its own (a transition React
  // may interrupt): no single task draws and commits every unit of a large building (a 248-unit
  // tower was one ~30 ms commit here, four times that on a phone), and the top of the first
  // building shows as soon as it alone is ready. A card not yet whole has its height. A site
  // plan (houses by street) has no height to hold: it is drawn whole in the first part.
  const plan = useMemo(() => drawPlan(models, DRAW_STEP_CELLS), [models]);
  const [step, setStep] = useState(0);
  const steps = plan.length;
  useEffect(() => {
    if (step >= steps - 1) return;
    const timer = setTimeout(() => startTransition(() => setStep((n) => n + 1)), 0);
    return () => clearTimeout(timer);
  }, [step, steps]);
  const shown = plan[Math.min(step, steps - 1)]!;
  const whole = step >= steps - 1;
  return (
    <div
      data-testid="availability-grid"
      data-filter-key={appliedKey}
      data-ready={matching !== null && rows !== null && whole ? 'true' : 'false'}
      data-facade-colours={independentColours ? 'independent' : 'one'}
      className={css({ display: 'grid', gap: 4, alignItems: 'start' })}
      // As many buildings a row as fit whole (one on a phone, whose card scrolls sideways).
      style={{
        gridTemplateColumns: `repeat(auto-fit, minmax(min(100%, ${buildingMinWidth(widest, widestCell)}), 1fr))`,
      }}
    >
      {models.map((model, index) => (
        <Building
          key={model.cluster.id}
          model={model}
          matching={matching}
          selectedId={selectedId}
          onSelect={onSelect}
          levelsShown={shown[index]!}
        />
      ))}
    </div>
  );
});
