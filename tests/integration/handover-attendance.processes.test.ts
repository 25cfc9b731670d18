/**
 * The client hand-over and the attendance mark with two real server processes on one PostgreSQL
 * database, through HTTP as the app calls them, each also with one process killed (kill -9)
 * while the concurrent requests run and started again:
 * - a host administrator's walk-in booked with an adviser goes to that adviser; 20 concurrent
 *   reassignments of that appointment, through both processes, take the client along each time
 *   (one `LeadAssigned` with `idCita` in the same transaction as each `AppointmentReassigned`);
 * - 20 concurrent attendance marks (arrival, no-show, the same one twice) leave one final state,
 *   the same read from both processes, after a refused early no-show (409 ATTENDANCE_TOO_EARLY);
 * - an adviser's own client booked with other advisers at once stays theirs, and a walk-in booked
 *   with several advisers at once goes to one of them, once;
 * - the read models equal a rebuild from the log (store:verify's comparison).
 *
 * Every answer is 200 or 409 in the spec's error shape; a request to the killed process may get
 * none. Each reassignment carries a title of its own, so every 200 is found in the log.
 * The processes run on the test clock (`VITRINA_TEST_CLOCK=1`), process 0 a few seconds ahead
 * of process 1 (as two machines' clocks are), both moved past the appointment's start so both
 * marks are allowed; process 1 started again is moved to where it was.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appointmentStream } from '../../src/server/appointments/streams';
import { leadStream } from '../../src/server/leads/streams';
import { formatComparison, verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import {
  moveClock,
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

const HOUR = 3_600_000;
const SKEW_MS = 3_000;
const ENV = {
  VITRINA_SECRET: 'handover-attendance-test',
  VITRINA_WORK_POLL_MS: '100',
  VITRINA_TEST_CLOCK: '1',
};
const ACCOUNTS = [
  'hostess@vitrina.demo',
  'asesor@vitrina.demo',
  'asesor2@vitrina.demo',
  'gerente@vitrina.demo',
] as const;
type Account = (typeof ACCOUNTS)[number];

/** An HTTP answer; status 0 when none came (the process was killed while it was asked). */
interface Answer {
  status: number;
  json: any;
  /** The process asked (0 or 1). */
  server: number;
  sent: Record<string, unknown>;
}

interface LogRow {
  tx: string;
  version: number;
  type: string;
  data: any;
}

describeBackends('hand-over and attendance, two server processes', (backend) => {
  if (backend.name !== 'postgres') {
    it('needs PostgreSQL (PGlite is one process by design; see appointments.test.ts)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let servers: ServerProcess[] = [];
  /** How far process 1's clock has been moved, in ms (process 0's is SKEW_MS further). */
  let offset = 0;
  let corp: string;
  let place: { idDesarrollo: string; idShowroom: string };
  const cookies = {} as Record<Account, string>;
  const ids = {} as Record<Account, string>;
  const run = Date.now().toString(36);

  const start = () => startServerProcess(runtime.databaseUrl!, ENV);
  const advanceAll = async (by: number) => {
    offset += by;
    await Promise.all(servers.map((s) => moveClock(s, by)));
  };
  /** `who` signed in, asking process `i` (of the ones running now). */
  const as = (who: Account, i = 0) => client(remoteApp(servers[i % 2]!), cookies[who]);
  const citaUrl = (id: string) => `/api/corporativos/${corp}/citas/${id}`;
  const leadUrl = (id: string) => `/api/corporativos/${corp}/leads/${id}`;

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    const { db } = runtime.deps;
    const { rows } = await db.query<{ id: string; dev: string; showroom: string }>(
      `SELECT c.id,
              (SELECT id FROM rm_developments d WHERE d.corporate_id = c.id ORDER BY id LIMIT 1) AS dev,
              (SELECT s->>'id' FROM jsonb_array_elements(c.doc->'showrooms') s
                WHERE (s->>'activo')::boolean ORDER BY s->>'nombre' LIMIT 1) AS showroom
         FROM rm_corporates c WHERE c.slug = 'grupo-horizonte'`,
    );
    corp = rows[0]!.id;
    place = { idDesarrollo: rows[0]!.dev, idShowroom: rows[0]!.showroom };
    const users = await db.query<{ id: string; email: Account }>(
      'SELECT id, email FROM rm_users WHERE email = ANY($1::text[])',
      [ACCOUNTS],
    );
    for (const u of users.rows) ids[u.email] = u.id;
    servers = await Promise.all([start(), start()]);
    // Two machines' clocks never agree: process 0 runs a few seconds ahead of process 1.
    await moveClock(servers[0]!, SKEW_MS);
    for (const who of ACCOUNTS) cookies[who] = await login(remoteApp(servers[0]!), who);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServerProcess));
    await runtime?.dispose();
  });

  /** A new lead registered by `who` (its adviser is `who`). */
  const newLead = async (who: Account, nombre: string) => {
    const res = await as(who).post(`/api/corporativos/${corp}/leads`, {
      nombre: `${nombre} ${run}`,
      email: `${nombre.toLowerCase().replace(/\W+/g, '-')}-${run}@example.com`,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id as string;
  };
  /** The host books `idLead` with `idAsesor`, `hours` after the processes' clock. */
  const book = async (idLead: string, idAsesor: string, hours: number, server = 0) => {
    const now = await moveClock(servers[0]!, 0);
    return as('hostess@vitrina.demo', server).post(`/api/corporativos/${corp}/citas`, {
      ...place,
      fechaInicio: new Date(now.getTime() + hours * HOUR).toISOString(),
      fechaFin: new Date(now.getTime() + (hours + 1) * HOUR).toISOString(),
      titulo: `Cita ${hours} h ${run}`,
      tipo: 'visita',
      idLead,
      idAsesor,
      enviarRecordatorio: false,
    });
  };

  /**
   * Sends every body as a PUT of appointment `id` by the host, all at once, alternately to each
   * process. With `killMidWork`, process 1 is killed (-9) as soon as it has answered one, while
   * the others are still being decided, and started again once all have settled.
   */
  const concurrentPuts = async (
    id: string,
    bodies: Record<string, unknown>[],
    killMidWork = false,
  ): Promise<Answer[]> => {
    const asked = [...servers];
    let inFlightOnKilled = 0;
    let answeredByKilled!: () => void;
    const firstAnswer = new Promise<void>((resolve) => (answeredByKilled = resolve));
    const answers = Promise.all(
      bodies.map(async (sent, i): Promise<Answer> => {
        const server = i % 2;
        const hostess = client(remoteApp(asked[server]!), cookies['hostess@vitrina.demo']);
        if (server === 1) inFlightOnKilled++;
        try {
          const res = await hostess.put(citaUrl(id), sent);
          if (server === 1) answeredByKilled();
          return { ...res, server, sent };
        } catch (error) {
          if (!killMidWork || server !== 1) throw error;
          return { status: 0, json: String(error), server, sent };
        } finally {
          if (server === 1) inFlightOnKilled--;
        }
      }),
    );
    if (killMidWork) {
      await firstAnswer;
      // The kill lands while process 1 still has requests to answer.
      expect(inFlightOnKilled).toBeGreaterThan(0);
      await stopServerProcess(asked[1]);
    }
    const settled = await answers;
    if (killMidWork) {
      servers = [asked[0]!, await start()];
      await moveClock(servers[1]!, offset);
    }
    return settled;
  };

  /** Every answer is defined: 200, or 409 in the spec's shape; none only from a killed process. */
  const expectDefined = (answers: Answer[], killed: boolean) => {
    for (const a of answers) {
      if (a.status === 0 && killed && a.server === 1) continue;
      expect([200, 409], JSON.stringify(a)).toContain(a.status);
      if (a.status === 409)
        expect(a.json).toEqual([
          expect.objectContaining({ errorCode: expect.any(String), message: expect.any(String) }),
        ]);
    }
  };

  /** A stream's events in version order, with the transaction that wrote each. */
  const logOf = async (streamId: string) =>
    (
      await runtime.deps.db.query<LogRow>(
        `SELECT transaction_id::text AS tx, version, type, data FROM events
          WHERE stream_id = $1 ORDER BY version`,
        [streamId],
      )
    ).rows;

  /**
   * A stream's versions in the order every reader of the log meets them (consumers, store:verify,
   * store:rebuild): by transaction id, then position.
   */
  const logOrder = async (streamId: string) =>
    (
      await runtime.deps.db.query<{ version: number }>(
        `SELECT version FROM events WHERE stream_id = $1 ORDER BY transaction_id, global_position`,
        [streamId],
      )
    ).rows.map((r) => r.version);
  const expectLogInStreamOrder = async (...streamIds: string[]) => {
    for (const streamId of streamIds) {
      const versions = await logOrder(streamId);
      expect(versions, streamId).toEqual(versions.map((_, i) => i + 1));
    }
  };

  /** What every process answers for the appointment and its lead. */
  const readBack = async (citaId: string, leadId: string) =>
    Promise.all(
      [0, 1].map(async (i) => {
        const cita = await as('gerente@vitrina.demo', i).get(citaUrl(citaId));
        const lead = await as('gerente@vitrina.demo', i).get(leadUrl(leadId));
        expect(cita.status).toBe(200);
        expect(lead.status).toBe(200);
        return {
          idAsesor: cita.json.idAsesor as string,
          asistencia: cita.json.asistencia as string,
          idVendedor: lead.json.idVendedor as string,
        };
      }),
    );

  /**
   * The walk-in's hand-overs are whole: one `LeadAssigned` (from the appointment's previous
   * adviser to its new one, naming it) in the transaction of each `AppointmentReassigned`, after
   * the booking's; every answered reassignment's own title is in the log once, and the adviser
   * after its transaction is the one it answered; both processes read the final adviser on the
   * appointment and on the lead, and the lead's history (HTTP) chains to it.
   */
  const expectHandedOver = async (citaId: string, leadId: string, answers: Answer[][]) => {
    const cita = await logOf(appointmentStream(corp, citaId));
    const lead = await logOf(leadStream(corp, leadId));
    const reassigned = cita.filter((e) => e.type === 'AppointmentReassigned');
    const assigned = lead.filter((e) => e.type === 'LeadAssigned');
    const booked = cita[0]!;
    expect(booked.type).toBe('AppointmentScheduled');
    expect(assigned[0]!).toMatchObject({
      tx: booked.tx,
      data: { from: ids['hostess@vitrina.demo'], to: booked.data.cita.idAsesor, idCita: citaId },
    });
    expect(assigned.slice(1).map((e) => ({ tx: e.tx, ...e.data }))).toEqual(
      reassigned.map((e) =>
        expect.objectContaining({
          tx: e.tx,
          from: e.data.anterior,
          to: e.data.idAsesor,
          idCita: citaId,
        }),
      ),
    );
    let adviser = booked.data.cita.idAsesor as string;
    for (const e of reassigned) {
      expect(e.data.anterior).toBe(adviser);
      adviser = e.data.idAsesor;
    }
    // The adviser after each transaction, and the transaction of each title.
    const adviserAfter = new Map<string, string>();
    const titled = new Map<string, string[]>();
    let current = booked.data.cita.idAsesor as string;
    for (const e of cita) {
      if (e.type === 'AppointmentReassigned') current = e.data.idAsesor;
      if (e.type === 'AppointmentDetailsChanged' && typeof e.data.changes.titulo === 'string')
        titled.set(e.data.changes.titulo, [...(titled.get(e.data.changes.titulo) ?? []), e.tx]);
      adviserAfter.set(e.tx, current);
    }
    for (const a of answers.flat().filter((x) => x.status === 200)) {
      const title = a.sent.titulo as string;
      expect(a.json.idAsesor).toBe(a.sent.idAsesor);
      expect(a.json.titulo).toBe(title);
      expect(titled.get(title), title).toHaveLength(1);
      expect(adviserAfter.get(titled.get(title)![0]!), title).toBe(a.sent.idAsesor);
    }
    for (const txs of titled.values()) expect(txs).toHaveLength(1);
    for (const read of await readBack(citaId, leadId))
      expect(read).toMatchObject({ idAsesor: adviser, idVendedor: adviser });
    await expectLogInStreamOrder(appointmentStream(corp, citaId), leadStream(corp, leadId));
    const history = await as('gerente@vitrina.demo', 1).get(
      `/api/wsObtenerHistorialCambios?idCorporativo=${corp}&idLead=${leadId}`,
    );
    expect(history.status).toBe(200);
    const changes = (history.json as { campo: string; anterior: string; nuevo: string }[])
      .filter((h) => h.campo === 'idVendedor')
      .reverse();
    // The registration's entry (no adviser before), then every hand-over in the log.
    expect(changes.map((h) => [h.anterior, h.nuevo])).toEqual([
      [null, ids['hostess@vitrina.demo']],
      ...assigned.map((e) => [e.data.from, e.data.to]),
    ]);
    return adviser;
  };

  it("20 concurrent reassignments of a walk-in's appointment through both processes: the client follows each one, also with one process killed mid-way", async () => {
    const walkIn = await newLead('hostess@vitrina.demo', 'Visita Relevo');
    const booked = await book(walkIn, ids['asesor@vitrina.demo'], 3, 1);
    expect(booked.status, JSON.stringify(booked.json)).toBe(201);
    const citaId = booked.json.id as string;
    const advisers = [
      ids['asesor2@vitrina.demo'],
      ids['gerente@vitrina.demo'],
      ids['asesor@vitrina.demo'],
    ];
    const round = (label: string) =>
      Array.from({ length: 20 }, (_, i) => ({
        idAsesor: advisers[i % advisers.length]!,
        titulo: `Relevo ${label} ${i} ${run}`,
      }));

    const first = await concurrentPuts(citaId, round('a'));
    expectDefined(first, false);
    await expectHandedOver(citaId, walkIn, [first]);

    const second = await concurrentPuts(citaId, round('b'), true);
    expectDefined(second, true);
    const final = await expectHandedOver(citaId, walkIn, [first, second]);
    // The hand-overs followed the appointment: the adviser it now has is the client's.
    expect(advisers).toContain(final);
  }, 120_000);

  it('20 concurrent attendance marks through both processes: one final state, read the same from both, also with one process killed mid-way', async () => {
    const idLead = await newLead('asesor@vitrina.demo', 'Visita Asistencia');
    const booked = await book(idLead, ids['asesor@vitrina.demo'], 1);
    expect(booked.status, JSON.stringify(booked.json)).toBe(201);
    const citaId = booked.json.id as string;
    const events = () => logOf(appointmentStream(corp, citaId));

    // Before its start a no-show cannot have happened, through either process: nothing written.
    const early = await concurrentPuts(citaId, [
      { asistencia: 'no_asistio' },
      { asistencia: 'no_asistio' },
    ]);
    for (const a of early) {
      expect(a.status).toBe(409);
      expect(a.json).toEqual([
        expect.objectContaining({ errorCode: 'ATTENDANCE_TOO_EARLY', message: expect.any(String) }),
      ]);
    }
    expect(await events()).toHaveLength(1);

    await advanceAll(2 * HOUR);
    // Arrival and no-show, each mark also sent twice in a row.
    const marks = Array.from({ length: 20 }, (_, i) => ({
      asistencia: Math.floor(i / 2) % 2 === 0 ? 'asistio' : 'no_asistio',
    }));
    const expectOneState = async (answers: Answer[], killed: boolean) => {
      expectDefined(answers, killed);
      for (const a of answers.filter((x) => x.status === 200))
        expect(a.json.asistencia).toBe(a.sent.asistencia);
      const marked = (await events()).filter((e) => e.type === 'AppointmentAttendanceMarked');
      // A mark equal to the current one writes nothing: the marks alternate.
      for (let i = 1; i < marked.length; i++)
        expect(marked[i]!.data.asistencia).not.toBe(marked[i - 1]!.data.asistencia);
      const answered = new Set(
        answers.filter((a) => a.status === 200).map((a) => a.sent.asistencia),
      );
      for (const value of answered) expect(marked.map((e) => e.data.asistencia)).toContain(value);
      const last = marked.at(-1)!.data.asistencia as string;
      for (const read of await readBack(citaId, idLead)) expect(read.asistencia).toBe(last);
      return last;
    };

    const first = await concurrentPuts(citaId, marks);
    expect(first.some((a) => a.status === 200)).toBe(true);
    await expectOneState(first, false);
    const second = await concurrentPuts(citaId, marks, true);
    await expectOneState(second, true);
    // The restarted process's clock is where the others are: a mark through it is allowed.
    const again = await as('hostess@vitrina.demo', 1).put(citaUrl(citaId), {
      asistencia: 'asistio',
    });
    expect(again.status, JSON.stringify(again.json)).toBe(200);
    expect(
      await expectOneState([{ ...again, server: 1, sent: { asistencia: 'asistio' } }], false),
    ).toBe('asistio');
  }, 120_000);

  it("an adviser's own client booked with other advisers at once from both processes stays theirs; a walk-in booked so goes to one adviser, once", async () => {
    const own = await newLead('asesor@vitrina.demo', 'Cliente Propio');
    const walkIn = await newLead('hostess@vitrina.demo', 'Visita Simultanea');
    const others = [ids['asesor2@vitrina.demo'], ids['gerente@vitrina.demo']];
    const everyone = [...others, ids['asesor@vitrina.demo']];
    const bookings = await Promise.all([
      ...Array.from({ length: 10 }, (_, i) => book(own, others[i % 2]!, 4 + i, i)),
      ...Array.from({ length: 10 }, (_, i) => book(walkIn, everyone[i % 3]!, 4 + i, i)),
    ]);
    for (const b of bookings) expect(b.status, JSON.stringify(b.json)).toBe(201);
    // Every appointment of the own client moves to the other of the two, at once.
    const moves = await Promise.all(
      bookings.slice(0, 10).map((b, i) =>
        as('hostess@vitrina.demo', i + 1).put(citaUrl(b.json.id), {
          idAsesor: others[(i + 1) % 2],
        }),
      ),
    );
    for (const m of moves) expect(m.status, JSON.stringify(m.json)).toBe(200);

    for (const i of [0, 1]) {
      const read = await as('gerente@vitrina.demo', i).get(leadUrl(own));
      expect(read.json.idVendedor).toBe(ids['asesor@vitrina.demo']);
      expect((await as('asesor@vitrina.demo', i).get(leadUrl(own))).status).toBe(200);
    }
    expect((await logOf(leadStream(corp, own))).filter((e) => e.type === 'LeadAssigned')).toEqual(
      [],
    );

    const handed = (await logOf(leadStream(corp, walkIn))).filter((e) => e.type === 'LeadAssigned');
    expect(handed).toHaveLength(1);
    const by = bookings.slice(10).find((b) => b.json.id === handed[0]!.data.idCita);
    expect(by, 'the hand-over names one of the bookings').toBeDefined();
    expect(handed[0]!.data).toMatchObject({
      from: ids['hostess@vitrina.demo'],
      to: by!.json.idAsesor,
    });
    for (const i of [0, 1])
      expect((await as('gerente@vitrina.demo', i).get(leadUrl(walkIn))).json.idVendedor).toBe(
        by!.json.idAsesor,
      );
  }, 120_000);

  it('the host takes the client back while its appointment moves, from both processes: the log holds each stream in its order', async () => {
    // Moving the appointment locks it first and the client second; taking the client back locks
    // only the client. Every reader of the log (store:rebuild among them) must meet the client's
    // events in the order they were decided, or it ends with another adviser than the live one.
    const walkIn = await newLead('hostess@vitrina.demo', 'Visita Devuelta');
    const booked = await book(walkIn, ids['asesor@vitrina.demo'], 5, 1);
    expect(booked.status, JSON.stringify(booked.json)).toBe(201);
    const citaId = booked.json.id as string;
    const advisers = [
      ids['asesor2@vitrina.demo'],
      ids['gerente@vitrina.demo'],
      ids['asesor@vitrina.demo'],
    ];
    for (let round = 0; round < 10; round++) {
      const answers = await Promise.all([
        ...[0, 1, 2, 3].map((i) =>
          as('hostess@vitrina.demo', i).put(citaUrl(citaId), {
            idAsesor: advisers[(round + i) % advisers.length],
          }),
        ),
        ...[0, 1, 2, 3].map((i) =>
          as('gerente@vitrina.demo', i + 1).post(`${leadUrl(walkIn)}/asignar`, {
            idVendedor: ids['hostess@vitrina.demo'],
          }),
        ),
      ]);
      expectDefined(
        answers.map((a, i) => ({ ...a, server: i % 2, sent: {} })),
        false,
      );
    }
    await expectLogInStreamOrder(appointmentStream(corp, citaId), leadStream(corp, walkIn));
    const live = (await readBack(citaId, walkIn))[0]!.idVendedor;
    const assigned = (await logOf(leadStream(corp, walkIn))).filter(
      (e) => e.type === 'LeadAssigned',
    );
    expect(assigned.at(-1)!.data.to).toBe(live);
  }, 120_000);

  it('the read models equal a rebuild from the log (store:verify)', async () => {
    const comparison = await verifyProjections(runtime.deps.store);
    expect(comparison.differences, formatComparison(comparison)).toBe(0);
  }, 120_000);
});
