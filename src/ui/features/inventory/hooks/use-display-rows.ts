/**
 * A development's display rows from the core worker (issue 20, the card's worker): when the
 * units load (or a live change replaces them) and whenever the display settings change
 * (currency, m²/ft²), the worker builds every unit's row in one pass (core/display-rows.ts) and
 * the page renders what it answers. The units are the set the filter hook keeps in the worker
 * under the same key; they are sent again only when they changed.
 *
 * `localStorage['vitrina:filtros-hilo-principal'] = '1'` (the filter hook's baseline switch)
 * builds the same rows on the main thread instead; the benchmark compares the two.
 */

import { startTransition, useEffect, useMemo, useRef, useState } from 'react';
import { buildDisplayRows, type DisplayRow, type DisplayRows } from '../../../../core/display-rows';
import type { Display } from '../../../../core/display';
import type { StatusColors, Unit } from '../../../../core/types';
import { getCoreClient } from '../../../../workers/core-client';
import { mainThreadRequested } from './use-unit-filter';

export interface DisplayRowsResult {
  /** Each unit's row by id; null until the first answer. */
  byId: ReadonlyMap<string, DisplayRow> | null;
  /** The whole answer (price from, rent); null until the first answer. */
  rows: DisplayRows | null;
  /** Where the rows were built. */
  engine: 'worker' | 'main';
  /** Counts answers (a page marks it on the DOM; tests read it). */
  version: number;
  error: Error | null;
}

function index(rows: DisplayRows): Map<string, DisplayRow> {
  const map = new Map<string, DisplayRow>();
  for (const r of rows.rows) map.set(r.id, r);
  return map;
}

/** At most this many changed units are built on the main thread while the worker rebuilds. */
export const PATCH_LIMIT = 64;

/**
 * The rows of `units` at once, from the rows last built for `builtFor`: a unit whose object is
 * the one those rows were built from keeps its row, the others (a live change replaces the
 * changed unit's object, a new unit has none) get theirs from `build` here, so a changed cell
 * repaints without waiting for the worker's answer for the whole set (which still follows and
 * replaces these). Null when nothing changed or more than {@link PATCH_LIMIT} units did (then
 * the worker's answer is awaited, as for a new development).
 */
export function patchedRows(
  builtFor: readonly Unit[],
  byId: ReadonlyMap<string, DisplayRow>,
  units: readonly Unit[],
  build: (changed: readonly Unit[]) => readonly DisplayRow[],
): ReadonlyMap<string, DisplayRow> | null {
  if (units === builtFor) return null;
  const before = new Map(builtFor.map((u) => [u.id, u]));
  const changed: Unit[] = [];
  for (const u of units) {
    if (before.get(u.id) === u && byId.has(u.id)) continue;
    changed.push(u);
    if (changed.length > PATCH_LIMIT) return null;
  }
  if (changed.length === 0) return null;
  const patched = new Map(byId);
  for (const row of build(changed)) patched.set(row.id, row);
  return patched;
}

export function useDisplayRows(
  key: string,
  units: readonly Unit[],
  colors: StatusColors,
  display: Display,
  developmentCurrency?: string | null,
): DisplayRowsResult {
  const [onMain] = useState(mainThreadRequested);
  const settingsKey = `${display.currency.codigo}|${display.areaUnit}|${JSON.stringify(colors)}|${developmentCurrency ?? ''}`;
  const [state, setState] = useState<{
    rows: DisplayRows | null;
    byId: ReadonlyMap<string, DisplayRow> | null;
    version: number;
    error: Error | null;
    /** The units and settings the rows were built for. */
    builtFor: readonly Unit[] | null;
    settings: string;
  }>({ rows: null, byId: null, version: 0, error: null, builtFor: null, settings: '' });

  const mainBuilds = useRef(0);
  const main = useMemo(() => {
    if (!onMain) return null;
    const rows = buildDisplayRows(units, colors, display, developmentCurrency);
    mainBuilds.current += 1;
    return { rows, byId: index(rows), version: mainBuilds.current };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value, not identity
  }, [onMain, units, settingsKey]);

  useEffect(() => {
    if (onMain) return;
    const client = getCoreClient();
    const controller = new AbortController();
    const { signal } = controller;
    (async () => {
      if (!client.holds(key, units)) await client.loadUnits(key, units, { signal });
      const rows = await client.displayRows(key, colors, display, developmentCurrency, {
        signal,
      });
      if (signal.aborted) return;
      const byId = index(rows);
      // A transition: React renders the thousands of changed cells in slices it can interrupt,
      // so the main thread never runs one long task for them (only the commit is one piece).
      startTransition(() =>
        setState((s) => ({
          rows,
          byId,
          version: s.version + 1,
          error: null,
          builtFor: units,
          settings: settingsKey,
        })),
      );
    })().catch((error: unknown) => {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      if (!signal.aborted) setState((s) => ({ ...s, error: error as Error }));
    });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value, not identity
  }, [onMain, key, units, settingsKey]);

  // A live change to a few units: their rows now, the worker's whole answer after.
  const patched = useMemo(
    () =>
      !onMain && state.byId && state.builtFor && state.settings === settingsKey
        ? patchedRows(
            state.builtFor,
            state.byId,
            units,
            (changed) => buildDisplayRows(changed, colors, display, developmentCurrency).rows,
          )
        : null,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value, not identity
    [onMain, state, units, settingsKey],
  );

  if (main) return { ...main, engine: 'main', error: null };
  const { rows, byId, version, error } = state;
  return { rows, byId: patched ?? byId, version, error, engine: 'worker' };
}
