/**
 * What the comparator shows of each stored item, read from the current inventory: the cached
 * `wsObtenerClusters` and `wsObtenerPrototipos` answers the availability reads too, which the
 * live stream keeps current (`live-inventory.ts`). A unit's status, price and whether its price
 * may show are therefore those of now, and an item no longer in the inventory says so.
 */

import { priceFrom } from '../../../../core/filters';
import type { Areas, Prototype, StatusColors, Unit, UnitFeatures } from '../../../../core/types';
import type { ComparatorItem } from './comparator-store';
import { unitView } from '../../../lib/catalogue';

export type ComparatorEntry =
  | {
      kind: 'unidad';
      item: ComparatorItem;
      nombre: string;
      prototipo: string | undefined;
      status: { label: string; hexColor: string };
      /** The list price in `divisa`, only when the current status lets it show. */
      precio: number | undefined;
      divisa: string | undefined;
      caracteristicas: UnitFeatures;
      metrajes: Areas;
    }
  | {
      kind: 'prototipo';
      item: ComparatorItem;
      nombre: string;
      /** The lowest price that may show among its units now. */
      precio: number | undefined;
      divisa: string | undefined;
      caracteristicas: UnitFeatures;
      metrajes: Areas;
    }
  | {
      /** No longer in the development's inventory (removed, or its prototype deactivated). */
      kind: 'gone';
      item: ComparatorItem;
      nombre: string;
    };

/** The comparator's entries, in the order the items were added. */
export function comparatorEntries(
  items: readonly ComparatorItem[],
  inventory: {
    units: readonly Unit[];
    prototypes: readonly Prototype[];
    colors: StatusColors;
    /** The development's currency, the one its prototypes' prices are in. */
    divisa: string | undefined;
  },
): ComparatorEntry[] {
  const units = new Map(inventory.units.map((u) => [u.id, u]));
  const prototypes = new Map(inventory.prototypes.map((p) => [p.id, p]));
  return items.map((item): ComparatorEntry => {
    if (item.tipo === 'unidad') {
      const unit = units.get(item.id);
      if (!unit) return { kind: 'gone', item, nombre: item.nombre };
      const view = unitView(unit, inventory.colors);
      return {
        kind: 'unidad',
        item,
        nombre: unit.nombre,
        prototipo: prototypes.get(unit.idPrototipo)?.nombre,
        status: { label: view.disponibilidad, hexColor: view.hexColor },
        precio: view.priceVisible && unit.precio > 0 ? unit.precio : undefined,
        divisa: unit.divisa ?? inventory.divisa,
        caracteristicas: unit.caracteristicas,
        metrajes: unit.metrajes,
      };
    }
    const prototype = prototypes.get(item.id);
    if (!prototype || !prototype.activo) return { kind: 'gone', item, nombre: item.nombre };
    return {
      kind: 'prototipo',
      item,
      nombre: prototype.nombre,
      precio: priceFrom(
        inventory.units.filter((u) => u.idPrototipo === prototype.id),
        inventory.colors,
      ),
      divisa: inventory.divisa,
      caracteristicas: prototype.caracteristicas,
      metrajes: prototype.metrajes,
    };
  });
}
