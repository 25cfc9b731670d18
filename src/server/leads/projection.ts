import {
  evolveLead,
  LEAD_EVENT_TYPES,
  leadSearchKeys,
  type Lead,
  type LeadEvent,
  type LeadNote,
} from '../../core/lead';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

/** Columns of `rm_leads`, in the order {@link leadRow} gives their values. */
export const LEAD_COLUMNS = [
  'id',
  'corporate_id',
  'id_vendedor',
  'fecha_alta',
  'eliminado',
  'status',
  'desarrollo',
  'search_name',
  'search_name_rev',
  'email_norm',
  'telefono_norm',
  'celular_norm',
  'doc',
] as const;

/** A lead as one `rm_leads` row (also used by the bench to bulk-load the read model). */
export function leadRow(lead: Lead): unknown[] {
  const keys = leadSearchKeys(lead);
  return [
    lead.id,
    lead.idCorporativo,
    lead.idVendedor,
    lead.fechaAlta,
    lead.eliminado,
    lead.status,
    lead.desarrollo,
    keys.nombre,
    keys.nombreInverso,
    keys.email,
    keys.telefono,
    keys.celular,
    JSON.stringify(lead),
  ];
}

const placeholders = LEAD_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');
const updates = LEAD_COLUMNS.filter((c) => c !== 'id')
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

async function upsertLead(tx: Queryable, lead: Lead) {
  await tx.query(
    `INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) VALUES (${placeholders})
     ON CONFLICT (id) DO UPDATE SET ${updates}`,
    leadRow(lead),
  );
}

async function insertNote(tx: Queryable, idLead: string, idCorporativo: string, note: LeadNote) {
  await tx.query(
    `INSERT INTO rm_lead_notes (lead_id, key, corporate_id, fecha_registro, eliminado, doc)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (lead_id, key) DO UPDATE SET fecha_registro = EXCLUDED.fecha_registro,
       eliminado = EXCLUDED.eliminado, doc = EXCLUDED.doc`,
    [idLead, note.key, idCorporativo, note.fechaRegistro, note.eliminado, JSON.stringify(note)],
  );
}

/**
 * `rm_leads` (one row per lead, deleted ones kept with `eliminado`) and `rm_lead_notes`. The lead
 * document is the core's own fold (`evolveLead`), so the read model cannot drift from the log.
 */
export const leadsProjection: Projection = {
  name: 'leads',
  tables: ['rm_leads', 'rm_lead_notes'],
  handles: LEAD_EVENT_TYPES,
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as LeadEvent;
    const { idLead, idCorporativo } = event.data;
    const { rows } = await tx.query<{ doc: Lead }>('SELECT doc FROM rm_leads WHERE id = $1', [
      idLead,
    ]);
    const before = rows[0]?.doc ?? null;
    const after = evolveLead(before, event);
    if (after && after !== before) await upsertLead(tx, after);
    switch (event.type) {
      case 'LeadNoteAdded':
        await insertNote(tx, idLead, idCorporativo, event.data.note);
        break;
      case 'LeadNoteDeleted':
        await tx.query(
          `UPDATE rm_lead_notes SET eliminado = true, doc = jsonb_set(doc, '{eliminado}', 'true')
           WHERE lead_id = $1 AND key = $2`,
          [idLead, event.data.key],
        );
        break;
      case 'LeadMerged':
        for (const note of event.data.notes) await insertNote(tx, idLead, idCorporativo, note);
        break;
      default:
        break;
    }
  },
};
