/**
 * Horizontal developments (issue 19, defect 10): a stage of houses is drawn as a site plan, not
 * as floors of a tower. A house is a unit whose `categoria` is {@link HOUSE_CATEGORY}; in a stage
 * of houses the unit's `nivel` is the street it stands on (the cluster's `calles[nivel - 1]`
 * names it) and its `posicion` the lot along that street, odd lots on one side and even lots
 * facing them, as on a fraccionamiento's plan.
 */

import type { Unit } from './types';

/** The category of a house (the seed's horizontal developments; administrators may set it). */
export const HOUSE_CATEGORY = 'Casa';

export const isHouse = (unit: { categoria?: string | null | undefined }): boolean =>
  (unit.categoria ?? '').trim().toLowerCase() === HOUSE_CATEGORY.toLowerCase();

/** A cluster is a stage of houses when it has units and every one of them is a house. */
export function isSitePlan(units: readonly Pick<Unit, 'categoria'>[]): boolean {
  return units.length > 0 && units.every(isHouse);
}

export interface Street<U> {
  /** The street's number (the units' `nivel`). */
  numero: number;
  /** Its name from the cluster, or null (the screen then says "Street n"). */
  nombre: string | null;
  /** Odd lots, in lot order: one side of the street. */
  north: U[];
  /** Even lots, in lot order: the side facing it. */
  south: U[];
  /** Lots along the street: the wider of its two sides. */
  columns: number;
}

/** The streets of a stage, first street first, each with its lots on both sides. */
export function streetsOf<U extends Pick<Unit, 'nivel' | 'posicion'>>(
  cluster: { calles?: readonly string[] | null },
  units: readonly U[],
): Street<U>[] {
  const byStreet = new Map<number, U[]>();
  for (const u of units) {
    let list = byStreet.get(u.nivel);
    if (!list) byStreet.set(u.nivel, (list = []));
    list.push(u);
  }
  return [...byStreet.keys()]
    .sort((a, b) => a - b)
    .map((numero) => {
      const lots = byStreet.get(numero)!.sort((a, b) => a.posicion - b.posicion);
      const north = lots.filter((u) => u.posicion % 2 === 1);
      const south = lots.filter((u) => u.posicion % 2 !== 1);
      return {
        numero,
        nombre: streetName(cluster, numero),
        north,
        south,
        columns: Math.max(1, north.length, south.length),
      };
    });
}

/** The name a stage gives its street `numero` (1-based), or null when it names none. */
export const streetName = (
  cluster: { calles?: readonly string[] | null } | null | undefined,
  numero: number,
): string | null => cluster?.calles?.[numero - 1]?.trim() || null;

/**
 * Where a unit stands, as its detail, quotation and simulator say it: a house on its street (the
 * name its stage gives it, when the stage is at hand and names it), any other unit on its level.
 */
export type UnitPlace =
  { kind: 'street'; numero: number; nombre: string | null } | { kind: 'level'; nivel: number };

export function unitPlace(
  unit: { categoria?: string | null | undefined; nivel: number },
  cluster?: { calles?: readonly string[] | null } | null,
): UnitPlace {
  if (!isHouse(unit)) return { kind: 'level', nivel: unit.nivel };
  return { kind: 'street', numero: unit.nivel, nombre: streetName(cluster, unit.nivel) };
}
