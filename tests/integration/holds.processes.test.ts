/**
 * Holds that expire with two real server processes on one PostgreSQL database (issue 12 point
 * 6): each hold is released by its timer exactly once, whichever process fires it, and a hold
 * whose time passed while no server ran is released once after they start again. The
 * corporate's hold time is set to a few seconds so real time can pass it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Unit } from '../../src/core/types';
import { streams } from '../../src/server/catalogue/events';
import { unitHoldTimerKey } from '../../src/server/inventory/hold-expiry';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import {
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

const HOLD_SECONDS = 6;

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

describeBackends('holds that expire, two server processes', (backend) => {
  if (backend.name !== 'postgres') {
    it('needs PostgreSQL (PGlite is one process by design)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let servers: ServerProcess[] = [];
  let corp: string;
  let units: Unit[];

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    const { db, store } = runtime.deps;
    const corporates = await db.query<{ id: string }>(
      "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
    );
    corp = corporates.rows[0]!.id;
    const stream = streams.corporate(corp);
    await store.appendMany([
      {
        streamId: stream,
        expectedVersion: await store.streamVersion(stream),
        events: [
          {
            id: randomUUID(),
            type: 'CorporateSettingsChanged',
            data: { changes: { horasApartado: HOLD_SECONDS / 3600 } },
            corporateId: corp,
            occurredAt: new Date(),
          },
        ],
      },
    ]);
    const { rows } = await db.query<{ doc: Unit }>(
      "SELECT doc FROM rm_units WHERE corporate_id = $1 AND doc->>'status' = 'Disponible' ORDER BY id LIMIT 20",
      [corp],
    );
    units = rows.map((r) => r.doc);
    servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess(runtime.databaseUrl!, {
          VITRINA_SECRET: 'holds-processes-test',
          VITRINA_WORK_POLL_MS: '100',
        }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServerProcess));
    await runtime?.dispose();
  });

  const statusOf = async (ids: string[]) =>
    (
      await runtime.deps.db.query<{ status: string }>(
        "SELECT doc->>'status' AS status FROM rm_units WHERE id = ANY($1::text[])",
        [ids],
      )
    ).rows.map((r) => r.status);

  const hold = async (batch: Unit[]) => {
    const sessions = await Promise.all(
      servers.map(async (s) =>
        client(remoteApp(s), await login(remoteApp(s), 'asesor@vitrina.demo')),
      ),
    );
    await Promise.all(
      batch.map(async (unit, i) => {
        const who = sessions[i % 2]!;
        const lead = await who.post(`/api/corporativos/${corp}/leads`, {
          nombre: `Cliente ${unit.id}`,
          email: `hold-${unit.id}@example.com`,
          medioContacto: 'Showroom',
        });
        expect(lead.status, JSON.stringify(lead.json)).toBe(201);
        const res = await who.post(`/api/corporativos/${corp}/unidades/${unit.id}/apartado`, {
          idLead: lead.json.id,
          statusAnterior: 'Disponible',
        });
        expect(res.status, JSON.stringify(res.json)).toBe(200);
        expect(res.json.status).toBe('Apartado');
      }),
    );
  };

  const expectReleasedOnce = async (batch: Unit[]) => {
    for (const unit of batch) {
      const events = await runtime.deps.store.readStream(streams.unit(corp, unit.id));
      const released = events.filter((e) => e.type === 'UnitHoldReleased');
      expect(released, unit.id).toHaveLength(1);
      expect(released[0]).toMatchObject({ actorId: null, data: { motivo: 'expired' } });
    }
    const { rows } = await runtime.deps.db.query<{ state: string }>(
      'SELECT state FROM timers WHERE key = ANY($1::text[])',
      [batch.map((u) => unitHoldTimerKey(streams.unit(corp, u.id)))],
    );
    expect(rows.map((r) => r.state)).toEqual(batch.map(() => 'done'));
  };

  it('holds made through both processes expire once each', async () => {
    const batch = units.slice(0, 10);
    await hold(batch);
    const ids = batch.map((u) => u.id);
    await until(
      'every hold released',
      () => statusOf(ids),
      (s) => s.length === ids.length && s.every((x) => x === 'Disponible'),
    );
    // Give both processes time for a second firing, were there one.
    await new Promise((r) => setTimeout(r, 1_000));
    await expectReleasedOnce(batch);
  }, 90_000);

  it('holds whose time passes while no server runs are released once after a restart', async () => {
    const batch = units.slice(10, 16);
    await hold(batch);
    await Promise.all(servers.map(stopServerProcess));
    await new Promise((r) => setTimeout(r, (HOLD_SECONDS + 1) * 1_000));
    const ids = batch.map((u) => u.id);
    expect((await statusOf(ids)).every((s) => s === 'Apartado')).toBe(true);
    servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess(runtime.databaseUrl!, {
          VITRINA_SECRET: 'holds-processes-test',
          VITRINA_WORK_POLL_MS: '100',
        }),
      ),
    );
    await until(
      'every hold released',
      () => statusOf(ids),
      (s) => s.every((x) => x === 'Disponible'),
    );
    await new Promise((r) => setTimeout(r, 1_000));
    await expectReleasedOnce(batch);
  }, 90_000);
});
