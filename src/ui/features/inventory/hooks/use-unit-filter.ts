/**
 * Filtering a development's units in the core worker: the units are loaded into the worker
 * once (again when a live change replaces them), each filter change sends only the criteria,
 * and the worker answers the matching indexes as a transferred Uint32Array.
 *
 * `localStorage['vitrina:filtros-hilo-principal'] = '1'` runs the same core function on the main
 * thread instead; the benchmark uses it as its baseline.
 */

import { useEffect, useMemo, useRef, useState } from 'react';
import {
  emptyUnitFilters,
  filterUnitIndexes,
  type FilterContext,
  type UnitFilters,
} from '../../../../core/filters';
import type { Unit } from '../../../../core/types';
import { getCoreClient } from '../../../../workers/core-client';

export const MAIN_THREAD_FLAG = 'vitrina:filtros-hilo-principal';

/** Whether the baseline switch asks for the filters on the main thread (see above). */
export function mainThreadRequested(): boolean {
  try {
    return localStorage.getItem(MAIN_THREAD_FLAG) === '1';
  } catch {
    return false;
  }
}

/** True when no criterion is set: every unit matches without asking anyone. */
export function isEmptyFilter(f: UnitFilters): boolean {
  return (
    f.recamaras.length === 0 &&
    f.banios.length === 0 &&
    f.cajones.length === 0 &&
    f.precioMin === undefined &&
    f.precioMax === undefined &&
    f.areaMin === undefined &&
    f.areaMax === undefined &&
    (f.idPrototipo?.length ?? 0) === 0 &&
    (f.status?.length ?? 0) === 0
  );
}

/** A stable text for a filter value (used as an effect dependency and a DOM marker). */
export function filterKey(f: UnitFilters): string {
  return JSON.stringify([
    f.recamaras,
    f.banios,
    f.cajones,
    f.precioMin ?? null,
    f.precioMax ?? null,
    f.areaMin ?? null,
    f.areaMax ?? null,
    f.idPrototipo ?? [],
    f.status ?? [],
  ]);
}

export interface UnitFilterResult {
  /** Ids of the matching units; null while the first answer is pending. */
  matching: ReadonlySet<string> | null;
  /** The filter key the current `matching` answers. */
  appliedKey: string;
  /** True while a newer filter is being computed. */
  pending: boolean;
  /** Where the filtering ran. */
  engine: 'worker' | 'main';
  error: Error | null;
}

function idsOf(units: readonly Unit[], indexes: Uint32Array): Set<string> {
  const set = new Set<string>();
  for (const i of indexes) {
    const u = units[i];
    if (u) set.add(u.id);
  }
  return set;
}

/**
 * The ids of `units` matching `filters` under `ctx`, computed by the core in the worker.
 * `key` names the unit set in the worker (one per development).
 */
export function useUnitFilter(
  key: string,
  units: readonly Unit[],
  filters: UnitFilters,
  ctx: FilterContext,
): UnitFilterResult {
  const [onMain] = useState(mainThreadRequested);
  const fKey = filterKey(filters);
  const ctxKey = JSON.stringify(ctx);
  const [state, setState] = useState<{
    matching: ReadonlySet<string> | null;
    appliedKey: string;
    forUnits: readonly Unit[] | null;
    error: Error | null;
  }>({ matching: null, appliedKey: '', forUnits: null, error: null });

  // While a new answer is pending, the last one shown stays (no flash of undimmed cells).
  const shown = useRef<{ matching: ReadonlySet<string> | null; key: string }>({
    matching: null,
    key: '',
  });

  // Baseline: the same core function, synchronously on the main thread.
  const mainResult = useMemo(() => {
    if (!onMain) return null;
    return idsOf(units, filterUnitIndexes(units, filters, ctx));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value, not identity
  }, [onMain, units, fKey, ctxKey]);

  // Keep the worker's copy of the units current.
  const [loaded, setLoaded] = useState<readonly Unit[] | null>(null);
  useEffect(() => {
    if (onMain) return;
    let cancelled = false;
    const client = getCoreClient();
    const controller = new AbortController();
    client.loadUnits(key, units, { signal: controller.signal }).then(
      () => {
        if (!cancelled) setLoaded(units);
      },
      (error: unknown) => {
        if (!cancelled && !(error instanceof DOMException && error.name === 'AbortError')) {
          setState((s) => ({ ...s, error: error as Error }));
        }
      },
    );
    return () => {
      cancelled = true;
      controller.abort();
    };
  }, [onMain, key, units]);

  // No criterion: every unit matches, answered at once (the worker is still loaded meanwhile,
  // so the first real filter does not wait for it).
  const empty = isEmptyFilter(filters);
  const everyUnit = useMemo(() => (empty ? new Set(units.map((u) => u.id)) : null), [empty, units]);

  useEffect(() => {
    if (onMain || loaded === null || empty) return;
    const forUnits = loaded;
    const controller = new AbortController();
    getCoreClient()
      .filterUnitIds(key, filters, ctx, { signal: controller.signal })
      .then(
        (indexes) => {
          if (controller.signal.aborted) return;
          setState({ matching: idsOf(forUnits, indexes), appliedKey: fKey, forUnits, error: null });
        },
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          setState((s) => ({ ...s, error: error as Error }));
        },
      );
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by value, not identity
  }, [onMain, key, loaded, empty, fKey, ctxKey]);

  if (onMain) {
    return { matching: mainResult, appliedKey: fKey, pending: false, engine: 'main', error: null };
  }
  if (everyUnit) {
    shown.current = { matching: everyUnit, key: fKey };
    return {
      matching: everyUnit,
      appliedKey: fKey,
      pending: false,
      engine: 'worker',
      error: state.error,
    };
  }
  const pending = state.appliedKey !== fKey || state.forUnits !== units;
  if (!pending || shown.current.matching === null) {
    shown.current = { matching: state.matching, key: state.appliedKey };
  }
  return {
    matching: shown.current.matching,
    appliedKey: shown.current.key,
    pending,
    engine: 'worker',
    error: state.error,
  };
}

export { emptyUnitFilters };
