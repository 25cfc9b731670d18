/**
 * The quotation area's reads: the catalogue records a quotation is priced from, who may see a
 * lead or a quotation, the lead's quotations, the weekly report and the share links. Every
 * function takes a `Queryable`, so a command reads through its scope (inside its transaction)
 * and a route through the pool.
 */
import type { Lead } from '../../core/lead';
import { startOfWeekMonday } from '../../core/misc';
import { mayGenerateAllUsersReport, maySeeLead, maySeeQuotation } from '../../core/permissions';
import type { Quotation } from '../../core/quotation';
import type { Cluster, Corporate, Prototype } from '../../core/types';
import { loadDevelopmentById } from '../catalogue/queries';
import type { Membership } from '../http/context';
import { ApiError } from '../http/errors';
import type { Queryable } from '../store/db';
import { clusterNotFound, developmentNotFound } from './errors';
import type { ShareKeyring } from './share-keys';
import { verifyShareToken, type ShareRow } from './share-links';

/** A unit of the corporate by id, or null: the inventory's read. */
// Priced as the screens price it (spec §4: a unit without its own price takes its prototype's),
// so a saved quotation's precioEnCotizacion is the price the grid showed.
export { findUnitPriced as findUnit } from '../catalogue/queries';

export async function findCluster(
  db: Queryable,
  corporateId: string,
  id: string,
): Promise<Cluster | null> {
  const { rows } = await db.query<{ doc: Cluster }>(
    'SELECT doc FROM rm_clusters WHERE corporate_id = $1 AND id = $2',
    [corporateId, id],
  );
  return rows[0]?.doc ?? null;
}

export async function findPrototype(
  db: Queryable,
  corporateId: string,
  id: string,
): Promise<Prototype | null> {
  const { rows } = await db.query<{ doc: Prototype }>(
    'SELECT doc FROM rm_prototypes WHERE corporate_id = $1 AND id = $2',
    [corporateId, id],
  );
  return rows[0]?.doc ?? null;
}

/** The development of the corporate, or 404 DEVELOPMENT_NOT_FOUND. */
export async function requireDevelopment(db: Queryable, corporateId: string, devId: string) {
  const development = await loadDevelopmentById(db, corporateId, devId);
  if (!development) throw developmentNotFound();
  return development;
}

/** A cluster of the development, or 404 CLUSTER_NOT_FOUND. */
export async function requireClusterOf(
  db: Queryable,
  corporateId: string,
  devId: string,
  clusterId: string,
) {
  const cluster = await findCluster(db, corporateId, clusterId);
  if (!cluster || cluster.idDesarrollo !== devId) throw clusterNotFound();
  return cluster;
}

export type LeadAccess =
  { ok: true; lead: Lead } | { ok: false; reason: 'not_found' | 'forbidden' };

/**
 * Whether the user may see (and quote for) a lead of the corporate: it exists there and is not
 * deleted (else `not_found`), and is in the user's lead scope (else `forbidden`).
 */
export async function leadAccess(
  db: Queryable,
  m: Membership,
  leadId: string,
): Promise<LeadAccess> {
  const { rows } = await db.query<{ doc: Lead }>(
    'SELECT doc FROM rm_leads WHERE id = $1 AND corporate_id = $2',
    [leadId, m.corporate.id],
  );
  const lead = rows[0]?.doc;
  if (!lead || lead.eliminado) return { ok: false, reason: 'not_found' };
  if (!maySeeLead(m, lead)) return { ok: false, reason: 'forbidden' };
  return { ok: true, lead };
}

/**
 * Whether the user may see the quotation (core/permissions.ts `maySeeQuotation`); the owner of
 * its lead is looked up only when the user's scope does not cover it already.
 */
export async function maySeeQuotationIn(
  db: Queryable,
  m: Membership,
  quotation: Pick<Quotation, 'idCorporativo' | 'idAsesor' | 'idLead'>,
): Promise<boolean> {
  if (maySeeQuotation(m, quotation)) return true;
  if (quotation.idCorporativo !== m.corporate.id) return false;
  const { rows } = await db.query<{ id_vendedor: string | null }>(
    'SELECT id_vendedor FROM rm_leads WHERE id = $1 AND corporate_id = $2 AND NOT eliminado',
    [quotation.idLead, m.corporate.id],
  );
  return maySeeQuotation(m, quotation, rows[0]?.id_vendedor ?? null);
}

/** The quotation if it exists in the corporate and the user may see it, else null. */
export async function visibleQuotation(
  db: Queryable,
  m: Membership,
  id: string,
): Promise<Quotation | null> {
  const { rows } = await db.query<{ doc: Quotation }>(
    'SELECT doc FROM rm_quotations WHERE id = $1 AND corporate_id = $2',
    [id, m.corporate.id],
  );
  const quotation = rows[0]?.doc;
  return quotation && (await maySeeQuotationIn(db, m, quotation)) ? quotation : null;
}

/** The lead's quotations, newest first (`fechaAlta`, then creation order). */
export async function leadQuotations(db: Queryable, corporateId: string, leadId: string) {
  const { rows } = await db.query<{ doc: Quotation }>(
    `SELECT doc FROM rm_quotations WHERE corporate_id = $1 AND id_lead = $2
     ORDER BY fecha_alta DESC, posicion DESC`,
    [corporateId, leadId],
  );
  return rows.map((r) => r.doc);
}

/**
 * The weekly report in one query, as the route answered it before streaming (issue 21: the
 * route streams it in pages, report-stream.ts); kept as the reference the stream is tested and
 * benchmarked against. `now`'s week (Monday 00:00 to the next Monday 00:00 in the corporate's
 * time zone) as one JSON text, oldest first: every adviser's quotations when the role's report
 * covers all users, else only the user's own. Names are the current ones, else those at quote
 * time.
 */
export async function weeklyReport(db: Queryable, m: Membership, now: Date) {
  const tz = m.corporate.zonaHoraria || 'UTC';
  const start = startOfWeekMonday(now, tz);
  const end = startOfWeekMonday(new Date(start.getTime() + 8 * 86_400_000), tz);
  const params: unknown[] = [m.corporate.id, start.toISOString(), end.toISOString()];
  let own = '';
  if (!mayGenerateAllUsersReport(m.role)) {
    params.push(m.user.id);
    own = 'AND q.id_asesor = $4';
  }
  // Built as one JSON text by the database: a large week never becomes JS objects here.
  const { rows } = await db.query<{ body: string }>(
    `SELECT coalesce(json_agg(
              q.reporte || jsonb_build_object(
                'divisa', q.doc->'divisa'->>'codigo',
                'nombreAsesor', coalesce(nullif(trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos')), ''), q.reporte->>'nombreAsesor'),
                'nombreCliente', coalesce(nullif(trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos')), ''), q.reporte->>'nombreCliente'))
              ORDER BY q.fecha_alta, q.posicion), '[]'::json)::text AS body
       FROM rm_quotations q
       LEFT JOIN rm_users u ON u.id = q.id_asesor
       LEFT JOIN rm_leads l ON l.id = q.id_lead AND l.corporate_id = q.corporate_id
      WHERE q.corporate_id = $1 AND q.fecha_alta >= $2 AND q.fecha_alta < $3 ${own}`,
    params,
  );
  return { start, end, body: rows[0]?.body ?? '[]' };
}

/** The quotation's issued shares, newest first; only the one of `nonce` when given. */
export async function findShares(
  db: Queryable,
  corporateId: string,
  quotationId: string,
  nonce?: string,
): Promise<ShareRow[]> {
  const params = [corporateId, quotationId, ...(nonce === undefined ? [] : [nonce])];
  const { rows } = await db.query<ShareRow>(
    `SELECT nonce, expira_en, fecha_alta, revocado_en, kid FROM rm_quotation_shares
      WHERE corporate_id = $1 AND quotation_id = $2 ${nonce === undefined ? '' : 'AND nonce = $3'}
      ORDER BY fecha_alta DESC, posicion DESC`,
    params,
  );
  return rows;
}

/**
 * The quotation a genuine, unexpired, issued, unrevoked token points at, with its corporate:
 * 404 SHARE_INVALID for a modified, malformed or unknown token (or one whose key was retired),
 * 410 SHARE_EXPIRED / SHARE_REVOKED. The expiry is the stored link's (`rm_quotation_shares`),
 * whatever the token says.
 */
export async function quotationForToken(
  db: Queryable,
  keys: ShareKeyring,
  token: string,
  now: Date,
) {
  const invalid = () => new ApiError(404, 'SHARE_INVALID', 'share_invalid');
  const payload = await verifyShareToken(keys, token);
  if (!payload) throw invalid();
  const expired = () => new ApiError(410, 'SHARE_EXPIRED', 'share_expired');
  if (payload.e * 1000 <= now.getTime()) throw expired();
  const { rows } = await db.query<{
    doc: Quotation;
    corporate: Corporate;
    revocado_en: Date | string | null;
    expira_en: Date | string;
    asesor_email: string | null;
    asesor_telefono: string | null;
  }>(
    `SELECT q.doc, c.doc AS corporate, s.revocado_en, s.expira_en,
            u.doc->>'email' AS asesor_email, u.doc->>'telefono' AS asesor_telefono
       FROM rm_quotation_shares s
       JOIN rm_quotations q ON q.id = s.quotation_id AND q.corporate_id = s.corporate_id
       JOIN rm_corporates c ON c.id = q.corporate_id
       LEFT JOIN rm_users u ON u.id = q.id_asesor
      WHERE s.nonce = $1 AND s.quotation_id = $2 AND s.corporate_id = $3`,
    [payload.n, payload.q, payload.c],
  );
  const row = rows[0];
  if (!row) throw invalid();
  if (row.revocado_en !== null) throw new ApiError(410, 'SHARE_REVOKED', 'share_revoked');
  const expiraEn = new Date(row.expira_en);
  if (expiraEn.getTime() <= now.getTime()) throw expired();
  return {
    quotation: row.doc,
    corporate: row.corporate,
    expiraEn: expiraEn.toISOString(),
    // The adviser's work contact as it is now, so the buyer reaches whoever quoted.
    adviserContact: { email: row.asesor_email || null, telefono: row.asesor_telefono || null },
  };
}
