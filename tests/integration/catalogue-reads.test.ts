/**
 * Catalogue reads (issue 21): ready JSON with an ETag from the corporate's catalogue revision
 * (304 on a repeat, a new ETag after a change, another ETag per role and language), the
 * development list from the counters the projection keeps (equal to a scan of the units, and to
 * a rebuild from the log), and the clusters read by cluster or page.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { scannedFigures } from '../../src/server/catalogue/figures';
import { verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

type Client = ReturnType<typeof client>;
interface ClusterBody {
  id: string;
  unidades: Unit[];
}
interface DevelopmentBody {
  id: string;
  slug: string;
  precioDesde: number | null;
  totalUnidades: number;
  unidadesDisponibles: number;
}

describeBackends(
  'catalogue reads: ready JSON, ETags, counters, pages (issue 21)',
  (backend: Backend) => {
    let rt: Awaited<ReturnType<typeof openSeeded>>;
    let admin: Client;
    let asesor: Client;
    let pacifico: Client;
    let visitor: Client;
    let corpId: string;
    let alameda: DevelopmentBody;
    const clustersUrl = () =>
      `/api/wsObtenerClusters?idCorporativo=${corpId}&idDesarrollo=${alameda.id}`;
    const listUrl = () => `/api/wsObtenerDesarrollos?idCorporativo=${corpId}`;
    const publicUrl =
      '/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad';

    const units = async (who: Client) =>
      ((await who.get(clustersUrl())).json as ClusterBody[]).flatMap((c) => c.unidades);
    const setStatus = async (unit: Unit, from: string, to: string) => {
      const res = await admin.put(`/api/corporativos/${corpId}/unidades/${unit.id}/status`, {
        status: to,
        statusAnterior: from,
      });
      expect(res.status, `${unit.id} ${from} -> ${to}`).toBe(200);
    };
    const setPrice = async (unit: Unit, from: number, to: number) => {
      const res = await admin.put(`/api/corporativos/${corpId}/unidades/${unit.id}/precio`, {
        precio: to,
        precioAnterior: from,
      });
      expect(res.status, `${unit.id} ${from} -> ${to}`).toBe(200);
    };
    const storedFigures = async () =>
      (
        await rt.deps.db.query(
          `SELECT development_id, status, corporate_id, units, precio_min::text, renta_min::text
           FROM rm_development_figures WHERE corporate_id = $1 ORDER BY development_id, status`,
          [corpId],
        )
      ).rows;

    beforeAll(async () => {
      rt = await openSeeded(backend);
      const app = createApp(rt.deps);
      admin = client(app, await login(app, 'admin@vitrina.demo'));
      asesor = client(app, await login(app, 'asesor@vitrina.demo'));
      pacifico = client(app, await login(app, 'asesor.pacifico@vitrina.demo'));
      visitor = client(app);
      corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
      alameda = ((await admin.get(listUrl())).json as DevelopmentBody[]).find(
        (d) => d.slug === 'torre-alameda',
      )!;
    });
    afterAll(async () => {
      await rt.dispose();
    });

    it('answers 304 to a repeated read, 200 with a new ETag after a unit status change, and another ETag to another role', async () => {
      const first = await asesor.get(clustersUrl());
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toMatch(/^application\/json/);
      expect(first.headers.get('cache-control')).toBe('private, no-cache');
      const etag = first.headers.get('etag')!;
      expect(etag).toMatch(/^W\/".+"$/);

      const repeat = await asesor.get(clustersUrl(), { 'if-none-match': etag });
      expect(repeat.status).toBe(304);
      expect(repeat.json).toBeNull();
      expect(repeat.headers.get('etag')).toBe(etag);
      // The same bytes for a second read without the ETag.
      expect((await asesor.get(clustersUrl())).json).toEqual(first.json);

      // Another role: another ETag, and the adviser's ETag does not spare the administrator a body.
      const asAdmin = await admin.get(clustersUrl(), { 'if-none-match': etag });
      expect(asAdmin.status).toBe(200);
      expect(asAdmin.headers.get('etag')).not.toBe(etag);
      // Another language: another ETag.
      const english = await asesor.get(clustersUrl(), { 'accept-language': 'en' });
      expect(english.headers.get('etag')).not.toBe(etag);
      // Another corporate's member is refused before any ETag is compared.
      expect((await pacifico.get(clustersUrl(), { 'if-none-match': etag })).status).toBe(403);
      expect((await visitor.get(clustersUrl(), { 'if-none-match': etag })).status).toBe(401);

      const list = await asesor.get(listUrl());
      const listEtag = list.headers.get('etag')!;
      expect((await asesor.get(listUrl(), { 'if-none-match': listEtag })).status).toBe(304);
      const before = (list.json as DevelopmentBody[]).find((d) => d.id === alameda.id)!;

      const unit = (first.json as ClusterBody[])[0]!.unidades.find(
        (u) => u.status === 'Disponible',
      )!;
      await setStatus(unit, 'Disponible', 'Vendido');

      const changed = await asesor.get(clustersUrl(), { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      const seen = (changed.json as ClusterBody[]).flatMap((c) => c.unidades);
      expect(seen.find((u) => u.id === unit.id)?.status).toBe('Vendido');
      // 'Vendido' hides the price from an adviser (spec §4): the ready text is per visibility.
      expect(seen.find((u) => u.id === unit.id)).not.toHaveProperty('precio');
      expect((await admin.get(clustersUrl())).json.flatMap((c: ClusterBody) => c.unidades)).toEqual(
        expect.arrayContaining([expect.objectContaining({ id: unit.id, precio: unit.precio })]),
      );

      const listAfter = await asesor.get(listUrl(), { 'if-none-match': listEtag });
      expect(listAfter.status).toBe(200);
      expect(listAfter.headers.get('etag')).not.toBe(listEtag);
      const after = (listAfter.json as DevelopmentBody[]).find((d) => d.id === alameda.id)!;
      expect(after.unidadesDisponibles).toBe(before.unidadesDisponibles - 1);
      expect(after.totalUnidades).toBe(248);
    });

    it('public availability: 304 on a repeat, a public 5-second cache, a new ETag after a change', async () => {
      const first = await visitor.get(publicUrl);
      expect(first.status).toBe(200);
      expect(first.headers.get('cache-control')).toBe('public, max-age=5');
      const etag = first.headers.get('etag')!;
      expect((await visitor.get(publicUrl, { 'if-none-match': etag })).status).toBe(304);
      const unit = (await units(admin)).find((u) => u.status === 'Disponible')!;
      await setStatus(unit, 'Disponible', 'Bloqueado');
      const changed = await visitor.get(publicUrl, { 'if-none-match': etag });
      expect(changed.status).toBe(200);
      expect(changed.headers.get('etag')).not.toBe(etag);
      const seen = (changed.json.clusters as ClusterBody[]).flatMap((c) => c.unidades);
      expect(seen.find((u) => u.id === unit.id)).not.toHaveProperty('precio');
    });

    it('the other catalogue reads (development, prototypes, media) answer 304 on a repeat', async () => {
      const media = alameda as unknown as { imagenPortada?: { idMedia?: string } };
      const urls = [
        `/api/wsObtenerDesarrollo?idCorporativo=${corpId}&slug=torre-alameda`,
        `/api/wsObtenerPrototipos?idCorporativo=${corpId}&idDesarrollo=${alameda.id}`,
        ...(media.imagenPortada?.idMedia
          ? [`/api/wsObtenerMedias?id=${media.imagenPortada.idMedia}`]
          : []),
      ];
      for (const url of urls) {
        const first = await asesor.get(url);
        expect(first.status, url).toBe(200);
        const etag = first.headers.get('etag')!;
        expect(etag, url).toBeTruthy();
        expect((await asesor.get(url, { 'if-none-match': etag })).status, url).toBe(304);
      }
    });

    it('clusters by cluster or page: the pages put together are the unpaged answer', async () => {
      const all = (await asesor.get(clustersUrl())).json as ClusterBody[];
      expect(all.length).toBeGreaterThan(1);
      const one = await asesor.get(`${clustersUrl()}&idCluster=${all[1]!.id}`);
      expect(one.json).toEqual([all[1]]);
      const first = (await asesor.get(`${clustersUrl()}&limite=1`)).json as ClusterBody[];
      expect(first).toEqual([all[0]]);
      const rest = (await asesor.get(`${clustersUrl()}&despuesDe=${all[0]!.id}`)).json;
      expect([...first, ...rest]).toEqual(all);
      expect((await asesor.get(`${clustersUrl()}&despuesDe=no-such-cluster`)).json).toEqual([]);
      expect((await asesor.get(`${clustersUrl()}&limite=0`)).status).toBe(400);
      // A page has an ETag of its own.
      const pageEtag = (await asesor.get(`${clustersUrl()}&limite=1`)).headers.get('etag');
      expect(pageEtag).not.toBe((await asesor.get(clustersUrl())).headers.get('etag'));
    });

    it('the development list comes from counters equal to a scan of the units, after status and price changes, and a rebuild gives the same rows', async () => {
      const list = async () =>
        ((await asesor.get(listUrl())).json as DevelopmentBody[]).find((d) => d.id === alameda.id)!;
      const from = (await list()).precioDesde!;
      // The cheapest visible units leave their minimum: the bucket is recomputed, "price from" rises.
      const cheapest = (await units(admin)).filter(
        (u) => u.status === 'Disponible' && u.precio === from,
      );
      expect(cheapest.length).toBeGreaterThan(0);
      for (const u of cheapest) await setPrice(u, u.precio, from + 50_000_000);
      expect((await list()).precioDesde).toBeGreaterThan(from);
      // And back below it: the minimum follows down without a recompute.
      await setPrice(cheapest[0]!, from + 50_000_000, from - 1);
      expect((await list()).precioDesde).toBe(from - 1);

      // A run of status moves across buckets, the last of a status included.
      const pool = (await units(admin)).slice(0, 24);
      const cycle = ['Disponible', 'Apartado', 'Vendido', 'Bloqueado', 'Disponible'];
      for (const [i, u] of pool.entries()) {
        const current = u.status ?? 'Disponible';
        const next = cycle[(cycle.indexOf(current) + 1 + (i % 3)) % cycle.length]!;
        if (next !== current) await setStatus(u, current, next);
      }
      expect(await storedFigures()).toEqual(await scannedFigures(rt.deps.db, corpId));
      const after = await list();
      const all = await units(admin);
      expect(after.totalUnidades).toBe(all.length);
      expect(after.unidadesDisponibles).toBe(all.filter((u) => u.status === 'Disponible').length);

      const comparison = await verifyProjections(rt.deps.store);
      for (const table of ['rm_development_figures', 'rm_catalogue_revisions']) {
        const t = comparison.tables.find((x) => x.table === table)!;
        expect(t.liveRows, table).toBeGreaterThan(0);
        expect(t.onlyLive + t.onlyRebuilt + t.changed, table).toBe(0);
      }
      expect(comparison.differences).toBe(0);
    });

    it('migration 023 fills the same revisions and counters from an existing store as the projection keeps', async () => {
      const db = rt.deps.db;
      const snapshot = async () => ({
        figures: (
          await db.query(
            'SELECT development_id, status, corporate_id, units, precio_min::text, renta_min::text FROM rm_development_figures ORDER BY 1, 2',
          )
        ).rows,
        revisions: (
          await db.query(
            'SELECT corporate_id, revision::text, last_position::text FROM rm_catalogue_revisions ORDER BY 1',
          )
        ).rows,
      });
      const kept = await snapshot();
      const inserts = readFileSync('src/server/store/migrations/023_catalogue_reads.sql', 'utf8')
        .split(/;\s*$/m)
        .map((s) =>
          s
            .split('\n')
            .filter((l) => !l.trim().startsWith('--'))
            .join('\n')
            .trim(),
        )
        .filter((s) => s.startsWith('INSERT'));
      expect(inserts).toHaveLength(2);
      await db.transaction(async (tx) => {
        await tx.query('DELETE FROM rm_development_figures');
        await tx.query('DELETE FROM rm_catalogue_revisions');
        for (const statement of inserts) await tx.query(statement);
      });
      expect(await snapshot()).toEqual(kept);
    });
  },
);
