/**
 * Appointment reminders with real server processes on one PostgreSQL database (issue 23 point
 * 5): each reminder is delivered exactly once, whichever process fires it, when one process is
 * killed (kill -9) while reminders are due and started again; and a reminder whose time passed
 * while no server ran is sent if the appointment has not started, skipped if it has.
 *
 * The processes run with the test clock (`VITRINA_TEST_CLOCK=1`, `POST /__test__/clock`): each
 * process's clock is moved by the same amount, so "ten minutes before" comes without waiting.
 * A process started again begins at real time and is moved forward to where the others are.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appointmentReminderKey } from '../../src/core/appointment';
import { appointmentStream } from '../../src/server/appointments/streams';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import {
  moveClock,
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

const MINUTE = 60_000;
const ENV = {
  VITRINA_SECRET: 'appointments-processes-test',
  VITRINA_WORK_POLL_MS: '100',
  VITRINA_TEST_CLOCK: '1',
};

async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean) {
  const deadline = Date.now() + 40_000;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeBackends('appointment reminders, two server processes', (backend) => {
  if (backend.name !== 'postgres') {
    it('needs PostgreSQL (PGlite is one process by design)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let servers: ServerProcess[] = [];
  /** How far every running process's clock has been moved, in ms. */
  let offset = 0;
  let corp: string;
  let place: { idDesarrollo: string; idShowroom: string };
  const run = Date.now().toString(36);

  const start = () => startServerProcess(runtime.databaseUrl!, ENV);
  const advanceAll = async (by: number) => {
    offset += by;
    await Promise.all(servers.map((s) => moveClock(s, by)));
  };

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    const { rows } = await runtime.deps.db.query<{ id: string }>(
      "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
    );
    corp = rows[0]!.id;
    servers = await Promise.all([start(), start()]);
    const { rows: places } = await runtime.deps.db.query<{ dev: string; showroom: string }>(
      `SELECT (SELECT id FROM rm_developments d WHERE d.corporate_id = c.id ORDER BY id LIMIT 1) AS dev,
              (SELECT s->>'id' FROM jsonb_array_elements(c.doc->'showrooms') s
                WHERE (s->>'activo')::boolean ORDER BY s->>'nombre' LIMIT 1) AS showroom
         FROM rm_corporates c WHERE c.id = $1`,
      [corp],
    );
    place = { idDesarrollo: places[0]!.dev, idShowroom: places[0]!.showroom };
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServerProcess));
    await runtime?.dispose();
  });

  /** Books, through both processes in turn, one appointment per start instant; answers them. */
  const book = async (label: string, starts: Date[]) => {
    const sessions = await Promise.all(
      servers.map(async (s) =>
        client(remoteApp(s), await login(remoteApp(s), 'asesor@vitrina.demo')),
      ),
    );
    return Promise.all(
      starts.map(async (fechaInicio, i) => {
        const who = sessions[i % sessions.length]!;
        const nombre = `${label} ${String(i).padStart(2, '0')} ${run}`;
        const lead = await who.post(`/api/corporativos/${corp}/leads`, {
          nombre,
          email: `${label.toLowerCase()}-${i}-${run}@example.com`,
          medioContacto: 'Showroom',
        });
        expect(lead.status, JSON.stringify(lead.json)).toBe(201);
        const res = await who.post(`/api/corporativos/${corp}/citas`, {
          ...place,
          fechaInicio: fechaInicio.toISOString(),
          fechaFin: new Date(fechaInicio.getTime() + 30 * MINUTE).toISOString(),
          titulo: `Visita ${nombre}`,
          tipo: 'visita',
          idLead: lead.json.id,
          enviarRecordatorio: true,
          enviarAntesDe: '10_MIN',
          activo: true,
        });
        expect(res.status, JSON.stringify(res.json)).toBe(201);
        return { id: res.json.id as string, cliente: nombre };
      }),
    );
  };

  /** The 'cita.recordatorio' notifications sent, by client name (each once, or the test fails). */
  const remindersFor = async (clientes: string[]) => {
    const { rows } = await runtime.deps.db.query<{ cliente: string }>(
      `SELECT data->'params'->>'cliente' AS cliente FROM events
        WHERE type = 'NotificationSent' AND corporate_id = $1
          AND data->>'tipo' = 'cita.recordatorio' AND data->'params'->>'cliente' = ANY($2::text[])`,
      [corp, clientes],
    );
    return rows.map((r) => r.cliente);
  };
  const reminderEvents = async (ids: string[]) =>
    (
      await runtime.deps.db.query<{ stream_id: string }>(
        `SELECT stream_id FROM events WHERE type = 'AppointmentReminderSent' AND stream_id = ANY($1::text[])`,
        [ids.map((id) => appointmentStream(corp, id))],
      )
    ).rows.map((r) => r.stream_id);
  const timerStates = async (ids: string[]) =>
    (
      await runtime.deps.db.query<{ state: string }>(
        'SELECT state FROM timers WHERE key = ANY($1::text[]) ORDER BY key',
        [ids.map((id) => appointmentReminderKey(corp, id))],
      )
    ).rows.map((r) => r.state);

  it('each reminder is sent exactly once when one process is killed (-9) while they are due, and started again', async () => {
    const now = await moveClock(servers[0]!, 0);
    // Twelve appointments, their reminders (10 min before) a minute apart from now + 20 min.
    const starts = Array.from(
      { length: 12 },
      (_, i) => new Date(now.getTime() + (30 + i) * MINUTE),
    );
    const citas = await book('Recordatorio', starts);
    const clientes = citas.map((c) => c.cliente);
    expect(await remindersFor(clientes)).toEqual([]);

    // The first half comes due on both processes: each is sent once.
    await advanceAll(20 * MINUTE + 5.5 * MINUTE);
    const firstHalf = clientes.slice(0, 6);
    await until(
      'the first six reminders',
      () => remindersFor(clientes),
      (sent) => firstHalf.every((c) => sent.includes(c)),
    );
    expect((await remindersFor(clientes)).sort()).toEqual(firstHalf);

    // The rest comes due, and one process dies at once, mid-way through them.
    await advanceAll(7 * MINUTE);
    const [killed, survivor] = servers as [ServerProcess, ServerProcess];
    await stopServerProcess(killed);
    servers = [survivor];
    const restarted = await start();
    await moveClock(restarted, offset);
    servers = [survivor, restarted];
    await until(
      'all twelve reminders',
      () => remindersFor(clientes),
      (sent) => clientes.every((c) => sent.includes(c)),
    );
    // Time for a second delivery, were there one.
    await advanceAll(MINUTE);
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await remindersFor(clientes)).sort()).toEqual([...clientes].sort());
    expect(await reminderEvents(citas.map((c) => c.id))).toHaveLength(12);
    expect(await timerStates(citas.map((c) => c.id))).toEqual(citas.map(() => 'done'));
  }, 120_000);

  it('a reminder due while no server ran: sent if the appointment has not started, skipped if it has', async () => {
    const now = await moveClock(servers[0]!, 0);
    // Not started when the servers are back: reminder at +30 min, start at +40 min.
    // Started by then: reminder at +10 min, start at +20 min.
    const [pending, started] = await book('Caida', [
      new Date(now.getTime() + 40 * MINUTE),
      new Date(now.getTime() + 20 * MINUTE),
    ]);
    await Promise.all(servers.map(stopServerProcess));
    servers = [];
    expect(await remindersFor([pending!.cliente, started!.cliente])).toEqual([]);

    // Both come back with the clock at +35 min: both reminders are overdue.
    servers = await Promise.all([start(), start()]);
    const target = now.getTime() + 35 * MINUTE;
    await Promise.all(servers.map((s) => moveClock(s, target - Date.now())));
    await until(
      'both timers fired',
      () => timerStates([pending!.id, started!.id]),
      (states) => states.length === 2 && states.every((s) => s === 'done'),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await remindersFor([pending!.cliente, started!.cliente])).toEqual([pending!.cliente]);
    expect(await reminderEvents([pending!.id, started!.id])).toEqual([
      appointmentStream(corp, pending!.id),
    ]);
  }, 120_000);
});
