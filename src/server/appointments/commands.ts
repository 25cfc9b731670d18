/**
 * The appointments' writes, each one command through the command handler: book, change (the
 * PUT: move, give to another adviser, change details, cancel, mark attendance, in one
 * transaction) and cancel. The facts the core's decider needs (the lead, the showroom, the
 * development, whether the adviser is one) are read inside the command's transaction. Every
 * refusal is an {@link ApiError} in the spec's shape and nothing of the command is written.
 */
import {
  appointmentDecider,
  type AppointmentCommand,
  type AppointmentDetails,
  type AppointmentError,
  type Asistencia,
  type Cita,
} from '../../core/appointment';
import { isShownAutomaticTitle, type AppointmentLang } from '../../core/appointment-title';
import { corporateZone } from '../../core/check-in';
import { leadDecider } from '../../core/lead';
import type { Membership } from '../../core/permissions';
import { loadDevelopmentById } from '../catalogue/queries';
import { findShowroom } from '../check-ins/queries';
import { ApiError, badRequest, forbidden } from '../http/errors';
import { leadErrorToApi } from '../leads/errors';
import { readLeadDoc } from '../leads/queries';
import { leadStream } from '../leads/streams';
import { runCommand, type CommandEnv, type CommandScope } from '../store/command-handler';
import { citaView, findConflicts, isAdviserOf, leadNameOf, type CitaView } from './queries';
import { appointmentStream } from './streams';

export const appointmentNotFound = () =>
  new ApiError(404, 'APPOINTMENT_NOT_FOUND', 'appointment_not_found');

export function appointmentErrorToApi(error: AppointmentError): ApiError {
  switch (error.code) {
    case 'APPOINTMENT_INVALID':
      return badRequest(error.campos.map((path) => ({ path, code: 'invalid_value' })));
    case 'APPOINTMENT_IN_PAST':
      return new ApiError(
        400,
        'APPOINTMENT_IN_PAST',
        'appointment_in_past',
        {},
        {
          details: [{ path: 'fechaInicio', code: 'in_past' }],
        },
      );
    case 'APPOINTMENT_NOT_FOUND':
      return appointmentNotFound();
    case 'APPOINTMENT_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'APPOINTMENT_CANCELLED':
      return new ApiError(409, 'APPOINTMENT_CANCELLED', 'appointment_cancelled');
    case 'ATTENDANCE_TOO_EARLY':
      return new ApiError(
        409,
        'ATTENDANCE_TOO_EARLY',
        'attendance_too_early',
        {},
        {
          details: [{ path: 'asistencia', code: 'too_early' }],
        },
      );
    case 'SHOWROOM_NOT_FOUND':
      return new ApiError(404, 'SHOWROOM_NOT_FOUND', 'showroom_not_found');
    case 'SHOWROOM_INACTIVE':
      return new ApiError(400, 'SHOWROOM_INACTIVE', 'showroom_inactive');
    case 'SHOWROOM_NOT_IN_DEVELOPMENT':
      return new ApiError(400, 'SHOWROOM_NOT_IN_DEVELOPMENT', 'showroom_not_in_development');
    case 'DEVELOPMENT_NOT_FOUND':
      return new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    case 'LEAD_NOT_FOUND':
      return new ApiError(404, 'LEAD_NOT_FOUND', 'lead_not_found');
    case 'ADVISER_INVALID':
      return new ApiError(
        400,
        'ADVISER_INVALID',
        'lead_adviser_invalid',
        {},
        {
          details: [{ path: 'idAsesor', code: 'invalid_value' }],
        },
      );
    case 'ADVISER_FORBIDDEN':
      return forbidden('appointment_adviser_forbidden');
    default: {
      const unhandled: never = error;
      throw new Error(`unknown appointment error ${(unhandled as { code: string }).code}`);
    }
  }
}

export type NewAppointment = Pick<
  Cita,
  | 'idDesarrollo'
  | 'idShowroom'
  | 'fechaInicio'
  | 'fechaFin'
  | 'titulo'
  | 'tipo'
  | 'idLead'
  | 'enviarRecordatorio'
  | 'enviarAntesDe'
> & { idAsesor?: string };

async function placeFacts(
  scope: CommandScope,
  m: Membership,
  c: Pick<Cita, 'idShowroom' | 'idDesarrollo'>,
) {
  return {
    showroom: await findShowroom(scope, m.corporate.id, c.idShowroom),
    developmentExists: (await loadDevelopmentById(scope, m.corporate.id, c.idDesarrollo)) !== null,
  };
}

type Conflicts = Awaited<ReturnType<typeof findConflicts>>;

/**
 * Books an appointment. The adviser defaults to the lead's (or the caller when the lead has
 * none). Answers it, its title for a reader of `lang`, with the active appointments it overlaps
 * (a warning: it is booked anyway).
 */
export async function scheduleAppointment(
  env: CommandEnv,
  m: Membership,
  input: NewAppointment,
  lang: AppointmentLang,
): Promise<{ cita: CitaView; conflictos: Conflicts }> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const found = await readLeadDoc(scope, corporate.id, input.idLead);
    const lead = found && !found.eliminado ? found : null;
    const idAsesor = input.idAsesor ?? lead?.idVendedor ?? user.id;
    const id = scope.newId();
    const loaded = await scope.load(appointmentDecider, appointmentStream(corporate.id, id));
    const facts = {
      ...(await placeFacts(scope, m, input)),
      adviserIsMember: await isAdviserOf(scope, corporate, idAsesor),
    };
    const events = scope.decide(
      appointmentDecider,
      loaded.state,
      {
        type: 'ScheduleAppointment',
        by: m,
        cita: { ...input, id, idAsesor },
        lead: lead
          ? { id: lead.id, idCorporativo: corporate.id, idVendedor: lead.idVendedor ?? null }
          : null,
        facts,
        now: scope.now,
      },
      appointmentErrorToApi,
    );
    await scope.emit(loaded.streamId, events, 0);
    const cita = events.reduce((s, e) => appointmentDecider.evolve(s, e), loaded.state).cita;
    if (!cita) throw new Error('appointment: missing after AppointmentScheduled');
    if (lead?.idVendedor && lead.idVendedor !== cita.idAsesor)
      await handLeadWithAppointment(scope, corporate, cita, null);
    return {
      cita: await citaView(scope, cita, lang),
      conflictos: await findConflicts(scope, m, cita, lang),
    };
  });
}

/**
 * A client a host administrator registered at the door belongs to the host, who attends no
 * appointments: booked with an adviser, the client goes to that adviser, who is told of the
 * visit (reminder, arrival) and must be able to open the client. The lead remembers which
 * appointment handed it (`handedFor`): when that appointment moves to another adviser
 * (`previousAdviser`), the client moves with it. An adviser's own client stays theirs whoever
 * is booked.
 */
async function handLeadWithAppointment(
  scope: CommandScope,
  corporate: Membership['corporate'],
  cita: Cita,
  previousAdviser: string | null,
): Promise<void> {
  if (!cita.idLead) return;
  const owned = await scope.load(leadDecider, leadStream(corporate.id, cita.idLead));
  const owner = owned.state.lead?.idVendedor;
  if (!owned.state.lead || owned.state.lead.eliminado || !owner || owner === cita.idAsesor) return;
  const handedByThis = owned.state.handedFor === cita.id && owner === previousAdviser;
  if (!handedByThis && (await isAdviserOf(scope, corporate, owner))) return;
  const handed = scope.decide(
    leadDecider,
    owned.state,
    { type: 'AssignLead', idVendedor: cita.idAsesor, idCita: cita.id },
    leadErrorToApi,
  );
  await scope.emit(owned.streamId, handed);
}

/** What a PUT may change; absent fields stay as they are. */
export interface AppointmentChange extends AppointmentDetails {
  fechaInicio?: string;
  fechaFin?: string;
  idAsesor?: string;
  /** false cancels (spec: `activo`); true on an active one changes nothing. */
  activo?: boolean;
  asistencia?: Exclude<Asistencia, 'pendiente'>;
}

/**
 * Changes an appointment in one transaction: details, times, adviser, attendance, or cancels
 * it (`activo: false`). 404 when it is not the corporate's or not the member's to change.
 * Answers it, its title for a reader of `lang`.
 *
 * A title sent back as the automatic title was shown (in either language) is no change: the
 * appointment keeps no title of its own. A blank one asks for the automatic title.
 */
export async function changeAppointment(
  env: CommandEnv,
  m: Membership,
  id: string,
  change: AppointmentChange,
  lang: AppointmentLang,
): Promise<{ cita: CitaView; conflictos: Conflicts }> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(appointmentDecider, appointmentStream(corporate.id, id));
    const current = loaded.state.cita;
    if (!current) throw appointmentNotFound();
    if (change.activo === true && !current.activo)
      throw new ApiError(409, 'APPOINTMENT_CANCELLED', 'appointment_cancelled');
    const keepsAutomaticTitle =
      typeof change.titulo === 'string' &&
      isShownAutomaticTitle(change.titulo, current, await leadNameOf(scope, current.idLead));
    const commands: AppointmentCommand[] = [];
    const details: AppointmentDetails = {};
    for (const key of [
      'titulo',
      'tipo',
      'idShowroom',
      'idDesarrollo',
      'enviarRecordatorio',
      'enviarAntesDe',
    ] as const)
      if (change[key] !== undefined && !(key === 'titulo' && keepsAutomaticTitle))
        (details as Record<string, unknown>)[key] = change[key];
    if (Object.keys(details).length > 0)
      commands.push({
        type: 'ChangeAppointmentDetails',
        by: m,
        changes: details,
        facts: await placeFacts(scope, m, { ...current, ...details }),
      });
    if (change.fechaInicio !== undefined || change.fechaFin !== undefined)
      commands.push({
        type: 'RescheduleAppointment',
        by: m,
        fechaInicio: change.fechaInicio ?? current.fechaInicio,
        fechaFin: change.fechaFin ?? current.fechaFin,
        now: scope.now,
      });
    if (change.idAsesor !== undefined)
      commands.push({
        type: 'ReassignAppointment',
        by: m,
        idAsesor: change.idAsesor,
        adviserIsMember: await isAdviserOf(scope, corporate, change.idAsesor),
      });
    if (change.asistencia !== undefined)
      commands.push({
        type: 'MarkAttendance',
        by: m,
        asistencia: change.asistencia,
        now: scope.now,
        timeZone: corporateZone(corporate),
      });
    if (change.activo === false) commands.push({ type: 'CancelAppointment', by: m });
    // Nothing to change still answers whether the member may see it.
    if (commands.length === 0)
      commands.push({
        type: 'RescheduleAppointment',
        by: m,
        fechaInicio: current.fechaInicio,
        fechaFin: current.fechaFin,
        now: scope.now,
      });
    const events = scope.decide(appointmentDecider, loaded.state, commands, appointmentErrorToApi);
    await scope.emit(loaded.streamId, events);
    const cita = events.reduce((s, e) => appointmentDecider.evolve(s, e), loaded.state).cita;
    if (!cita) throw new Error('appointment: missing after a change');
    if (cita.activo && cita.idAsesor !== current.idAsesor)
      await handLeadWithAppointment(scope, corporate, cita, current.idAsesor);
    return {
      cita: await citaView(scope, cita, lang),
      conflictos: cita.activo ? await findConflicts(scope, m, cita, lang) : [],
    };
  });
}

/** Cancels an appointment (`activo` false); cancelling one already cancelled writes nothing. */
export async function cancelAppointment(
  env: CommandEnv,
  m: Membership,
  id: string,
  lang: AppointmentLang,
): Promise<CitaView> {
  return (await changeAppointment(env, m, id, { activo: false }, lang)).cita;
}
