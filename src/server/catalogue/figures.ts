/**
 * The catalogue's maintained figures (issue 21, migration 023), written by the catalogue
 * projection so no read scans units:
 *
 * - the corporate's catalogue revision (`rm_catalogue_revisions`): every catalogue event of a
 *   corporate counts it up once and keeps the highest log position seen; the catalogue reads'
 *   ETags are derived from it (catalogue/ready-json.ts);
 * - per development and unit status (`rm_development_figures`): the units in that status, their
 *   lowest price (the unit's own above 0, else its prototype's above 0: spec §4 as
 *   `loadUnitsPriced` prices it) and lowest rent (a numeric `precioRenta` above 0). The
 *   development list combines the buckets whose status shows its price (developmentFigures).
 *
 * A unit entering a bucket adds one and lowers the minima; a unit leaving it subtracts one and,
 * only when it may have held a minimum, recomputes that one bucket from the units read model.
 */
import type { Queryable } from '../store/db';
import type { StoredEvent } from '../store/event-store';

/** The events that change what a catalogue read answers (the list migration 023 counts too). */
export const REVISING_EVENTS: ReadonlySet<string> = new Set([
  'CorporateRegistered',
  'CorporateSettingsChanged',
  'ShowroomConfigured',
  'DevelopmentPublished',
  'DevelopmentSettingsChanged',
  'ClusterAdded',
  'PrototypeAdded',
  'UnitListed',
  'UnitStatusChanged',
  'UnitHeld',
  'UnitHoldExtended',
  'UnitHoldReleased',
  'UnitPriceChanged',
  'MediaStored',
  'MediaUploaded',
  'DevelopmentMediaAdded',
]);

/** Counts the corporate's catalogue revision up for one of its catalogue events. */
export async function bumpRevision(tx: Queryable, event: StoredEvent): Promise<void> {
  if (!event.corporateId || !REVISING_EVENTS.has(event.type)) return;
  await tx.query(
    `INSERT INTO rm_catalogue_revisions (corporate_id, revision, last_position) VALUES ($1, 1, $2::bigint)
     ON CONFLICT (corporate_id) DO UPDATE
       SET revision = rm_catalogue_revisions.revision + 1,
           last_position = greatest(rm_catalogue_revisions.last_position, EXCLUDED.last_position)`,
    [event.corporateId, event.globalPosition],
  );
}

/** The corporate's catalogue revision as an opaque token ("0.0" before any catalogue event). */
export async function catalogueRevision(db: Queryable, corporateId: string): Promise<string> {
  const { rows } = await db.query<{ r: string }>(
    "SELECT revision || '.' || last_position AS r FROM rm_catalogue_revisions WHERE corporate_id = $1",
    [corporateId],
  );
  return rows[0]?.r ?? '0.0';
}

/** Where one unit counts: its development, status bucket, price and rent (numeric text). */
export interface UnitFigure {
  development_id: string;
  corporate_id: string;
  status: string;
  precio: string | null;
  renta: string | null;
}

const PRICE = `CASE WHEN jsonb_typeof(u.doc->'precio') = 'number' AND (u.doc->>'precio')::numeric > 0
                      THEN (u.doc->>'precio')::numeric
                    WHEN jsonb_typeof(p.doc->'precio') = 'number' AND (p.doc->>'precio')::numeric > 0
                      THEN (p.doc->>'precio')::numeric END`;
const RENT = `CASE WHEN jsonb_typeof(u.doc->'precioRenta') = 'number'
                    AND (u.doc->>'precioRenta')::numeric > 0
                   THEN (u.doc->>'precioRenta')::numeric END`;

/** The unit's figure as the units read model holds it now, or null when there is no such unit. */
export async function unitFigure(tx: Queryable, unitId: string): Promise<UnitFigure | null> {
  const { rows } = await tx.query<UnitFigure>(
    `SELECT u.development_id, u.corporate_id, coalesce(u.doc->>'status', '') AS status,
            (${PRICE})::text AS precio, (${RENT})::text AS renta
       FROM rm_units u
       LEFT JOIN rm_prototypes p ON p.corporate_id = u.corporate_id AND p.id = u.doc->>'idPrototipo'
      WHERE u.id = $1`,
    [unitId],
  );
  return rows[0] ?? null;
}

const sameBucket = (a: UnitFigure, b: UnitFigure) =>
  a.development_id === b.development_id && a.status === b.status;

/** Moves one unit's count from its figure before an event to its figure after it. */
export async function moveFigure(
  tx: Queryable,
  before: UnitFigure | null,
  after: UnitFigure | null,
): Promise<void> {
  if (before && after && sameBucket(before, after)) {
    if (before.precio === after.precio && before.renta === after.renta) return;
    await leaveMinima(tx, before, after);
    return;
  }
  if (before) {
    const { rows } = await tx.query<{ units: number; stale: boolean }>(
      `UPDATE rm_development_figures SET units = units - 1
        WHERE development_id = $1 AND status = $2
        RETURNING units,
          coalesce($3::numeric <= precio_min, false) OR coalesce($4::numeric <= renta_min, false) AS stale`,
      [before.development_id, before.status, before.precio, before.renta],
    );
    const row = rows[0];
    if (row && row.units <= 0) {
      await tx.query(
        'DELETE FROM rm_development_figures WHERE development_id = $1 AND status = $2',
        [before.development_id, before.status],
      );
    } else if (row?.stale) {
      await recomputeBucket(tx, before.development_id, before.status);
    }
  }
  if (after) {
    await tx.query(
      `INSERT INTO rm_development_figures (development_id, status, corporate_id, units, precio_min, renta_min)
       VALUES ($1, $2, $3, 1, $4::numeric, $5::numeric)
       ON CONFLICT (development_id, status) DO UPDATE
         SET units = rm_development_figures.units + 1,
             precio_min = least(rm_development_figures.precio_min, EXCLUDED.precio_min),
             renta_min = least(rm_development_figures.renta_min, EXCLUDED.renta_min)`,
      [after.development_id, after.status, after.corporate_id, after.precio, after.renta],
    );
  }
}

/** A unit that stays in its bucket with another price or rent: lower, or recompute if it held a minimum. */
async function leaveMinima(tx: Queryable, before: UnitFigure, after: UnitFigure) {
  const { rows } = await tx.query<{ stale: boolean }>(
    `UPDATE rm_development_figures
        SET precio_min = least(precio_min, $3::numeric), renta_min = least(renta_min, $4::numeric)
      WHERE development_id = $1 AND status = $2
      RETURNING coalesce($5::numeric <= precio_min, false) OR coalesce($6::numeric <= renta_min, false) AS stale`,
    [after.development_id, after.status, after.precio, after.renta, before.precio, before.renta],
  );
  if (rows[0]?.stale) await recomputeBucket(tx, after.development_id, after.status);
}

const AGGREGATE = `SELECT u.development_id, coalesce(u.doc->>'status', '') AS status,
         min(u.corporate_id) AS corporate_id, count(*)::int AS units,
         min(${PRICE}) AS precio_min, min(${RENT}) AS renta_min
    FROM rm_units u
    LEFT JOIN rm_prototypes p ON p.corporate_id = u.corporate_id AND p.id = u.doc->>'idPrototipo'`;

async function recomputeBucket(tx: Queryable, developmentId: string, status: string) {
  await tx.query('DELETE FROM rm_development_figures WHERE development_id = $1 AND status = $2', [
    developmentId,
    status,
  ]);
  await tx.query(
    `INSERT INTO rm_development_figures (development_id, status, corporate_id, units, precio_min, renta_min)
     ${AGGREGATE}
      WHERE u.development_id = $1 AND coalesce(u.doc->>'status', '') = $2
      GROUP BY u.development_id, coalesce(u.doc->>'status', '')`,
    [developmentId, status],
  );
}

/** Every bucket of one development from its units (a prototype's price changes many units). */
export async function recomputeDevelopmentFigures(tx: Queryable, developmentId: string) {
  await tx.query('DELETE FROM rm_development_figures WHERE development_id = $1', [developmentId]);
  await tx.query(
    `INSERT INTO rm_development_figures (development_id, status, corporate_id, units, precio_min, renta_min)
     ${AGGREGATE}
      WHERE u.development_id = $1
      GROUP BY u.development_id, coalesce(u.doc->>'status', '')`,
    [developmentId],
  );
}

/** Every bucket of a corporate as a scan of its units computes it now (tests compare with it). */
export async function scannedFigures(db: Queryable, corporateId: string) {
  const { rows } = await db.query<{
    development_id: string;
    status: string;
    corporate_id: string;
    units: number;
    precio_min: string | null;
    renta_min: string | null;
  }>(
    `SELECT development_id, status, corporate_id, units, precio_min::text, renta_min::text
       FROM (${AGGREGATE} WHERE u.corporate_id = $1
             GROUP BY u.development_id, coalesce(u.doc->>'status', '')) s
      ORDER BY development_id, status`,
    [corporateId],
  );
  return rows;
}

/** The unit an event changes, for the figures (null when the event changes no unit). */
export function unitIdOf(event: StoredEvent): string | null {
  const data = event.data as { idUnidad?: string; unit?: { id?: string } };
  switch (event.type) {
    case 'UnitListed':
      return data.unit?.id ?? null;
    case 'UnitStatusChanged':
    case 'UnitHeld':
    case 'UnitHoldReleased':
    case 'UnitPriceChanged':
      return data.idUnidad ?? null;
    default:
      return null;
  }
}
