/**
 * Two real server processes on one PostgreSQL database, as production runs them: concurrent
 * changes of one unit from both decide on the unit's current state under its lock, so each
 * version has one winner and the unit's history chains (every "from" is the previous "to"),
 * across a kill -9 and restart of one process.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import {
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

describeBackends('two server processes', (backend) => {
  if (backend.name !== 'postgres') {
    it('needs PostgreSQL (PGlite is one process by design)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    servers = await Promise.all(
      [0, 1].map(() =>
        startServerProcess(runtime.databaseUrl!, { VITRINA_SECRET: 'two-processes-test' }),
      ),
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServerProcess));
    await runtime?.dispose();
  });

  it('20 concurrent status changes of one unit: one winner per version, a chained history, also after a kill -9 and restart', async () => {
    const cookie = await login(remoteApp(servers[0]!), 'admin@vitrina.demo');
    const admins = () => servers.map((s) => client(remoteApp(s), cookie));
    const corp = (await admins()[0]!.get('/api/wsObtenerCorporativos')).json.find(
      (c: { slug: string }) => c.slug === 'grupo-horizonte',
    );
    const { rows } = await runtime.deps.db.query<{ id: string }>(
      "SELECT id FROM rm_units WHERE corporate_id = $1 AND doc->>'status' = 'Disponible' ORDER BY id LIMIT 1",
      [corp.id],
    );
    const unitId = rows[0]!.id;
    const path = `/api/corporativos/${corp.id}/unidades/${unitId}/status`;
    const targets = ['Apartado', 'Vendido', 'Reservado', 'Bloqueado'];

    const round = async (seen: string) => {
      // Each request changes the status it saw to another one (asking for the status the unit
      // already has is a no-op that succeeds, whenever it lands).
      const others = targets.filter((t) => t !== seen);
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          admins()[i % 2]!.put(path, { status: others[i % others.length]!, statusAnterior: seen }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s !== 200 && s !== 409),
        JSON.stringify(answers.find((a) => a.status !== 200 && a.status !== 409)?.json),
      ).toEqual([]);
      const winners = answers.filter((a) => a.status === 200);
      // Every 200 names the same final status: the winner's (a repeat of it changes nothing).
      const final = winners[0]!.json.status as string;
      expect(winners.every((w) => w.json.status === final)).toBe(true);
      for (const lost of answers.filter((a) => a.status === 409))
        expect(lost.json[0].unidad.status).toBe(final);
      return final;
    };

    const first = await round('Disponible');
    // One of the processes dies mid-life and comes back.
    await stopServerProcess(servers[1]);
    servers[1] = await startServerProcess(runtime.databaseUrl!, {
      VITRINA_SECRET: 'two-processes-test',
    });
    const second = await round(first);
    expect(second).not.toBe(first);

    const events = await runtime.deps.store.readStream(`unit:${corp.id}:${unitId}`);
    const changes = events
      .filter((e) => e.type === 'UnitStatusChanged')
      .map((e) => e.data as { from: string; to: string });
    expect(changes).toHaveLength(2);
    expect(changes[0]!.from).toBe('Disponible');
    for (let i = 1; i < changes.length; i++) expect(changes[i]!.from).toBe(changes[i - 1]!.to);
    const doc = (
      await runtime.deps.db.query<{ doc: { status: string } }>(
        'SELECT doc FROM rm_units WHERE id = $1',
        [unitId],
      )
    ).rows[0]!.doc;
    expect(doc.status).toBe(second);
  }, 120_000);
});
