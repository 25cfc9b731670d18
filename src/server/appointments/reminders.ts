/**
 * Appointment reminders (issue 23 point 5; spec §9: 10 or 5 minutes before), with the
 * background work's timers, after unit holds (inventory/hold-expiry.ts) and check-in expiry.
 *
 * - {@link appointmentReminderTimers}, an inline projection, keeps one timer per appointment
 *   under its `idTareaProgramada` (core/appointment.ts `appointmentReminderKey`), due at
 *   `fechaRecordatorio`: scheduled when it is booked with a reminder, moved (same key) by a
 *   reschedule or a change of the offset, removed by cancelling or turning the reminder off.
 * - {@link fireAppointmentReminder}, the timer's handler, decides `SendReminder` with the core's
 *   decider at the injected clock's time and appends `AppointmentReminderSent` in the timer's
 *   own transaction, so "reminded" and "the timer fired" commit together: once, across restarts
 *   and processes. A reminder whose time passed while no server ran is sent if the appointment
 *   has not started, and skipped if it has (the decider's rule).
 */
import { decideAsSystem } from '../store/command-handler';
import { appointmentDecider, appointmentReminderKey, type Cita } from '../../core/appointment';
import { titleIsAutomatic } from '../../core/appointment-title';
import { workProjection, type BackgroundWork } from '../store/background-work';
import type { StoreTransaction } from '../store/event-store';
import type { TimerContext } from '../store/timers';
import { deterministicId } from '../store/work-support';
import { notify } from '../notifications/notify';

export const APPOINTMENT_REMINDER = 'appointment-reminder';

interface ReminderPayload {
  streamId: string;
  corporateId: string | null;
  id: string;
}

type Reminder = Pick<Cita, 'fechaRecordatorio' | 'idTareaProgramada'>;

export const appointmentReminderTimers = workProjection({
  name: 'appointment-reminder-timers',
  handles: [
    'AppointmentScheduled',
    'AppointmentRescheduled',
    'AppointmentDetailsChanged',
    'AppointmentCancelled',
  ],
  effects: (e) => {
    const payload = (id: string): ReminderPayload => ({
      streamId: e.streamId,
      corporateId: e.corporateId,
      id,
    });
    if (e.type === 'AppointmentCancelled') {
      const { id } = e.data as { id: string };
      return { cancel: appointmentReminderKey(e.corporateId ?? '', id) };
    }
    const reminder: Reminder & { id: string } =
      e.type === 'AppointmentScheduled'
        ? (e.data as { cita: Cita }).cita
        : (e.data as Reminder & { id: string });
    if (!reminder.fechaRecordatorio || !reminder.idTareaProgramada)
      return { cancel: appointmentReminderKey(e.corporateId ?? '', reminder.id) };
    return {
      schedule: {
        key: reminder.idTareaProgramada,
        kind: APPOINTMENT_REMINDER,
        dueAt: new Date(reminder.fechaRecordatorio),
        payload: payload(reminder.id),
      },
    };
  },
});

/** Sends the reminder if it is still due (nothing when cancelled, moved or already started). */
export async function fireAppointmentReminder({ tx, timer, now }: TimerContext): Promise<void> {
  const { streamId, corporateId } = timer.payload as ReminderPayload;
  // As every command, under the stream's lock: a reschedule at the same moment queues.
  const { state, events } = await decideAsSystem(
    tx,
    appointmentDecider,
    { streamId, corporateId },
    { type: 'SendReminder', now },
    now,
  );
  const cita = state.cita;
  if (events.length === 0 || !cita) return;
  await notifyAdviser(tx, cita, timer.key, now);
}

/**
 * The reminder itself: an in-app notification to the adviser (push follows it, in the
 * notifications area) naming the client, the time in the corporate's time zone, the showroom,
 * and linking to the lead. Its id is derived from the timer and the due instant, so a retried
 * transaction sends it once.
 */
async function notifyAdviser(tx: StoreTransaction, cita: Cita, timerKey: string, now: Date) {
  const { rows } = await tx.query<{
    slug: string;
    zona: string | null;
    showrooms: { id: string; nombre: string }[] | null;
    lead: string | null;
  }>(
    `SELECT c.slug, c.doc->>'zonaHoraria' AS zona, c.doc->'showrooms' AS showrooms,
            (SELECT trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos'))
               FROM rm_leads l WHERE l.id = $2) AS lead
       FROM rm_corporates c WHERE c.id = $1`,
    [cita.idCorporativo, cita.idLead],
  );
  const row = rows[0];
  if (!row) return;
  await notify(tx, {
    corporateId: cita.idCorporativo,
    userIds: [cita.idAsesor],
    kind: 'cita.recordatorio',
    params: {
      cliente: row.lead ?? '',
      hora: timeIn(cita.fechaInicio, row.zona),
      showroom: row.showrooms?.find((s) => s.id === cita.idShowroom)?.nombre ?? '',
      // A typed title only: an automatic one has no text of its own to keep (it would be the
      // booker's language's), and the kind's texts name the client already.
      ...(cita.titulo !== null && !titleIsAutomatic(cita, row.lead ?? '')
        ? { titulo: cita.titulo }
        : {}),
    },
    link: `/corporativos/${row.slug}/clientes/${cita.idLead}`,
    id: deterministicId('notification', timerKey, cita.fechaRecordatorio ?? ''),
    now,
  });
}

/** `HH:mm` of an instant in a time zone (UTC when the zone is unknown). */
function timeIn(iso: string, zone: string | null): string {
  const format = (timeZone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZone,
    }).format(new Date(iso));
  try {
    return format(zone ?? 'UTC');
  } catch {
    return format('UTC');
  }
}

/** Registers the reminder timer's handler (runtime.ts registerBackgroundWork). */
export function registerAppointmentWork(work: BackgroundWork): void {
  work.registerTimer(APPOINTMENT_REMINDER, fireAppointmentReminder);
}
