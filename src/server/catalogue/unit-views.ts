/**
 * Units as a caller may see them (issue 13, defect 9): every route that answers a unit passes it
 * through the core's `visibleUnit` (core/visibility.ts) with the development's effective status
 * colours, so a price its status hides reaches only roles that administer the inventory.
 */
import type { Corporate, Development, Role, Unit } from '../../core/types';
import { visibleUnit, type UnitView } from '../../core/visibility';
import { ApiError } from '../http/errors';
import { effectiveStatusColors } from '../../core/status';
import type { Queryable } from '../store/db';
import { loadDevelopmentById } from './queries';

/** The units of one development as `role` may see them. */
export function unitsAsSeen(
  corporate: Corporate,
  development: Development,
  units: readonly Unit[],
  role: Role | null,
): UnitView[] {
  const colors = effectiveStatusColors(corporate, development);
  return units.map((u) => visibleUnit(u, colors, role));
}

/** One unit as `role` may see it (its development read for its status colours). */
export async function unitAsSeen(
  db: Queryable,
  corporate: Corporate,
  unit: Unit,
  role: Role | null,
): Promise<UnitView> {
  const development = await loadDevelopmentById(db, corporate.id, unit.idDesarrollo);
  const colors = development
    ? effectiveStatusColors(corporate, development)
    : corporate.coloresStatus;
  return visibleUnit(unit, colors, role);
}

/**
 * Runs a unit write and answers the unit as `role` may see it; a refusal that carries the unit
 * (409 `{ unidad }` when stale or not available) carries it as the role may see it too.
 */
export async function unitWriteAsSeen(
  db: Queryable,
  corporate: Corporate,
  role: Role,
  write: () => Promise<Unit>,
): Promise<UnitView> {
  let unit: Unit;
  try {
    unit = await write();
  } catch (error) {
    const seen = error instanceof ApiError ? (error.extra.unidad as Unit | undefined) : undefined;
    if (!(error instanceof ApiError) || !seen) throw error;
    throw new ApiError(
      error.status,
      error.errorCode,
      error.key,
      error.params,
      { ...error.extra, unidad: await unitAsSeen(db, corporate, seen, role) },
      error.literal,
    );
  }
  return unitAsSeen(db, corporate, unit, role);
}
