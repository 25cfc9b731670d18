/** Sync health reads: one lead's (GET …/leads/:leadId/crm) and the corporate's summary. */
import type { CrmSyncState } from '../../core/crm';
import type { Queryable } from '../store/db';

interface SyncRow {
  lead_id: string;
  estado: CrmSyncState;
  crm_id: string | null;
  error: string | null;
  intentos: number;
  ultimo_intento: Date | string | null;
  outbox_id: string | null;
  export_estado: string | null;
  export_error: string | null;
  export_fecha: Date | string | null;
}

const iso = (v: Date | string | null) => (v ? new Date(v).toISOString() : undefined);

export async function leadSyncView(q: Queryable, leadId: string) {
  const { rows } = await q.query<SyncRow>(
    `SELECT lead_id, estado, crm_id, error, intentos, ultimo_intento, outbox_id, export_estado,
            export_error, export_fecha
       FROM crm_lead_sync WHERE lead_id = $1`,
    [leadId],
  );
  const row = rows[0];
  if (!row) return { sync: { estado: 'pendiente' as CrmSyncState, intentos: 0 } };
  const sync = {
    estado: row.outbox_id ? row.estado : ('pendiente' as CrmSyncState),
    ...(row.crm_id ? { crmId: row.crm_id } : {}),
    ...(row.error && row.estado !== 'sincronizado' ? { error: row.error } : {}),
    intentos: row.intentos,
    ...(row.ultimo_intento ? { ultimoIntento: iso(row.ultimo_intento) } : {}),
  };
  return {
    sync,
    ...(row.export_estado
      ? {
          exportacion: {
            estado: row.export_estado,
            ...(row.export_error ? { error: row.export_error } : {}),
            ...(row.export_fecha ? { fecha: iso(row.export_fecha) } : {}),
          },
        }
      : {}),
  };
}

export async function syncSummary(q: Queryable, corporateId: string) {
  const counts = (
    await q.query<{ pendientes: number; reintentando: number; fallidos: number }>(
      `SELECT count(*) FILTER (WHERE estado = 'pendiente')::int AS pendientes,
              count(*) FILTER (WHERE estado = 'reintentando')::int AS reintentando,
              count(*) FILTER (WHERE estado = 'fallido')::int AS fallidos
         FROM crm_lead_sync WHERE corporate_id = $1 AND outbox_id IS NOT NULL`,
      [corporateId],
    )
  ).rows[0]!;
  const { rows } = await q.query<SyncRow & { nombre: string | null }>(
    `SELECT s.lead_id, s.estado, s.crm_id, s.error, s.intentos, s.ultimo_intento, s.outbox_id,
            s.export_estado, s.export_error, s.export_fecha,
            trim(coalesce(l.doc->>'nombre', '') || ' ' || coalesce(l.doc->>'apellidos', '')) AS nombre
       FROM crm_lead_sync s LEFT JOIN rm_leads l ON l.id = s.lead_id
      WHERE s.corporate_id = $1 AND s.outbox_id IS NOT NULL
      ORDER BY (s.estado = 'fallido') DESC, s.updated_at DESC, s.lead_id LIMIT 50`,
    [corporateId],
  );
  return {
    ...counts,
    recientes: rows.map((r) => ({
      leadId: r.lead_id,
      nombre: r.nombre ?? '',
      estado: r.estado,
      error: r.estado === 'sincronizado' ? null : r.error,
      intentos: r.intentos,
      ultimoIntento: iso(r.ultimo_intento) ?? null,
    })),
  };
}
