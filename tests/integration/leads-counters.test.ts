/**
 * The lead list always paged, its totals from maintained counters (issue 21): `rm_lead_counts`
 * equals a `count(*)` of the live leads after every kind of change, after concurrent creates
 * (two server processes on PostgreSQL) and after a rebuild; pages walked while leads are being
 * created hold no lead twice and miss none; another corporate's leads never show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../src/core/lead';
import { createApp } from '../../src/server/app';
import { recountLeadCounts } from '../../src/server/leads/projection';
import { insertLeadRows } from '../support/lead-rows';
import { LEADS_PAGE_MAX } from '../../src/server/leads/queries';
import { rebuildAndSwap, verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, postgresBackend, type Backend } from './support/backends';
import { client, login, signedIn } from './support/http';
import {
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

type Client = ReturnType<typeof client>;
type Runtime = Awaited<ReturnType<typeof openSeeded>>;

/** The counters as they are, and as a count(*) of the live leads says they should be. */
async function countersAndTruth(rt: Runtime) {
  const order = 'ORDER BY corporate_id, id_vendedor, status, shard';
  const counters = await rt.deps.db.query(
    `SELECT corporate_id, id_vendedor, status, shard, n FROM rm_lead_counts ${order}`,
  );
  const truth = await rt.deps.db.query(
    `SELECT corporate_id, coalesce(id_vendedor, '') AS id_vendedor, coalesce(status, '') AS status,
            right(id, 1) AS shard, count(*)::int AS n
       FROM rm_leads WHERE NOT eliminado GROUP BY 1, 2, 3, 4 ${order}`,
  );
  return { counters: counters.rows, truth: truth.rows };
}

describeBackends('lead list pages and counters', (backend: Backend) => {
  let rt: Runtime;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let pacifico: Client;
  let corp: string;
  let pacificoCorp: string;
  const ids: Record<string, string> = {};
  let seq = 0;

  const newLead = async (who: Client, over: Record<string, unknown> = {}) => {
    seq += 1;
    const res = await who.post(`/api/corporativos/${corp}/leads`, {
      nombre: `Contador ${seq}`,
      email: `contador${seq}@example.com`,
      ...over,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json as Lead;
  };
  const list = (who: Client, query: string) =>
    who.get(`/api/wsObtenerLeads?idCorporativo=${corp}${query}`);
  /** Every lead of a list, page by page. */
  const walk = async (who: Client, query: string, between?: () => Promise<unknown>) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(who, `${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      seen.push(...(res.json as Lead[]).map((l) => l.id));
      cursor = res.headers.get('x-next-cursor');
      await between?.();
    } while (cursor);
    return seen;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    asesor2 = await signedIn(app, 'asesor2@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    pacifico = await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    pacificoCorp = (await pacifico.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json
      .id;
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('keeps the counters equal to count(*) through creates, changes, assignments, deletes and merges, and a rebuild', async () => {
    const a = await newLead(asesor);
    const b = await newLead(asesor, { status: 'contactado' });
    const c = await newLead(gerente, { idVendedor: ids['asesor2@vitrina.demo'] });
    expect(
      (
        await asesor.put(`/api/corporativos/${corp}/leads/${a.id}`, {
          status: 'contactado',
          leadAnterior: a,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await gerente.post(`/api/corporativos/${corp}/leads/${b.id}/asignar`, {
          idVendedor: ids['asesor2@vitrina.demo'],
        })
      ).status,
    ).toBe(200);
    expect((await asesor2.del(`/api/corporativos/${corp}/leads/${c.id}`)).status).toBe(200);
    const d = await newLead(gerente, { email: 'fusion-a@example.com' });
    const e = await newLead(gerente, { email: 'fusion-b@example.com' });
    const merged = await gerente.post(`/api/corporativos/${corp}/leads/${d.id}/merge`, {
      idLeadDuplicado: e.id,
    });
    expect(merged.status, JSON.stringify(merged.json)).toBe(200);

    const { counters, truth } = await countersAndTruth(rt);
    expect(counters).toEqual(truth);
    // A rebuild from the log gives the same counters (no row at 0 left anywhere).
    const comparison = await verifyProjections(rt.deps.store);
    expect(comparison.tables.find((t) => t.table === 'rm_lead_counts')).toMatchObject({
      onlyLive: 0,
      onlyRebuilt: 0,
      changed: 0,
    });
    await rebuildAndSwap(rt.deps.store);
    const after = await countersAndTruth(rt);
    expect(after.counters).toEqual(after.truth);
  });

  it('answers the totals from the counters: scope, adviser and status', async () => {
    const truth = async (where: string, params: unknown[]) =>
      (
        await rt.deps.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado ${where}`,
          [corp, ...params],
        )
      ).rows[0]!.n;
    const total = async (who: Client, query: string) =>
      Number((await list(who, `${query}&limit=1`)).headers.get('x-total-count'));
    expect(await total(gerente, '')).toBe(await truth('', []));
    const own = ids['asesor@vitrina.demo']!;
    expect(await total(asesor, '')).toBe(await truth('AND id_vendedor = $2', [own]));
    expect(await total(gerente, '&status=contactado')).toBe(
      await truth('AND status = $2', ['contactado']),
    );
    expect(await total(gerente, `&idVendedor=${own}&status=contactado`)).toBe(
      await truth('AND id_vendedor = $2 AND status = $3', [own, 'contactado']),
    );
  });

  describe('always one page', () => {
    const bulk = 700;
    beforeAll(async () => {
      // Leads written straight into the read model (as the large seed does), then recounted.
      const { rows } = await rt.deps.db.query<{ doc: Lead }>(
        'SELECT doc FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado LIMIT 1',
        [corp],
      );
      const template = rows[0]!.doc;
      await insertLeadRows(
        rt.deps.db,
        Array.from({ length: bulk }, (_, i) => ({
          ...template,
          id: `bulk-${String(i).padStart(4, '0')}`,
          nombre: `Masivo ${i}`,
          email: `masivo${i}@example.com`,
          telefono: '',
          celular: '',
          fechaAlta: 1_700_000_000 + Math.floor(i / 4),
          idVendedor: ids['gerente@vitrina.demo']!,
        })),
      );
      await recountLeadCounts(rt.deps.db, corp);
    }, 60_000);

    it('answers at most 500 leads without a limit or with a larger one, and a cursor', async () => {
      for (const query of ['', '&limit=100000']) {
        const res = await list(gerente, query);
        expect(res.status).toBe(200);
        expect(res.json).toHaveLength(LEADS_PAGE_MAX);
        expect(LEADS_PAGE_MAX).toBe(500);
        expect(res.headers.get('x-next-cursor')).toBeTruthy();
      }
    });

    it('counts a search up to 1000 and says nothing beyond', async () => {
      const small = await list(gerente, '&q=masivo 12&limit=2');
      // masivo 12, 120-129 (the search is a prefix of the name).
      expect(small.headers.get('x-total-count')).toBe('11');
      const large = await list(gerente, '&q=masivo&limit=2');
      expect(large.headers.get('x-total-count')).toBe(String(bulk));
      await recountLeadCounts(rt.deps.db);
      const { counters, truth } = await countersAndTruth(rt);
      expect(counters).toEqual(truth);
    });

    it('walks every lead once while leads are being created between the pages', async () => {
      const before = await walk(gerente, '&limit=37');
      let made = 0;
      const during = await walk(gerente, '&limit=37', async () => {
        if (made < 10) {
          made++;
          await newLead(asesor);
        }
      });
      expect(new Set(during).size).toBe(during.length);
      // Nothing that was there is missed; what was created meanwhile may or may not show.
      const missing = before.filter((id) => !during.includes(id));
      expect(missing).toEqual([]);
    });

    it('never shows another corporate’s leads, in any page or total', async () => {
      const theirLead = await pacifico.post(`/api/corporativos/${pacificoCorp}/leads`, {
        nombre: 'Masivo del Pacífico',
        email: 'masivo-pacifico@example.com',
      });
      expect(theirLead.status, JSON.stringify(theirLead.json)).toBe(201);
      const seen = await walk(gerente, '&limit=500');
      expect((await list(gerente, '&q=masivo del pac')).json).toEqual([]);
      const { rows } = await rt.deps.db.query<{ id: string }>(
        'SELECT id FROM rm_leads WHERE corporate_id <> $1',
        [corp],
      );
      const foreign = new Set(rows.map((r) => r.id));
      expect(rows.length).toBeGreaterThan(0);
      expect(seen.filter((id) => foreign.has(id))).toEqual([]);
      const res = await pacifico.get(`/api/wsObtenerLeads?idCorporativo=${pacificoCorp}&limit=1`);
      const theirs = (
        await rt.deps.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado
              AND id_vendedor = $2`,
          [pacificoCorp, ids['asesor.pacifico@vitrina.demo']],
        )
      ).rows[0]!.n;
      expect(Number(res.headers.get('x-total-count'))).toBe(theirs);
    });
  });
});

describe.skipIf(!process.env.VITRINA_TEST_PG)(
  'lead counters across two processes [postgres]',
  () => {
    let runtime: Runtime;
    let servers: ServerProcess[] = [];

    beforeAll(async () => {
      runtime = await openSeeded(postgresBackend);
      servers = await Promise.all(
        [0, 1].map(() =>
          startServerProcess(runtime.databaseUrl!, { VITRINA_SECRET: 'h3-counters' }),
        ),
      );
    }, 120_000);
    afterAll(async () => {
      await Promise.all(servers.map(stopServerProcess));
      await runtime?.dispose();
    });

    it('20 concurrent creates through two processes: the counters equal count(*)', async () => {
      const cookie = await login(remoteApp(servers[0]!), 'gerente@vitrina.demo');
      const gerentes = servers.map((s) => client(remoteApp(s), cookie));
      const corp = (await gerentes[0]!.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json
        .id as string;
      const statuses = ['nuevo', 'contactado'];
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          gerentes[i % 2]!.post(`/api/corporativos/${corp}/leads`, {
            nombre: `Proceso ${i}`,
            email: `proceso${i}@example.com`,
            status: statuses[i % 2],
          }),
        ),
      );
      expect(answers.filter((a) => a.status !== 201).map((a) => a.json)).toEqual([]);
      const { counters, truth } = await countersAndTruth(runtime);
      expect(counters).toEqual(truth);
      const total = await gerentes[1]!.get(`/api/wsObtenerLeads?idCorporativo=${corp}&limit=1`);
      const live = (
        await runtime.deps.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado',
          [corp],
        )
      ).rows[0]!.n;
      expect(Number(total.headers.get('x-total-count'))).toBe(live);
    }, 60_000);
  },
);
