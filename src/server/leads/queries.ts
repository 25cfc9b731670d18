/**
 * The leads area's reads: the list (`rm_leads`, cursor paging, total), one lead, its notes
 * (`rm_lead_notes`) and its change history (the lead's own stream). Every read is limited to the
 * caller's lead scope (core/permissions.ts `seesAllLeads`, `maySeeLead`).
 */
import { fold } from '../../core/decider';
import {
  historyFromEvents,
  leadDecider,
  normalizeSearchText,
  PHONE_MATCH_DIGITS,
  phoneMatchKey,
  searchDigits,
  type Lead,
  type LeadEnvelope,
  type LeadEvent,
  type LeadHistoryEntry,
  type LeadNote,
} from '../../core/lead';
import { maySeeLead, seesAllLeads, type MembershipRef } from '../../core/permissions';
import type { Db, Queryable } from '../store/db';
import type { EventStore } from '../store/event-store';
import { badRequest } from '../http/errors';
import { leadNotFound } from './errors';
import type { AppointmentLang } from '../../core/appointment-title';
import { appointmentHistoryOfLead } from '../appointments/queries';
import { leadStream } from './streams';
import { isCalendarDay } from '../../core/check-in';

/** The largest page of `wsObtenerLeads`, and the page when no `limit` is asked (issue 21). */
export const LEADS_PAGE_MAX = 500;

export async function readLeadDoc(
  q: Queryable,
  corporateId: string,
  leadId: string,
): Promise<Lead | null> {
  const { rows } = await q.query<{ doc: Lead }>(
    'SELECT doc FROM rm_leads WHERE id = $1 AND corporate_id = $2',
    [leadId, corporateId],
  );
  return rows[0]?.doc ?? null;
}

/** The live lead if the member may see it, else null (absent, deleted and out of scope alike). */
export async function visibleLead(db: Db, m: MembershipRef, leadId: string): Promise<Lead | null> {
  const lead = await readLeadDoc(db, m.corporate.id, leadId);
  return lead && !lead.eliminado && maySeeLead(m, lead) ? lead : null;
}

/** "Nombre Apellidos", as lists and histories show a person. */
export const fullName = (u: { nombre: string; apellidos?: string }) =>
  `${u.nombre} ${u.apellidos ?? ''}`.trim();

/** Users' full names by id (unknown ids are left out). */
export async function nameIndex(q: Queryable, ids: Iterable<string | null>) {
  const list = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (list.length === 0) return new Map<string, string>();
  const { rows } = await q.query<{ id: string; doc: { nombre: string; apellidos?: string } }>(
    'SELECT id, doc FROM rm_users WHERE id = ANY($1::text[])',
    [list],
  );
  return new Map(rows.map((r) => [r.id, fullName(r.doc)]));
}

// ---------------------------------------------------------------------------------------------
// The list

export interface LeadListQuery {
  idVendedor?: string | undefined;
  q?: string | undefined;
  status?: string | undefined;
  desarrollo?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

function encodeCursor(lead: Pick<Lead, 'fechaAlta' | 'id'>) {
  return Buffer.from(JSON.stringify([lead.fechaAlta, lead.id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest([{ path: 'cursor', code: 'invalid' }]);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * The WHERE of a `wsObtenerLeads` list without its cursor: corporate, live, the caller's scope,
 * the filters and the search. The page and its total both read it, so they count the same rows.
 */
function leadListWhere(m: MembershipRef, q: LeadListQuery) {
  const where = ['corporate_id = $1', 'NOT eliminado'];
  const params: unknown[] = [m.corporate.id];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (!seesAllLeads(m.role)) add((p) => `id_vendedor = ${p}`, m.user.id);
  if (q.idVendedor) add((p) => `id_vendedor = ${p}`, q.idVendedor);
  if (q.status) add((p) => `status = ${p}`, q.status);
  if (q.desarrollo) add((p) => `desarrollo = ${p}`, q.desarrollo);
  const search = leadSearchSql(q.q ?? '', (value) => {
    params.push(value);
    return `$${params.length}`;
  });
  if (search) where.push(search);
  return { where, params };
}

/**
 * The search-as-you-type condition of `wsObtenerLeads` (core `leadMatchesQuery`, same rule), or
 * null for an empty search; `param` binds a value and answers its placeholder. Every alternative
 * is a prefix LIKE on the C-collated expression of an index (004: the name, email and phone
 * columns; 006: `right(<phone>_norm, 10)`, the phones' match keys), so each one is an index range
 * scan and the alternatives combine as a BitmapOr: a phone is found by the start of its digits
 * or by the start of its national number (core `phoneMatchesSearch`).
 */
export function leadSearchSql(query: string, param: (value: string) => string): string | null {
  const text = normalizeSearchText(query);
  if (text === '') return null;
  const t = param(`${escapeLike(text)}%`);
  const alternatives = [
    `search_name LIKE ${t}`,
    `search_name_rev LIKE ${t}`,
    `email_norm LIKE ${t}`,
  ];
  const digits = searchDigits(query);
  if (digits) {
    const d = param(`${digits}%`);
    const k = param(`${phoneMatchKey(digits)}%`);
    alternatives.push(
      `telefono_norm LIKE ${d}`,
      `celular_norm LIKE ${d}`,
      `right(telefono_norm, ${PHONE_MATCH_DIGITS}) LIKE ${k}`,
      `right(celular_norm, ${PHONE_MATCH_DIGITS}) LIKE ${k}`,
    );
  }
  return `(${alternatives.join(' OR ')})`;
}

/**
 * How far a total the counters cannot give is counted (a search, a development): up to this many
 * matching leads the total is exact, beyond it there is none ("more") (issue 21).
 */
export const LEADS_COUNT_BOUND = 1000;

/**
 * The total of a list from the maintained counters (`rm_lead_counts`, kept by the leads
 * projection): the scope, the adviser and the status are columns of the counters, so the total
 * is a sum of a few rows, whatever the corporate's size. A search or a development is not, so
 * those lists are counted by {@link boundedCount}.
 */
async function countedTotal(db: Db, m: MembershipRef, q: LeadListQuery): Promise<number> {
  const where = ['corporate_id = $1'];
  const params: unknown[] = [m.corporate.id];
  if (!seesAllLeads(m.role)) {
    params.push(m.user.id);
    where.push(`id_vendedor = $${params.length}`);
  }
  if (q.idVendedor) {
    params.push(q.idVendedor);
    where.push(`id_vendedor = $${params.length}`);
  }
  if (q.status) {
    params.push(q.status);
    where.push(`status = $${params.length}`);
  }
  const { rows } = await db.query<{ n: number }>(
    `SELECT coalesce(sum(n), 0)::int AS n FROM rm_lead_counts WHERE ${where.join(' AND ')}`,
    params,
  );
  return rows[0]?.n ?? 0;
}

/** How many leads match, when at most {@link LEADS_COUNT_BOUND}; null when more. */
async function boundedCount(db: Db, where: string[], params: unknown[]): Promise<number | null> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM rm_leads WHERE ${where.join(' AND ')}
      LIMIT ${LEADS_COUNT_BOUND + 1}) s`,
    params,
  );
  const n = rows[0]?.n ?? 0;
  return n > LEADS_COUNT_BOUND ? null : n;
}

/**
 * One page of the member's live leads, newest first by `fechaAlta` (then id): `limit` leads
 * (at most {@link LEADS_PAGE_MAX}, which is also the page without `limit`) after `cursor`;
 * `nextCursor` when another page follows. `total` (how many match, however many the page holds)
 * for a first page only: from the counters, or for a search or a development counted up to
 * {@link LEADS_COUNT_BOUND} (null beyond).
 */
export async function listLeads(
  db: Db,
  m: MembershipRef,
  q: LeadListQuery,
): Promise<{ leads: Lead[]; nextCursor: string | null; total: number | null }> {
  const { where, params } = leadListWhere(m, q);
  const limit = Math.min(q.limit ?? LEADS_PAGE_MAX, LEADS_PAGE_MAX);
  const pageWhere = where.slice();
  const pageParams = params.slice();
  if (q.cursor) {
    const [fecha, id] = decodeCursor(q.cursor);
    pageParams.push(fecha, id);
    pageWhere.push(`(fecha_alta, id) < ($${pageParams.length - 1}, $${pageParams.length})`);
  }
  pageParams.push(limit + 1);
  const { rows } = await db.query<{ doc: Lead }>(
    `SELECT doc FROM rm_leads WHERE ${pageWhere.join(' AND ')}
      ORDER BY fecha_alta DESC, id DESC LIMIT $${pageParams.length}`,
    pageParams,
  );
  const leads = rows.map((r) => r.doc);
  const more = leads.length > limit;
  if (more) leads.length = limit;
  const nextCursor = more ? encodeCursor(leads[limit - 1]!) : null;
  let total: number | null = null;
  if (!q.cursor) {
    // A first page that is also the last already holds every matching lead.
    if (!more) total = leads.length;
    else if (normalizeSearchText(q.q ?? '') !== '' || q.desarrollo) {
      total = await boundedCount(db, where, params);
    } else total = await countedTotal(db, m, q);
  }
  return { leads, nextCursor, total };
}

// ---------------------------------------------------------------------------------------------
// Notes and history

/** The lead's notes, deleted ones hidden, newest first, each with its author's full name. */
export async function leadNotes(db: Db, leadId: string) {
  const { rows } = await db.query<{ doc: LeadNote }>(
    'SELECT doc FROM rm_lead_notes WHERE lead_id = $1 AND NOT eliminado ORDER BY fecha_registro DESC, key DESC',
    [leadId],
  );
  const names = await nameIndex(
    db,
    rows.map((r) => r.doc.idUsuario),
  );
  return rows.map(({ doc }) => ({
    ...doc,
    nombreUsuario: doc.idUsuario ? (names.get(doc.idUsuario) ?? null) : null,
  }));
}

/** `fecha` of wsObtenerHistorialCambios: seconds since the epoch or an ISO date/date-time. */
export function parseSince(fecha: string | undefined): number | null {
  if (fecha === undefined || fecha === '') return null;
  if (/^\d{1,12}$/.test(fecha)) return Number(fecha);
  const day = fecha.slice(0, 10);
  const rest = fecha.slice(10);
  // A calendar day that exists (no 30 February: Date.parse rolls it into March), alone or with
  // a time and its offset.
  const shaped = rest === '' || /^T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(rest);
  const ms = shaped && isCalendarDay(day) ? Date.parse(fecha) : Number.NaN;
  if (Number.isNaN(ms)) throw badRequest([{ path: 'fecha', code: 'invalid' }]);
  return Math.floor(ms / 1000);
}

/**
 * The lead's change history, newest first, from its own stream (deleted leads included), at or
 * after `since`; each entry names its actor, and an assignment its previous and new adviser
 * (its appointments' titles for a reader of `lang`). 404 when the lead is absent or out of the
 * member's scope.
 */
export async function leadHistory(
  deps: { db: Db; store: EventStore },
  m: MembershipRef,
  leadId: string,
  since: number | null,
  lang: AppointmentLang,
) {
  const events = await deps.store.readStream(leadStream(m.corporate.id, leadId));
  const envelopes: LeadEnvelope[] = events.map((e) => ({
    ...({ type: e.type, data: e.data } as LeadEvent),
    actorId: e.actorId,
    occurredAt: e.occurredAt,
  }));
  const lead = fold(leadDecider, envelopes).lead;
  if (!lead || !maySeeLead(m, lead)) throw leadNotFound();
  const entries: LeadHistoryEntry[] = historyFromEvents(envelopes)
    .filter((e) => since === null || e.fecha >= since)
    .reverse();
  const names = await nameIndex(
    deps.db,
    entries.flatMap((e) => [
      e.actor,
      ...(e.campo === 'idVendedor' ? [e.anterior as string | null, e.nuevo as string | null] : []),
    ]),
  );
  // The lead's appointments (their own streams) show in its history too (issue 23).
  const citas = (await appointmentHistoryOfLead(deps, m.corporate.id, leadId, lang))
    .filter((e) => since === null || e.fecha >= since)
    .reverse();
  const citaNames = await nameIndex(
    deps.db,
    citas.map((e) => e.actor),
  );
  const appointments = citas.map((e) => ({
    ...e,
    nombreActor: e.actor ? (citaNames.get(e.actor) ?? null) : null,
  }));
  const changes = entries.map((e) => ({
    ...e,
    nombreActor: e.actor ? (names.get(e.actor) ?? null) : null,
    ...(e.campo === 'idVendedor'
      ? {
          nombreAnterior: typeof e.anterior === 'string' ? (names.get(e.anterior) ?? null) : null,
          nombreNuevo: typeof e.nuevo === 'string' ? (names.get(e.nuevo) ?? null) : null,
        }
      : {}),
  }));
  return newestFirst(changes, appointments);
}

/**
 * Two histories, each newest first, as one: by time, each keeping its own order. A change's time
 * is its command's clock, read before the command waited for the lead: one decided after another
 * may carry an earlier time, and a sort by time would show them in the wrong order.
 */
function newestFirst<A extends { fecha: number }, B extends { fecha: number }>(a: A[], b: B[]) {
  const out: (A | B)[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.fecha >= b[j]!.fecha)) out.push(a[i++]!);
    else out.push(b[j++]!);
  }
  return out;
}
