/** The inventory's reads: a unit from the read model, and a unit's history from its own stream. */
import type { Unit } from '../../core/types';
import { streams } from '../catalogue/events';
import type { Queryable } from '../store/db';
import type { EventStore } from '../store/event-store';

export async function findUnitDoc(
  db: Queryable,
  corporateId: string,
  unitId: string,
): Promise<Unit | null> {
  const { rows } = await db.query<{ doc: Unit }>(
    'SELECT doc FROM rm_units WHERE corporate_id = $1 AND id = $2',
    [corporateId, unitId],
  );
  return rows[0]?.doc ?? null;
}

/** One line of a unit's status and price history (`…/unidades/:u/historial`). */
export interface UnitHistoryEntry {
  fecha: string;
  tipo: string;
  campo: 'precio' | 'status';
  anterior: unknown;
  nuevo: unknown;
  actor: string;
}

/** Events that change what a unit shows: a hold and its end are status changes (Disponible ⇄ Apartado). */
const HISTORY_TYPES = new Set([
  'UnitListed',
  'UnitStatusChanged',
  'UnitPriceChanged',
  'UnitHeld',
  'UnitHoldReleased',
]);

/**
 * The unit's listing, status and price changes (holds and their ends among them), newest first, read from its stream. `system`
 * names changes nobody made by hand (the seed, an automatic process) in the caller's language.
 */
export async function unitHistory(
  store: EventStore,
  db: Queryable,
  corporateId: string,
  unitId: string,
  system: string,
): Promise<UnitHistoryEntry[]> {
  const events = await store.readStream(streams.unit(corporateId, unitId));
  const actorIds = [...new Set(events.map((e) => e.actorId).filter((a): a is string => !!a))];
  const { rows } = await db.query<{ id: string; nombre: string }>(
    "SELECT id, (doc->>'nombre') || ' ' || (doc->>'apellidos') AS nombre FROM rm_users WHERE id = ANY($1::text[])",
    [actorIds],
  );
  const names = new Map(rows.map((r) => [r.id, r.nombre]));
  return events
    .filter((e) => HISTORY_TYPES.has(e.type))
    .map((e) => {
      const data = e.data as { from?: unknown; to?: unknown; unit?: Unit };
      return {
        fecha: e.occurredAt,
        tipo: e.type,
        campo: e.type === 'UnitPriceChanged' ? ('precio' as const) : ('status' as const),
        anterior: e.type === 'UnitListed' ? null : (data.from ?? null),
        nuevo: e.type === 'UnitListed' ? (data.unit?.status ?? null) : data.to,
        actor: e.actorId
          ? (names.get(e.actorId) ?? (e.actorId === 'seed' ? system : e.actorId))
          : system,
      };
    })
    .reverse();
}
