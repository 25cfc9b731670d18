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
  clusterIds?: readonly string[],
): Promise<Unit[]> {
  const { rows } = clusterIds
    ? await db.query<{ doc: Unit }>(
        'SELECT doc FROM rm_units WHERE corporate_id = $1 AND development_id = $2 AND cluster_id = ANY($3::text[])',
        [corporateId, devId, clusterIds],
      )
    : await db.query<{ doc: Unit }>(
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

/** The states the corporate's clusters give their stage (`etapa`), each once. */
export async function loadClusterStages(db: Queryable, corporateId: string): Promise<string[]> {
  const { rows } = await db.query<{ etapa: string }>(
    "SELECT DISTINCT doc->>'etapa' AS etapa FROM rm_clusters WHERE corporate_id = $1 AND doc->>'etapa' IS NOT NULL",
    [corporateId],
  );
  return rows.map((r) => r.etapa);
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
  /** Only the units of these clusters (a page of the availability, issue 21). */
  clusterIds?: readonly string[],
): Promise<Unit[]> {
  // One after another: a transaction's connection runs one query at a time.
  const units = await loadUnits(db, corporateId, devId, clusterIds);
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

/** One development's figures for the development list. */
export interface DevelopmentFigures {
  development_id: string;
  units: number;
  disponibles: number;
  desde: string | null;
  renta: string | null;
}

/**
 * Lowest visible price, rent and unit counts per development, from the counters the catalogue
 * projection keeps per development and status (catalogue/figures.ts, issue 21), not a scan of
 * units. "Price from" and "rent from" (spec §4, §5) count only the statuses that show their price
 * in the development (its own status colours when it has them, else the corporate's), for every
 * caller; a unit is priced as `loadUnitsPriced` prices it (its own above 0, else its prototype's).
 */
export async function developmentFigures(
  db: Queryable,
  corporate: Corporate,
  developments: readonly Pick<Development, 'id' | 'coloresStatus'>[],
): Promise<Map<string, DevelopmentFigures>> {
  const { rows } = await db.query<{
    development_id: string;
    status: string;
    units: number;
    precio_min: string | null;
    renta_min: string | null;
  }>(
    `SELECT development_id, status, units, precio_min::text AS precio_min, renta_min::text AS renta_min
       FROM rm_development_figures WHERE corporate_id = $1`,
    [corporate.id],
  );
  const visible = new Map<string, Set<string>>();
  for (const d of developments) {
    const colors = effectiveStatusColors(corporate, d);
    visible.set(
      d.id,
      new Set(
        Object.entries(colors)
          .filter(([, entry]) => entry?.esPrecioVisible)
          .map(([status]) => status),
      ),
    );
  }
  const lower = (a: string | null, b: string | null) =>
    b === null ? a : a === null || Number(b) < Number(a) ? b : a;
  const figures = new Map<string, DevelopmentFigures>();
  for (const row of rows) {
    const f = figures.get(row.development_id) ?? {
      development_id: row.development_id,
      units: 0,
      disponibles: 0,
      desde: null,
      renta: null,
    };
    f.units += row.units;
    if (row.status === 'Disponible') f.disponibles += row.units;
    if (visible.get(row.development_id)?.has(row.status)) {
      f.desde = lower(f.desde, row.precio_min);
      f.renta = lower(f.renta, row.renta_min);
    }
    figures.set(row.development_id, f);
  }
  return figures;
}
