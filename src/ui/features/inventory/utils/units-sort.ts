/**
 * The order of the simple availability's table: by any column, ascending or descending, units
 * without a value in the column (a hidden price) after every unit with one, in both directions.
 */

import { bathroomCount } from '../../../../core/filters';
import type { DisplayRow } from '../../../../core/display-rows';
import type { Unit } from '../../../../core/types';

export type Column =
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
/** The table's columns, in order. */
export const COLUMNS: readonly Column[] = [
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

export interface UnitsSort {
  column: Column;
  dir: 1 | -1;
}

/**
 * What the table reads besides the units: each unit's display row (built in the core worker:
 * its status label and shown price) and the names of the ids.
 */
export interface UnitsTableLookups {
  rows: ReadonlyMap<string, DisplayRow>;
  clusterNames: ReadonlyMap<string, string>;
  prototypeNames: ReadonlyMap<string, string>;
}

/**
 * What a unit sorts by in a column; null when it has no value there (a hidden price, a unit
 * without a tower, type or status entry), which sorts after every value in both directions.
 */
function sortValue(u: Unit, column: Column, names: UnitsTableLookups): string | number | null {
  switch (column) {
    case 'nombre':
      return u.nombre;
    case 'cluster':
      return names.clusterNames.get(u.idCluster) ?? null;
    case 'nivel':
      return u.nivel;
    case 'prototipo':
      return names.prototypeNames.get(u.idPrototipo) ?? null;
    case 'recamaras':
      return u.caracteristicas.recamaras;
    case 'banios':
      return bathroomCount(u.caracteristicas);
    case 'cajones':
      return u.caracteristicas.cajones;
    case 'area':
      return u.metrajes.areaTotal > 0 ? u.metrajes.areaTotal : null;
    case 'precio':
      return names.rows.get(u.id)?.price ?? null;
    case 'status': {
      const row = names.rows.get(u.id);
      return row?.statusKnown ? row.statusLabel : null;
    }
    default: {
      const unhandled: never = column;
      throw new Error(`unknown column ${String(unhandled)}`);
    }
  }
}

/**
 * One collator for every comparison: `localeCompare` with options builds one per call, which made
 * sorting 2,000 units a 60 ms task on every currency switch.
 */
const collator = new Intl.Collator(undefined, { numeric: true });
const byName = (a: Unit, b: Unit) => collator.compare(a.nombre, b.nombre);

/**
 * The units in table order: by the column, ascending or descending; units without a value in
 * the column last either way; ties by name.
 */
export function sortUnits(
  units: readonly Unit[],
  sort: UnitsSort,
  names: UnitsTableLookups,
): Unit[] {
  const keyed = units.map((u) => ({ u, v: sortValue(u, sort.column, names) }));
  keyed.sort((a, b) => {
    if (a.v === null || b.v === null) {
      return a.v === b.v ? byName(a.u, b.u) : a.v === null ? 1 : -1;
    }
    const cmp =
      typeof a.v === 'number' && typeof b.v === 'number'
        ? a.v - b.v
        : collator.compare(String(a.v), String(b.v));
    return cmp * sort.dir || byName(a.u, b.u);
  });
  return keyed.map((k) => k.u);
}
