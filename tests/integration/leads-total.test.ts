import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Lead } from '../../src/core/lead';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import type { client } from './support/http';
import { signedIn } from './support/http';

type Client = ReturnType<typeof client>;

/**
 * `wsObtenerLeads` answers the total of a list in `X-Total-Count`: every lead that matches the
 * caller's scope, the filters and the search, however many the page holds.
 */
describeBackends('leads list total', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let corp: string;
  let desarrollo: string;
  const ids: Record<string, string> = {};
  const created: Record<string, Lead> = {};

  const list = (who: Client, query: string) =>
    who.get(`/api/wsObtenerLeads?idCorporativo=${corp}&q=conteo${query}`);
  const totalOf = async (who: Client, query: string) => {
    const res = await list(who, query);
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    return Number(res.headers.get('x-total-count'));
  };
  /** Every row of the list, walked page by page. */
  const walk = async (who: Client, query: string, limit: number) => {
    const rows: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await list(who, `${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      rows.push(...res.json.map((l: Lead) => l.id));
      cursor = res.headers.get('x-next-cursor');
    } while (cursor);
    return rows;
  };

  let seq = 0;
  const newLead = async (
    who: Client,
    name: string,
    over: { apellidos?: string; status?: string; desarrollo?: string } = {},
  ) => {
    seq += 1;
    const res = await who.post(`/api/corporativos/${corp}/leads`, {
      nombre: name,
      apellidos: 'Conteo',
      email: `total${seq}@example.com`,
      telefono: `55 2000 ${String(1000 + seq)}`,
      ...over,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    created[name] = res.json as Lead;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    corp = (await gerente.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    desarrollo = (await gerente.get(`/api/wsObtenerDesarrollos?idCorporativo=${corp}`)).json[0].id;

    // The adviser's four, the second adviser's two, the manager's one; one other name; one deleted.
    await newLead(asesor, 'A1', { desarrollo });
    await newLead(asesor, 'A2', { status: 'contactado', desarrollo });
    await newLead(asesor, 'A3', { status: 'contactado' });
    await newLead(asesor, 'A4');
    await newLead(asesor, 'A5', { apellidos: 'Otro', status: 'contactado', desarrollo });
    await newLead(asesor, 'A6', { status: 'contactado', desarrollo });
    expect((await asesor.del(`/api/corporativos/${corp}/leads/${created.A6!.id}`)).status).toBe(
      200,
    );
    await newLead(asesor2, 'B1', { status: 'contactado', desarrollo });
    await newLead(asesor2, 'B2');
    await newLead(gerente, 'G1', { status: 'contactado', desarrollo });
  });
  afterAll(async () => {
    await rt.dispose();
  });

  describe('counts the scope, the search and the filters, not the page', () => {
    const cases: [string, () => Client, string, number][] = [
      ['Propios, search', () => asesor, '', 4],
      ['Propios, search and status', () => asesor, '&status=contactado', 2],
      ['Propios, search and development', () => asesor, `&desarrollo=DEV`, 2],
      [
        'Propios, search, status and development',
        () => asesor,
        '&status=contactado&desarrollo=DEV',
        1,
      ],
      ['Todos, search', () => gerente, '', 7],
      ['Todos, search and status', () => gerente, '&status=contactado', 4],
      ['Todos, search and development', () => gerente, '&desarrollo=DEV', 4],
      ['Todos, search and one adviser', () => gerente, '&idVendedor=ASESOR2', 2],
    ];
    const expand = (query: string) =>
      query.replace('DEV', desarrollo).replace('ASESOR2', ids['asesor2@vitrina.demo']!);

    it.each(cases)('%s', async (_name, who, query, expected) => {
      const q = expand(query);
      // A one-row page still tells the whole total; so does the unpaged call.
      expect(await totalOf(who(), `${q}&limit=1`)).toBe(expected);
      expect(await totalOf(who(), `${q}&limit=500`)).toBe(expected);
      expect(await totalOf(who(), q)).toBe(expected);
      expect(await walk(who(), q, 1)).toHaveLength(expected);
    });
  });

  it('Propios asking for another adviser counts nothing', async () => {
    expect(await totalOf(asesor, `&idVendedor=${ids['asesor2@vitrina.demo']}&limit=1`)).toBe(0);
  });

  it('comes with the first page only; later pages leave it out', async () => {
    const first = await list(gerente, '&limit=3');
    expect(first.json).toHaveLength(3);
    expect(first.headers.get('x-total-count')).toBe('7');
    const cursor = first.headers.get('x-next-cursor');
    expect(cursor).toBeTruthy();
    const second = await list(gerente, `&limit=3&cursor=${cursor}`);
    expect(second.json).toHaveLength(3);
    expect(second.headers.get('x-total-count')).toBeNull();
  });

  it('follows registrations and deletions', async () => {
    await newLead(asesor, 'A7', { status: 'contactado' });
    expect(await totalOf(asesor, '&status=contactado&limit=1')).toBe(3);
    expect(await totalOf(gerente, '&limit=1')).toBe(8);
    expect((await asesor.del(`/api/corporativos/${corp}/leads/${created.A1!.id}`)).status).toBe(
      200,
    );
    expect(await totalOf(asesor, '&limit=1')).toBe(4);
    expect(await totalOf(gerente, '&limit=1')).toBe(7);
  });
});
