import { describe, expect, it } from 'vitest';
import {
  APPOINTMENT_EVENT_TYPES,
  appointmentConflicts,
  appointmentDecider,
  appointmentReminderKey,
  decideAppointment,
  isInstant,
  reminderDueAt,
  type AppointmentCommand,
  type AppointmentDecision,
  type AppointmentEvent,
  type Cita,
} from '../../../src/core/appointment';
import { fold } from '../../../src/core/decider';
import type { Corporate, Role, Showroom, User } from '../../../src/core/types';

const role = (over: Partial<Role>): Role => ({
  id: 'asesor',
  nombre: 'Asesor',
  permisos: {},
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
  ...over,
});
const adviser = role({});
const manager = role({ id: 'gerente', permisosLeads: { alcanceLeads: 'Todos' } });
const host = role({ id: 'hostes', permisos: { adminHostes: true } });
const corp = { id: 'corp-1' } as Corporate;
const as = (r: Role, id = 'u-1') => ({ user: { id } as User, corporate: corp, role: r });

const alameda: Showroom = {
  id: 'sr-1',
  nombre: 'Showroom Alameda',
  activo: true,
  coordenadas: { _latitude: 19.43, _longitude: -99.14 },
};
const facts = { showroom: alameda, developmentExists: true, adviserIsMember: true };

const now = new Date('2026-11-25T15:00:00.000Z');
const start = '2026-11-26T17:00:00.000Z';
const end = '2026-11-26T18:00:00.000Z';

const schedule = (
  over: Partial<Extract<AppointmentCommand, { type: 'ScheduleAppointment' }>> = {},
  cita: Partial<Extract<AppointmentCommand, { type: 'ScheduleAppointment' }>['cita']> = {},
): AppointmentCommand => ({
  type: 'ScheduleAppointment',
  by: as(adviser),
  cita: {
    id: 'ci-1',
    idDesarrollo: 'dev-1',
    idShowroom: 'sr-1',
    fechaInicio: start,
    fechaFin: end,
    titulo: 'Visita al departamento muestra',
    tipo: 'visita',
    idLead: 'lead-1',
    idAsesor: 'u-1',
    enviarRecordatorio: true,
    enviarAntesDe: '10_MIN',
    ...cita,
  },
  lead: { id: 'lead-1', idCorporativo: 'corp-1', idVendedor: 'u-1' },
  facts,
  now,
  ...over,
});

/** given these events, when this command, then… */
function given(events: AppointmentEvent[]) {
  return {
    when: (command: AppointmentCommand) =>
      decideAppointment(command, fold(appointmentDecider, events)),
  };
}

function eventsOf(decision: AppointmentDecision): AppointmentEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

const errorOf = (decision: AppointmentDecision) => (decision.ok ? null : decision.error);

const scheduled = (): AppointmentEvent[] => eventsOf(given([]).when(schedule()));

describe('ScheduleAppointment', () => {
  it('books an adviser’s own lead with a reminder 10 minutes before, under a deterministic key', () => {
    const [event] = eventsOf(given([]).when(schedule()));
    expect(event).toEqual({
      type: 'AppointmentScheduled',
      data: {
        cita: {
          id: 'ci-1',
          idCorporativo: 'corp-1',
          idDesarrollo: 'dev-1',
          idShowroom: 'sr-1',
          fechaInicio: start,
          fechaFin: end,
          titulo: 'Visita al departamento muestra',
          tipo: 'visita',
          idLead: 'lead-1',
          idAsesor: 'u-1',
          activo: true,
          enviarRecordatorio: true,
          enviarAntesDe: '10_MIN',
          fechaRecordatorio: '2026-11-26T16:50:00.000Z',
          idTareaProgramada: 'appointment-reminder:corp-1:ci-1',
          asistencia: 'pendiente',
          fechaAlta: now.toISOString(),
          idUsuarioAlta: 'u-1',
        },
      },
    });
  });

  it('5_MIN puts the reminder 5 minutes before; no reminder leaves both fields null', () => {
    const five = eventsOf(given([]).when(schedule({}, { enviarAntesDe: '5_MIN' })))[0]!;
    expect((five.data as { cita: Cita }).cita.fechaRecordatorio).toBe('2026-11-26T16:55:00.000Z');
    const none = eventsOf(given([]).when(schedule({}, { enviarRecordatorio: false })))[0]!;
    expect((none.data as { cita: Cita }).cita).toMatchObject({
      fechaRecordatorio: null,
      idTareaProgramada: null,
    });
  });

  it('refuses an end not after the start, an invalid date, a title too long, an unknown kind or offset', () => {
    expect(errorOf(given([]).when(schedule({}, { fechaFin: start })))).toEqual({
      code: 'APPOINTMENT_INVALID',
      campos: ['fechaFin'],
    });
    expect(errorOf(given([]).when(schedule({}, { fechaFin: '2026-11-26T16:00:00.000Z' })))).toEqual(
      { code: 'APPOINTMENT_INVALID', campos: ['fechaFin'] },
    );
    expect(errorOf(given([]).when(schedule({}, { fechaInicio: '2026-02-30T10:00:00Z' })))).toEqual({
      code: 'APPOINTMENT_INVALID',
      campos: ['fechaInicio'],
    });
    expect(errorOf(given([]).when(schedule({}, { fechaInicio: 'mañana' })))).toMatchObject({
      campos: ['fechaInicio'],
    });
    expect(errorOf(given([]).when(schedule({}, { titulo: 'x'.repeat(201) })))).toMatchObject({
      campos: ['titulo'],
    });
    expect(errorOf(given([]).when(schedule({}, { tipo: 'fiesta' as Cita['tipo'] })))).toMatchObject(
      { campos: ['tipo'] },
    );
    expect(
      errorOf(given([]).when(schedule({}, { enviarAntesDe: '15_MIN' as Cita['enviarAntesDe'] }))),
    ).toEqual({ code: 'APPOINTMENT_INVALID', campos: ['enviarAntesDe'] });
  });

  it('refuses an appointment longer than a day (a mistyped date)', () => {
    expect(
      errorOf(given([]).when(schedule({}, { fechaFin: '2026-11-27T17:00:00.001Z' }))),
    ).toMatchObject({ code: 'APPOINTMENT_INVALID', campos: ['fechaFin'] });
  });

  it('refuses a start in the past; a start exactly now is accepted', () => {
    const past = { fechaInicio: '2026-11-25T14:59:00.000Z', fechaFin: '2026-11-25T16:00:00.000Z' };
    expect(errorOf(given([]).when(schedule({}, past)))).toEqual({ code: 'APPOINTMENT_IN_PAST' });
    expect(given([]).when(schedule({}, { ...past, fechaInicio: now.toISOString() })).ok).toBe(true);
  });

  it('refuses an unknown, inactive or other development’s showroom, and an unknown development', () => {
    expect(errorOf(given([]).when(schedule({ facts: { ...facts, showroom: null } })))).toEqual({
      code: 'SHOWROOM_NOT_FOUND',
    });
    expect(
      errorOf(
        given([]).when(schedule({ facts: { ...facts, showroom: { ...alameda, activo: false } } })),
      ),
    ).toEqual({ code: 'SHOWROOM_INACTIVE' });
    expect(
      errorOf(
        given([]).when(
          schedule({ facts: { ...facts, showroom: { ...alameda, idDesarrollo: 'dev-2' } } }),
        ),
      ),
    ).toEqual({ code: 'SHOWROOM_NOT_IN_DEVELOPMENT' });
    expect(
      given([]).when(
        schedule({ facts: { ...facts, showroom: { ...alameda, idDesarrollo: 'dev-1' } } }),
      ).ok,
    ).toBe(true);
    expect(
      errorOf(given([]).when(schedule({ facts: { ...facts, developmentExists: false } }))),
    ).toEqual({ code: 'DEVELOPMENT_NOT_FOUND' });
  });

  it('Propios: another adviser’s lead is not found; a host administrator (Propios) books it for that adviser', () => {
    const othersLead = { id: 'lead-1', idCorporativo: 'corp-1', idVendedor: 'u-2' };
    expect(errorOf(given([]).when(schedule({ lead: othersLead })))).toEqual({
      code: 'LEAD_NOT_FOUND',
    });
    const [event] = eventsOf(
      given([]).when(schedule({ lead: othersLead, by: as(host, 'h-1') }, { idAsesor: 'u-2' })),
    );
    expect((event!.data as { cita: Cita }).cita).toMatchObject({
      idAsesor: 'u-2',
      idUsuarioAlta: 'h-1',
    });
  });

  it('refuses a lead of another corporate, a missing lead, and a lead other than idLead', () => {
    expect(
      errorOf(
        given([]).when(
          schedule({
            by: as(manager),
            lead: { id: 'lead-1', idCorporativo: 'corp-2', idVendedor: 'u-1' },
          }),
        ),
      ),
    ).toEqual({ code: 'LEAD_NOT_FOUND' });
    expect(errorOf(given([]).when(schedule({ lead: null })))).toEqual({ code: 'LEAD_NOT_FOUND' });
    expect(
      errorOf(
        given([]).when(schedule({ lead: { id: 'x', idCorporativo: 'corp-1', idVendedor: 'u-1' } })),
      ),
    ).toEqual({ code: 'LEAD_NOT_FOUND' });
  });

  it('an adviser books only for themselves; the adviser must be a member', () => {
    expect(errorOf(given([]).when(schedule({}, { idAsesor: 'u-2' })))).toEqual({
      code: 'ADVISER_FORBIDDEN',
    });
    expect(
      errorOf(given([]).when(schedule({ facts: { ...facts, adviserIsMember: false } }))),
    ).toEqual({ code: 'ADVISER_INVALID' });
    expect(given([]).when(schedule({ by: as(manager, 'm-1') }, { idAsesor: 'u-2' })).ok).toBe(true);
  });

  it('the same id twice is refused', () => {
    expect(errorOf(given(scheduled()).when(schedule()))).toEqual({ code: 'APPOINTMENT_EXISTS' });
  });
});

describe('RescheduleAppointment', () => {
  const move = (fechaInicio: string, fechaFin: string, by = as(adviser)): AppointmentCommand => ({
    type: 'RescheduleAppointment',
    by,
    fechaInicio,
    fechaFin,
    now,
  });

  it('refuses a new start in the past; an appointment under way may still have its end moved', () => {
    expect(
      errorOf(
        given(scheduled()).when(move('2026-11-25T14:59:59.999Z', '2026-11-25T16:00:00.000Z')),
      ),
    ).toEqual({ code: 'APPOINTMENT_IN_PAST' });
    expect(given(scheduled()).when(move(now.toISOString(), '2026-11-25T16:00:00.000Z')).ok).toBe(
      true,
    );
    const later = {
      ...move(start, '2026-11-26T19:00:00.000Z'),
      now: new Date('2026-11-26T17:30:00.000Z'),
    };
    expect(eventsOf(given(scheduled()).when(later))).toHaveLength(1);
  });

  it('moves the times and the reminder (same key), recording what it replaced', () => {
    const [event] = eventsOf(
      given(scheduled()).when(move('2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z')),
    );
    expect(event).toEqual({
      type: 'AppointmentRescheduled',
      data: {
        id: 'ci-1',
        fechaInicio: '2026-11-27T10:00:00.000Z',
        fechaFin: '2026-11-27T11:00:00.000Z',
        anterior: { fechaInicio: start, fechaFin: end },
        fechaRecordatorio: '2026-11-27T09:50:00.000Z',
        idTareaProgramada: 'appointment-reminder:corp-1:ci-1',
      },
    });
  });

  it('the same times write nothing; end before start is refused', () => {
    expect(eventsOf(given(scheduled()).when(move(start, end)))).toEqual([]);
    expect(errorOf(given(scheduled()).when(move(end, start)))).toEqual({
      code: 'APPOINTMENT_INVALID',
      campos: ['fechaFin'],
    });
  });

  it('another adviser’s appointment is not found for a Propios adviser; a host administrator moves it', () => {
    const mover = move('2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z', as(adviser, 'u-2'));
    expect(errorOf(given(scheduled()).when(mover))).toEqual({ code: 'APPOINTMENT_NOT_FOUND' });
    expect(
      given(scheduled()).when(
        move('2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z', as(host, 'h-1')),
      ).ok,
    ).toBe(true);
  });

  it('a cancelled appointment cannot move; an unknown one is not found', () => {
    const cancelled = [
      ...scheduled(),
      { type: 'AppointmentCancelled', data: { id: 'ci-1', idLead: 'lead-1' } } as AppointmentEvent,
    ];
    expect(errorOf(given(cancelled).when(move(start, end)))).toEqual({
      code: 'APPOINTMENT_CANCELLED',
    });
    expect(errorOf(given([]).when(move(start, end)))).toEqual({ code: 'APPOINTMENT_NOT_FOUND' });
  });

  it('a reminder already sent is armed again by a move', () => {
    const sent = [
      ...scheduled(),
      ...eventsOf(
        given(scheduled()).when({ type: 'SendReminder', now: new Date('2026-11-26T16:50:00Z') }),
      ),
    ];
    const moved = [
      ...sent,
      ...eventsOf(given(sent).when(move('2026-11-27T10:00:00.000Z', '2026-11-27T11:00:00.000Z'))),
    ];
    expect(fold(appointmentDecider, moved).cita?.fechaRecordatorioEnviado).toBeUndefined();
    expect(
      eventsOf(given(moved).when({ type: 'SendReminder', now: new Date('2026-11-27T09:50:00Z') })),
    ).toHaveLength(1);
  });
});

describe('ReassignAppointment, ChangeAppointmentDetails, CancelAppointment, MarkAttendance', () => {
  it('a host administrator gives it to another adviser; an adviser cannot give it away', () => {
    const reassign = (by: ReturnType<typeof as>): AppointmentCommand => ({
      type: 'ReassignAppointment',
      by,
      idAsesor: 'u-2',
      adviserIsMember: true,
    });
    expect(eventsOf(given(scheduled()).when(reassign(as(host, 'h-1'))))).toEqual([
      {
        type: 'AppointmentReassigned',
        data: { id: 'ci-1', idLead: 'lead-1', anterior: 'u-1', idAsesor: 'u-2' },
      },
    ]);
    expect(errorOf(given(scheduled()).when(reassign(as(adviser))))).toEqual({
      code: 'ADVISER_FORBIDDEN',
    });
  });

  it('changing the offset moves the reminder; turning it off clears it; unchanged values write nothing', () => {
    const change = (changes: object): AppointmentCommand => ({
      type: 'ChangeAppointmentDetails',
      by: as(adviser),
      changes,
      facts,
    });
    expect(eventsOf(given(scheduled()).when(change({ enviarAntesDe: '5_MIN' })))).toEqual([
      {
        type: 'AppointmentDetailsChanged',
        data: {
          id: 'ci-1',
          changes: { enviarAntesDe: '5_MIN' },
          anterior: { enviarAntesDe: '10_MIN' },
          fechaRecordatorio: '2026-11-26T16:55:00.000Z',
          idTareaProgramada: 'appointment-reminder:corp-1:ci-1',
        },
      },
    ]);
    const [off] = eventsOf(given(scheduled()).when(change({ enviarRecordatorio: false })));
    expect(off!.data).toMatchObject({ fechaRecordatorio: null, idTareaProgramada: null });
    expect(
      eventsOf(given(scheduled()).when(change({ titulo: 'Visita al departamento muestra' }))),
    ).toEqual([]);
    expect(
      errorOf(
        given(scheduled()).when({
          type: 'ChangeAppointmentDetails',
          by: as(adviser),
          changes: { idShowroom: 'sr-2' },
          facts: { showroom: { ...alameda, id: 'sr-2', activo: false }, developmentExists: true },
        }),
      ),
    ).toEqual({ code: 'SHOWROOM_INACTIVE' });
  });

  it('cancelling sets activo false once; cancelling again writes nothing', () => {
    const cancel: AppointmentCommand = { type: 'CancelAppointment', by: as(adviser) };
    const events = eventsOf(given(scheduled()).when(cancel));
    expect(events).toEqual([
      { type: 'AppointmentCancelled', data: { id: 'ci-1', idLead: 'lead-1' } },
    ]);
    const after = [...scheduled(), ...events];
    expect(fold(appointmentDecider, after).cita?.activo).toBe(false);
    expect(eventsOf(given(after).when(cancel))).toEqual([]);
  });

  it('marks attendance (arrived / no-show), once per value', () => {
    const mark = (asistencia: 'asistio' | 'no_asistio'): AppointmentCommand => ({
      type: 'MarkAttendance',
      by: as(host, 'h-1'),
      asistencia,
      now: new Date(end),
      timeZone: 'America/Mexico_City',
    });
    const arrived = eventsOf(given(scheduled()).when(mark('asistio')));
    expect(arrived).toEqual([
      {
        type: 'AppointmentAttendanceMarked',
        data: { id: 'ci-1', idLead: 'lead-1', asistencia: 'asistio' },
      },
    ]);
    expect(eventsOf(given([...scheduled(), ...arrived]).when(mark('asistio')))).toEqual([]);
    expect(eventsOf(given([...scheduled(), ...arrived]).when(mark('no_asistio')))).toHaveLength(1);
  });

  it('refuses a no-show before the start, and an arrival before the day of the appointment (corporate zone)', () => {
    const markAt = (
      asistencia: 'asistio' | 'no_asistio',
      at: string,
    ): Extract<AppointmentCommand, { type: 'MarkAttendance' }> => ({
      type: 'MarkAttendance',
      by: as(host, 'h-1'),
      asistencia,
      now: new Date(at),
      timeZone: 'America/Mexico_City',
    });
    // The appointment starts 2026-11-26 11:00 in Mexico City; that day starts at 06:00Z.
    const tooEarly = { code: 'ATTENDANCE_TOO_EARLY' };
    expect(
      errorOf(given(scheduled()).when(markAt('no_asistio', '2026-11-26T16:59:59.999Z'))),
    ).toEqual(tooEarly);
    expect(eventsOf(given(scheduled()).when(markAt('no_asistio', start)))).toHaveLength(1);
    expect(errorOf(given(scheduled()).when(markAt('asistio', '2026-11-26T05:59:59.999Z')))).toEqual(
      tooEarly,
    );
    expect(
      eventsOf(given(scheduled()).when(markAt('asistio', '2026-11-26T06:00:00.000Z'))),
    ).toHaveLength(1);
    // In UTC the same appointment's day starts six hours earlier.
    expect(
      eventsOf(
        given(scheduled()).when({
          ...markAt('asistio', '2026-11-26T00:00:00.000Z'),
          timeZone: 'UTC',
        }),
      ),
    ).toHaveLength(1);
    expect(errorOf(given(scheduled()).when(markAt('asistio', now.toISOString())))).toEqual(
      tooEarly,
    );
  });

  it('RecordArrival (the system saw the client come in) marks a pending appointment attended, and nothing else', () => {
    const arrival: AppointmentCommand = { type: 'RecordArrival' };
    const arrived = eventsOf(given(scheduled()).when(arrival));
    expect(arrived).toEqual([
      {
        type: 'AppointmentAttendanceMarked',
        data: { id: 'ci-1', idLead: 'lead-1', asistencia: 'asistio' },
      },
    ]);
    // Already attended, a no-show already recorded, cancelled, or no appointment: nothing.
    expect(eventsOf(given([...scheduled(), ...arrived]).when(arrival))).toEqual([]);
    const noShow = eventsOf(
      given(scheduled()).when({
        type: 'MarkAttendance',
        by: as(host, 'h-1'),
        asistencia: 'no_asistio',
        now: new Date(end),
        timeZone: 'UTC',
      }),
    );
    expect(eventsOf(given([...scheduled(), ...noShow]).when(arrival))).toEqual([]);
    const cancelled = eventsOf(
      given(scheduled()).when({ type: 'CancelAppointment', by: as(host, 'h-1') }),
    );
    expect(eventsOf(given([...scheduled(), ...cancelled]).when(arrival))).toEqual([]);
    expect(eventsOf(given([]).when(arrival))).toEqual([]);
  });
});

describe('SendReminder (the timer)', () => {
  const at = (iso: string): AppointmentCommand => ({ type: 'SendReminder', now: new Date(iso) });

  it('sends once before the start; a second firing writes nothing', () => {
    const sent = eventsOf(given(scheduled()).when(at('2026-11-26T16:50:00.000Z')));
    expect(sent).toEqual([
      {
        type: 'AppointmentReminderSent',
        data: {
          id: 'ci-1',
          idLead: 'lead-1',
          idAsesor: 'u-1',
          fechaEnvio: '2026-11-26T16:50:00.000Z',
        },
      },
    ]);
    expect(eventsOf(given([...scheduled(), ...sent]).when(at('2026-11-26T16:51:00.000Z')))).toEqual(
      [],
    );
  });

  it('late (the server was down) but before the start: sent; at or after the start: skipped', () => {
    expect(eventsOf(given(scheduled()).when(at('2026-11-26T16:59:59.999Z')))).toHaveLength(1);
    expect(eventsOf(given(scheduled()).when(at(start)))).toEqual([]);
  });

  it('nothing for a cancelled appointment, one without a reminder, or none at all', () => {
    const cancelled = [
      ...scheduled(),
      { type: 'AppointmentCancelled', data: { id: 'ci-1', idLead: 'lead-1' } } as AppointmentEvent,
    ];
    expect(eventsOf(given(cancelled).when(at('2026-11-26T16:50:00.000Z')))).toEqual([]);
    const silent = eventsOf(given([]).when(schedule({}, { enviarRecordatorio: false })));
    expect(eventsOf(given(silent).when(at('2026-11-26T16:50:00.000Z')))).toEqual([]);
    expect(eventsOf(given([]).when(at('2026-11-26T16:50:00.000Z')))).toEqual([]);
  });
});

describe('helpers', () => {
  it('reminderDueAt and the key', () => {
    expect(reminderDueAt(start, '10_MIN').toISOString()).toBe('2026-11-26T16:50:00.000Z');
    expect(reminderDueAt(start, '5_MIN').toISOString()).toBe('2026-11-26T16:55:00.000Z');
    expect(appointmentReminderKey('c', 'a')).toBe('appointment-reminder:c:a');
  });

  it('appointmentConflicts: the same adviser or showroom overlapping, active only; touching ends do not clash', () => {
    const base = (eventsOf(given([]).when(schedule()))[0]!.data as { cita: Cita }).cita;
    const other = (over: Partial<Cita>): Cita => ({ ...base, id: 'x', ...over });
    const conflicts = appointmentConflicts(base, [
      base,
      other({
        id: 'a',
        fechaInicio: '2026-11-26T17:30:00.000Z',
        fechaFin: '2026-11-26T18:30:00.000Z',
      }),
      other({
        id: 'b',
        idAsesor: 'u-9',
        fechaInicio: '2026-11-26T16:30:00.000Z',
        fechaFin: '2026-11-26T17:01:00.000Z',
      }),
      other({ id: 'c', idAsesor: 'u-9', idShowroom: 'sr-9' }),
      other({ id: 'd', fechaInicio: end, fechaFin: '2026-11-26T19:00:00.000Z' }),
      other({ id: 'e', activo: false }),
    ]);
    expect(conflicts.map((c) => [c.cita.id, c.por])).toEqual([
      ['a', ['asesor', 'showroom']],
      ['b', ['showroom']],
    ]);
  });

  it('every event type folds', () => {
    expect(APPOINTMENT_EVENT_TYPES).toHaveLength(7);
  });
});

describe('isInstant', () => {
  it('an ISO instant with its offset, from 2000, before the year 10000 once the offset is applied', () => {
    expect(isInstant('2026-11-23T10:00:00-06:00')).toBe(true);
    expect(isInstant('2026-02-30T10:00:00Z')).toBe(false);
    expect(isInstant('1999-12-31T23:59:00Z')).toBe(false);
    expect(isInstant('9999-12-31T17:59:00-06:00')).toBe(true);
    // 04:00 of 1 January 10000 in UTC: the year the database cannot read.
    expect(isInstant('9999-12-31T22:00:00-06:00')).toBe(false);
    expect(isInstant('9999-12-31T23:59:59Z')).toBe(true);
  });
});
