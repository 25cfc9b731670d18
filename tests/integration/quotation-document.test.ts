/**
 * The quotation as a document (issue 19): every saved quotation gets its corporate's next
 * number once (concurrent saves never share one, a rebuild gives the same numbers), and the
 * buyer's shared quotation carries the number, the adviser's work contact and the developer's
 * legal name and address, which the corporate's administrator sets.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { quotationFolio, type Quotation } from '../../src/core/quotation';
import type { Corporate, Development, PaymentScheme, Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('quotation document', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let admin: Client;
  let asesor: Client;
  let gerente: Client;
  let corp: Corporate;
  let unit: Unit;
  let scheme: PaymentScheme;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => new Date('2026-11-18T18:00:00Z') });
    const app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    corp = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    const dev = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
    ).json as Development;
    const clusters = (
      await asesor.get(`/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`)
    ).json as { unidades: Unit[] }[];
    unit = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Disponible')!;
    scheme = dev.esquemasPago.find((s) => s.nombre === 'Contado' && !s.idCluster)!;
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  const save = (who: Client, nombre: string) =>
    who.post(`/api/corporativos/${corp.id}/cotizaciones`, {
      idUnidad: unit.id,
      idEsquema: scheme.id,
      divisa: 'MXN',
      nuevoLead: { nombre, apellidos: 'Prueba', email: `${nombre.toLowerCase()}@example.com` },
    });

  it('numbers quotations 1, 2, 3… per corporate, once each, also when saved at the same time; a rebuild keeps them', async () => {
    const first = await save(asesor, 'Primero');
    expect(first.status, JSON.stringify(first.json)).toBe(201);
    const n0 = (first.json as Quotation).numero!;
    expect(n0).toBeGreaterThanOrEqual(1);
    const many = await Promise.all(
      Array.from({ length: 6 }, (_, i) => save(i % 2 ? gerente : asesor, `Cliente${i}`)),
    );
    for (const res of many) expect(res.status, JSON.stringify(res.json)).toBe(201);
    const numbers = many.map((r) => (r.json as Quotation).numero!).sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6].map((i) => n0 + i));

    const { rows } = await rt.deps.db.query<{ id: string; numero: number; doc_numero: number }>(
      `SELECT id, numero, (doc->>'numero')::int AS doc_numero FROM rm_quotations
        WHERE corporate_id = $1 ORDER BY numero`,
      [corp.id],
    );
    expect(rows.every((r) => r.numero === r.doc_numero)).toBe(true);
    expect(new Set(rows.map((r) => r.numero)).size).toBe(rows.length);
    // The lead's list shows the number the save answered.
    const lead = (first.json as Quotation).idLead;
    const listed = await asesor.get(
      `/api/wsObtenerCotizacionesLocales?idCorporativo=${corp.id}&idLead=${lead}`,
    );
    expect(listed.json[0].numero).toBe(n0);

    await rt.deps.store.rebuildProjections();
    const again = await rt.deps.db.query<{ id: string; numero: number; doc_numero: number }>(
      `SELECT id, numero, (doc->>'numero')::int AS doc_numero FROM rm_quotations
        WHERE corporate_id = $1 ORDER BY numero`,
      [corp.id],
    );
    expect(again.rows).toEqual(rows);
    expect(quotationFolio(n0)).toBe(`COT-${String(n0).padStart(6, '0')}`);
  });

  it("prints the number, the adviser's contact and the developer's legal data on the shared quotation; the administrator sets them", async () => {
    const legal = `/api/corporativos/${corp.id}/datos-legales`;
    const seeded = await admin.get(legal);
    expect(seeded.status).toBe(200);
    expect(seeded.json.razonSocial).toBe('Grupo Horizonte Desarrollos, S.A. de C.V.');
    expect((await asesor.get(legal)).status).toBe(403);
    expect((await gerente.put(legal, { razonSocial: 'X', domicilio: 'Y' })).status).toBe(403);
    expect((await admin.put(legal, { razonSocial: 'X' })).status).toBe(400);
    expect((await admin.put(legal, { razonSocial: 'x'.repeat(201), domicilio: '' })).status).toBe(
      400,
    );
    const set = await admin.put(legal, {
      razonSocial: '  Horizonte Legal, S.A. de C.V. ',
      domicilio: 'Calle 1 #2, CDMX',
    });
    expect(set.status, JSON.stringify(set.json)).toBe(200);
    expect(set.json).toEqual({
      razonSocial: 'Horizonte Legal, S.A. de C.V.',
      domicilio: 'Calle 1 #2, CDMX',
    });
    const events = async () =>
      (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    const before = await events();
    expect((await admin.put(legal, set.json)).status).toBe(200);
    expect(await events()).toBe(before);

    const saved = await save(asesor, 'Compartido');
    const q = saved.json as Quotation;
    const share = await asesor.post(`/api/corporativos/${corp.id}/cotizaciones/${q.id}/compartir`);
    expect(share.status).toBe(201);
    const open = await client(createApp(rt.deps)).get(
      `/api/public/cotizaciones/${share.json.token}`,
    );
    expect(open.status).toBe(200);
    expect(open.json.cotizacion.numero).toBe(q.numero);
    expect(open.json.cotizacion.asesor).toEqual({
      email: 'asesor@vitrina.demo',
      telefono: '+52 55 4120 3387',
    });
    expect(open.json.corporativo.razonSocial).toBe('Horizonte Legal, S.A. de C.V.');
    expect(open.json.corporativo.domicilio).toBe('Calle 1 #2, CDMX');
  });
});
