import {
  evolveLead,
  LEAD_EVENT_TYPES,
  leadSearchKeys,
  type Lead,
  type LeadEvent,
  type LeadNote,
} from '../../core/lead';
import type { Queryable } from '../store/db';
import type { BulkReplay, Projection, StoredEvent } from '../store/event-store';

/**
 * Columns of `rm_leads` with their SQL types (the types name the arrays of a bulk write), in the
 * order {@link leadRow} gives their values.
 */
const LEAD_COLUMN_TYPES = [
  ['id', 'text'],
  ['corporate_id', 'text'],
  ['id_vendedor', 'text'],
  ['fecha_alta', 'bigint'],
  ['eliminado', 'boolean'],
  ['status', 'text'],
  ['desarrollo', 'text'],
  ['search_name', 'text'],
  ['search_name_rev', 'text'],
  ['email_norm', 'text'],
  ['telefono_norm', 'text'],
  ['celular_norm', 'text'],
  ['doc', 'jsonb'],
] as const;

/** Columns of `rm_leads`, in the order {@link leadRow} gives their values. */
export const LEAD_COLUMNS = LEAD_COLUMN_TYPES.map(([column]) => column);

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

/** One `rm_lead_notes` row, as {@link upsertNoteRows} writes it. */
export interface LeadNoteRow {
  leadId: string;
  corporateId: string;
  note: LeadNote;
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

/**
 * Many leads' rows in one statement (an upsert, as {@link upsertLead}): the bulk replay's and the
 * large seed's writer. Each lead at most once.
 */
export async function upsertLeadRows(tx: Queryable, leads: Iterable<Lead>): Promise<void> {
  const columns: unknown[][] = LEAD_COLUMNS.map(() => []);
  for (const lead of leads) leadRow(lead).forEach((value, c) => columns[c]!.push(value));
  if (columns[0]!.length === 0) return;
  const arrays = LEAD_COLUMN_TYPES.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  await tx.query(
    `INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) SELECT * FROM unnest(${arrays})
     ON CONFLICT (id) DO UPDATE SET ${updates}`,
    columns,
  );
}

/**
 * Notes' rows in one statement, an upsert (a note already there keeps its corporate): the
 * projection's, the bulk replay's and the large seed's writer. Each (lead, key) at most once.
 */
export async function upsertNoteRows(tx: Queryable, notes: Iterable<LeadNoteRow>): Promise<void> {
  const columns: unknown[][] = [[], [], [], [], [], []];
  for (const { leadId, corporateId, note } of notes) {
    const row = [leadId, note.key, corporateId, note.fechaRegistro, note.eliminado];
    row.forEach((value, c) => columns[c]!.push(value));
    columns[5]!.push(JSON.stringify(note));
  }
  if (columns[0]!.length === 0) return;
  await tx.query(
    `INSERT INTO rm_lead_notes (lead_id, key, corporate_id, fecha_registro, eliminado, doc)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::boolean[],
                          $6::jsonb[])
     ON CONFLICT (lead_id, key) DO UPDATE SET fecha_registro = EXCLUDED.fecha_registro,
       eliminado = EXCLUDED.eliminado, doc = EXCLUDED.doc`,
    columns,
  );
}

/**
 * A lead that had no row (its registration) and the count it joins, in one statement: what
 * {@link upsertLead} and {@link moveCount} from nothing do, one round trip fewer per create.
 */
async function insertLead(tx: Queryable, lead: Lead) {
  const to = countKey(lead);
  if (!to) return upsertLead(tx, lead);
  const n = LEAD_COLUMNS.length;
  await tx.query(
    `WITH lead AS (
       INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) VALUES (${placeholders})
       ON CONFLICT (id) DO UPDATE SET ${updates})
     INSERT INTO rm_lead_counts (corporate_id, id_vendedor, status, shard, n)
     VALUES ($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, 1)
     ON CONFLICT (corporate_id, id_vendedor, status, shard) DO UPDATE SET n = rm_lead_counts.n + 1`,
    [...leadRow(lead), lead.idCorporativo, ...to],
  );
}

async function insertNote(tx: Queryable, idLead: string, idCorporativo: string, note: LeadNote) {
  await upsertNoteRows(tx, [{ leadId: idLead, corporateId: idCorporativo, note }]);
}

/**
 * The `rm_lead_counts` row a lead counts in (adviser, status, shard): null for a deleted (or
 * absent) lead. The shard is the id's last character (migration 029), the same SQL's
 * `right(id, 1)`: a lead stays in its shard whatever else changes.
 */
function countKey(lead: Lead | null): [string, string, string] | null {
  return lead && !lead.eliminado
    ? [lead.idVendedor ?? '', lead.status ?? '', lead.id.slice(-1)]
    : null;
}

/**
 * Moves a lead from one `rm_lead_counts` row to another (issue 21), in the lead's transaction:
 * its row of `before` loses one (and goes when it reaches 0), its row of `after` gains one. The
 * two rows are touched in key order, so two leads moving opposite ways cannot deadlock.
 */
async function moveCount(tx: Queryable, corporateId: string, before: Lead | null, after: Lead) {
  const from = countKey(before);
  const to = countKey(after);
  if (from && to && from.join('\u0000') === to.join('\u0000')) return;
  const steps: { key: [string, string, string]; delta: 1 | -1 }[] = [];
  if (from) steps.push({ key: from, delta: -1 });
  if (to) steps.push({ key: to, delta: 1 });
  steps.sort((a, b) => (a.key.join('\u0000') < b.key.join('\u0000') ? -1 : 1));
  const row = 'corporate_id = $1 AND id_vendedor = $2 AND status = $3 AND shard = $4';
  for (const { key, delta } of steps) {
    if (delta === 1) {
      await tx.query(
        `INSERT INTO rm_lead_counts (corporate_id, id_vendedor, status, shard, n)
         VALUES ($1, $2, $3, $4, 1)
         ON CONFLICT (corporate_id, id_vendedor, status, shard) DO UPDATE SET n = rm_lead_counts.n + 1`,
        [corporateId, ...key],
      );
    } else {
      await tx.query(`UPDATE rm_lead_counts SET n = n - 1 WHERE ${row}`, [corporateId, ...key]);
      await tx.query(`DELETE FROM rm_lead_counts WHERE ${row} AND n <= 0`, [corporateId, ...key]);
    }
  }
}

/**
 * Recounts `rm_lead_counts` of one corporate (or all) from `rm_leads`: for data written straight
 * into the read model (the large seed, benches), never needed after the projection's own writes.
 */
export async function recountLeadCounts(tx: Queryable, corporateId?: string) {
  const only = corporateId === undefined ? '' : 'WHERE corporate_id = $1';
  const params = corporateId === undefined ? [] : [corporateId];
  await tx.query(`DELETE FROM rm_lead_counts ${only}`, params);
  await tx.query(
    `INSERT INTO rm_lead_counts (corporate_id, id_vendedor, status, shard, n)
     SELECT corporate_id, coalesce(id_vendedor, ''), coalesce(status, ''), right(id, 1),
            count(*)::int
       FROM rm_leads WHERE NOT eliminado ${corporateId === undefined ? '' : 'AND corporate_id = $1'}
      GROUP BY 1, 2, 3, 4`,
    params,
  );
}

/** A registration that opens its stream (version 1): no event of that lead came before it. */
const opensStream = (stored: StoredEvent) =>
  stored.type === 'LeadRegistered' && stored.version === 1;

/**
 * The lead's row before `stored`. A registration that opens its stream has none, so the read
 * (one of a create's statements) is skipped.
 */
async function leadBefore(tx: Queryable, stored: StoredEvent, idLead: string) {
  if (opensStream(stored)) return null;
  const { rows } = await tx.query<{ doc: Lead }>('SELECT doc FROM rm_leads WHERE id = $1', [
    idLead,
  ]);
  return rows[0]?.doc ?? null;
}

const noteKey = (leadId: string, key: string) => `${leadId}\u0000${key}`;

/**
 * The leads projection over a run of events, in memory, then written in three statements: the
 * rows {@link leadsProjection}'s `apply` leaves after each event in turn. Each lead is folded by
 * the same rules (`evolveLead` on the row as it stands, a registration opening its stream starting
 * from nothing; a lead's row written only when the event changes it); each note as `apply`'s
 * upsert and soft delete would leave it. `rm_lead_counts` is left to `finish`: moving a lead
 * between counters one event at a time is what the recount from the rows sums up.
 */
async function replayLeads(tx: Queryable, run: readonly StoredEvent[]): Promise<void> {
  // The rows the run starts from: those of leads whose first event here reads its row.
  const seen = new Set<string>();
  const toRead: string[] = [];
  for (const stored of run) {
    const { idLead } = (stored.data as LeadEvent['data']) ?? {};
    if (seen.has(idLead)) continue;
    seen.add(idLead);
    if (!opensStream(stored)) toRead.push(idLead);
  }
  const current = new Map<string, Lead>();
  if (toRead.length > 0) {
    const { rows } = await tx.query<{ id: string; doc: Lead }>(
      'SELECT id, doc FROM rm_leads WHERE id = ANY($1::text[])',
      [toRead],
    );
    for (const row of rows) current.set(row.id, row.doc);
  }
  const leads = new Map<string, Lead>();
  // Notes by (lead, key): the row an upsert leaves, or (`marked`) a soft delete of a row the run
  // did not write, which only an existing row takes.
  const notes = new Map<string, LeadNoteRow>();
  const marked = new Map<string, { leadId: string; key: string }>();
  const putNote = (leadId: string, corporateId: string, note: LeadNote) => {
    const k = noteKey(leadId, note.key);
    // The upsert keeps the corporate of a row already there.
    notes.set(k, { leadId, corporateId: notes.get(k)?.corporateId ?? corporateId, note });
    marked.delete(k);
  };
  for (const stored of run) {
    const event = { type: stored.type, data: stored.data } as LeadEvent;
    const { idLead, idCorporativo } = event.data;
    const before = opensStream(stored) ? null : (current.get(idLead) ?? null);
    const after = evolveLead(before, event);
    if (after && after !== before) {
      current.set(idLead, after);
      leads.set(idLead, after);
    }
    switch (event.type) {
      case 'LeadNoteAdded':
        putNote(idLead, idCorporativo, event.data.note);
        break;
      case 'LeadNoteDeleted': {
        const k = noteKey(idLead, event.data.key);
        const row = notes.get(k);
        if (row) notes.set(k, { ...row, note: { ...row.note, eliminado: true } });
        else marked.set(k, { leadId: idLead, key: event.data.key });
        break;
      }
      case 'LeadMerged':
        for (const note of event.data.notes) putNote(idLead, idCorporativo, note);
        break;
      default:
        break;
    }
  }
  await upsertLeadRows(tx, leads.values());
  await upsertNoteRows(tx, notes.values());
  if (marked.size > 0) {
    const deleted = [...marked.values()];
    await tx.query(
      `UPDATE rm_lead_notes n SET eliminado = true, doc = jsonb_set(n.doc, '{eliminado}', 'true')
         FROM unnest($1::text[], $2::text[]) AS d(lead_id, key)
        WHERE n.lead_id = d.lead_id AND n.key = d.key`,
      [deleted.map((d) => d.leadId), deleted.map((d) => d.key)],
    );
  }
}

const leadsBulkReplay: BulkReplay = {
  replay: replayLeads,
  finish: (tx) => recountLeadCounts(tx),
  // The catalogue copies the lead's name into a unit when it is held (catalogue/projection.ts).
  readBy: ['UnitHeld'],
};

/**
 * `rm_leads` (one row per lead, deleted ones kept with `eliminado`), `rm_lead_notes` and the live
 * leads' counters `rm_lead_counts`. The lead document is the core's own fold (`evolveLead`), so
 * the read model cannot drift from the log.
 */
export const leadsProjection: Projection = {
  name: 'leads',
  tables: ['rm_leads', 'rm_lead_notes', 'rm_lead_counts'],
  handles: LEAD_EVENT_TYPES,
  bulk: leadsBulkReplay,
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as LeadEvent;
    const { idLead, idCorporativo } = event.data;
    const before = await leadBefore(tx, stored, idLead);
    const after = evolveLead(before, event);
    if (after && after !== before) {
      if (before === null) {
        await insertLead(tx, after);
      } else {
        await upsertLead(tx, after);
        await moveCount(tx, after.idCorporativo, before, after);
      }
    }
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
