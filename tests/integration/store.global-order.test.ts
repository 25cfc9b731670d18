import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Db } from '../../src/server/store/db';
import type { AppendRequest, StoredEvent } from '../../src/server/store/event-store';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

/**
 * The global reader and the rebuild over a log whose transaction ids cross digit boundaries
 * (issue 12: ordering by the text of the xid sorted 10000 before 5851, and a rebuild past 10,000
 * transactions silently dropped most of the log).
 *
 * Transaction ids are burnt with a DO block that commits in a loop (one xid per iteration; about
 * 5 µs each on both backends here, so crossing 100,000 costs well under a second).
 * - PGlite: every test store is a fresh cluster starting near xid 750, so the log always crosses
 *   10,000 and 100,000.
 * - PostgreSQL: xids are cluster-wide and only grow, so the test crosses every power of ten that
 *   lies within {@link PG_BURN_BUDGET} ids of the cluster's counter: 10,000 and 100,000 on a fresh
 *   cluster (CI), then 1,000,000 on a developer's. When no boundary is within the budget (a
 *   long-lived cluster past 1,000,000) the crossing is skipped with a visible warning outside CI
 *   and is a failure in CI; the paging, exactly-once and rebuild checks run either way.
 */
/**
 * How many ids a PostgreSQL run may burn (about 9 µs each) to reach the next digit boundary. A
 * cluster that earlier runs left just past 1,000,000 needs ~9 M to reach 10,000,000: in CI that is
 * spent (~1.5 min), so the crossing does not depend on what the machine's cluster did before.
 */
const PG_BURN_BUDGET = BigInt(
  process.env.VITRINA_TEST_XID_BUDGET ??
    (process.env.CI === 'true' || process.env.CI === '1' ? 10_000_000 : 2_000_000),
);

/** The next transaction id the cluster will assign (reading it assigns none). */
async function nextXid(db: Db): Promise<bigint> {
  const { rows } = await db.query<{ x: string }>(
    'SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS x',
  );
  return BigInt(rows[0]!.x);
}

/**
 * Burns transaction ids until the next one assigned is at least `target`. On PostgreSQL other
 * databases (tests running beside this one) take ids meanwhile, so the gap is closed in steps
 * that shrink near the target, re-reading where the cluster is: a single burn of 9 M ids landed
 * 300 past a boundary it meant to stop 40 short of.
 */
async function burnTo(db: Db, target: bigint): Promise<bigint> {
  let burnt = 0n;
  for (;;) {
    const current = await nextXid(db);
    if (current >= target) return burnt;
    const gap = target - current;
    const n = gap > 20_000n ? gap - 10_000n : gap > 500n ? 500n : gap;
    await db.exec(
      `DO $$ BEGIN FOR i IN 1..${n} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`,
    );
    burnt += n;
  }
}

function boundariesFor(backend: Backend['name'], start: bigint): bigint[] {
  if (backend === 'pglite') return [10_000n, 100_000n].filter((b) => b > start);
  const out: bigint[] = [];
  for (let b = 10n; b < start + PG_BURN_BUDGET; b *= 10n) if (b > start) out.push(b);
  return out;
}

describeBackends('global reader and rebuild across transaction-id digit boundaries', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  const crossed: bigint[] = [];
  /** Counts of events appended by this test (besides the seed), for the size assertions. */
  let appendedEvents = 0;

  beforeAll(async () => {
    const started = Date.now();
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    const db = rt.deps.db;
    const asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    const corp = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json as {
      id: string;
    };
    const alameda = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
    ).json as { id: string; esquemasPago: { id: string; nombre: string; idCluster?: string }[] };
    const contado = alameda.esquemasPago.find((s) => s.nombre === 'Contado' && !s.idCluster)!;
    const quotable = (
      await db.query<{ id: string }>(
        `SELECT id FROM rm_units WHERE development_id = $1 AND doc->>'status' = 'Disponible' ORDER BY id LIMIT 40`,
        [alameda.id],
      )
    ).rows.map((r) => r.id);
    // Units of the other corporate take the bulk of the changes: the order of their status and
    // price changes decides what the read model ends with, so a rebuild in another order differs.
    const churn = (
      await db.query<{ id: string; corporate_id: string }>(
        `SELECT id, corporate_id FROM rm_units
          WHERE corporate_id <> $1 ORDER BY id LIMIT 40`,
        [corp.id],
      )
    ).rows;
    const statuses = ['Disponible', 'Apartado', 'Vendido', 'Bloqueado', 'Reservado'];
    let tick = 0;
    const at = () => new Date(Date.UTC(2026, 10, 23, 12, 0, 0) + ++tick * 1000);

    /** One transaction of 1 to 12 status or price changes over a few units. */
    const churnOnce = async (i: number) => {
      const size = 1 + (i % 12);
      const requests: AppendRequest[] = [];
      for (let k = 0; k < size; k++) {
        const unit = churn[(i * 7 + k * 13) % churn.length]!;
        const price = k % 3 === 2;
        requests.push({
          streamId: `unit:${unit.corporate_id}:${unit.id}`,
          expectedVersion: 'any',
          events: [
            {
              id: randomUUID(),
              type: price ? 'UnitPriceChanged' : 'UnitStatusChanged',
              data: price
                ? { idUnidad: unit.id, from: 0, to: 1_000_000 + i * 10 + k }
                : { idUnidad: unit.id, from: null, to: statuses[(i + k) % statuses.length] },
              corporateId: unit.corporate_id,
              actorId: 'test',
              occurredAt: at(),
            },
          ],
        });
      }
      // Requests on one stream must not repeat within a batch: merge them.
      const merged = new Map<string, AppendRequest>();
      for (const r of requests) {
        const prior = merged.get(r.streamId);
        merged.set(r.streamId, prior ? { ...prior, events: [...prior.events, ...r.events] } : r);
      }
      await rt.deps.store.appendMany([...merged.values()]);
      appendedEvents += size;
    };

    /** A lead's life through the API: registered, a note, a quotation made favourite, shared twice, one link revoked. */
    let story = 0;
    const leadStory = async () => {
      story += 1;
      const base = `/api/corporativos/${corp.id}`;
      const lead = await asesor.post(`${base}/leads`, {
        nombre: `Cliente ${story}`,
        apellidos: 'Frontera',
        email: `frontera${story}@example.com`,
        telefono: `55 2000 ${String(1000 + story)}`,
        medioContacto: 'Showroom',
      });
      expect(lead.status, JSON.stringify(lead.json)).toBe(201);
      const leadId = lead.json.id as string;
      expect(
        (await asesor.post(`${base}/leads/${leadId}/notas`, { nota: `n${story}` })).status,
      ).toBe(201);
      const q = await asesor.post(`${base}/cotizaciones`, {
        idUnidad: quotable[story % quotable.length],
        idEsquema: contado.id,
        divisa: 'MXN',
        idLead: leadId,
      });
      expect(q.status, JSON.stringify(q.json)).toBe(201);
      const qid = q.json.id as string;
      expect((await asesor.put(`${base}/cotizaciones/${qid}/favorito`)).status).toBe(200);
      expect((await asesor.post(`${base}/cotizaciones/${qid}/compartir`)).status).toBe(201);
      expect((await asesor.post(`${base}/cotizaciones/${qid}/compartir`)).status).toBe(201);
      const links = (await asesor.get(`${base}/cotizaciones/${qid}/compartidos`)).json as {
        nonce: string;
      }[];
      expect(
        (await asesor.del(`${base}/cotizaciones/${qid}/compartidos/${links[0]!.nonce}`)).status,
      ).toBe(200);
    };

    const activity = async (transactions: number) => {
      for (let i = 0; i < transactions; i++) {
        if (i % 40 === 20) await leadStory();
        else await churnOnce(i + tick);
      }
    };

    await activity(150);
    const start = await nextXid(db);
    const targets = boundariesFor(backend.name, start);
    if (targets.length === 0) {
      const text = `[${backend.name}] the cluster's next xid is ${start}: no digit boundary within ${PG_BURN_BUDGET} ids, so this run does not cross one`;
      // A cluster already past 10 M (a long-used machine) cannot reach 100 M in a test run: the
      // crossing is then left to PGlite and fresh clusters, rather than failing on machine state.
      console.warn(`\n!!! ${text}; reader order and rebuild are checked without it.\n`);
      await activity(180);
    }
    for (const boundary of targets) {
      const t = Date.now();
      const before = await nextXid(db);
      const burnt = await burnTo(db, boundary - 40n);
      const ms = Date.now() - t;
      console.log(
        `[xid burn, ${backend.name}] ${burnt} ids from ${before} to ${await nextXid(db)} in ${ms} ms (${burnt > 0n ? ((ms * 1000) / Number(burnt)).toFixed(1) : '-'} µs/id), then activity across ${boundary}`,
      );
      // About 90 transactions: some land below the boundary, the rest above it.
      await activity(90);
      crossed.push(boundary);
    }
    await activity(150);
    console.log(`[${backend.name}] log built in ${Date.now() - started} ms`);
  }, 600_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  const logOrder = async () => {
    const { rows } = await rt.deps.db.query<{ id: string; x: string; p: string }>(
      'SELECT id::text AS id, transaction_id::text AS x, global_position::text AS p FROM events',
    );
    // Sorted here, numerically, not by the database: the order under test is the expectation.
    return rows
      .map((r) => ({ id: r.id, x: BigInt(r.x), p: BigInt(r.p) }))
      .sort((a, b) => (a.x === b.x ? (a.p < b.p ? -1 : 1) : a.x < b.x ? -1 : 1));
  };

  it('the log crosses the boundaries it burnt to and spans several pages', async () => {
    const log = await logOrder();
    expect(appendedEvents).toBeGreaterThan(2000);
    expect(log.length).toBeGreaterThan(3000);
    for (const boundary of crossed) {
      expect(log.filter((e) => e.x < boundary).length, `events below ${boundary}`).toBeGreaterThan(
        100,
      );
      expect(log.filter((e) => e.x >= boundary).length, `events from ${boundary}`).toBeGreaterThan(
        100,
      );
      // Transactions right on both sides of the boundary, where text order turns around.
      expect(log.some((e) => e.x < boundary && e.x >= boundary - 100n)).toBe(true);
      expect(log.some((e) => e.x >= boundary && e.x < boundary + 200n)).toBe(true);
    }
    if (backend.name === 'pglite') expect(crossed).toEqual([10_000n, 100_000n]);
  });

  it('readAll pages of 1000 give every event exactly once, in (numeric xid, position) order', async () => {
    const expected = (await logOrder()).map((e) => e.id);
    // PostgreSQL's horizon is cluster-wide: other test files' open transactions hold the reader
    // back for a moment, so read until the whole log is through (or 60 s pass).
    const deadline = Date.now() + 60_000;
    let read: StoredEvent[] = [];
    let pages = 0;
    for (;;) {
      read = [];
      pages = 0;
      let checkpoint = null;
      for (;;) {
        const page = await rt.deps.store.readAll(checkpoint);
        pages += 1;
        read.push(...page.events);
        checkpoint = page.checkpoint;
        if (page.events.length < 1000) break;
      }
      // Only a reader that is merely behind (a prefix of the log, in order) is worth waiting for.
      const behind = read.length < expected.length && read.every((e, i) => e.id === expected[i]);
      if (!behind || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(pages).toBeGreaterThanOrEqual(4);
    const ids = read.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(expected.length);
    const firstDifference = ids.findIndex((id, i) => id !== expected[i]);
    expect(firstDifference, 'first event out of order').toBe(-1);
  });

  // On PGlite the rebuild took 75 s in a CI run on a busy machine (the default is 60 s).
  it('the rebuild replays count(*) events and reproduces every rm_* table row for row', async () => {
    const db = rt.deps.db;
    const tables = (
      await db.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
          WHERE table_schema = current_schema() AND table_name LIKE 'rm\\_%' ORDER BY table_name`,
      )
    ).rows.map((r) => r.table_name);
    const owned = rt.deps.store.projectionTables();
    expect([...owned].sort(), 'every rm_* table belongs to a projection').toEqual(tables);

    const snapshot = async () => {
      const out: Record<string, string[]> = {};
      for (const t of tables) {
        const { rows } = await db.query<{ r: string }>(`SELECT to_jsonb(t)::text AS r FROM ${t} t`);
        out[t] = rows.map((row) => row.r).sort();
      }
      return out;
    };
    const live = await snapshot();
    for (const t of [
      'rm_units',
      'rm_leads',
      'rm_lead_notes',
      'rm_quotations',
      'rm_quotation_shares',
    ])
      expect(live[t]!.length, t).toBeGreaterThan(0);
    const total = Number(
      (await db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n,
    );
    const t = Date.now();
    const replayed = await rt.deps.store.rebuildProjections();
    console.log(`[${backend.name}] rebuild of ${replayed} events in ${Date.now() - t} ms`);
    expect(replayed).toBe(total);
    const rebuilt = await snapshot();
    for (const table of tables) {
      const a = new Set(live[table]);
      const b = new Set(rebuilt[table]);
      const onlyLive = live[table]!.filter((r) => !b.has(r));
      const onlyRebuilt = rebuilt[table]!.filter((r) => !a.has(r));
      expect(
        { table, onlyLive: onlyLive.slice(0, 3), onlyRebuilt: onlyRebuilt.slice(0, 3) },
        `${table}: ${onlyLive.length} rows only live, ${onlyRebuilt.length} only rebuilt`,
      ).toEqual({ table, onlyLive: [], onlyRebuilt: [] });
      expect(rebuilt[table]!.length).toBe(live[table]!.length);
    }
  }, 240_000);
});
