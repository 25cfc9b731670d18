import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { normalizeLeadFields, type Lead } from '../../src/core/lead';
import { insertLeadRows } from '../support/lead-rows';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

type Client = ReturnType<typeof client>;

/**
 * Search-as-you-type finds a phone by the start of its digits or of its national number (core
 * `phoneMatchesSearch`, the match key duplicate detection uses), however it was written, and the
 * query stays on the indexes (004 and 006) at volume.
 */
describeBackends('leads search by phone', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let gerente: Client;
  let asesor: Client;
  let corp: string;
  let gerenteId: string;
  const leads: Record<string, Lead> = {};
  const queries: { sql: string; params: unknown[] }[] = [];

  const search = async (who: Client, text: string) => {
    const res = await who.get(
      `/api/wsObtenerLeads?idCorporativo=${corp}&limit=50&q=${encodeURIComponent(text)}`,
    );
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return (res.json as Lead[]).map((l) => l.nombre).sort();
  };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    gerente = client(app, await login(app, 'gerente@vitrina.demo'));
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    gerenteId = (await gerente.get('/api/auth/session')).json.id;
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    const create = async (who: Client, body: Record<string, string>) => {
      const res = await who.post(`/api/corporativos/${corp}/leads`, body);
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      leads[body.nombre!] = res.json as Lead;
    };
    await create(asesor, { nombre: 'Internacional', telefono: '+52 99 1234 5678' });
    await create(asesor, { nombre: 'Celular', celular: '+52 1 99 8765 4321' });
    await create(asesor, { nombre: 'Nacional', telefono: '(99) 2468-1357' });
    await create(gerente, { nombre: 'Gerencia', telefono: '+52 99 1234 0000' });
    // Every later query of the app is recorded, so the test can EXPLAIN the list's own SQL.
    const db = rt.deps.db;
    const query = db.query.bind(db);
    db.query = (sql, params) => {
      queries.push({ sql, params: params ?? [] });
      return query(sql, params);
    };
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('finds a number saved with +52 by its national digits, spaced or not', async () => {
    expect(await search(gerente, '99 1234 5678')).toEqual(['Internacional']);
    expect(await search(gerente, '9912345678')).toEqual(['Internacional']);
    expect(await search(gerente, '99 1234')).toEqual(['Gerencia', 'Internacional']);
    expect(await search(gerente, '(99) 8765')).toEqual(['Celular']);
    // The full digits still work, with or without the old mobile 1.
    expect(await search(gerente, '+52 99 1234 5')).toEqual(['Internacional']);
    expect(await search(gerente, '521998765')).toEqual(['Celular']);
  });

  it('finds a national number typed with the country code, and nothing from the middle', async () => {
    expect(await search(gerente, '+52 99 2468 1357')).toEqual(['Nacional']);
    expect(await search(gerente, '+52 1 99 2468 1357')).toEqual(['Nacional']);
    expect(await search(gerente, '1234 5678')).toEqual([]);
    expect(await search(gerente, '+52 99 2468 0000')).toEqual([]);
  });

  it("stays within the caller's scope and counts what it finds", async () => {
    expect(await search(asesor, '99 1234')).toEqual(['Internacional']);
    const res = await gerente.get(
      `/api/wsObtenerLeads?idCorporativo=${corp}&limit=1&q=${encodeURIComponent('99 1234')}`,
    );
    expect(res.headers.get('x-total-count')).toBe('2');
  });

  it('a phone search at volume runs on the phone and match-key indexes, no sequential scan', async () => {
    // 10,000 leads through the projection's own row mapping, half of them written with +52.
    let seed = 7;
    const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
    const four = () => String(1000 + Math.floor(rand() * 9000));
    for (let done = 0; done < 10_000; done += 1000) {
      await insertLeadRows(
        rt.deps.db,
        Array.from({ length: 1000 }, (_, k) => {
          const i = done + k;
          return {
            id: `bulk-${i}`,
            idCorporativo: corp,
            ...normalizeLeadFields({
              nombre: `Volumen ${i}`,
              email: `volumen${i}@example.com`,
              telefono: `${rand() < 0.5 ? '+52 ' : ''}55 ${four()} ${four()}`,
              celular: rand() < 0.5 ? `33 ${four()} ${four()}` : null,
            }),
            idVendedor: gerenteId,
            fechaAlta: 1_700_000_000 + i,
            eliminado: false,
          };
        }),
      );
    }
    await rt.deps.db.query('ANALYZE rm_leads');

    queries.length = 0;
    expect(await search(gerente, '99 1234 5678')).toEqual(['Internacional']);
    const list = queries.find((q) => /^SELECT doc FROM rm_leads WHERE/.test(q.sql));
    expect(list, queries.map((q) => q.sql).join('\n')).toBeDefined();
    const { rows } = await rt.deps.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN ${list!.sql}`,
      list!.params,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    for (const index of [
      'rm_leads_telefono',
      'rm_leads_celular',
      'rm_leads_telefono_match',
      'rm_leads_celular_match',
    ]) {
      expect(plan).toMatch(new RegExp(`Index Scan on ${index}\\b`));
    }
    expect(plan).not.toMatch(/Seq Scan/);
  }, 120_000);
});
