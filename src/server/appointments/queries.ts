/**
 * The appointments' reads, from `rm_appointments`: a range of the calendar (everyone's for
 * managers and host administrators, one's own for an adviser with Propios), one appointment, a
 * lead's appointments, and the active appointments a slot overlaps (spec point 6's warning).
 */
import {
  appointmentConflicts,
  applyAppointmentEvent,
  type AppointmentEvent,
  type Cita,
  type TipoCita,
} from '../../core/appointment';
import {
  appointmentTitle,
  titleIsAutomatic,
  type AppointmentLang,
} from '../../core/appointment-title';
import {
  isAdviserRole,
  isHostAdmin,
  mayActOnAppointment,
  seesAllAppointments,
  seesAllLeads,
  type MembershipRef,
} from '../../core/permissions';
import { userStatus } from '../../core/user';
import type { Corporate, User } from '../../core/types';
import type { Queryable } from '../store/db';
import { appointmentStream } from './streams';

/**
 * An appointment as one reader reads it: with the lead's, adviser's and showroom's names, and its
 * title filled in for that reader: the typed one as typed, else the automatic one in the reader's
 * language (`tituloAutomatico` true; core/appointment-title.ts). Nothing of the reader's language
 * is stored.
 */
export interface CitaView extends Omit<Cita, 'titulo'> {
  titulo: string;
  /** The person typed no title: `titulo` is the automatic one, in the language asked for. */
  tituloAutomatico: boolean;
  nombreLead: string;
  nombreAsesor: string;
  nombreShowroom: string;
}

/** The stored appointment with its names, its title written for a reader of `lang`. */
export function citaForReader(
  cita: Cita,
  names: { nombreLead: string; nombreAsesor: string; nombreShowroom: string },
  lang: AppointmentLang,
): CitaView {
  return {
    ...cita,
    ...names,
    titulo: appointmentTitle(cita, names.nombreLead, lang),
    tituloAutomatico: titleIsAutomatic(cita, names.nombreLead),
  };
}

/** The longest range one `wsObtenerCitas` reads: a month view's six weeks and some. */
export const MAX_RANGE_DAYS = 62;

const NAME = "trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos'))";
const LEAD_NAME = "trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos'))";

async function views(
  q: Queryable,
  corporate: Pick<Corporate, 'id'> & { showrooms?: { id: string; nombre: string }[] },
  where: string,
  params: unknown[],
  lang: AppointmentLang,
  limit?: number,
): Promise<CitaView[]> {
  const { rows } = await q.query<{ doc: Cita; lead: string | null; asesor: string | null }>(
    `SELECT a.doc,
            (SELECT ${LEAD_NAME} FROM rm_leads l WHERE l.id = a.lead_id) AS lead,
            (SELECT ${NAME} FROM rm_users u WHERE u.id = a.adviser_id) AS asesor
       FROM rm_appointments a WHERE a.corporate_id = $1 AND ${where}
      ORDER BY a.fecha_inicio, a.id${limit ? ` LIMIT ${limit}` : ''}`,
    [corporate.id, ...params],
  );
  const showrooms = await showroomNames(q, corporate.id);
  return rows.map((r) =>
    citaForReader(
      r.doc,
      {
        nombreLead: r.lead ?? '',
        nombreAsesor: r.asesor ?? '',
        nombreShowroom: showrooms.get(r.doc.idShowroom) ?? '',
      },
      lang,
    ),
  );
}

/**
 * A stored appointment as a reader of `lang` reads it, its names looked up: for one a command
 * just decided, which its read model holds only once the command's events are written.
 */
export async function citaView(q: Queryable, cita: Cita, lang: AppointmentLang): Promise<CitaView> {
  const { rows } = await q.query<{ lead: string | null; asesor: string | null }>(
    `SELECT (SELECT ${LEAD_NAME} FROM rm_leads l WHERE l.id = $1) AS lead,
            (SELECT ${NAME} FROM rm_users u WHERE u.id = $2) AS asesor`,
    [cita.idLead, cita.idAsesor],
  );
  const showrooms = await showroomNames(q, cita.idCorporativo);
  return citaForReader(
    cita,
    {
      nombreLead: rows[0]?.lead ?? '',
      nombreAsesor: rows[0]?.asesor ?? '',
      nombreShowroom: showrooms.get(cita.idShowroom) ?? '',
    },
    lang,
  );
}

/** The lead's name as the appointments show it ('' when there is no such lead). */
export async function leadNameOf(q: Queryable, leadId: string): Promise<string> {
  const { rows } = await q.query<{ lead: string | null }>(
    `SELECT ${LEAD_NAME} AS lead FROM rm_leads l WHERE l.id = $1`,
    [leadId],
  );
  return rows[0]?.lead ?? '';
}

async function showroomNames(q: Queryable, corporateId: string) {
  const { rows } = await q.query<{ showrooms: { id: string; nombre: string }[] | null }>(
    "SELECT doc->'showrooms' AS showrooms FROM rm_corporates WHERE id = $1",
    [corporateId],
  );
  return new Map((rows[0]?.showrooms ?? []).map((s) => [s.id, s.nombre]));
}

export interface RangeFilter {
  desde: Date;
  hasta: Date;
  idAsesor?: string;
  idShowroom?: string;
  idDesarrollo?: string;
  idLead?: string;
  /** Cancelled ones too (default: active only). */
  canceladas?: boolean;
}

/**
 * The appointments that overlap `[desde, hasta)`, earliest first, that the member may see:
 * every adviser's for managers and host administrators, only their own otherwise; titles for a
 * reader of `lang`.
 */
export async function listAppointments(
  q: Queryable,
  m: MembershipRef,
  f: RangeFilter,
  lang: AppointmentLang,
): Promise<CitaView[]> {
  const where = ['a.fecha_inicio < $2', 'a.fecha_fin > $3'];
  const params: unknown[] = [f.hasta.toISOString(), f.desde.toISOString()];
  const add = (sql: string, value: unknown) => {
    params.push(value);
    where.push(sql.replace('?', `$${params.length + 1}`));
  };
  if (!seesAllAppointments(m.role)) add('a.adviser_id = ?', m.user.id);
  if (f.idAsesor) add('a.adviser_id = ?', f.idAsesor);
  if (f.idShowroom) add('a.showroom_id = ?', f.idShowroom);
  if (f.idDesarrollo) add('a.development_id = ?', f.idDesarrollo);
  if (f.idLead) add('a.lead_id = ?', f.idLead);
  if (!f.canceladas) where.push('a.activo');
  return views(q, m.corporate, where.join(' AND '), params, lang);
}

/** One appointment of the corporate, cancelled or not, its title for a reader of `lang`. */
export async function findAppointment(
  q: Queryable,
  corporate: Pick<Corporate, 'id'>,
  id: string,
  lang: AppointmentLang,
): Promise<CitaView | null> {
  const [row] = await views(q, corporate, 'a.id = $2', [id], lang);
  return row ?? null;
}

/**
 * The active appointments that clash with a slot (the same adviser or the same showroom at an
 * overlapping time), the appointment itself left out: a warning, never a refusal. Another
 * adviser's appointment, for a member who may not see it, shows only its time, adviser and
 * showroom (no id, title or client). Titles for a reader of `lang`.
 */
export async function findConflicts(
  q: Queryable,
  m: MembershipRef,
  slot: Pick<Cita, 'id' | 'idAsesor' | 'idShowroom' | 'fechaInicio' | 'fechaFin'>,
  lang: AppointmentLang,
) {
  const candidates = await views(
    q,
    m.corporate,
    `a.activo AND a.id <> $2 AND (a.adviser_id = $3 OR a.showroom_id = $4)
       AND a.fecha_inicio < $5 AND a.fecha_fin > $6`,
    [slot.id, slot.idAsesor, slot.idShowroom, slot.fechaFin, slot.fechaInicio],
    lang,
    50,
  );
  return appointmentConflicts(slot, candidates).map(({ cita, por }) => {
    const visible = mayActOnAppointment(m, cita);
    return {
      id: visible ? cita.id : '',
      titulo: visible ? cita.titulo : '',
      fechaInicio: cita.fechaInicio,
      fechaFin: cita.fechaFin,
      idAsesor: cita.idAsesor,
      nombreAsesor: cita.nombreAsesor,
      idShowroom: cita.idShowroom,
      nombreShowroom: cita.nombreShowroom,
      nombreLead: visible ? cita.nombreLead : '',
      por,
    };
  });
}

/** The user is an approved member of the corporate whose role can hold leads (not a host admin). */
export async function isAdviserOf(
  q: Queryable,
  corporate: Pick<Corporate, 'id' | 'roles'>,
  userId: string,
): Promise<boolean> {
  const { rows } = await q.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [userId]);
  const user = rows[0]?.doc;
  if (!user || !user.corporativos.includes(corporate.id)) return false;
  const role = corporate.roles.find((r) => r.id === user.roles[corporate.id]);
  return role !== undefined && isAdviserRole(role);
}

/** A lead's history entry of one of its appointments (wsObtenerHistorialCambios, campo 'cita'). */
export interface AppointmentHistoryEntry {
  fecha: number;
  actor: string | null;
  evento: string;
  campo: 'cita';
  /** The start before and after (ISO), or the attendance; null where there is none. */
  anterior: string | null;
  nuevo: string | null;
  idCita: string;
  /** The appointment's title then, for the reader (see {@link CitaView}). */
  titulo: string;
  tituloAutomatico: boolean;
  /** The kind and the client's name, so a screen writes an automatic title in its language. */
  tipo: TipoCita;
  nombreLead: string;
}

/**
 * The history of a lead's appointments, from each appointment's own stream: booked (the start),
 * moved (old and new start), cancelled, attendance marked. Oldest first; titles for a reader of
 * `lang`.
 */
export async function appointmentHistoryOfLead(
  deps: { db: Queryable; store: { readStream(id: string): Promise<StoredEventLike[]> } },
  corporateId: string,
  leadId: string,
  lang: AppointmentLang,
): Promise<AppointmentHistoryEntry[]> {
  const { rows } = await deps.db.query<{ id: string; lead: string | null }>(
    `SELECT a.id, (SELECT ${LEAD_NAME} FROM rm_leads l WHERE l.id = a.lead_id) AS lead
       FROM rm_appointments a WHERE a.corporate_id = $1 AND a.lead_id = $2`,
    [corporateId, leadId],
  );
  const nombreLead = rows[0]?.lead ?? '';
  const out: AppointmentHistoryEntry[] = [];
  for (const { id } of rows) {
    let cita: Cita | null = null;
    for (const e of await deps.store.readStream(appointmentStream(corporateId, id))) {
      const event = { type: e.type, data: e.data } as AppointmentEvent;
      const before = cita;
      cita =
        event.type === 'AppointmentScheduled'
          ? event.data.cita
          : cita && applyAppointmentEvent(cita, event);
      if (!cita) continue;
      const at = typeof e.occurredAt === 'string' ? new Date(e.occurredAt) : e.occurredAt;
      const entry = (anterior: string | null, nuevo: string | null) =>
        out.push({
          fecha: Math.floor(at.getTime() / 1000),
          actor: e.actorId,
          evento: e.type,
          campo: 'cita',
          anterior,
          nuevo,
          idCita: id,
          titulo: appointmentTitle(cita!, nombreLead, lang),
          tituloAutomatico: titleIsAutomatic(cita!, nombreLead),
          tipo: cita!.tipo,
          nombreLead,
        });
      switch (event.type) {
        case 'AppointmentScheduled':
          entry(null, cita.fechaInicio);
          break;
        case 'AppointmentRescheduled':
          entry(event.data.anterior.fechaInicio, event.data.fechaInicio);
          break;
        case 'AppointmentCancelled':
          entry(before?.fechaInicio ?? null, null);
          break;
        case 'AppointmentAttendanceMarked':
          entry(before?.asistencia ?? null, event.data.asistencia);
          break;
        default:
          break;
      }
    }
  }
  return out.sort((a, b) => a.fecha - b.fecha);
}

interface StoredEventLike {
  type: string;
  data: unknown;
  actorId: string | null;
  occurredAt: Date | string;
}

/**
 * The leads the member may book with, matching `q` (name, email or phone; all when empty), at
 * most 20, newest first: their scope's, or every lead of the corporate for a host administrator
 * (who books for the advisers' leads). Each with its adviser's name.
 */
export async function bookableLeads(q: Queryable, m: MembershipRef, text: string) {
  const params: unknown[] = [m.corporate.id];
  let where = 'l.corporate_id = $1 AND NOT l.eliminado';
  if (!isHostAdmin(m.role) && !seesAllLeads(m.role)) {
    params.push(m.user.id);
    where += ` AND l.id_vendedor = $${params.length}`;
  }
  const needle = text.trim().toLowerCase();
  if (needle) {
    params.push(`%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    where += ` AND lower(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos', l.doc->>'email', l.doc->>'telefono', l.doc->>'celular')) LIKE $${params.length}`;
  }
  const { rows } = await q.query<{
    id: string;
    doc: { nombre: string; apellidos?: string; email?: string; desarrollo?: string };
    id_vendedor: string | null;
    vendedor: string | null;
  }>(
    `SELECT l.id, l.doc, l.id_vendedor,
            (SELECT ${NAME} FROM rm_users u WHERE u.id = l.id_vendedor) AS vendedor
       FROM rm_leads l WHERE ${where}
      ORDER BY l.fecha_alta DESC, l.id DESC LIMIT 20`,
    params,
  );
  return rows.map((r) => ({
    id: r.id,
    nombre: `${r.doc.nombre} ${r.doc.apellidos ?? ''}`.trim(),
    email: r.doc.email ?? '',
    desarrollo: r.doc.desarrollo ?? null,
    idVendedor: r.id_vendedor,
    nombreVendedor: r.vendedor ?? '',
  }));
}

/**
 * The advisers the member may book for: every approved adviser of the corporate (not host
 * administrators) for managers and host administrators, only themselves otherwise.
 */
export async function bookableAdvisers(
  q: Queryable,
  m: MembershipRef & { corporate: Pick<Corporate, 'id' | 'roles'> },
) {
  const { rows } = await q.query<{ id: string; doc: User }>(
    `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text)
     ORDER BY doc->>'nombre', doc->>'apellidos', id`,
    [m.corporate.id],
  );
  const roles = new Map(m.corporate.roles.map((r) => [r.id, r]));
  return rows
    .filter(({ id, doc }) => {
      const role = roles.get(doc.roles[m.corporate.id] ?? '');
      if (!role || !isAdviserRole(role)) return false;
      // Not an invitation still unaccepted nor a deactivated account: neither attends.
      if (userStatus(doc) !== 'activo') return false;
      return seesAllAppointments(m.role) || id === m.user.id;
    })
    .map(({ id, doc }) => ({ id, nombre: `${doc.nombre} ${doc.apellidos ?? ''}`.trim() }));
}
