/** The query parameters of a unit selection (spec §2): `unidad`, `s=caracteristicas`, `mostrarFondo`. */

export interface UnitSearch {
  unidad?: string | undefined;
  s?: 'caracteristicas' | undefined;
  mostrarFondo?: string | number | boolean | undefined;
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
  };
}

/** The search after selecting (or clearing) a unit, carrying `mostrarFondo` along. */
export function selectUnitSearch(prev: UnitSearch, id: string | undefined): UnitSearch {
  const { mostrarFondo } = prev;
  return {
    ...(id ? { unidad: id, s: 'caracteristicas' as const } : {}),
    ...(mostrarFondo !== undefined ? { mostrarFondo } : {}),
  };
}
