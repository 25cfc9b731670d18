/**
 * Appointments (issue 23): the spec's four calls (wsObtenerCitas, POST, PUT, DELETE citas), the
 * scope rules (an adviser with Propios: own leads and own appointments; managers and host
 * administrators: every lead and adviser of the corporate; nobody another corporate's), bad
 * input (4xx in the spec's shape, nothing written), overlaps, the lead's history, the reminder
 * timer on the injected clock (schedule, reschedule, cancel, already due, start passed,
 * restart: exactly once), the `.ics` download and the revocable calendar feed.
 */
import ICAL from 'ical.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appointmentReminderKey, type Cita } from '../../src/core/appointment';
import type { Showroom } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { appointmentStream } from '../../src/server/appointments/streams';
import { getTimer } from '../../src/server/store/timers';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;
const MIN = 60_000;
const HOUR = 60 * MIN;

describeBackends('appointments', (backend: Backend) => {
  let now = new Date('2026-11-25T15:00:00.000Z');
  const advance = (ms: number) => {
    now = new Date(now.getTime() + ms);
  };
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let hostess: Client;
  let pacifico: Client;
  let corp: string;
  let pacificoCorp: string;
  let devId: string;
  let otherDevId: string;
  let alameda: Showroom;
  let olivos: Showroom;
  let playaAzul: Showroom;
  let leadAsesor: string;
  let leadAsesor2: string;
  let leadPacifico: string;
  const ids: Record<string, string> = {};

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const fireDue = () => rt.deps.work.timers.fireDue();
  const at = (hoursFromNow: number) => new Date(now.getTime() + hoursFromNow * HOUR).toISOString();
  const body = (over: Record<string, unknown> = {}) => ({
    idDesarrollo: devId,
    idShowroom: alameda.id,
    fechaInicio: at(24),
    fechaFin: at(25),
    titulo: 'Visita al departamento muestra',
    tipo: 'visita',
    idLead: leadAsesor,
    activo: true,
    enviarRecordatorio: true,
    enviarAntesDe: '10_MIN',
    ...over,
  });
  const book = (who: Client, over: Record<string, unknown> = {}, c = corp) =>
    who.post(`/api/corporativos/${c}/citas`, body(over));
  const list = (who: Client, query = '', c = corp) =>
    who.get(
      `/api/wsObtenerCitas?idCorporativo=${c}&fechaInicio=${encodeURIComponent(at(-48))}&fechaFin=${encodeURIComponent(at(24 * 30))}${query}`,
    );
  /** Every refusal: 4xx, the spec's shape, and nothing written. */
  const refused = async (
    call: () => Promise<{ status: number; json: any }>,
    status: number,
    errorCode: string,
  ) => {
    const before = await eventCount();
    const res = await call();
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(res.json).toEqual([expect.objectContaining({ errorCode, message: expect.any(String) })]);
    expect(await eventCount()).toBe(before);
    return res.json[0] as Record<string, unknown>;
  };
  const notificationsOf = async (citaId: string) =>
    (
      await db().query<{ type: string; data: Record<string, unknown> }>(
        `SELECT type, data FROM events WHERE stream_id = $1 AND type = 'AppointmentReminderSent'`,
        [appointmentStream(corp, citaId)],
      )
    ).rows;

  beforeEach(async () => {
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    hostess = await sign('hostess@vitrina.demo');
    pacifico = await sign('asesor.pacifico@vitrina.demo');
  });

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => now });
    app = createApp(rt.deps);
    const corporates = await db().query<{ id: string; slug: string; showrooms: Showroom[] }>(
      "SELECT id, slug, doc->'showrooms' AS showrooms FROM rm_corporates",
    );
    const horizonte = corporates.rows.find((r) => r.slug === 'grupo-horizonte')!;
    const pac = corporates.rows.find((r) => r.slug === 'desarrollos-pacifico')!;
    corp = horizonte.id;
    pacificoCorp = pac.id;
    alameda = horizonte.showrooms.find((s) => s.nombre === 'Showroom Alameda')!;
    olivos = horizonte.showrooms.find((s) => s.nombre === 'Showroom Los Olivos')!;
    playaAzul = pac.showrooms[0]!;
    const devs = await db().query<{ id: string; corporate_id: string }>(
      'SELECT id, corporate_id FROM rm_developments ORDER BY id',
    );
    const own = devs.rows.filter((d) => d.corporate_id === corp);
    devId = own[0]!.id;
    otherDevId = devs.rows.find((d) => d.corporate_id === pacificoCorp)!.id;
    // A lead of each adviser, made through the API as they would.
    const newLead = async (email: string, c: string, n: number) => {
      const who = await signedIn(app, email, ids);
      const res = await who.post(`/api/corporativos/${c}/leads`, {
        nombre: `Cliente ${n}`,
        apellidos: 'Citas',
        email: `cliente.citas${n}@example.com`,
        medioContacto: 'Showroom',
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      return res.json.id as string;
    };
    leadAsesor = await newLead('asesor@vitrina.demo', corp, 1);
    leadAsesor2 = await newLead('asesor2@vitrina.demo', corp, 2);
    leadPacifico = await newLead('asesor.pacifico@vitrina.demo', pacificoCorp, 3);
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  describe('booking and reading', () => {
    it('an adviser books their own lead: 201 with the spec fields, the reminder timer at start − 10 min; wsObtenerCitas answers it with names', async () => {
      const res = await book(asesor);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      const cita = res.json as Cita & { conflictos: unknown[] };
      expect(cita).toMatchObject({
        idCorporativo: corp,
        idDesarrollo: devId,
        idShowroom: alameda.id,
        idLead: leadAsesor,
        idAsesor: ids['asesor@vitrina.demo'],
        activo: true,
        enviarRecordatorio: true,
        enviarAntesDe: '10_MIN',
        fechaRecordatorio: new Date(Date.parse(at(24)) - 10 * MIN).toISOString(),
        idTareaProgramada: appointmentReminderKey(corp, cita.id),
        conflictos: [],
      });
      const timer = await getTimer(db(), cita.idTareaProgramada!);
      expect(timer).toMatchObject({ kind: 'appointment-reminder', state: 'scheduled' });
      expect(timer!.dueAt.toISOString()).toBe(cita.fechaRecordatorio);
      const listed = await list(asesor);
      expect(listed.status).toBe(200);
      const row = (listed.json as (Cita & Record<string, string>)[]).find((c) => c.id === cita.id);
      expect(row).toMatchObject({ nombreShowroom: 'Showroom Alameda' });
      expect(row!.nombreLead).not.toBe('');
      expect(row!.nombreAsesor).not.toBe('');
    });

    it('scope: an adviser with Propios sees only their own; the manager and the host administrator see everyone’s; another corporate sees none', async () => {
      const mine = await book(asesor, { fechaInicio: at(30), fechaFin: at(31) });
      const theirs = await book(hostess, {
        idLead: leadAsesor2,
        fechaInicio: at(30),
        fechaFin: at(31),
        idShowroom: olivos.id,
      });
      expect(theirs.status, JSON.stringify(theirs.json)).toBe(201);
      expect(theirs.json.idAsesor).toBe(ids['asesor2@vitrina.demo']);
      const idsOf = async (who: Client) => ((await list(who)).json as Cita[]).map((c) => c.id);
      expect(await idsOf(asesor)).toContain(mine.json.id);
      expect(await idsOf(asesor)).not.toContain(theirs.json.id);
      expect(await idsOf(asesor2)).toContain(theirs.json.id);
      expect(await idsOf(asesor2)).not.toContain(mine.json.id);
      for (const who of [gerente, hostess])
        expect(await idsOf(who)).toEqual(expect.arrayContaining([mine.json.id, theirs.json.id]));
      expect((await list(pacifico, '', corp)).status).toBe(403);
      // Another adviser's appointment by id, PUT or DELETE: not found, nothing written.
      await refused(
        () => asesor.get(`/api/corporativos/${corp}/citas/${theirs.json.id}`),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
      await refused(
        () => asesor.put(`/api/corporativos/${corp}/citas/${theirs.json.id}`, { titulo: 'x' }),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
      await refused(
        () => asesor.del(`/api/corporativos/${corp}/citas/${theirs.json.id}`),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
      // Filters.
      const byShowroom = ((await list(gerente, `&idShowroom=${olivos.id}`)).json as Cita[]).map(
        (c) => c.idShowroom,
      );
      expect(new Set(byShowroom)).toEqual(new Set([olivos.id]));
      const byAdviser = (
        (await list(hostess, `&idAsesor=${ids['asesor@vitrina.demo']}`)).json as Cita[]
      ).map((c) => c.idAsesor);
      expect(new Set(byAdviser)).toEqual(new Set([ids['asesor@vitrina.demo']]));
    });

    it('overlaps: the same adviser or showroom at an overlapping time is a warning with the conflicting appointment; it is booked anyway', async () => {
      const first = await book(asesor, { fechaInicio: at(50), fechaFin: at(51) });
      const second = await book(asesor, {
        fechaInicio: at(50.5),
        fechaFin: at(51.5),
        idShowroom: olivos.id,
      });
      expect(second.status).toBe(201);
      expect(second.json.conflictos).toEqual([
        expect.objectContaining({ id: first.json.id, por: ['asesor'] }),
      ]);
      const preview = await hostess.get(
        `/api/corporativos/${corp}/citas/conflictos?idAsesor=${ids['asesor2@vitrina.demo']}&idShowroom=${alameda.id}&fechaInicio=${encodeURIComponent(at(50))}&fechaFin=${encodeURIComponent(at(50.25))}`,
      );
      expect(preview.status).toBe(200);
      expect(preview.json).toEqual([
        expect.objectContaining({ id: first.json.id, por: ['showroom'] }),
      ]);
      // Another adviser's appointment: its time, adviser and showroom only, for a Propios adviser.
      const blind = await asesor2.get(
        `/api/corporativos/${corp}/citas/conflictos?idAsesor=${ids['asesor2@vitrina.demo']}&idShowroom=${alameda.id}&fechaInicio=${encodeURIComponent(at(50))}&fechaFin=${encodeURIComponent(at(50.25))}`,
      );
      expect(blind.json).toEqual([
        expect.objectContaining({ id: '', titulo: '', nombreLead: '', por: ['showroom'] }),
      ]);
      // Touching ends do not clash.
      const after = await book(asesor, { fechaInicio: at(51.5), fechaFin: at(52) });
      expect(after.json.conflictos).toEqual([]);
    });

    it('a client the host administrator registered, booked with an adviser, goes to that adviser, who can open it', async () => {
      // An outside walk found the adviser told of the visit (reminder, arrival) but unable to
      // open the client: it stayed the host's, who attends no appointments.
      const walkIn = await hostess.post(`/api/corporativos/${corp}/leads`, {
        nombre: 'Olga Pruebas',
        email: `olga-${Date.now()}@example.com`,
      });
      expect(walkIn.status, JSON.stringify(walkIn.json)).toBe(201);
      const leadUrl = `/api/corporativos/${corp}/leads/${walkIn.json.id}`;
      expect((await hostess.get(leadUrl)).json.idVendedor).toBe(ids['hostess@vitrina.demo']);
      expect((await asesor.get(leadUrl)).status).toBe(404);
      const booked = await book(hostess, {
        idLead: walkIn.json.id,
        idAsesor: ids['asesor@vitrina.demo'],
        fechaInicio: at(70),
        fechaFin: at(71),
      });
      expect(booked.status, JSON.stringify(booked.json)).toBe(201);
      const opened = await asesor.get(leadUrl);
      expect(opened.status).toBe(200);
      expect(opened.json.idVendedor).toBe(ids['asesor@vitrina.demo']);
      // An adviser's client stays theirs when the host books them with another adviser.
      const other = await book(hostess, {
        idLead: leadAsesor2,
        idAsesor: ids['asesor@vitrina.demo'],
        fechaInicio: at(72),
        fechaFin: at(73),
      });
      expect(other.status).toBe(201);
      expect(
        (await gerente.get(`/api/corporativos/${corp}/leads/${leadAsesor2}`)).json.idVendedor,
      ).toBe(ids['asesor2@vitrina.demo']);
      // The host gives the walk-in's appointment to another adviser: the client goes with it.
      const moved = await hostess.put(`/api/corporativos/${corp}/citas/${booked.json.id}`, {
        idAsesor: ids['asesor2@vitrina.demo'],
      });
      expect(moved.status, JSON.stringify(moved.json)).toBe(200);
      expect((await gerente.get(leadUrl)).json.idVendedor).toBe(ids['asesor2@vitrina.demo']);
      expect((await asesor.get(leadUrl)).status).toBe(404);
      // The history names the hand-over, with the appointment.
      const history = (
        await gerente.get(
          `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${walkIn.json.id}`,
        )
      ).json as { campo: string; nuevo: unknown }[];
      expect(history.filter((e) => e.campo === 'idVendedor').map((e) => e.nuevo)).toContain(
        ids['asesor2@vitrina.demo'],
      );
      // The other adviser's own client, booked with asesor@ by the host, stays asesor2@'s when
      // that appointment moves again.
      const back = await hostess.put(`/api/corporativos/${corp}/citas/${other.json.id}`, {
        idAsesor: ids['asesor2@vitrina.demo'],
      });
      expect(back.status).toBe(200);
      const again = await hostess.put(`/api/corporativos/${corp}/citas/${other.json.id}`, {
        idAsesor: ids['asesor@vitrina.demo'],
      });
      expect(again.status).toBe(200);
      expect(
        (await gerente.get(`/api/corporativos/${corp}/leads/${leadAsesor2}`)).json.idVendedor,
      ).toBe(ids['asesor2@vitrina.demo']);
    });

    it('the booking form’s lists: a host administrator finds every lead and adviser; an adviser only their own', async () => {
      const leads = (who: Client, text = '') =>
        who.get(`/api/corporativos/${corp}/citas/clientes?q=${encodeURIComponent(text)}`);
      const hostLeads = (await leads(hostess, 'cliente')).json as {
        id: string;
        nombreVendedor: string;
      }[];
      expect(hostLeads.map((l) => l.id)).toEqual(expect.arrayContaining([leadAsesor, leadAsesor2]));
      const own = ((await leads(asesor)).json as { id: string }[]).map((l) => l.id);
      expect(own).toContain(leadAsesor);
      expect(own).not.toContain(leadAsesor2);
      expect(((await leads(hostess, '%')).json as unknown[]).length).toBe(0);
      const advisers = async (who: Client) =>
        ((await who.get(`/api/corporativos/${corp}/citas/asesores`)).json as { id: string }[]).map(
          (a) => a.id,
        );
      expect(await advisers(hostess)).toEqual(
        expect.arrayContaining([ids['asesor@vitrina.demo'], ids['asesor2@vitrina.demo']]),
      );
      expect(await advisers(hostess)).not.toContain(ids['hostess@vitrina.demo']);
      expect(await advisers(asesor)).toEqual([ids['asesor@vitrina.demo']]);
      // An adviser invited and not signed up yet attends nothing: in neither the booking's nor
      // the showroom guests' list (an outside walk found them offered).
      const admin = await signedIn(app, 'admin@vitrina.demo', ids);
      const adviserRole = (
        (await admin.get(`/api/wsObtenerCorporativo?id=${corp}`)).json as {
          roles: { id: string; nombre: string }[];
        }
      ).roles.find((r) => r.nombre === 'Asesor')!.id;
      const invited = await admin.post('/api/usuarios/invitar', {
        idCorporativo: corp,
        email: `invitada-${Date.now()}@example.com`,
        nombre: 'Invitada',
        idRol: adviserRole,
      });
      expect(invited.status, JSON.stringify(invited.json)).toBe(201);
      const invitedId =
        (invited.json as { id?: string; usuario?: { id: string } }).id ??
        (invited.json as { usuario: { id: string } }).usuario.id;
      expect(invitedId).toMatch(/^\S+$/);
      expect(await advisers(hostess)).not.toContain(invitedId);
      const guestHosts = (
        (await hostess.get(`/api/corporativos/${corp}/showrooms/asesores`)).json as { id: string }[]
      ).map((a) => a.id);
      expect(guestHosts).toContain(ids['asesor@vitrina.demo']);
      expect(guestHosts).not.toContain(invitedId);
      await refused(
        () => pacifico.get(`/api/corporativos/${corp}/citas/asesores`),
        403,
        'FORBIDDEN',
      );
    });

    it('a lead’s change history shows its appointments', async () => {
      const res = await book(asesor, { fechaInicio: at(60), fechaFin: at(61), titulo: 'Firma' });
      await asesor.put(`/api/corporativos/${corp}/citas/${res.json.id}`, {
        fechaInicio: at(62),
        fechaFin: at(63),
      });
      const history = await asesor.get(
        `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${leadAsesor}`,
      );
      expect(history.status).toBe(200);
      const entries = (history.json as { evento: string; campo: string; nuevo: unknown }[]).filter(
        (e) => e.campo === 'cita',
      );
      expect(entries.map((e) => e.evento)).toEqual(
        expect.arrayContaining(['AppointmentScheduled', 'AppointmentRescheduled']),
      );
    });
  });

  describe('titles: none typed is no stored text, written in each reader’s language', () => {
    const ES = { 'accept-language': 'es-MX,es;q=0.9' };
    const EN = { 'accept-language': 'en-US,en;q=0.9' };
    const storedCita = async (id: string) =>
      (
        await db().query<{ data: { cita: Cita } }>(
          `SELECT data FROM events WHERE stream_id = $1 AND type = 'AppointmentScheduled'`,
          [appointmentStream(corp, id)],
        )
      ).rows[0]!.data.cita;
    const summaries = (ics: string) =>
      new ICAL.Component(ICAL.parse(ics))
        .getAllSubcomponents('vevent')
        .map((v) => new ICAL.Event(v))
        .map((e) => ({ uid: e.uid, summary: e.summary }));

    it('a Spanish host books with no title: nothing of Spanish is stored; the English adviser reads “Visit · …” in the calendar, the appointment, the .ics, the feed and the lead’s history; a typed title is untouched', async () => {
      const automatic = await hostess.post(
        `/api/corporativos/${corp}/citas`,
        body({ titulo: undefined, fechaInicio: at(80), fechaFin: at(81) }),
        ES,
      );
      expect(automatic.status, JSON.stringify(automatic.json)).toBe(201);
      // The response keeps the spec's titulo, filled in for the one who asked.
      expect(automatic.json).toMatchObject({
        titulo: 'Visita · Cliente 1 Citas',
        tituloAutomatico: true,
        nombreLead: 'Cliente 1 Citas',
        idAsesor: ids['asesor@vitrina.demo'],
      });
      const typed = await hostess.post(
        `/api/corporativos/${corp}/citas`,
        body({ titulo: 'Visita al departamento muestra', fechaInicio: at(82), fechaFin: at(83) }),
        ES,
      );
      expect(typed.status).toBe(201);
      expect((await storedCita(automatic.json.id)).titulo).toBeNull();
      expect((await storedCita(typed.json.id)).titulo).toBe('Visita al departamento muestra');

      // The calendar and one appointment, read in English.
      const listed = (
        await asesor.get(
          `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=${encodeURIComponent(at(79))}&fechaFin=${encodeURIComponent(at(84))}`,
          EN,
        )
      ).json as { id: string; titulo: string; tituloAutomatico: boolean }[];
      expect(listed.find((c) => c.id === automatic.json.id)).toMatchObject({
        titulo: 'Visit · Cliente 1 Citas',
        tituloAutomatico: true,
      });
      expect(listed.find((c) => c.id === typed.json.id)).toMatchObject({
        titulo: 'Visita al departamento muestra',
        tituloAutomatico: false,
      });
      const one = await asesor.get(`/api/corporativos/${corp}/citas/${automatic.json.id}`, EN);
      expect(one.json.titulo).toBe('Visit · Cliente 1 Citas');
      expect(
        (await asesor.get(`/api/corporativos/${corp}/citas/${automatic.json.id}`, ES)).json.titulo,
      ).toBe('Visita · Cliente 1 Citas');

      // The .ics in the app's language (a download carries the browser's Accept-Language).
      const ics = await asesor.get(
        `/api/corporativos/${corp}/citas/${automatic.json.id}/cita.ics?idioma=en`,
        ES,
      );
      expect(summaries(ics.json as string)[0]!.summary).toBe(
        'Visit · Cliente 1 Citas — Cliente 1 Citas',
      );
      const typedIcs = await asesor.get(
        `/api/corporativos/${corp}/citas/${typed.json.id}/cita.ics?idioma=en`,
      );
      expect(summaries(typedIcs.json as string)[0]!.summary).toBe(
        'Visita al departamento muestra — Cliente 1 Citas',
      );

      // The feed has no session: the subscriber's language (their notifications' choice).
      const me = ids['asesor@vitrina.demo']!;
      const prefs = `/api/users/${me}/notificaciones/preferencias`;
      expect((await asesor.put(prefs, { idioma: 'en' })).status).toBe(200);
      try {
        const sub = await asesor.post(`/api/corporativos/${corp}/calendario/suscripcion`, {});
        const feed = await client(app).get(new URL(sub.json.url as string).pathname, ES);
        const inFeed = summaries(feed.json as string);
        expect(inFeed.find((e) => e.uid.startsWith(automatic.json.id))?.summary).toBe(
          'Visit · Cliente 1 Citas — Cliente 1 Citas',
        );
        expect(inFeed.find((e) => e.uid.startsWith(typed.json.id))?.summary).toBe(
          'Visita al departamento muestra — Cliente 1 Citas',
        );
      } finally {
        await asesor.put(prefs, { idioma: 'es' });
        await asesor.del(`/api/corporativos/${corp}/calendario/suscripcion`);
      }

      // The lead's history.
      const history = (
        await asesor.get(
          `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${leadAsesor}`,
          EN,
        )
      ).json as {
        campo: string;
        idCita?: string;
        titulo?: string;
        tituloAutomatico?: boolean;
        tipo?: string;
        nombreLead?: string;
      }[];
      // The screen writes an automatic title in its own language: it gets the kind and the client.
      expect(history.find((e) => e.idCita === automatic.json.id)).toMatchObject({
        titulo: 'Visit · Cliente 1 Citas',
        tituloAutomatico: true,
        tipo: 'visita',
        nombreLead: 'Cliente 1 Citas',
      });
      expect(history.find((e) => e.idCita === typed.json.id)).toMatchObject({
        titulo: 'Visita al departamento muestra',
        tituloAutomatico: false,
      });
    });

    it('changes: the automatic title sent back as shown writes nothing; it follows the kind; emptying a typed title makes it automatic', async () => {
      const { json: cita } = await book(asesor, {
        titulo: undefined,
        fechaInicio: at(86),
        fechaFin: at(87),
      });
      const url = `/api/corporativos/${corp}/citas/${cita.id}`;
      const before = await eventCount();
      const back = await asesor.put(url, { titulo: 'Visit · Cliente 1 Citas' }, EN);
      expect(back.status).toBe(200);
      expect(back.json).toMatchObject({
        titulo: 'Visit · Cliente 1 Citas',
        tituloAutomatico: true,
      });
      expect(await eventCount()).toBe(before);
      const call = await asesor.put(url, { tipo: 'llamada' }, EN);
      expect(call.json).toMatchObject({ titulo: 'Call · Cliente 1 Citas', tituloAutomatico: true });
      const mine = await asesor.put(url, { titulo: 'Llamar para confirmar' }, EN);
      expect(mine.json).toMatchObject({ titulo: 'Llamar para confirmar', tituloAutomatico: false });
      const emptied = await asesor.put(url, { titulo: '' }, ES);
      expect(emptied.json).toMatchObject({
        titulo: 'Llamada · Cliente 1 Citas',
        tituloAutomatico: true,
      });
      await asesor.del(url);
    });

    it('appointments booked before carry the old dialog’s text: “Visita · {client}” of a visit reads in English; anything else stays as stored', async () => {
      // What the booking dialog used to send: the word for a visit in the booker's language and
      // the client's name, stored as text.
      const { json: old } = await book(hostess, {
        titulo: 'Visita · Cliente 1 Citas',
        fechaInicio: at(88),
        fechaFin: at(89),
      });
      const { json: oldCall } = await book(hostess, {
        titulo: 'Visita · Cliente 1 Citas',
        tipo: 'llamada',
        fechaInicio: at(88),
        fechaFin: at(89),
      });
      expect((await storedCita(old.id)).titulo).toBe('Visita · Cliente 1 Citas');
      const read = async (id: string, headers: Record<string, string>) =>
        (await asesor.get(`/api/corporativos/${corp}/citas/${id}`, headers)).json as {
          titulo: string;
          tituloAutomatico: boolean;
        };
      expect(await read(old.id, EN)).toMatchObject({
        titulo: 'Visit · Cliente 1 Citas',
        tituloAutomatico: true,
      });
      expect((await read(old.id, ES)).titulo).toBe('Visita · Cliente 1 Citas');
      expect(await read(oldCall.id, EN)).toMatchObject({
        titulo: 'Visita · Cliente 1 Citas',
        tituloAutomatico: false,
      });
      await asesor.del(`/api/corporativos/${corp}/citas/${old.id}`);
      await asesor.del(`/api/corporativos/${corp}/citas/${oldCall.id}`);
    });

    it('the reminder of an appointment with no title stores no title text', async () => {
      // Another adviser's client: the reminder test below counts the first adviser's reminders.
      const { json: cita } = await book(asesor2, {
        titulo: undefined,
        idLead: leadAsesor2,
        fechaInicio: at(1),
        fechaFin: at(2),
      });
      advance(HOUR - 10 * MIN);
      await fireDue();
      const { rows } = await db().query<{ data: { params: Record<string, unknown> } }>(
        `SELECT data FROM events WHERE type = 'NotificationSent' AND data->'params'->>'cliente' = 'Cliente 2 Citas'
          ORDER BY global_position DESC LIMIT 1`,
      );
      expect(rows[0]?.data.params).toMatchObject({ cliente: 'Cliente 2 Citas' });
      expect(rows[0]!.data.params).not.toHaveProperty('titulo');
      expect(JSON.stringify(rows[0]!.data)).not.toContain('Visita');
      await asesor2.del(`/api/corporativos/${corp}/citas/${cita.id}`);
      advance(HOUR);
    });
  });

  describe('bad input: 4xx in the spec’s shape, nothing written', () => {
    it('dates, end before start, offsets, kinds, unknown fields', async () => {
      await refused(() => book(asesor, { fechaInicio: 'mañana' }), 400, 'VALIDATION');
      await refused(() => book(asesor, { fechaInicio: '2026-02-30T10:00:00Z' }), 400, 'VALIDATION');
      await refused(() => book(asesor, { fechaFin: at(23) }), 400, 'VALIDATION');
      await refused(() => book(asesor, { fechaFin: at(24) }), 400, 'VALIDATION');
      await refused(() => book(asesor, { enviarAntesDe: '15_MIN' }), 400, 'VALIDATION');
      await refused(() => book(asesor, { tipo: 'fiesta' }), 400, 'VALIDATION');
      await refused(() => book(asesor, { titulo: 'x'.repeat(201) }), 400, 'VALIDATION');
      await refused(() => book(asesor, { activo: false }), 400, 'VALIDATION');
      await refused(() => book(asesor, { extra: 1 }), 400, 'VALIDATION');
      await refused(() => book(asesor, { idLead: 42 }), 400, 'VALIDATION');
      // Times whose offset carries them into the year 10000, which the database cannot read
      // (found by an outside probe: 500 on the booking, its change and the list).
      const past9999 = {
        fechaInicio: '9999-12-31T22:00:00-06:00',
        fechaFin: '9999-12-31T23:00:00-06:00',
      };
      await refused(() => book(asesor, past9999), 400, 'VALIDATION');
      await refused(
        () =>
          asesor.get(
            `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=9999-12-30&fechaFin=${encodeURIComponent(past9999.fechaFin)}`,
          ),
        400,
        'VALIDATION',
      );
      // The conflicts of a slot that ends before it starts: refused like such a booking.
      await refused(
        () =>
          asesor.get(
            `/api/corporativos/${corp}/citas/conflictos?idAsesor=${ids['asesor@vitrina.demo']}&idShowroom=${alameda.id}&fechaInicio=${encodeURIComponent(at(50))}&fechaFin=${encodeURIComponent(at(49))}`,
          ),
        400,
        'VALIDATION',
      );
      await refused(
        () => book(asesor, { fechaInicio: at(-1), fechaFin: at(0.5) }),
        400,
        'APPOINTMENT_IN_PAST',
      );
      await refused(
        () =>
          asesor.get(
            `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=2026-12-01&fechaFin=2026-11-01`,
          ),
        400,
        'VALIDATION',
      );
      await refused(
        () =>
          asesor.get(
            `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=2026-01-01&fechaFin=2026-12-01`,
          ),
        400,
        'VALIDATION',
      );
      await refused(
        () => asesor.get(`/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=x&fechaFin=y`),
        400,
        'VALIDATION',
      );
    });

    it('unknown or inactive showroom, another corporate’s showroom, development or lead, a lead out of scope', async () => {
      await refused(() => book(asesor, { idShowroom: 'no-such' }), 404, 'SHOWROOM_NOT_FOUND');
      await refused(() => book(asesor, { idShowroom: playaAzul.id }), 404, 'SHOWROOM_NOT_FOUND');
      await refused(() => book(asesor, { idDesarrollo: otherDevId }), 404, 'DEVELOPMENT_NOT_FOUND');
      await refused(() => book(asesor, { idLead: leadPacifico }), 404, 'LEAD_NOT_FOUND');
      await refused(() => book(asesor, { idLead: leadAsesor2 }), 404, 'LEAD_NOT_FOUND');
      await refused(() => book(asesor, { idLead: 'no-such-lead' }), 404, 'LEAD_NOT_FOUND');
      await refused(
        () => book(asesor, { idAsesor: ids['asesor2@vitrina.demo'] }),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => book(hostess, { idAsesor: ids['hostess@vitrina.demo'] }),
        400,
        'ADVISER_INVALID',
      );
      await refused(() => book(pacifico, {}, corp), 403, 'FORBIDDEN');
      // Deactivate Los Olivos (the showroom PUT), then it is refused.
      const put = await hostess.put(
        `/api/corporativos/${corp}/config-corporativo/showroom/${olivos.id}`,
        { nombre: olivos.nombre, activo: false, coordenadas: olivos.coordenadas },
      );
      expect(put.status, JSON.stringify(put.json)).toBe(200);
      await refused(() => book(asesor, { idShowroom: olivos.id }), 400, 'SHOWROOM_INACTIVE');
      await hostess.put(`/api/corporativos/${corp}/config-corporativo/showroom/${olivos.id}`, {
        nombre: olivos.nombre,
        activo: true,
        coordenadas: olivos.coordenadas,
      });
    });

    it('PUT: a different lead, invalid times, a cancelled appointment; unknown ids', async () => {
      const { json: cita } = await book(asesor, { fechaInicio: at(70), fechaFin: at(71) });
      const url = `/api/corporativos/${corp}/citas/${cita.id}`;
      await refused(() => asesor.put(url, { idLead: leadAsesor2 }), 400, 'VALIDATION');
      await refused(() => asesor.put(url, { fechaFin: at(69) }), 400, 'VALIDATION');
      await refused(() => asesor.put(url, { enviarAntesDe: '1_MIN' }), 400, 'VALIDATION');
      // A move into the past is refused (the calendar's drop refuses it too), nothing written.
      const beforeMove = await eventCount();
      await refused(
        () => asesor.put(url, { fechaInicio: at(-2), fechaFin: at(-1) }),
        400,
        'APPOINTMENT_IN_PAST',
      );
      expect(await eventCount()).toBe(beforeMove);
      await refused(
        () => asesor.put(url, { idAsesor: ids['asesor2@vitrina.demo'] }),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => asesor.put(`/api/corporativos/${corp}/citas/nope`, {}),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
      await refused(
        () => pacifico.put(`/api/corporativos/${pacificoCorp}/citas/${cita.id}`, {}),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
      expect((await asesor.del(url)).json.activo).toBe(false);
      await refused(() => asesor.put(url, { titulo: 'Otra' }), 409, 'APPOINTMENT_CANCELLED');
      // Cancelling again: the same answer, nothing written.
      const before = await eventCount();
      expect((await asesor.del(url)).status).toBe(200);
      expect(await eventCount()).toBe(before);
    });

    it('attendance: a no-show only once it started, an arrival only from its day (corporate zone); nothing written before', async () => {
      // Now is 09:00 in Mexico City; at(+16) is 01:00 tomorrow, at(+3) is 12:00 today.
      const { json: tomorrow } = await book(asesor, { fechaInicio: at(16), fechaFin: at(17) });
      const { json: today } = await book(asesor, { fechaInicio: at(3), fechaFin: at(4) });
      const put = (id: string, asistencia: string) =>
        hostess.put(`/api/corporativos/${corp}/citas/${id}`, { asistencia });
      const early = await refused(() => put(tomorrow.id, 'asistio'), 409, 'ATTENDANCE_TOO_EARLY');
      expect(early.message).toMatch(/asistencia/);
      await refused(() => put(tomorrow.id, 'no_asistio'), 409, 'ATTENDANCE_TOO_EARLY');
      await refused(() => put(today.id, 'no_asistio'), 409, 'ATTENDANCE_TOO_EARLY');
      // The client came early: an arrival on the day is recorded.
      const arrived = await put(today.id, 'asistio');
      expect(arrived.status, JSON.stringify(arrived.json)).toBe(200);
      expect(arrived.json.asistencia).toBe('asistio');
      advance(3 * HOUR);
      const noShow = await put(today.id, 'no_asistio');
      expect(noShow.status, JSON.stringify(noShow.json)).toBe(200);
    });

    it('errors are translated', async () => {
      const es = await book(asesor, { idLead: 'no-such-lead' });
      const en = await asesor.post(
        `/api/corporativos/${corp}/citas`,
        body({ idLead: 'no-such-lead' }),
        {
          'accept-language': 'en',
        },
      );
      expect(es.json[0].message).toBe('No se encontró el cliente');
      expect(en.json[0].message).toBe('Client not found');
    });
  });

  describe('reminders on the injected clock', () => {
    it('fires once at start − 10 min, not before; a second pass writes nothing', async () => {
      const { json: cita } = await book(asesor, { fechaInicio: at(2), fechaFin: at(3) });
      advance(2 * HOUR - 10 * MIN - 1000);
      await fireDue();
      expect(await notificationsOf(cita.id)).toHaveLength(0);
      advance(1000);
      await fireDue();
      await fireDue();
      const sent = await notificationsOf(cita.id);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.data).toMatchObject({ id: cita.id, idAsesor: ids['asesor@vitrina.demo'] });
      // The adviser's in-app notification: the client, the time in the corporate's zone, the
      // showroom, and a link to the lead; exactly one.
      const inbox = await asesor.get(
        `/api/wsObtenerNotificaciones?idCorporativo=${corp}&idUsuario=${ids['asesor@vitrina.demo']}`,
      );
      expect(inbox.status).toBe(200);
      const reminders = (inbox.json as { tipo: string; mensaje: string; link: string }[]).filter(
        (n) => n.tipo === 'cita.recordatorio' && n.link.endsWith(`/clientes/${leadAsesor}`),
      );
      expect(reminders).toHaveLength(1);
      expect(reminders[0]!.mensaje).toMatch(
        /^Tienes una cita con Cliente 1 Citas a las \d{2}:\d{2} en Showroom Alameda$/,
      );
      advance(HOUR);
    });

    it('rescheduling moves the timer; cancelling removes it', async () => {
      const { json: cita } = await book(asesor, {
        fechaInicio: at(2),
        fechaFin: at(3),
        enviarAntesDe: '5_MIN',
      });
      const url = `/api/corporativos/${corp}/citas/${cita.id}`;
      const moved = await asesor.put(url, { fechaInicio: at(4), fechaFin: at(5) });
      expect(moved.status).toBe(200);
      const timer = await getTimer(db(), cita.idTareaProgramada);
      expect(timer!.dueAt.toISOString()).toBe(new Date(Date.parse(at(4)) - 5 * MIN).toISOString());
      advance(2 * HOUR);
      await fireDue();
      expect(await notificationsOf(cita.id)).toHaveLength(0);
      const { json: other } = await book(asesor, { fechaInicio: at(1), fechaFin: at(2) });
      await asesor.del(`/api/corporativos/${corp}/citas/${other.id}`);
      expect(await getTimer(db(), other.idTareaProgramada)).toBeNull();
      advance(HOUR);
      await fireDue();
      expect(await notificationsOf(other.id)).toHaveLength(0);
      // The moved one is due at its new time (start − 5 min), not before.
      advance(HOUR - 5 * MIN - 1000);
      await fireDue();
      expect(await notificationsOf(cita.id)).toHaveLength(0);
      advance(1000);
      await fireDue();
      expect(await notificationsOf(cita.id)).toHaveLength(1);
      advance(HOUR);
    });

    it('already due while the server was down: sent if not started, skipped if it started', async () => {
      const { json: early } = await book(asesor, { fechaInicio: at(1), fechaFin: at(2) });
      const { json: late } = await book(asesor, { fechaInicio: at(1.5), fechaFin: at(2.5) });
      // "Down" from now until start − 5 min of the first: both due; the first has not started.
      advance(HOUR - 5 * MIN);
      await fireDue();
      expect(await notificationsOf(early.id)).toHaveLength(1);
      expect(await notificationsOf(late.id)).toHaveLength(0);
      // The second's start passes unseen: its reminder is skipped.
      const { json: skipped } = await book(asesor, { fechaInicio: at(0.5), fechaFin: at(1) });
      advance(HOUR);
      await fireDue();
      expect(await notificationsOf(skipped.id)).toHaveLength(0);
      expect(await getTimer(db(), skipped.idTareaProgramada)).toMatchObject({ state: 'done' });
      // Both started while nothing fired: skipped, and their timers are done (not retried).
      expect(await notificationsOf(late.id)).toHaveLength(0);
      expect(await getTimer(db(), late.idTareaProgramada)).toMatchObject({ state: 'done' });
      advance(HOUR);
    });
  });

  describe('calendar: .ics and the feed', () => {
    it('the .ics parses with an independent parser and carries the alarm', async () => {
      const { json: cita } = await book(asesor, {
        fechaInicio: at(5),
        fechaFin: at(6),
        enviarAntesDe: '5_MIN',
      });
      const raw = await asesor.get(`/api/corporativos/${corp}/citas/${cita.id}/cita.ics`);
      expect(raw.status).toBe(200);
      expect(raw.headers.get('content-type')).toContain('text/calendar');
      const comp = new ICAL.Component(ICAL.parse(raw.json as string));
      const vevent = comp.getFirstSubcomponent('vevent')!;
      const event = new ICAL.Event(vevent);
      expect(event.uid).toContain(cita.id);
      expect(event.startDate.toJSDate().toISOString()).toBe(cita.fechaInicio);
      expect(event.endDate.toJSDate().toISOString()).toBe(cita.fechaFin);
      expect(event.location).toBe('Showroom Alameda');
      const alarm = vevent.getFirstSubcomponent('valarm')!;
      expect(alarm.getFirstPropertyValue('trigger')!.toString()).toBe('-PT5M');
      await refused(
        () => asesor2.get(`/api/corporativos/${corp}/citas/${cita.id}/cita.ics`),
        404,
        'APPOINTMENT_NOT_FOUND',
      );
    });

    it('the subscription URL serves the user’s appointments without a session; a new one revokes the old; revoking ends it', async () => {
      const { json: cita } = await book(asesor, { fechaInicio: at(7), fechaFin: at(8) });
      const first = await asesor.post(`/api/corporativos/${corp}/calendario/suscripcion`, {});
      expect(first.status).toBe(201);
      const path = (url: string) => new URL(url).pathname;
      const anonymous = client(app);
      const feed = await anonymous.get(path(first.json.url as string));
      expect(feed.status).toBe(200);
      const comp = new ICAL.Component(ICAL.parse(feed.json as string));
      const uids = comp.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v).uid);
      expect(uids.some((u) => u.startsWith(cita.id))).toBe(true);
      // Only their own: asesor2's appointments are not in asesor's feed.
      const { json: theirs } = await book(asesor2, {
        idLead: leadAsesor2,
        fechaInicio: at(7),
        fechaFin: at(8),
      });
      const again = await anonymous.get(path(first.json.url as string));
      expect(again.json as string).not.toContain(theirs.id);
      // Tampered: 404.
      // (The token's first character changed for another — an 'A' becomes 'B', anything else
      // 'A'. The last one, replaced by 'A', was sometimes already 'A', and its low bits are
      // base64 padding that a decoder may ignore.)
      const tampered = path(first.json.url as string).replace(
        /\/([^/])([^/]*)$/,
        (_, ch: string, rest: string) => `/${ch === 'A' ? 'B' : 'A'}${rest}`,
      );
      await refused(() => anonymous.get(tampered), 404, 'NOT_FOUND');
      const second = await asesor.post(`/api/corporativos/${corp}/calendario/suscripcion`, {});
      await refused(() => anonymous.get(path(first.json.url as string)), 404, 'NOT_FOUND');
      expect((await anonymous.get(path(second.json.url as string))).status).toBe(200);
      expect((await asesor.del(`/api/corporativos/${corp}/calendario/suscripcion`)).json).toEqual({
        activa: false,
      });
      await refused(() => anonymous.get(path(second.json.url as string)), 404, 'NOT_FOUND');
    });
  });
});
