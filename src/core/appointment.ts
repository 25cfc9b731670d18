/**
 * Appointments (spec §3 Calendar event "cita", §7 Appointments, §9 reminder offsets): an adviser
 * meets a lead at a showroom of a development. Advisers book their own leads; managers (leads
 * scope 'Todos') and host administrators (`adminHostes`, who run the showrooms' agendas) book
 * for any lead and adviser of the corporate.
 *
 * One stream per appointment (`appointment:<corporateId>:<id>`). Times are instants (ISO 8601,
 * stored in UTC); screens show them in the corporate's time zone. A reminder, when asked for,
 * is due at `fechaInicio − enviarAntesDe` (`fechaRecordatorio`); `idTareaProgramada` is the
 * deterministic key of its timer, so rescheduling moves the same timer and cancelling removes it.
 *
 * Events (`data` keeps the spec's names): `AppointmentScheduled { cita }`,
 * `AppointmentRescheduled`, `AppointmentReassigned`, `AppointmentDetailsChanged`,
 * `AppointmentCancelled`, `AppointmentAttendanceMarked`, `AppointmentReminderSent`.
 */
import { dayBounds, localDay } from './check-in';
import { accept, reject, type Decider, type Decision } from './decider';
import {
  mayActOnAppointment,
  mayBookAppointmentFor,
  mayBookForLead,
  type MembershipRef,
} from './permissions';
import type { Showroom } from './types';

/** The reminder offsets of spec §9. */
export const ENVIAR_ANTES_DE = ['10_MIN', '5_MIN'] as const;
export type EnviarAntesDe = (typeof ENVIAR_ANTES_DE)[number];

/** Minutes of each offset. */
export const REMINDER_MINUTES: Record<EnviarAntesDe, number> = { '10_MIN': 10, '5_MIN': 5 };

/** The kinds of appointment the screens offer (the spec leaves `tipo` open; these are ours). */
export const TIPOS_CITA = ['visita', 'llamada', 'videollamada', 'firma', 'seguimiento'] as const;
export type TipoCita = (typeof TIPOS_CITA)[number];

/** Whether the lead came: not yet known, arrived, or did not come. */
export type Asistencia = 'pendiente' | 'asistio' | 'no_asistio';

/** The longest appointment: a day. Longer is a typo (a wrong month or year), not a visit. */
export const MAX_APPOINTMENT_HOURS = 24;
export const MAX_TITULO = 200;

/** An appointment (spec §3 Calendar event), as `wsObtenerCitas` answers it. */
export interface Cita {
  id: string;
  idCorporativo: string;
  idDesarrollo: string;
  idShowroom: string;
  /** Start and end instants, ISO 8601 in UTC. */
  fechaInicio: string;
  fechaFin: string;
  /**
   * The title the person typed, as typed (trimmed). Null: they typed none, and no text is stored
   * for it: each reader sees the automatic title (its kind and client) in their own language
   * (core/appointment-title.ts `appointmentTitle`). The API answers it filled in.
   */
  titulo: string | null;
  tipo: TipoCita;
  idLead: string;
  idAsesor: string;
  /** False once cancelled. */
  activo: boolean;
  enviarRecordatorio: boolean;
  enviarAntesDe: EnviarAntesDe;
  /** When the reminder is due (ISO), null without a reminder. */
  fechaRecordatorio: string | null;
  /** The reminder timer's key, null without a reminder. */
  idTareaProgramada: string | null;
  asistencia: Asistencia;
  /** When it was booked, and by whom. */
  fechaAlta: string;
  idUsuarioAlta: string;
  /** When the reminder went out (ISO), absent until then. */
  fechaRecordatorioEnviado?: string;
}

/** The appointment's reminder timer key (deterministic: the same for every change of it). */
export const appointmentReminderKey = (idCorporativo: string, id: string) =>
  `appointment-reminder:${idCorporativo}:${id}`;

/** When the reminder of an appointment starting at `fechaInicio` is due. */
export function reminderDueAt(fechaInicio: string, enviarAntesDe: EnviarAntesDe): Date {
  return new Date(Date.parse(fechaInicio) - REMINDER_MINUTES[enviarAntesDe] * 60_000);
}

/** `fechaRecordatorio` and `idTareaProgramada` of an appointment with these fields. */
export function reminderFields(
  c: Pick<Cita, 'idCorporativo' | 'id' | 'fechaInicio' | 'enviarRecordatorio' | 'enviarAntesDe'>,
): Pick<Cita, 'fechaRecordatorio' | 'idTareaProgramada'> {
  if (!c.enviarRecordatorio) return { fechaRecordatorio: null, idTareaProgramada: null };
  return {
    fechaRecordatorio: reminderDueAt(c.fechaInicio, c.enviarAntesDe).toISOString(),
    idTareaProgramada: appointmentReminderKey(c.idCorporativo, c.id),
  };
}

/** Two appointments overlap: each starts before the other ends (touching ends do not). */
export function appointmentsOverlap(
  a: Pick<Cita, 'fechaInicio' | 'fechaFin'>,
  b: Pick<Cita, 'fechaInicio' | 'fechaFin'>,
): boolean {
  return (
    Date.parse(a.fechaInicio) < Date.parse(b.fechaFin) &&
    Date.parse(b.fechaInicio) < Date.parse(a.fechaFin)
  );
}

/**
 * The active appointments of `others` that clash with `cita` (spec point 6): the same adviser
 * or the same showroom at an overlapping time. A warning, never a refusal.
 */
export function appointmentConflicts<C extends Cita>(
  cita: Pick<Cita, 'id' | 'idAsesor' | 'idShowroom' | 'fechaInicio' | 'fechaFin'>,
  others: readonly C[],
): { cita: C; por: ('asesor' | 'showroom')[] }[] {
  const out: { cita: C; por: ('asesor' | 'showroom')[] }[] = [];
  for (const other of others) {
    if (other.id === cita.id || !other.activo || !appointmentsOverlap(cita, other)) continue;
    const por: ('asesor' | 'showroom')[] = [];
    if (other.idAsesor === cita.idAsesor) por.push('asesor');
    if (other.idShowroom === cita.idShowroom) por.push('showroom');
    if (por.length > 0) out.push({ cita: other, por });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Field rules

export type AppointmentField = 'fechaInicio' | 'fechaFin' | 'titulo' | 'tipo' | 'enviarAntesDe';

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The first instant past what an appointment may name: the year 10000 (UTC). */
const INSTANT_LIMIT = Date.UTC(10000, 0, 1);

/**
 * An instant written in ISO 8601 with its offset, on a real calendar day (no 30 February), from
 * 2000 and before the year 10000 once its offset is applied (the database reads no later one).
 */
export function isInstant(s: string): boolean {
  const m = INSTANT.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const day = new Date(Date.UTC(y, mo - 1, d));
  const at = Date.parse(s);
  return (
    y >= 2000 &&
    day.getUTCMonth() === mo - 1 &&
    day.getUTCDate() === d &&
    Number.isFinite(at) &&
    at < INSTANT_LIMIT
  );
}

/**
 * A title as the person gave it: trimmed, and none (null) when they typed nothing (absent, null
 * or blank), which is the automatic title.
 */
export function normalizeAppointmentTitle(titulo: string | null | undefined): string | null {
  const typed = titulo?.trim() ?? '';
  return typed === '' ? null : typed;
}

/** What is wrong with an appointment's times, title, kind and offset (empty: nothing). */
export function appointmentProblems(
  c: Pick<Cita, 'fechaInicio' | 'fechaFin' | 'titulo' | 'tipo' | 'enviarAntesDe'>,
): AppointmentField[] {
  const out: AppointmentField[] = [];
  const okStart = isInstant(c.fechaInicio);
  const okEnd = isInstant(c.fechaFin);
  if (!okStart) out.push('fechaInicio');
  if (!okEnd) out.push('fechaFin');
  if (okStart && okEnd) {
    const length = Date.parse(c.fechaFin) - Date.parse(c.fechaInicio);
    if (length <= 0 || length > MAX_APPOINTMENT_HOURS * 3_600_000) out.push('fechaFin');
  }
  // No title (null) is the automatic one; a typed one is text, at most MAX_TITULO long.
  if (c.titulo !== null && (c.titulo.trim() === '' || c.titulo.length > MAX_TITULO))
    out.push('titulo');
  if (!(TIPOS_CITA as readonly string[]).includes(c.tipo)) out.push('tipo');
  if (!(ENVIAR_ANTES_DE as readonly string[]).includes(c.enviarAntesDe)) out.push('enviarAntesDe');
  return out;
}

// ---------------------------------------------------------------------------------------------
// The aggregate

type Times = Pick<Cita, 'fechaInicio' | 'fechaFin'>;
type Reminder = Pick<Cita, 'fechaRecordatorio' | 'idTareaProgramada'>;
/** The fields a PUT may change besides the time, the adviser, cancelling and attendance. */
export type AppointmentDetails = Partial<
  Pick<
    Cita,
    'titulo' | 'tipo' | 'idShowroom' | 'idDesarrollo' | 'enviarRecordatorio' | 'enviarAntesDe'
  >
>;

export type AppointmentEvent =
  | { type: 'AppointmentScheduled'; data: { cita: Cita } }
  | {
      type: 'AppointmentRescheduled';
      data: { id: string; anterior: Times } & Times & Reminder;
    }
  | {
      type: 'AppointmentReassigned';
      data: { id: string; idLead: string; anterior: string; idAsesor: string };
    }
  | {
      type: 'AppointmentDetailsChanged';
      data: { id: string; changes: AppointmentDetails; anterior: AppointmentDetails } & Reminder;
    }
  | { type: 'AppointmentCancelled'; data: { id: string; idLead: string } }
  | {
      type: 'AppointmentAttendanceMarked';
      data: { id: string; idLead: string; asistencia: Exclude<Asistencia, 'pendiente'> };
    }
  | {
      type: 'AppointmentReminderSent';
      data: { id: string; idLead: string; idAsesor: string; fechaEnvio: string };
    };

export type AppointmentEventType = AppointmentEvent['type'];

export const APPOINTMENT_EVENT_TYPES: readonly AppointmentEventType[] = [
  'AppointmentScheduled',
  'AppointmentRescheduled',
  'AppointmentReassigned',
  'AppointmentDetailsChanged',
  'AppointmentCancelled',
  'AppointmentAttendanceMarked',
  'AppointmentReminderSent',
];

export interface AppointmentState {
  cita: Cita | null;
}

export const initialAppointmentState: AppointmentState = { cita: null };

/** Who acts: the member (their id, their corporate, their role). Null: the system (a timer). */
export type AppointmentActor = MembershipRef;

/** The lead as a booking needs it (null: no such lead in the corporate). */
export interface LeadRef {
  id: string;
  idCorporativo: string;
  idVendedor: string | null;
}

/**
 * The facts the server looked up for a booking or a change: the showroom and development of
 * the (new) values, and whether the (new) adviser is an approved adviser of the corporate.
 */
export interface BookingFacts {
  showroom: Showroom | null;
  /** The development exists in the corporate. */
  developmentExists: boolean;
  /** The adviser is an approved member of the corporate who can hold leads. */
  adviserIsMember: boolean;
}

export type AppointmentCommand =
  | {
      type: 'ScheduleAppointment';
      by: AppointmentActor;
      cita: Pick<
        Cita,
        | 'id'
        | 'idDesarrollo'
        | 'idShowroom'
        | 'fechaInicio'
        | 'fechaFin'
        | 'titulo'
        | 'tipo'
        | 'idLead'
        | 'idAsesor'
        | 'enviarRecordatorio'
        | 'enviarAntesDe'
      >;
      lead: LeadRef | null;
      facts: BookingFacts;
      now: Date;
    }
  | {
      type: 'RescheduleAppointment';
      by: AppointmentActor;
      fechaInicio: string;
      fechaFin: string;
      now: Date;
    }
  | {
      type: 'ReassignAppointment';
      by: AppointmentActor;
      idAsesor: string;
      adviserIsMember: boolean;
    }
  | {
      type: 'ChangeAppointmentDetails';
      by: AppointmentActor;
      changes: AppointmentDetails;
      facts: Omit<BookingFacts, 'adviserIsMember'>;
    }
  | { type: 'CancelAppointment'; by: AppointmentActor }
  /**
   * Attended or not: 'no_asistio' once the appointment has started, 'asistio' from the start of
   * its day in the corporate's time zone (`timeZone`; a client may arrive early), never before.
   */
  | {
      type: 'MarkAttendance';
      by: AppointmentActor;
      asistencia: Exclude<Asistencia, 'pendiente'>;
      now: Date;
      timeZone: string;
    }
  | { type: 'SendReminder'; now: Date }
  /**
   * The client was seen arriving at the showroom (a guest marked arrived, a walk-in registration
   * of a known client): the system marks an active, still pending appointment attended. Anything
   * else (cancelled, already marked either way) writes nothing.
   */
  | { type: 'RecordArrival' };

export type AppointmentError =
  | { code: 'APPOINTMENT_INVALID'; campos: AppointmentField[] }
  /** A new appointment (or its move) starting before now. */
  | { code: 'APPOINTMENT_IN_PAST' }
  | { code: 'APPOINTMENT_NOT_FOUND' }
  | { code: 'APPOINTMENT_EXISTS' }
  /** A change to a cancelled appointment. */
  | { code: 'APPOINTMENT_CANCELLED' }
  /** Attendance marked before the appointment could have been attended (see MarkAttendance). */
  | { code: 'ATTENDANCE_TOO_EARLY' }
  | { code: 'SHOWROOM_NOT_FOUND' }
  | { code: 'SHOWROOM_INACTIVE' }
  /** The showroom is of another development. */
  | { code: 'SHOWROOM_NOT_IN_DEVELOPMENT' }
  | { code: 'DEVELOPMENT_NOT_FOUND' }
  /** Absent, of another corporate, or outside the caller's scope. */
  | { code: 'LEAD_NOT_FOUND' }
  /** The adviser is not an approved adviser of the corporate. */
  | { code: 'ADVISER_INVALID' }
  /** The caller may not book for (or give the appointment to) that adviser. */
  | { code: 'ADVISER_FORBIDDEN' };

export type AppointmentDecision = Decision<AppointmentEvent, AppointmentError>;

function placeProblem(
  idDesarrollo: string,
  facts: Omit<BookingFacts, 'adviserIsMember'>,
): AppointmentError | null {
  if (!facts.developmentExists) return { code: 'DEVELOPMENT_NOT_FOUND' };
  const showroom = facts.showroom;
  if (!showroom) return { code: 'SHOWROOM_NOT_FOUND' };
  if (!showroom.activo) return { code: 'SHOWROOM_INACTIVE' };
  // A showroom without a development serves every development of the corporate.
  if (showroom.idDesarrollo !== undefined && showroom.idDesarrollo !== idDesarrollo)
    return { code: 'SHOWROOM_NOT_IN_DEVELOPMENT' };
  return null;
}

/** What a command produces given the appointment: events, or why it cannot happen. */
export function decideAppointment(
  command: AppointmentCommand,
  state: AppointmentState,
): AppointmentDecision {
  if (command.type === 'ScheduleAppointment') {
    const { by, lead, facts, now } = command;
    if (state.cita) return reject({ code: 'APPOINTMENT_EXISTS' });
    const titulo = normalizeAppointmentTitle(command.cita.titulo);
    const campos = appointmentProblems({ ...command.cita, titulo });
    if (campos.length > 0) return reject({ code: 'APPOINTMENT_INVALID', campos });
    if (!lead || lead.id !== command.cita.idLead || !mayBookForLead(by, lead))
      return reject({ code: 'LEAD_NOT_FOUND' });
    const place = placeProblem(command.cita.idDesarrollo, facts);
    if (place) return reject(place);
    if (!facts.adviserIsMember) return reject({ code: 'ADVISER_INVALID' });
    if (!mayBookAppointmentFor(by, command.cita.idAsesor))
      return reject({ code: 'ADVISER_FORBIDDEN' });
    if (Date.parse(command.cita.fechaInicio) < now.getTime())
      return reject({ code: 'APPOINTMENT_IN_PAST' });
    const base = {
      ...command.cita,
      titulo,
      idCorporativo: by.corporate.id,
      activo: true,
      asistencia: 'pendiente' as const,
      fechaAlta: now.toISOString(),
      idUsuarioAlta: by.user.id,
    };
    const cita: Cita = { ...base, ...reminderFields(base) };
    return accept({ type: 'AppointmentScheduled', data: { cita } });
  }

  const cita = state.cita;
  if (command.type === 'SendReminder') {
    // The timer of an appointment gone, cancelled, reminded already, or without a reminder now.
    if (!cita || !cita.activo || !cita.enviarRecordatorio || cita.fechaRecordatorioEnviado)
      return accept();
    // A reminder due while the server was down: sent if the appointment has not started.
    if (command.now.getTime() >= Date.parse(cita.fechaInicio)) return accept();
    return accept({
      type: 'AppointmentReminderSent',
      data: {
        id: cita.id,
        idLead: cita.idLead,
        idAsesor: cita.idAsesor,
        fechaEnvio: command.now.toISOString(),
      },
    });
  }

  if (command.type === 'RecordArrival') {
    if (!cita || !cita.activo || cita.asistencia !== 'pendiente') return accept();
    return accept({
      type: 'AppointmentAttendanceMarked',
      data: { id: cita.id, idLead: cita.idLead, asistencia: 'asistio' },
    });
  }

  if (!cita || !mayActOnAppointment(command.by, cita))
    return reject({ code: 'APPOINTMENT_NOT_FOUND' });
  if (command.type === 'CancelAppointment') {
    if (!cita.activo) return accept();
    return accept({ type: 'AppointmentCancelled', data: { id: cita.id, idLead: cita.idLead } });
  }
  if (!cita.activo) return reject({ code: 'APPOINTMENT_CANCELLED' });

  switch (command.type) {
    case 'RescheduleAppointment': {
      const next = { ...cita, fechaInicio: command.fechaInicio, fechaFin: command.fechaFin };
      const campos = appointmentProblems(next);
      if (campos.length > 0) return reject({ code: 'APPOINTMENT_INVALID', campos });
      if (next.fechaInicio === cita.fechaInicio && next.fechaFin === cita.fechaFin) return accept();
      // A new start must not be in the past (the calendar refuses the drop too); an appointment
      // already under way may still have its end moved.
      if (
        next.fechaInicio !== cita.fechaInicio &&
        Date.parse(next.fechaInicio) < command.now.getTime()
      )
        return reject({ code: 'APPOINTMENT_IN_PAST' });
      return accept({
        type: 'AppointmentRescheduled',
        data: {
          id: cita.id,
          fechaInicio: next.fechaInicio,
          fechaFin: next.fechaFin,
          anterior: { fechaInicio: cita.fechaInicio, fechaFin: cita.fechaFin },
          ...reminderFields(next),
        },
      });
    }
    case 'ReassignAppointment': {
      if (command.idAsesor === cita.idAsesor) return accept();
      if (!command.adviserIsMember) return reject({ code: 'ADVISER_INVALID' });
      if (!mayBookAppointmentFor(command.by, command.idAsesor))
        return reject({ code: 'ADVISER_FORBIDDEN' });
      return accept({
        type: 'AppointmentReassigned',
        data: {
          id: cita.id,
          idLead: cita.idLead,
          anterior: cita.idAsesor,
          idAsesor: command.idAsesor,
        },
      });
    }
    case 'ChangeAppointmentDetails': {
      const changes: AppointmentDetails = {};
      const anterior: AppointmentDetails = {};
      for (const key of Object.keys(command.changes) as (keyof AppointmentDetails)[]) {
        const given = command.changes[key];
        // A blank title asks for the automatic one (null); a typed one is kept trimmed.
        const value =
          key === 'titulo' && given !== undefined
            ? normalizeAppointmentTitle(given as string | null)
            : given;
        if (value === undefined || value === cita[key]) continue;
        (changes as Record<string, unknown>)[key] = value;
        (anterior as Record<string, unknown>)[key] = cita[key];
      }
      if (Object.keys(changes).length === 0) return accept();
      const next = { ...cita, ...changes };
      const campos = appointmentProblems(next);
      if (campos.length > 0) return reject({ code: 'APPOINTMENT_INVALID', campos });
      if (changes.idShowroom !== undefined || changes.idDesarrollo !== undefined) {
        const place = placeProblem(next.idDesarrollo, command.facts);
        if (place) return reject(place);
      }
      return accept({
        type: 'AppointmentDetailsChanged',
        data: { id: cita.id, changes, anterior, ...reminderFields(next) },
      });
    }
    case 'MarkAttendance':
      if (cita.asistencia === command.asistencia) return accept();
      if (command.now.getTime() < attendanceOpensAt(cita, command.asistencia, command.timeZone))
        return reject({ code: 'ATTENDANCE_TOO_EARLY' });
      return accept({
        type: 'AppointmentAttendanceMarked',
        data: { id: cita.id, idLead: cita.idLead, asistencia: command.asistencia },
      });
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

/**
 * From when an appointment's attendance may be marked (ms): a no-show from its start, an
 * attendance from the start of its day in `timeZone`.
 */
export function attendanceOpensAt(
  cita: Pick<Cita, 'fechaInicio'>,
  asistencia: Exclude<Asistencia, 'pendiente'>,
  timeZone: string,
): number {
  const start = new Date(cita.fechaInicio);
  if (asistencia === 'no_asistio') return start.getTime();
  return dayBounds(localDay(start, timeZone), timeZone).start.getTime();
}

/** The appointment after one event (never mutated). */
export function evolveAppointment(
  state: AppointmentState,
  event: AppointmentEvent,
): AppointmentState {
  if (event.type === 'AppointmentScheduled') return { cita: event.data.cita };
  const cita = state.cita;
  if (!cita) return state;
  return { cita: applyAppointmentEvent(cita, event) };
}

/** An appointment after one of its change events (the read model folds with it too). */
export function applyAppointmentEvent(cita: Cita, event: AppointmentEvent): Cita {
  switch (event.type) {
    case 'AppointmentScheduled':
      return event.data.cita;
    case 'AppointmentRescheduled': {
      const { fechaInicio, fechaFin, fechaRecordatorio, idTareaProgramada } = event.data;
      const next = { ...cita, fechaInicio, fechaFin, fechaRecordatorio, idTareaProgramada };
      // A moved appointment reminds again at its new time.
      delete next.fechaRecordatorioEnviado;
      return next;
    }
    case 'AppointmentReassigned':
      return { ...cita, idAsesor: event.data.idAsesor };
    case 'AppointmentDetailsChanged': {
      const { changes, fechaRecordatorio, idTareaProgramada } = event.data;
      return { ...cita, ...changes, fechaRecordatorio, idTareaProgramada };
    }
    case 'AppointmentCancelled':
      return { ...cita, activo: false };
    case 'AppointmentAttendanceMarked':
      return { ...cita, asistencia: event.data.asistencia };
    case 'AppointmentReminderSent':
      return { ...cita, fechaRecordatorioEnviado: event.data.fechaEnvio };
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The appointment aggregate as a {@link Decider}. */
export const appointmentDecider: Decider<
  AppointmentCommand,
  AppointmentState,
  AppointmentEvent,
  AppointmentError
> = {
  initialState: initialAppointmentState,
  decide: decideAppointment,
  evolve: evolveAppointment,
};
