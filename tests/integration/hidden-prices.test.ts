/**
 * Hidden prices (issue 13, defect 9): brokers, advisers and managers got the price and price
 * history of every unit whose status hides the price. The API omits a hidden price for everyone
 * but roles that administer the inventory, on every route: unit lists, the cluster (unit
 * detail), history, holds and their refusals, quotations, the public pages and the live stream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultStatusColors } from '../../src/core/status';
import type { Corporate, Development, Role, Unit, User } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { liveMessage } from '../../src/server/live/routes';
import type { StoredEvent } from '../../src/server/store/event-store';
import { describeBackends, openSeeded } from './support/backends';
import { client, signedIn } from './support/http';
import { changeCorporateSettings } from './support/catalogue';

type Client = ReturnType<typeof client>;
const HIDDEN = ['Apartado', 'Bloqueado', 'Reservado', 'Vendido', 'No Disponible', 'Incompleto'];

describeBackends('hidden prices', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let admin: Client;
  const members: Record<string, Client> = {};
  const ids: Record<string, string> = {};
  let corp: Corporate;
  let dev: Development;
  let units: Unit[];
  const withStatus = (status: string) => units.find((u) => u.status === status)!;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    admin = await signedIn(app, 'admin@vitrina.demo', ids);
    for (const email of ['asesor@vitrina.demo', 'broker@vitrina.demo', 'gerente@vitrina.demo'])
      members[email] = await signedIn(app, email, ids);
    corp = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    dev = (await admin.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`))
      .json;
    units = (
      await admin.get(`/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`)
    ).json.flatMap((c: { unidades: Unit[] }) => c.unidades);
    for (const status of ['Disponible', 'Vendido', 'Apartado'])
      expect(withStatus(status), status).toBeDefined();
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const assertRedacted = (list: Partial<Unit>[], who: string) => {
    expect(list.length).toBeGreaterThan(0);
    for (const u of list) {
      if (HIDDEN.includes(u.status ?? '') || !u.status) {
        expect(u, `${who} ${u.status}`).not.toHaveProperty('precio');
        expect(u, `${who} ${u.status}`).not.toHaveProperty('precioRenta');
      } else if (u.status === 'Disponible') {
        expect(typeof u.precio, `${who} Disponible`).toBe('number');
      }
    }
  };

  it('unit lists and the cluster (unit detail): hidden prices omitted for adviser, broker and manager; whole for the inventory administrator', async () => {
    const clustersPath = `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`;
    const vendido = withStatus('Vendido');
    const clusterPath = `/api/corporativos/${corp.id}/desarrollos/${dev.id}/clusters/${vendido.idCluster}`;
    for (const [email, who] of Object.entries(members)) {
      const list = (await who.get(clustersPath)).json.flatMap(
        (c: { unidades: Unit[] }) => c.unidades,
      );
      assertRedacted(list, email);
      expect(list.filter((u: Unit) => HIDDEN.includes(u.status ?? '')).length).toBeGreaterThan(0);
      const cluster = await who.get(clusterPath);
      expect(cluster.status).toBe(200);
      assertRedacted(cluster.json.unidades, email);
    }
    const all = (await admin.get(clustersPath)).json.flatMap(
      (c: { unidades: Unit[] }) => c.unidades,
    );
    expect(all.every((u: Unit) => typeof u.precio === 'number')).toBe(true);
    const detail = (await admin.get(clusterPath)).json.unidades as Unit[];
    expect(detail.find((u) => u.id === vendido.id)!.precio).toBe(vendido.precio);
  });

  it('history: the price lines of a hidden price only for the inventory administrator', async () => {
    const vendido = withStatus('Vendido');
    const path = `/api/corporativos/${corp.id}/unidades/${vendido.id}`;
    const newPrice = vendido.precio + 123_457;
    const changed = await admin.put(`${path}/precio`, {
      precio: newPrice,
      precioAnterior: vendido.precio,
    });
    expect(changed.status).toBe(200);
    expect(changed.json.precio).toBe(newPrice);
    const adminHistory = (await admin.get(`${path}/historial`)).json as { campo: string }[];
    expect(adminHistory.some((l) => l.campo === 'precio')).toBe(true);
    for (const [email, who] of Object.entries(members)) {
      const res = await who.get(`${path}/historial`);
      expect(res.status, email).toBe(200);
      expect((res.json as { campo: string }[]).some((l) => l.campo === 'precio')).toBe(false);
      expect(JSON.stringify(res.json)).not.toContain(String(newPrice));
      expect(JSON.stringify(res.json)).not.toContain(String(vendido.precio));
    }
    // A visible price keeps its history for everyone.
    const disponible = withStatus('Disponible');
    const dpath = `/api/corporativos/${corp.id}/unidades/${disponible.id}`;
    await admin.put(`${dpath}/precio`, {
      precio: disponible.precio + 1,
      precioAnterior: disponible.precio,
    });
    const seen = (await members['asesor@vitrina.demo']!.get(`${dpath}/historial`)).json;
    expect(seen.some((l: { campo: string }) => l.campo === 'precio')).toBe(true);
  });

  it('holds: the held unit and a refused hold carry no hidden price', async () => {
    const asesor = members['asesor@vitrina.demo']!;
    const newLead = async (n: number) => {
      const res = await asesor.post(`/api/corporativos/${corp.id}/leads`, {
        nombre: 'Cliente',
        apellidos: `Precio oculto ${n}`,
        email: `precio.oculto${n}@example.com`,
        telefono: `55 3000 100${n}`,
        medioContacto: 'Showroom',
      });
      expect(res.status).toBe(201);
      return res.json as { id: string };
    };
    const lead = await newLead(1);
    const other = await newLead(2);
    const unit = units.filter((u) => u.status === 'Disponible').at(-1)!;
    const url = `/api/corporativos/${corp.id}/unidades/${unit.id}/apartado`;
    const held = await asesor.post(url, { idLead: lead.id, statusAnterior: 'Disponible' });
    expect(held.status).toBe(200);
    expect(held.json.status).toBe('Apartado');
    expect(held.json).not.toHaveProperty('precio');
    // Held already: a hold for another lead is refused with the unit as it is.
    const again = await asesor.post(url, { idLead: other.id, statusAnterior: 'Apartado' });
    expect(again.status).toBe(409);
    expect(again.json[0].unidad.status).toBe('Apartado');
    expect(again.json[0].unidad).not.toHaveProperty('precio');
    const released = await asesor.del(url);
    expect(released.status).toBe(200);
    expect(released.json.precio).toBe(unit.precio);
  });

  it('quotations: a status a corporate makes quotable with its price hidden cannot be quoted by an adviser (403 PRICE_NOT_VISIBLE), nothing written; the administrator can', async () => {
    const colors = { ...defaultStatusColors(), ...corp.coloresStatus };
    colors.Vendido = { ...colors.Vendido!, esCotizable: true, esPrecioVisible: false };
    const settings = (coloresStatus: Corporate['coloresStatus']) =>
      changeCorporateSettings(rt, corp.id, { coloresStatus });
    await settings(colors);
    try {
      const vendido = withStatus('Vendido');
      const body = {
        idUnidad: vendido.id,
        idEsquema: dev.esquemasPago.find((s) => !s.idCluster)!.id,
        divisa: 'MXN',
        nuevoLead: { nombre: 'Cotiza', apellidos: 'Oculto' },
      };
      const count = async () =>
        (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
      const before = await count();
      const refused = await members['asesor@vitrina.demo']!.post(
        `/api/corporativos/${corp.id}/cotizaciones`,
        body,
      );
      expect(refused.status).toBe(403);
      expect(refused.json[0].errorCode).toBe('PRICE_NOT_VISIBLE');
      expect(JSON.stringify(refused.json)).not.toContain(String(vendido.precio));
      expect(await count()).toBe(before);
      const quoted = await admin.post(`/api/corporativos/${corp.id}/cotizaciones`, {
        ...body,
        nuevoLead: { nombre: 'Cotiza', apellidos: 'Admin' },
      });
      expect(quoted.status, JSON.stringify(quoted.json)).toBe(201);
    } finally {
      await settings(corp.coloresStatus);
    }
  });

  it('public pages: no hidden price for visitors', async () => {
    const res = await client(createApp(rt.deps)).get(
      `/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad`,
    );
    expect(res.status).toBe(200);
    assertRedacted(
      res.json.clusters.flatMap((c: { unidades: Unit[] }) => c.unidades),
      'visitor',
    );
  });
});

describe('the live stream', () => {
  const role = (administrarInventario: boolean): Role => ({
    id: 'r',
    nombre: 'R',
    permisos: { administrarInventario },
    permisosLeads: { alcanceLeads: 'Todos' },
    permisosUsuarios: {},
  });
  const viewer = (administrarInventario: boolean) => ({
    user: { id: 'u' } as User,
    roles: new Map([['corp', role(administrarInventario)]]),
  });
  const event = {
    id: 'e',
    type: 'UnitPriceChanged',
    streamId: 'unit:corp:u1',
    version: 2,
    corporateId: 'corp',
    actorId: 'a',
    occurredAt: '2026-01-01T00:00:00.000Z',
    data: { idUnidad: 'u1', from: 1_000_000, to: 1_250_000 },
  } as unknown as StoredEvent;

  it('sends a new price only to those who administer the inventory; others are told to read the unit again', () => {
    expect(liveMessage(event, viewer(true))).toMatchObject({ idUnidad: 'u1', precio: 1_250_000 });
    const other = liveMessage(event, viewer(false))!;
    expect(other).toMatchObject({ type: 'UnitPriceChanged', idUnidad: 'u1' });
    expect(other).not.toHaveProperty('precio');
    expect(JSON.stringify(other)).not.toContain('1250000');
  });
});
