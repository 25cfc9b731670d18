/**
 * A database connection lost under a request (PostgreSQL restarted, an operator's
 * `pg_terminate_backend`, a failover): an outside probe found requests in flight answered
 * 500 INTERNAL "contact support". Now (store/db.ts, store/command-handler.ts, http/errors.ts):
 * - a transaction lost before its COMMIT was rolled back by PostgreSQL, so a command runs again
 *   on another connection and the caller gets its real answer;
 * - a read outside a transaction is sent once more on another connection;
 * - what is left (a COMMIT whose answer was lost, a write outside a transaction, a database
 *   that stays away) is 503 SERVICE_UNAVAILABLE with Retry-After, in the spec's shape.
 * PostgreSQL only: PGlite runs in the process and has no connection to lose.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { handleError } from '../../src/server/http/errors';
import { runCommand } from '../../src/server/store/command-handler';
import { ConnectionLostError, isConnectionLost } from '../../src/server/store/db';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { adviserWithNewLead } from './support/http';

describeBackends('a lost database connection', (backend: Backend) => {
  if (backend.name !== 'postgres') {
    it('does not apply to the embedded store (no connection to lose)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let databaseUrl: string;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    databaseUrl = rt.databaseUrl!;
    expect(databaseUrl).toMatch(/^postgres/);
  }, 120_000);
  afterAll(async () => {
    await rt?.dispose();
  });

  /** Ends every other connection to the test's database, as an operator would. */
  const terminateAll = async () => {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      const r = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return r.rowCount ?? 0;
    } finally {
      await admin.end();
    }
  };

  it('a transaction whose connection is lost before COMMIT says so; runCommand runs it again and succeeds', async () => {
    const db = rt.deps.db;
    const lost = await db
      .transaction(async (tx) => {
        await tx.query('SELECT pg_terminate_backend(pg_backend_pid())');
      })
      .catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(ConnectionLostError);
    expect((lost as ConnectionLostError).beforeCommit).toBe(true);
    expect(isConnectionLost(lost)).toBe(true);
    // A refused statement is not a lost connection.
    const refused = await db.query('SELECT * FROM no_such_table').catch((e: unknown) => e);
    expect(isConnectionLost(refused)).toBe(false);

    let attempts = 0;
    const result = await runCommand(
      { store: rt.deps.store, clock: () => new Date(), newId: randomUUID },
      { actorId: null, corporateId: null },
      async (scope) => {
        attempts += 1;
        // The first attempt's connection is ended under it.
        if (attempts === 1) await scope.query('SELECT pg_terminate_backend(pg_backend_pid())');
        const { rows } = await scope.query<{ n: number }>('SELECT 41 + 1 AS n');
        return rows[0]!.n;
      },
    );
    expect(result).toBe(42);
    expect(attempts).toBe(2);
  });

  it('a read after every connection was ended answers (sent again on a new connection)', async () => {
    const db = rt.deps.db;
    await Promise.all(Array.from({ length: 6 }, () => db.query('SELECT pg_sleep(0.01)')));
    expect(await terminateAll()).toBeGreaterThan(0);
    const { rows } = await db.query<{ n: number }>('SELECT $1::int AS n', [7]);
    expect(rows).toEqual([{ n: 7 }]);
  });

  it('what cannot be run again is 503 SERVICE_UNAVAILABLE with Retry-After, in the spec’s shape and language', async () => {
    const probe = new Hono();
    probe.onError(handleError);
    probe.get('/commit-lost', () => {
      throw new ConnectionLostError(false, new Error('Connection terminated unexpectedly'));
    });
    for (const [language, text] of [
      ['es', /no está disponible/],
      ['en', /unavailable/],
    ] as const) {
      const res = await probe.request('/commit-lost', { headers: { 'accept-language': language } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      const body = (await res.json()) as { errorCode: string; message: string }[];
      expect(body).toEqual([
        { errorCode: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(text) },
      ]);
    }
  });

  it('20 clients writing and reading while every connection is ended three times: never a 500, every 201 saved', async () => {
    const { asesor, corp, leadsUrl, lead } = await adviserWithNewLead(app, 'Conexión');
    const answers: { status: number; body: unknown; retryAfter: string | null; nota?: string }[] =
      [];
    let stop = false;
    const clientLoop = async (i: number) => {
      for (let n = 0; !stop; n++) {
        if ((i + n) % 2 === 0) {
          const nota = `nota ${i}-${n}`;
          const res = await asesor.post(`${leadsUrl}/${lead.id}/notas`, { nota });
          answers.push({
            status: res.status,
            body: res.json,
            retryAfter: res.headers.get('retry-after'),
            nota,
          });
        } else {
          const res = await asesor.get(`/api/wsObtenerLeads?idCorporativo=${corp}`);
          answers.push({
            status: res.status,
            body: res.json,
            retryAfter: res.headers.get('retry-after'),
          });
        }
      }
    };
    const clients = Array.from({ length: 20 }, (_, i) => clientLoop(i));
    for (let k = 0; k < 3; k++) {
      await new Promise((r) => setTimeout(r, 300));
      await terminateAll();
    }
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(clients);

    expect(answers.length).toBeGreaterThan(40);
    const statuses = new Set(answers.map((a) => a.status));
    for (const status of statuses)
      expect([200, 201, 503], JSON.stringify(answers.find((a) => a.status === status))).toContain(
        status,
      );
    for (const a of answers.filter((x) => x.status === 503)) {
      expect(a.retryAfter).toBe('1');
      expect(a.body).toEqual([{ errorCode: 'SERVICE_UNAVAILABLE', message: expect.any(String) }]);
    }
    // Every note answered 201 is there.
    const saved = new Set(
      ((await asesor.get(`${leadsUrl}/${lead.id}/notas`)).json as { nota: string }[]).map(
        (n) => n.nota,
      ),
    );
    const created = answers.filter((a) => a.status === 201).map((a) => a.nota!);
    expect(created.length).toBeGreaterThan(0);
    expect(created.filter((nota) => !saved.has(nota))).toEqual([]);
    // And afterwards every call answers as usual.
    expect((await asesor.post(`${leadsUrl}/${lead.id}/notas`, { nota: 'después' })).status).toBe(
      201,
    );
    expect((await asesor.get(`/api/wsObtenerLeads?idCorporativo=${corp}`)).status).toBe(200);
  }, 60_000);
});
