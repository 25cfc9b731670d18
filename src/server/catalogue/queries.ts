/** The catalogue's reads: developments, clusters, prototypes and units from the read models. */
import { recomputePricesFromPrototypes } from '../../core/filters';
import { effectiveStatusColors } from '../../core/status';
import type { Cluster, Corporate, Development, Prototype, Unit } from '../../core/types';
import type { CorporateConfig } from './events';
import type { Queryable } from '../store/db';

export type CorporateDoc = Corporate & CorporateConfig;

/** The corporate document without the configuration that has calls of its own. */
export function corporateView(doc: CorporateDoc): Corporate {
  const {
    showrooms: _s,
    statusLeads: _l,
    tagsBusqueda: _t,
    categoriasBusqueda: _c,
    ...corporate
  } = doc;
  return corporate;
}

export async function loadDevelopments(db: Queryable, corporateId: string): Promise<Development[]> {
  const { rows } = await db.query<{ doc: Development }>(
    'SELECT doc FROM rm_developments WHERE corporate_id = $1',
    [corporateId],
  );
  return rows.map((r) => r.doc);
}

export async function loadDevelopmentBySlug(db: Queryable, corporateId: string, devSlug: string) {
  const { rows } = await db.query<{ doc: Development }>(
    'SELECT doc FROM rm_developments WHERE corporate_id = $1 AND slug = $2',
    [corporateId, devSlug],
  );
  return rows[0]?.doc ?? null;
}

export async function loadDevelopmentById(db: Queryable, corporateId: string, devId: string) {
  const { rows } = await db.query<{ doc: Development }>(
    'SELECT doc FROM rm_developments WHERE corporate_id = $1 AND id = $2',
    [corporateId, devId],
  );
  return rows[0]?.doc ?? null;
}

export async function loadUnits(
  db: Queryable,
  corporateId: string,
  devId: string,
): Promise<Unit[]> {
  const { rows } = await db.query<{ doc: Unit }>(
    'SELECT doc FROM rm_units WHERE corporate_id = $1 AND development_id = $2',
    [corporateId, devId],
  );
  return rows
    .map((r) => r.doc)
    .sort(
      (a, b) =>
        a.idCluster.localeCompare(b.idCluster) || b.nivel - a.nivel || a.posicion - b.posicion,
    );
}

export async function loadClusters(
  db: Queryable,
  corporateId: string,
  devId: string,
): Promise<Cluster[]> {
  const { rows } = await db.query<{ doc: Cluster }>(
    "SELECT doc FROM rm_clusters WHERE corporate_id = $1 AND development_id = $2 ORDER BY doc->>'nombre'",
    [corporateId, devId],
  );
  return rows.map((r) => r.doc);
}

export async function loadPrototypes(
  db: Queryable,
  corporateId: string,
  devId: string,
): Promise<Prototype[]> {
  const { rows } = await db.query<{ doc: Prototype }>(
    "SELECT doc FROM rm_prototypes WHERE corporate_id = $1 AND development_id = $2 ORDER BY (doc->>'precio')::numeric",
    [corporateId, devId],
  );
  return rows.map((r) => r.doc);
}

/**
 * The development's units as the screens and the quotation price them (spec §4, core/filters.ts
 * `recomputePricesFromPrototypes`): a unit without its own price takes its prototype's. Every
 * read that shows or quotes a price goes through here or {@link findUnitPriced}; `loadUnits`
 * (stored prices) stays for the inventory's own commands, which change the stored price.
 */
export async function loadUnitsPriced(
  db: Queryable,
  corporateId: string,
  devId: string,
): Promise<Unit[]> {
  // One after another: a transaction's connection runs one query at a time.
  const units = await loadUnits(db, corporateId, devId);
  const prototypes = await loadPrototypes(db, corporateId, devId);
  return recomputePricesFromPrototypes(units, prototypes);
}

/** One unit priced as {@link loadUnitsPriced} prices it; null when the corporate has no such unit. */
export async function findUnitPriced(
  db: Queryable,
  corporateId: string,
  unitId: string,
): Promise<Unit | null> {
  const { rows } = await db.query<{ doc: Unit; prototipo: Prototype | null }>(
    `SELECT u.doc, p.doc AS prototipo
       FROM rm_units u
       LEFT JOIN rm_prototypes p ON p.corporate_id = u.corporate_id AND p.id = u.doc->>'idPrototipo'
      WHERE u.corporate_id = $1 AND u.id = $2`,
    [corporateId, unitId],
  );
  const row = rows[0];
  if (!row) return null;
  return recomputePricesFromPrototypes([row.doc], row.prototipo ? [row.prototipo] : [])[0]!;
}

/**
 * Lowest visible price and available count per development, from the units read model. "Price
 * from" counts only units whose status shows the price in their development (its own status
 * colours when it has them, else the corporate's), for every caller.
 */
export async function developmentFigures(
  db: Queryable,
  corporate: Corporate,
  developments: readonly Pick<Development, 'id' | 'coloresStatus'>[],
) {
  const visibleIn: Record<string, string[]> = {};
  for (const d of developments) {
    const colors = effectiveStatusColors(corporate, d);
    visibleIn[d.id] = Object.entries(colors)
      .filter(([, entry]) => entry?.esPrecioVisible)
      .map(([status]) => status);
  }
  const { rows } = await db.query<{
    development_id: string;
    units: number;
    disponibles: number;
    desde: string | null;
    renta: string | null;
  }>(
    // Price from: each unit's price as the screens show it (spec §4, `loadUnitsPriced`: its own
    // above 0, else its prototype's). Rent (spec §5): the minimum of the units with a numeric
    // precioRenta, among those whose price may be shown (a rent is a price too), above 0.
    `WITH priced AS (
       SELECT u.development_id, u.doc,
              CASE WHEN jsonb_typeof(u.doc->'precio') = 'number' AND (u.doc->>'precio')::numeric > 0
                     THEN (u.doc->>'precio')::numeric
                   WHEN jsonb_typeof(p.doc->'precio') = 'number' AND (p.doc->>'precio')::numeric > 0
                     THEN (p.doc->>'precio')::numeric END AS precio
         FROM rm_units u
         LEFT JOIN rm_prototypes p
           ON p.corporate_id = u.corporate_id AND p.id = u.doc->>'idPrototipo'
        WHERE u.corporate_id = $1)
     SELECT development_id,
            count(*)::int AS units,
            count(*) FILTER (WHERE doc->>'status' = 'Disponible')::int AS disponibles,
            min(precio) FILTER (
              WHERE ($2::jsonb -> development_id) ? (doc->>'status') AND precio > 0
            )::text AS desde,
            min(CASE WHEN jsonb_typeof(doc->'precioRenta') = 'number'
                     THEN (doc->>'precioRenta')::numeric END) FILTER (
              WHERE ($2::jsonb -> development_id) ? (doc->>'status')
                AND jsonb_typeof(doc->'precioRenta') = 'number'
                AND (doc->>'precioRenta')::numeric > 0
            )::text AS renta
       FROM priced GROUP BY development_id`,
    [corporate.id, JSON.stringify(visibleIn)],
  );
  return new Map(rows.map((r) => [r.development_id, r]));
}
