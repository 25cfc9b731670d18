/**
 * Arrival notices (issue 14 point 7), on both backends: a client with an appointment today is
 * seen at the showroom (a guest marked arrived by the host administrator, or a walk-in
 * registration of a known client) → the appointment is marked attended and its adviser told,
 * exactly once; a guest with no appointment is announced to the adviser who hosts them; the
 * adviser marking their own appointment tells nobody; bad input answers 4xx and writes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cita } from '../../src/core/appointment';
import type { Showroom } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { arrivalNotice, guestContact } from '../../src/server/appointments/arrivals';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import type { client } from './support/http';
import { signedIn } from './support/http';
import { caughtUp, eventually } from './support/consumers';

type Client = ReturnType<typeof client>;
const MIN = 60_000;

describe('arrival rules', () => {
  const event = (actorId: string | null, asistencia = 'asistio') => ({
    type: 'AppointmentAttendanceMarked',
    data: { id: 'c1', idLead: 'l1', asistencia },
    actorId,
    corporateId: 'corp',
  });
  const cita = { idAsesor: 'ana', idLead: 'l1', activo: true };
  const lookup = { corporateSlug: 'grupo', cliente: 'Luis', showroom: 'Alameda', hora: '10:00' };

  it('someone other than the adviser marks an arrival: the adviser is told, with a link to the lead', () => {
    expect(arrivalNotice(event('hostess'), cita, lookup)).toEqual({
      corporateId: 'corp',
      userIds: ['ana'],
      kind: 'cliente.llegada',
      params: { cliente: 'Luis', showroom: 'Alameda', hora: '10:00' },
      link: '/corporativos/grupo/clientes/l1',
    });
    expect(arrivalNotice(event(null), cita, lookup)?.userIds).toEqual(['ana']);
  });

  it('the adviser marking it, a no-show, a cancelled or unknown appointment: no notice', () => {
    expect(arrivalNotice(event('ana'), cita, lookup)).toBeNull();
    expect(arrivalNotice(event('hostess', 'no_asistio'), cita, lookup)).toBeNull();
    expect(arrivalNotice(event('hostess'), { ...cita, activo: false }, lookup)).toBeNull();
    expect(arrivalNotice(event('hostess'), null, lookup)).toBeNull();
  });

  it("a guest's contact is an e-mail when it has an @, else a phone; empty is nothing", () => {
    expect(guestContact(' ana@example.com ')).toEqual({ email: 'ana@example.com' });
    expect(guestContact('55 1234 5678')).toEqual({ telefono: '55 1234 5678' });
    expect(guestContact('  ')).toEqual({});
  });
});

describeBackends('arrival notices', (backend: Backend) => {
  let now = new Date('2026-11-25T16:00:00.000Z');
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let hostess: Client;
  let pacifico: Client;
  let corp: string;
  let pacificoCorp: string;
  let devId: string;
  let alameda: Showroom;
  const ids: Record<string, string> = {};
  let seq = 0;

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const arrivals = async (email: string) =>
    (
      await db().query<{ doc: { params: Record<string, string>; link: string } }>(
        `SELECT n.doc FROM rm_notification_inbox i JOIN rm_notifications n ON n.id = i.notification_id
          WHERE i.user_id = $1 AND n.tipo = 'cliente.llegada' ORDER BY n.fecha_alta, n.id`,
        [ids[email]],
      )
    ).rows.map((r) => r.doc);
  /** Until the arrivals consumer, then the notifications it feeds, have read the whole log. */
  const settle = async () => {
    rt.deps.work.wake();
    await eventually(() => caughtUp(db(), 'appointment-arrivals'));
  };
  const attendance = async (citaId: string) =>
    (await db().query<{ doc: Cita }>('SELECT doc FROM rm_appointments WHERE id = $1', [citaId]))
      .rows[0]!.doc.asistencia;

  /** A lead of the adviser with an appointment at Alameda an hour from now. */
  const clientWithAppointment = async () => {
    seq += 1;
    const lead = await asesor.post(`/api/corporativos/${corp}/leads`, {
      nombre: `Luis ${seq}`,
      apellidos: 'Llegada',
      email: `llegada${seq}@example.com`,
      telefono: `55 4100 ${String(1000 + seq)}`,
      medioContacto: 'Showroom',
    });
    expect(lead.status, JSON.stringify(lead.json)).toBe(201);
    const start = new Date(now.getTime() + 60 * MIN);
    const cita = await asesor.post(`/api/corporativos/${corp}/citas`, {
      idDesarrollo: devId,
      idShowroom: alameda.id,
      fechaInicio: start.toISOString(),
      fechaFin: new Date(start.getTime() + 60 * MIN).toISOString(),
      titulo: 'Visita',
      tipo: 'visita',
      idLead: lead.json.id,
      activo: true,
      enviarRecordatorio: false,
      enviarAntesDe: '10_MIN',
    });
    expect(cita.status, JSON.stringify(cita.json)).toBe(201);
    return {
      lead: lead.json as { id: string; email: string; telefono: string; nombre: string },
      cita: cita.json as Cita,
    };
  };
  const invite = async (contacto: string, nombre = `Invitado ${seq}`) => {
    const res = await hostess.post(`/api/corporativos/${corp}/showrooms/${alameda.id}/invitados`, {
      nombre,
      contacto,
      fechaVisita: '2026-11-25',
      idAsesor: ids['asesor@vitrina.demo'],
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as string;
  };
  const arrive = (guestId: string, who: Client = hostess) =>
    who.post(`/api/corporativos/${corp}/showrooms/${alameda.id}/invitados/${guestId}/llegada`, {});
  const walkIn = (bodyOver: Record<string, unknown>, who: Client = hostess, c = corp) =>
    who.post(`/api/corporativos/${c}/citas/llegada`, { idDesarrollo: devId, ...bodyOver });

  beforeEach(async () => {
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    hostess = await signedIn(app, 'hostess@vitrina.demo', ids);
    pacifico = await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
  });

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    const corporates = await db().query<{ id: string; slug: string; showrooms: Showroom[] }>(
      "SELECT id, slug, doc->'showrooms' AS showrooms FROM rm_corporates",
    );
    const horizonte = corporates.rows.find((r) => r.slug === 'grupo-horizonte')!;
    corp = horizonte.id;
    pacificoCorp = corporates.rows.find((r) => r.slug === 'desarrollos-pacifico')!.id;
    alameda = horizonte.showrooms.find((s) => s.nombre === 'Showroom Alameda')!;
    devId =
      alameda.idDesarrollo ??
      (
        await db().query<{ id: string }>(
          'SELECT id FROM rm_developments WHERE corporate_id = $1 ORDER BY id LIMIT 1',
          [corp],
        )
      ).rows[0]!.id;
    rt.deps.work.start();
    await eventually(
      async () =>
        (await db().query("SELECT 1 FROM consumers WHERE name = 'appointment-arrivals'")).rows
          .length > 0,
    );
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  it('a guest whose e-mail is a client with an appointment today: the appointment is attended and its adviser told once; marking again writes nothing', async () => {
    const { lead, cita } = await clientWithAppointment();
    const guest = await invite(lead.email);
    const res = await arrive(guest);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.llegada._seconds).toBe(Math.floor(now.getTime() / 1000));
    await settle();
    await eventually(async () => (await attendance(cita.id)) === 'asistio');
    await settle();
    const told = await arrivals('asesor@vitrina.demo');
    const mine = told.filter((n) => n.link.endsWith(`/clientes/${lead.id}`));
    expect(mine).toHaveLength(1);
    expect(mine[0]!.params).toMatchObject({
      cliente: `${lead.nombre} Llegada`,
      showroom: 'Showroom Alameda',
    });
    const before = await eventCount();
    const again = await arrive(guest);
    expect(again.status).toBe(200);
    expect(await eventCount()).toBe(before);
    await settle();
    expect(
      (await arrivals('asesor@vitrina.demo')).filter((n) =>
        n.link.endsWith(`/clientes/${lead.id}`),
      ),
    ).toHaveLength(1);
  });

  it('a guest found by phone (another format of the same number) works the same', async () => {
    const { lead, cita } = await clientWithAppointment();
    const guest = await invite(`+52 ${lead.telefono}`);
    expect((await arrive(guest)).status).toBe(200);
    await settle();
    await eventually(async () => (await attendance(cita.id)) === 'asistio');
  });

  it('a guest with no appointment: the hosting adviser is told, naming the guest', async () => {
    seq += 1;
    const nombre = `Visitante sin cita ${seq}`;
    const guest = await invite('', nombre);
    expect((await arrive(guest)).status).toBe(200);
    await settle();
    const told = (await arrivals('asesor@vitrina.demo')).filter((n) => n.params.cliente === nombre);
    expect(told).toHaveLength(1);
    expect(told[0]!.params.showroom).toBe('Showroom Alameda');
  });

  it('a walk-in of a known client: 200 naming the adviser and the time, attended, the adviser told once; again 404 and nothing written', async () => {
    const { lead, cita } = await clientWithAppointment();
    const res = await walkIn({ email: lead.email.toUpperCase() });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toEqual({
      id: cita.id,
      fechaInicio: cita.fechaInicio,
      idShowroom: alameda.id,
      idAsesor: ids['asesor@vitrina.demo'],
      nombreAsesor: expect.stringMatching(/\S/),
    });
    expect(await attendance(cita.id)).toBe('asistio');
    await settle();
    await eventually(
      async () =>
        (await arrivals('asesor@vitrina.demo')).filter((n) =>
          n.link.endsWith(`/clientes/${lead.id}`),
        ).length === 1,
    );
    const before = await eventCount();
    const again = await walkIn({ email: lead.email });
    expect(again.status).toBe(404);
    expect(again.json).toEqual([
      expect.objectContaining({ errorCode: 'APPOINTMENT_NOT_FOUND', message: expect.any(String) }),
    ]);
    expect(await eventCount()).toBe(before);
  });

  it('the adviser marking their own client arrived tells nobody; the host administrator marking it tells the adviser', async () => {
    const a = await clientWithAppointment();
    const own = await asesor.put(`/api/corporativos/${corp}/citas/${a.cita.id}`, {
      asistencia: 'asistio',
    });
    expect(own.status, JSON.stringify(own.json)).toBe(200);
    const b = await clientWithAppointment();
    const byHost = await hostess.put(`/api/corporativos/${corp}/citas/${b.cita.id}`, {
      asistencia: 'asistio',
    });
    expect(byHost.status, JSON.stringify(byHost.json)).toBe(200);
    await settle();
    const told = await arrivals('asesor@vitrina.demo');
    expect(told.filter((n) => n.link.endsWith(`/clientes/${a.lead.id}`))).toHaveLength(0);
    expect(told.filter((n) => n.link.endsWith(`/clientes/${b.lead.id}`))).toHaveLength(1);
  });

  it('bad input: no contact 400, an unknown contact, an appointment tomorrow, another corporate → 404; a non-host marking a guest → 403; nothing written', async () => {
    const refused = async (
      call: () => Promise<{ status: number; json: any }>,
      status: number,
      errorCode: string,
    ) => {
      const before = await eventCount();
      const res = await call();
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(res.json).toEqual([expect.objectContaining({ errorCode })]);
      expect(await eventCount()).toBe(before);
    };
    await refused(() => walkIn({}), 400, 'VALIDATION');
    await refused(() => walkIn({ email: 'nadie@example.com' }), 404, 'APPOINTMENT_NOT_FOUND');
    await refused(() => walkIn({ email: 'x'.repeat(200) }), 400, 'VALIDATION');
    await refused(() => walkIn({ email: 'a@b.c', rol: 'x' }), 400, 'VALIDATION');
    const { lead } = await clientWithAppointment();
    await refused(
      () => walkIn({ email: lead.email }, pacifico, pacificoCorp),
      404,
      'APPOINTMENT_NOT_FOUND',
    );
    await refused(() => walkIn({ email: lead.email }, pacifico), 403, 'FORBIDDEN');
    const guest = await invite(lead.email);
    await refused(() => arrive(guest, asesor), 403, 'FORBIDDEN');
    await refused(() => arrive('no-such-guest'), 404, 'GUEST_NOT_FOUND');
    // Tomorrow's appointment is not today's arrival.
    now = new Date(now.getTime() - 24 * 60 * MIN);
    try {
      await refused(() => walkIn({ email: lead.email }), 404, 'APPOINTMENT_NOT_FOUND');
    } finally {
      now = new Date(now.getTime() + 24 * 60 * MIN);
    }
  });
});
