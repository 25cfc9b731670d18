/**
 * Issue 20: the featured-developments document (spec §3 "featured developments (items)") and
 * the tutorials (spec §3 "tutorials (activo)", §7 `wsObtenerTutoriales`), per corporate.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Tutorial } from '../../src/core/tutorials';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('featured developments and tutorials', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let admin: ReturnType<typeof client>;
  let asesor: ReturnType<typeof client>;
  let pacifico: ReturnType<typeof client>;
  let corpId: string;
  let pacificoId: string;
  let devs: { id: string; slug: string }[];

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    pacifico = client(app, await login(app, 'asesor.pacifico@vitrina.demo'));
    corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    pacificoId = (await pacifico.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json
      .id;
    devs = (await admin.get(`/api/wsObtenerDesarrollos?idCorporativo=${corpId}`)).json;
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('destacados: the seed writes the document (items: development ids); members read it', async () => {
    const res = await asesor.get(`/api/wsObtenerDestacados?idCorporativo=${corpId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.json)).toEqual(['items']);
    const ids = new Set(devs.map((d) => d.id));
    expect(res.json.items.length).toBeGreaterThan(0);
    for (const id of res.json.items) expect(ids.has(id)).toBe(true);
    // Another corporate's member: 403.
    expect((await pacifico.get(`/api/wsObtenerDestacados?idCorporativo=${corpId}`)).status).toBe(
      403,
    );
  });

  it('destacados: the administrator picks and orders them; an adviser may not; another corporate’s development is refused', async () => {
    const order = devs.map((d) => d.id).reverse();
    const put = (who: typeof admin, items: string[]) =>
      who.put(`/api/corporativos/${corpId}/destacados`, { items });
    expect((await put(asesor, order)).status).toBe(403);
    const saved = await put(admin, [...order, order[0]!]);
    expect(saved.status).toBe(200);
    expect(saved.json).toEqual({ items: order });
    expect(
      (await asesor.get(`/api/wsObtenerDestacados?idCorporativo=${corpId}`)).json.items,
    ).toEqual(order);
    const foreign = (await pacifico.get(`/api/wsObtenerDesarrollos?idCorporativo=${pacificoId}`))
      .json[0].id as string;
    const bad = await put(admin, [foreign]);
    expect(bad.status).toBe(400);
    expect(bad.json[0].errorCode).toBe('FEATURED_INVALID');
    expect((await put(admin, ['x\u0000y'])).status).toBe(400);
    // The same order again writes nothing.
    const count = async () =>
      (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
    const before = await count();
    expect((await put(admin, order)).status).toBe(200);
    expect(await count()).toBe(before);
  });

  it('wsObtenerTutoriales answers the active tutorials in order; the administrator creates, edits, deactivates and reorders them', async () => {
    const active = await asesor.get(`/api/wsObtenerTutoriales?idCorporativo=${corpId}`);
    expect(active.status).toBe(200);
    const seeded = active.json as Tutorial[];
    expect(seeded.map((t) => t.es.titulo)).toEqual([
      'Cotizar una unidad',
      'Registrar un cliente',
      'Comparar unidades',
    ]);
    expect(seeded.every((t) => t.activo)).toBe(true);
    expect(seeded[0]!.en.titulo).toBe('Quote a unit');

    expect((await asesor.get(`/api/corporativos/${corpId}/tutoriales`)).status).toBe(403);
    const all = (await admin.get(`/api/corporativos/${corpId}/tutoriales`)).json as Tutorial[];
    // Deactivate the first, move the last to the top, add one.
    const nuevo: Tutorial = {
      id: 'tut-cita',
      activo: true,
      orden: 0,
      es: { titulo: ' Agendar una cita ', pasos: ['Abre el cliente.', ' ', 'Pulsa «Cita».'] },
      en: { titulo: 'Book an appointment', pasos: ['Open the client.', 'Press “Appointment”.'] },
    };
    const list = [all[2]!, { ...all[0]!, activo: false }, all[1]!, nuevo];
    const saved = await admin.put(`/api/corporativos/${corpId}/tutoriales`, { tutoriales: list });
    expect(saved.status).toBe(200);
    expect((saved.json as Tutorial[]).map((t) => [t.id, t.orden, t.activo])).toEqual([
      ['tut-comparar', 1, true],
      ['tut-cotizar', 2, false],
      ['tut-cliente', 3, true],
      ['tut-cita', 4, true],
    ]);
    expect((saved.json as Tutorial[])[3]!.es).toEqual({
      titulo: 'Agendar una cita',
      pasos: ['Abre el cliente.', 'Pulsa «Cita».'],
    });
    const shown = (await asesor.get(`/api/wsObtenerTutoriales?idCorporativo=${corpId}`))
      .json as Tutorial[];
    expect(shown.map((t) => t.id)).toEqual(['tut-comparar', 'tut-cliente', 'tut-cita']);

    // A tutorial without an English title, or repeated ids: 400 with the fields.
    const bad = await admin.put(`/api/corporativos/${corpId}/tutoriales`, {
      tutoriales: [{ ...nuevo, en: { titulo: '', pasos: ['x'] } }, nuevo],
    });
    expect(bad.status).toBe(400);
    expect(bad.json[0].errorCode).toBe('TUTORIAL_INVALID');
    expect(bad.json[0].campos).toEqual(['0.en.titulo', 'id']);
    expect(
      (await admin.put(`/api/corporativos/${corpId}/tutoriales`, { tutoriales: 'no' })).status,
    ).toBe(400);
    // Pacífico's tutorials are its own.
    const other = (await pacifico.get(`/api/wsObtenerTutoriales?idCorporativo=${pacificoId}`))
      .json as Tutorial[];
    expect(other.map((t) => t.id)).toEqual(['tut-cotizar', 'tut-cliente', 'tut-comparar']);
  });
});
