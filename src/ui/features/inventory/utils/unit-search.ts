/**
 * The query parameters of the availability pages: a unit selection (spec §2: `unidad`,
 * `s=caracteristicas`, `mostrarFondo`) and the filters (utils/filter-search.ts).
 */

import { validateFilterSearch, type FilterSearch } from './filter-search';

export interface UnitSearch extends FilterSearch {
  unidad?: string | undefined;
  s?: 'caracteristicas' | undefined;
  mostrarFondo?: string | number | boolean | undefined;
}

/** How a change of the search is written: `replace` (no history entry) while typing. */
export interface SearchChange {
  replace: boolean;
}

/** `validateSearch` of the pages that select a unit: unknown values are dropped. */
export function validateUnitSearch(search: Record<string, unknown>): UnitSearch {
  const unidad =
    typeof search.unidad === 'string' && /^[\w-]{1,64}$/.test(search.unidad)
      ? search.unidad
      : undefined;
  const mf = search.mostrarFondo;
  return {
    ...(unidad ? { unidad, s: 'caracteristicas' as const } : {}),
    ...(typeof mf === 'string' || typeof mf === 'number' || typeof mf === 'boolean'
      ? { mostrarFondo: mf }
      : {}),
    ...validateFilterSearch(search),
  };
}

/** The search after selecting (or clearing) a unit, carrying `mostrarFondo` and the filters. */
export function selectUnitSearch(prev: UnitSearch, id: string | undefined): UnitSearch {
  const { unidad: _u, s: _s, ...kept } = prev;
  return {
    ...(id ? { unidad: id, s: 'caracteristicas' as const } : {}),
    ...kept,
  };
}

/**
 * The router's navigation to a changed search: a filter change keeps the page scrolled where it
 * is, and typing (`replace`) adds no history entry; a unit's selection navigates as any link.
 */
export function searchNavigation(search: UnitSearch, how?: SearchChange) {
  return how ? { search, replace: how.replace, resetScroll: false } : { search };
}
