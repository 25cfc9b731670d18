/**
 * The public availability by cluster or page (issue 21): `limite`, `despuesDe` and `idCluster`
 * as `wsObtenerClusters` takes them, each page under the same header with only its clusters'
 * units (read for the page alone), an ETag per page, the same translated 400 for bad values,
 * 404 for another corporate's development, and hidden prices still hidden.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

type Client = ReturnType<typeof client>;
interface PublicBody {
  corporativo: unknown;
  desarrollo: { id: string };
  coloresStatus: unknown;
  prototipos: unknown[];
  clusters: { id: string; nombre: string; unidades: { id: string; precio?: number }[] }[];
}

describeBackends('public availability by pages (issue 21)', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let admin: Client;
  let visitor: Client;
  let corpId: string;
  // Residencial Los Olivos: three stages (clusters), so a first page of 2 leaves a rest.
  const url =
    '/api/public/corporativos/grupo-horizonte/desarrollos/residencial-los-olivos/disponibilidad';
  const body = async (query = '') => {
    const res = await visitor.get(`${url}${query}`);
    expect(res.status, query).toBe(200);
    return res.json as PublicBody;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    visitor = client(app);
    corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('pages of clusters cover every unit exactly once, in order, under the same header', async () => {
    const all = await body();
    expect(all.clusters.length).toBe(3);
    const { clusters: _all, ...header } = all;
    const pages: PublicBody[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await body(after ? `?limite=1&despuesDe=${after}` : '?limite=1');
      if (page.clusters.length === 0) break;
      const { clusters: _page, ...pageHeader } = page;
      expect(pageHeader).toEqual(header);
      expect(page.clusters).toHaveLength(1);
      pages.push(page);
      after = page.clusters.at(-1)!.id;
    }
    expect(pages).toHaveLength(3);
    const joined = pages.flatMap((p) => p.clusters);
    expect(joined).toEqual(all.clusters);
    // Every unit a member sees in the development, once.
    const ids = joined.flatMap((c) => c.unidades.map((u) => u.id));
    const signedIn = (
      (
        await admin.get(
          `/api/wsObtenerClusters?idCorporativo=${corpId}&idDesarrollo=${all.desarrollo.id}`,
        )
      ).json as { unidades: Unit[] }[]
    ).flatMap((c) => c.unidades.map((u) => u.id));
    expect(ids.length).toBeGreaterThan(0);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...signedIn].sort());

    // The first page, then the rest after its last cluster: the client's two reads.
    const first = await body('?limite=2');
    const rest = await body(`?despuesDe=${first.clusters.at(-1)!.id}`);
    expect([...first.clusters, ...rest.clusters]).toEqual(all.clusters);
    // One cluster; an unknown cursor or cluster answers no clusters under the header.
    expect((await body(`?idCluster=${all.clusters[2]!.id}`)).clusters).toEqual([all.clusters[2]]);
    expect((await body('?despuesDe=no-such-cluster')).clusters).toEqual([]);
    expect((await body('?idCluster=no-such-cluster')).clusters).toEqual([]);
  });

  it("a page reads only its clusters' units", async () => {
    const all = await body();
    const db = rt.deps.db;
    const query = db.query.bind(db);
    const unitReads: unknown[][] = [];
    db.query = (text: string, params?: unknown[]) => {
      if (/FROM rm_units\b/.test(text)) unitReads.push(params ?? []);
      return query(text, params as never);
    };
    try {
      // A query no other test asked for: the body is built, not taken from the ready texts.
      const page = await body(`?limite=9999&despuesDe=${all.clusters[0]!.id}`);
      expect(page.clusters.map((c) => c.id)).toEqual([all.clusters[1]!.id, all.clusters[2]!.id]);
    } finally {
      db.query = query;
    }
    expect(unitReads).toHaveLength(1);
    expect(unitReads[0]).toContainEqual([all.clusters[1]!.id, all.clusters[2]!.id]);
  });

  it('each page has its own ETag and text; a repeat answers 304', async () => {
    const all = await body();
    const queries = [
      '',
      '?limite=2',
      '?limite=3',
      `?despuesDe=${all.clusters[1]!.id}`,
      `?idCluster=${all.clusters[0]!.id}`,
    ];
    const etags = new Set<string>();
    for (const q of queries) {
      const res = await visitor.get(`${url}${q}`);
      expect(res.headers.get('cache-control'), q).toBe('public, max-age=5');
      const etag = res.headers.get('etag')!;
      etags.add(etag);
      expect((await visitor.get(`${url}${q}`, { 'if-none-match': etag })).status, q).toBe(304);
    }
    expect(etags.size).toBe(queries.length);
    // Another page's ETag does not spare a body.
    const first = await visitor.get(`${url}?limite=2`);
    const other = await visitor.get(`${url}?limite=3`, {
      'if-none-match': first.headers.get('etag')!,
    });
    expect(other.status).toBe(200);
    expect((other.json as PublicBody).clusters).toEqual(all.clusters);
  });

  it('bad paging values answer the translated 400 of wsObtenerClusters', async () => {
    const dev = (
      await admin.get(
        `/api/wsObtenerDesarrollo?idCorporativo=${corpId}&slug=residencial-los-olivos`,
      )
    ).json as { id: string };
    const signedIn = `/api/wsObtenerClusters?idCorporativo=${corpId}&idDesarrollo=${dev.id}`;
    for (const bad of [
      'limite=0',
      'limite=10000',
      'limite=-1',
      'limite=dos',
      `despuesDe=${'x'.repeat(65)}`,
      'pagina=2',
    ]) {
      for (const lang of ['es', 'en']) {
        const res = await visitor.get(`${url}?${bad}`, { 'accept-language': lang });
        expect(res.status, bad).toBe(400);
        const expected = await admin.get(`${signedIn}&${bad}`, { 'accept-language': lang });
        expect(expected.status, bad).toBe(400);
        expect(res.json, `${bad} ${lang}`).toEqual(expected.json);
      }
    }
    const es = (await visitor.get(`${url}?limite=0`, { 'accept-language': 'es' })).json;
    const en = (await visitor.get(`${url}?limite=0`, { 'accept-language': 'en' })).json;
    expect(es[0].message).not.toBe(en[0].message);
  });

  it("another corporate's development answers 404, paged or not", async () => {
    for (const q of ['', '?limite=2']) {
      const res = await visitor.get(
        `/api/public/corporativos/desarrollos-pacifico/desarrollos/residencial-los-olivos/disponibilidad${q}`,
      );
      expect(res.status, q).toBe(404);
      expect(res.json[0].errorCode).toBe('DEVELOPMENT_NOT_FOUND');
    }
  });

  it('hidden prices stay hidden in pages', async () => {
    const all = await body();
    // A unit of the rest (after the first 2 clusters) with its price shown.
    const target = all.clusters[2]!.unidades.find((u) => u.precio !== undefined)!;
    expect(target).toBeDefined();
    const units = (
      (
        await admin.get(
          `/api/wsObtenerClusters?idCorporativo=${corpId}&idDesarrollo=${all.desarrollo.id}`,
        )
      ).json as { unidades: Unit[] }[]
    ).flatMap((c) => c.unidades);
    const unit = units.find((u) => u.id === target.id)!;
    const res = await admin.put(`/api/corporativos/${corpId}/unidades/${unit.id}/status`, {
      status: 'Bloqueado',
      statusAnterior: unit.status ?? 'Disponible',
    });
    expect(res.status).toBe(200);
    const rest = await body(`?despuesDe=${all.clusters[1]!.id}`);
    const one = await body(`?idCluster=${all.clusters[2]!.id}`);
    for (const page of [rest, one]) {
      const seen = page.clusters.flatMap((c) => c.unidades).find((u) => u.id === unit.id);
      expect(seen).toBeDefined();
      expect(seen).not.toHaveProperty('precio');
    }
  });
});
