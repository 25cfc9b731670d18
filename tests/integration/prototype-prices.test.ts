/**
 * Spec §4: "Prices of units are recomputed from the matching prototype when clusters load." A
 * unit without its own price (0 or absent) shows its prototype's; one with its own keeps it. The
 * demo's first-floor units have no price of their own (seed/demo.ts), so the screens, the
 * quotation and the developments list's "price from" must all read the prototype's.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Development, Prototype, Unit } from '../../src/core/types';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('prices from prototypes (spec §4)', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let asesor: ReturnType<typeof client>;
  let admin: ReturnType<typeof client>;
  let corpId: string;
  let alameda: Development;
  let prototypes: Prototype[];
  let units: Unit[];
  let stored: Map<string, number>;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    corpId = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    alameda = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${corpId}&slug=torre-alameda`)
    ).json;
    const q = `idCorporativo=${corpId}&idDesarrollo=${alameda.id}`;
    prototypes = (await asesor.get(`/api/wsObtenerPrototipos?${q}`)).json;
    units = (await admin.get(`/api/wsObtenerClusters?${q}`)).json.flatMap(
      (c: { unidades: Unit[] }) => c.unidades,
    );
    const { rows } = await rt.deps.db.query<{ id: string; precio: number | null }>(
      `SELECT id, (doc->>'precio')::numeric::float8 AS precio FROM rm_units WHERE development_id = $1`,
      [alameda.id],
    );
    stored = new Map(rows.map((r) => [r.id, r.precio ?? 0]));
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('wsObtenerClusters: a unit stored without a price takes its prototype’s; a unit with its own keeps it', () => {
    const byId = new Map(prototypes.map((p) => [p.id, p.precio]));
    const withoutOwn = units.filter((u) => stored.get(u.id) === 0);
    const withOwn = units.filter((u) => (stored.get(u.id) ?? 0) > 0);
    expect(withoutOwn.length, 'the demo has units without their own price').toBeGreaterThan(0);
    expect(withOwn.length, 'and units with their own').toBeGreaterThan(0);
    for (const u of withoutOwn) expect(u.precio).toBe(byId.get(u.idPrototipo));
    for (const u of withOwn) expect(u.precio).toBe(stored.get(u.id));
    // The own prices carry a floor premium: they differ from the prototype's.
    expect(withOwn.some((u) => u.precio !== byId.get(u.idPrototipo))).toBe(true);
  });

  it('the brochure agrees: each prototype’s price ("desde" on the price list) is its lowest unit price', () => {
    for (const p of prototypes) {
      const prices = units.filter((u) => u.idPrototipo === p.id).map((u) => u.precio);
      if (prices.length === 0) continue;
      expect(Math.min(...prices)).toBe(p.precio);
    }
  });

  it('a saved quotation of a unit without its own price is at the prototype’s price, as the screen showed', async () => {
    const unit = units.find((u) => stored.get(u.id) === 0 && u.status === 'Disponible');
    expect(unit, 'a first-floor unit is available').toBeDefined();
    const scheme = alameda.esquemasPago.find((s) => !s.idCluster)!;
    const res = await asesor.post(`/api/corporativos/${corpId}/cotizaciones`, {
      idUnidad: unit!.id,
      idEsquema: scheme.id,
      divisa: 'MXN',
      nuevoLead: {
        nombre: 'Prueba',
        apellidos: 'Prototipo',
        email: 'prueba.prototipo@example.com',
      },
    });
    expect(res.status).toBe(201);
    const proto = prototypes.find((p) => p.id === unit!.idPrototipo)!;
    expect(res.json.precioEnCotizacion).toBe(proto.precio);
    expect(res.json.precioEnCotizacion).toBeGreaterThan(0);
  });

  it('the developments list’s price from counts the prototype’s price of units without their own', async () => {
    const list = (await asesor.get(`/api/wsObtenerDesarrollos?idCorporativo=${corpId}`)).json as {
      id: string;
      precioDesde: number | null;
    }[];
    const colors = alameda.coloresStatus && Object.keys(alameda.coloresStatus).length > 0;
    const visible = units.filter((u) =>
      colors
        ? alameda.coloresStatus![u.status ?? 'Sin Estatus']?.esPrecioVisible
        : u.status === 'Disponible',
    );
    const row = list.find((d) => d.id === alameda.id)!;
    expect(row.precioDesde).toBe(Math.min(...visible.map((u) => u.precio).filter((p) => p > 0)));
  });

  it('an editor who saw the prototype’s price on a unit without its own changes it (not a stale conflict)', async () => {
    const unit = units.find((u) => stored.get(u.id) === 0)!;
    const res = await admin.put(`/api/corporativos/${corpId}/unidades/${unit.id}/precio`, {
      precio: unit.precio + 10_000,
      precioAnterior: unit.precio,
    });
    expect(res.status).toBe(200);
    expect(res.json.precio).toBe(unit.precio + 10_000);
  });
});
