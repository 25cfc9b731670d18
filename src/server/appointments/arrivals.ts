/**
 * Arrival notices (issue 14 point 7): when a client with an appointment today shows up at the
 * showroom, the appointment is marked attended and its adviser is told (`cliente.llegada`).
 *
 * A client is seen arriving in three ways:
 * - the host administrator marks a guest of the showroom arrived (`GuestArrived`): the guest's
 *   e-mail or phone finds the corporate's lead, and that lead's active, still pending appointment
 *   of the day at that showroom is marked attended by the system (`RecordArrival`); a guest with
 *   no such appointment is announced to the adviser who hosts them;
 * - a walk-in registration meets a client the corporate already has (the registration page's
 *   duplicate answer): {@link recordWalkInArrival}, `POST …/citas/llegada`, does the same for the
 *   development's showrooms;
 * - someone other than the adviser marks the appointment attended on the agenda.
 *
 * Every path ends in one `AppointmentAttendanceMarked` (asistio), and the adviser's notice comes
 * from that event alone ({@link arrivalNotice}): exactly one notice per arrival, none when the
 * adviser marked it themselves, and none for history (the consumer starts at the end of the log).
 */
import { appointmentDecider, type Cita } from '../../core/appointment';
import { corporateZone, dayBounds, localDay } from '../../core/check-in';
import type { LeadContactKeys } from '../../core/lead';
import type { Membership } from '../../core/permissions';
import type { Guest } from '../../core/showroom-guests';
import { ApiError } from '../http/errors';
import { findDuplicate } from '../leads/duplicates';
import { notify, type NotifySpec } from '../notifications/notify';
import type { BackgroundWork } from '../store/background-work';
import { decideAsSystem, runCommand, type CommandEnv } from '../store/command-handler';
import type { Queryable } from '../store/db';
import type { StoredEvent, StoreTransaction } from '../store/event-store';
import { appointmentStream } from './streams';

export const ARRIVALS_CONSUMER = 'appointment-arrivals';

/** What the notice names: the client, the showroom, the time in the corporate's zone. */
export interface ArrivalLookup {
  corporateSlug: string;
  cliente: string;
  showroom: string;
  hora: string;
}

type Notice = Omit<NotifySpec, 'id' | 'now'>;

/**
 * The adviser's notice for an attendance mark: only an arrival (asistio), only when someone else
 * (a host administrator, the system) marked it.
 */
export function arrivalNotice(
  event: Pick<StoredEvent, 'type' | 'data' | 'actorId' | 'corporateId'>,
  cita: Pick<Cita, 'idAsesor' | 'idLead' | 'activo'> | null,
  lookup: ArrivalLookup,
): Notice | null {
  if (event.type !== 'AppointmentAttendanceMarked' || !event.corporateId || !cita) return null;
  const { asistencia } = event.data as { asistencia: string };
  if (asistencia !== 'asistio' || !cita.activo || event.actorId === cita.idAsesor) return null;
  return {
    corporateId: event.corporateId,
    userIds: [cita.idAsesor],
    kind: 'cliente.llegada',
    params: { cliente: lookup.cliente, showroom: lookup.showroom, hora: lookup.hora },
    link: `/corporativos/${lookup.corporateSlug}/clientes/${cita.idLead}`,
  };
}

/** A guest announced to their hosting adviser (no appointment of theirs was found). */
export function guestNotice(
  corporateId: string,
  guest: Pick<Guest, 'idAsesor' | 'nombre'>,
  lookup: Pick<ArrivalLookup, 'corporateSlug' | 'showroom' | 'hora'>,
): Notice {
  return {
    corporateId,
    userIds: [guest.idAsesor],
    kind: 'cliente.llegada',
    params: { cliente: guest.nombre, showroom: lookup.showroom, hora: lookup.hora },
    link: `/corporativos/${lookup.corporateSlug}/eventos`,
  };
}

/** A guest's free-text contact as the lead's contact keys: an e-mail or a phone. */
export function guestContact(contacto: string): { email?: string; telefono?: string } {
  const text = contacto.trim();
  if (text === '') return {};
  return text.includes('@') ? { email: text } : { telefono: text };
}

interface CorporateFacts {
  slug: string;
  zone: string;
  showrooms: { id: string; nombre: string; idDesarrollo?: string }[];
}

async function corporateFacts(q: Queryable, corporateId: string): Promise<CorporateFacts | null> {
  const { rows } = await q.query<{
    slug: string;
    zona: string | null;
    showrooms: { id: string; nombre: string; idDesarrollo?: string }[] | null;
  }>(
    `SELECT slug, doc->>'zonaHoraria' AS zona, doc->'showrooms' AS showrooms
       FROM rm_corporates WHERE id = $1`,
    [corporateId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    slug: row.slug,
    zone: corporateZone({ zonaHoraria: row.zona }),
    showrooms: row.showrooms ?? [],
  };
}

/** `HH:mm` of an instant in a time zone. */
function timeIn(at: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: zone,
  }).format(at);
}

/**
 * The lead's first active, still pending appointment of `at`'s day (corporate's zone) at the
 * showroom, or for the development (at any of its showrooms), earliest first.
 */
async function pendingAppointmentOfDay(
  q: Queryable,
  corporateId: string,
  idLead: string,
  where: { idShowroom: string } | { idDesarrollo: string },
  at: Date,
  zone: string,
): Promise<Cita | null> {
  const { start, end } = dayBounds(localDay(at, zone), zone);
  const column = 'idShowroom' in where ? 'showroom_id' : 'development_id';
  const value = 'idShowroom' in where ? where.idShowroom : where.idDesarrollo;
  const { rows } = await q.query<{ doc: Cita }>(
    `SELECT doc FROM rm_appointments
      WHERE corporate_id = $1 AND lead_id = $2 AND ${column} = $3 AND activo
        AND doc->>'asistencia' = 'pendiente' AND fecha_inicio >= $4 AND fecha_inicio < $5
      ORDER BY fecha_inicio, id LIMIT 1`,
    [corporateId, idLead, value, start.toISOString(), end.toISOString()],
  );
  return rows[0]?.doc ?? null;
}

/** Marks the appointment attended as the system; true when this call wrote the mark. */
async function recordArrival(tx: StoreTransaction, cita: Cita, now: Date): Promise<boolean> {
  const { events } = await decideAsSystem(
    tx,
    appointmentDecider,
    { streamId: appointmentStream(cita.idCorporativo, cita.id), corporateId: cita.idCorporativo },
    { type: 'RecordArrival' },
    now,
  );
  return events.length > 0;
}

type ConsumerCtx = {
  tx: StoreTransaction;
  now: Date;
  effectId(label?: string): string;
};

/** The consumer's handler: a guest's arrival, or an attendance mark to announce. */
export async function handleArrival(event: StoredEvent, ctx: ConsumerCtx): Promise<void> {
  const corporateId = event.corporateId;
  if (!corporateId) return;
  const facts = await corporateFacts(ctx.tx, corporateId);
  if (!facts) return;
  const at = new Date(event.occurredAt);

  if (event.type === 'GuestArrived') {
    const guest = (event.data as { invitado: Guest }).invitado;
    const showroom = facts.showrooms.find((s) => s.id === guest.idShowroom)?.nombre ?? '';
    const lead = await findDuplicate(ctx.tx, corporateId, guestContact(guest.contacto));
    const cita = lead
      ? await pendingAppointmentOfDay(
          ctx.tx,
          corporateId,
          lead.id,
          { idShowroom: guest.idShowroom },
          at,
          facts.zone,
        )
      : null;
    // The mark is an event of its own; its notice follows from it (below), once.
    if (cita && (await recordArrival(ctx.tx, cita, at))) return;
    await notify(ctx.tx, {
      ...guestNotice(corporateId, guest, {
        corporateSlug: facts.slug,
        showroom,
        hora: timeIn(at, facts.zone),
      }),
      id: ctx.effectId('notification'),
      now: at,
    });
    return;
  }

  if (event.type === 'AppointmentAttendanceMarked') {
    const { id } = event.data as { id: string };
    const { rows } = await ctx.tx.query<{ doc: Cita; lead: string | null }>(
      `SELECT a.doc, (SELECT trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos'))
                        FROM rm_leads l WHERE l.id = a.lead_id) AS lead
         FROM rm_appointments a WHERE a.id = $1 AND a.corporate_id = $2`,
      [id, corporateId],
    );
    const cita = rows[0]?.doc ?? null;
    const notice = arrivalNotice(event, cita, {
      corporateSlug: facts.slug,
      cliente: rows[0]?.lead ?? '',
      showroom: facts.showrooms.find((s) => s.id === cita?.idShowroom)?.nombre ?? '',
      hora: timeIn(at, facts.zone),
    });
    if (!notice) return;
    await notify(ctx.tx, { ...notice, id: ctx.effectId('notification'), now: at });
  }
}

/** What a walk-in arrival answers: the appointment marked and who was told. */
export interface WalkInArrival {
  id: string;
  fechaInicio: string;
  idShowroom: string;
  idAsesor: string;
  nombreAsesor: string;
}

/**
 * A walk-in registration met a client the corporate already has (by e-mail or phone): their
 * active, pending appointment of today for that development is marked attended
 * (the adviser is told by the consumer). 404 `APPOINTMENT_NOT_FOUND` when there is no such client
 * or appointment; nothing is written then. Any member who may register walk-ins may call it; the
 * answer names only the time and the adviser, as the showroom's front desk needs.
 */
export async function recordWalkInArrival(
  env: CommandEnv,
  m: Membership,
  input: { idDesarrollo: string; contact: LeadContactKeys },
): Promise<WalkInArrival> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const zone = corporateZone(corporate);
    const lead = await findDuplicate(scope, corporate.id, input.contact);
    const cita = lead
      ? await pendingAppointmentOfDay(
          scope,
          corporate.id,
          lead.id,
          { idDesarrollo: input.idDesarrollo },
          scope.now,
          zone,
        )
      : null;
    const notFound = () => new ApiError(404, 'APPOINTMENT_NOT_FOUND', 'appointment_not_found');
    if (!cita) throw notFound();
    // Marked by the caller (the front desk saw them come in); the adviser is told by the consumer.
    const loaded = await scope.load(appointmentDecider, appointmentStream(corporate.id, cita.id));
    const events = scope.decide(appointmentDecider, loaded.state, { type: 'RecordArrival' }, () =>
      notFound(),
    );
    if (events.length === 0) throw notFound();
    await scope.emit(loaded.streamId, events);
    const { rows } = await scope.query<{ name: string }>(
      `SELECT trim(concat_ws(' ', doc->>'nombre', doc->>'apellidos')) AS name
         FROM rm_users WHERE id = $1`,
      [cita.idAsesor],
    );
    return {
      id: cita.id,
      fechaInicio: cita.fechaInicio,
      idShowroom: cita.idShowroom,
      idAsesor: cita.idAsesor,
      nombreAsesor: rows[0]?.name ?? '',
    };
  });
}

/** Registers the arrivals consumer (runtime.ts registerBackgroundWork). */
export function registerArrivalWork(work: BackgroundWork): void {
  work.registerConsumer({
    name: ARRIVALS_CONSUMER,
    handles: ['GuestArrived', 'AppointmentAttendanceMarked'],
    startAt: 'end',
    handle: (event, ctx) => handleArrival(event, ctx),
  });
}
