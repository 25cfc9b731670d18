import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

/**
 * A corporate's own labels per language (issue 19): the demo's English labels served by
 * wsObtenerIdiomas (the buyer's kinds to anyone, every kind to a member), edited by an
 * administrator as an event on the corporate's stream, refused to others and for bad input.
 */
describeBackends('corporate labels (wsObtenerIdiomas, /idiomas)', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let corp: string;
  let pacifico: string;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    const admin = client(app, await login(app, 'admin@vitrina.demo'));
    corp = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    pacifico = (await admin.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json.id;
  }, 120_000);
  afterAll(() => rt.dispose());

  const as = async (email: string) => client(app, await login(app, email));
  const eventCount = async () =>
    Number(
      (await rt.deps.db.query<{ n: string }>('SELECT count(*)::text AS n FROM events')).rows[0]!.n,
    );

  it('serves a signed-out buyer the public kinds in English, by id or slug', async () => {
    const anonymous = client(app);
    for (const key of [corp, 'grupo-horizonte']) {
      const res = await anonymous.get(`/api/wsObtenerIdiomas?idCorporativo=${key}&lang=en`);
      expect(res.status).toBe(200);
      expect(res.json.idCorporativo).toBe(corp);
      expect(res.json.multiIdioma).toBe(true);
      expect(res.json.etiquetas.status.Disponible).toBe('Available');
      expect(res.json.etiquetas.status.Vendido).toBe('Sold');
      expect(res.json.etiquetas.esquema.Contado).toBe('Cash');
      expect(res.json.etiquetas.opcional.Bodega).toBe('Storage room');
      // The state of a stage of houses, on the public site plan.
      expect(res.json.etiquetas.etapa['En obra']).toBe('Under construction');
      // The sales team's words are not the buyer's.
      expect(res.json.etiquetas.statusLead).toBeUndefined();
      expect(res.json.etiquetas.medioContacto).toBeUndefined();
      expect(res.json.etiquetas.clientes).toBeUndefined();
      expect(res.json.etiquetas.rol).toBeUndefined();
      // A development's delivery tags are stage states too.
      expect(res.json.etiquetas.etapa['Entrega 2027']).toBe('Delivery 2027');
    }
    // Spanish has no labels of its own: the stored values are Spanish.
    const es = await anonymous.get(`/api/wsObtenerIdiomas?idCorporativo=${corp}&lang=es`);
    expect(es.json.etiquetas).toEqual({});
  });

  it('serves a member every kind; another corporate’s member only the public ones', async () => {
    const asesor = await as('asesor@vitrina.demo');
    const mine = await asesor.get(`/api/wsObtenerIdiomas?idCorporativo=${corp}&lang=en`);
    expect(mine.json.etiquetas.statusLead['Visita agendada']).toBe('Visit scheduled');
    expect(mine.json.etiquetas.medioContacto['Sitio web']).toBe('Website');
    expect(mine.json.etiquetas.clientes.Clientes).toBe('Clients');
    // The roles' names are the corporate's own words too.
    expect(mine.json.etiquetas.rol['Gerente de ventas']).toBe('Sales manager');
    expect(mine.json.etiquetas.rol.Asesor).toBe('Adviser');
    const other = await asesor.get(`/api/wsObtenerIdiomas?idCorporativo=${pacifico}&lang=en`);
    expect(other.status).toBe(200);
    expect(other.json.etiquetas.statusLead).toBeUndefined();
  });

  it('answers bad input in the error shape: unknown corporate, language, text', async () => {
    const anonymous = client(app);
    const bad = [
      [`/api/wsObtenerIdiomas?idCorporativo=${corp}&lang=fr`, 400],
      [`/api/wsObtenerIdiomas?idCorporativo=${corp}`, 400],
      [`/api/wsObtenerIdiomas?lang=en`, 400],
      [`/api/wsObtenerIdiomas?idCorporativo=no-such-corp&lang=en`, 404],
      [`/api/wsObtenerIdiomas?idCorporativo=%00&lang=en`, 400],
      [`/api/wsObtenerIdiomas?idCorporativo=${corp}&lang=en&extra=1`, 400],
    ] as const;
    for (const [path, status] of bad) {
      const res = await anonymous.get(path, { 'accept-language': 'en' });
      expect(res.status, path).toBe(status);
      expect(Array.isArray(res.json) && res.json[0].message, path).toBeTruthy();
    }
  });

  it('an administrator edits a language’s labels as one event; the same labels write none', async () => {
    const admin = await as('admin@vitrina.demo');
    const editor = await admin.get(`/api/corporativos/${corp}/idiomas`);
    expect(editor.status).toBe(200);
    expect(editor.json.valores.status).toContain('Disponible');
    expect(editor.json.valores.statusLead).toContain('Negociación');
    expect(editor.json.valores.esquema).toContain('Financiamiento a entrega');
    expect(editor.json.valores.opcional).toContain('Bodega');
    // The clusters' stage states and the developments' delivery tags, each once.
    expect(editor.json.valores.etapa).toEqual([
      'En obra',
      'Entrega 2027',
      'Entregada',
      'Etapa 1 entregada',
      'Etapa 2 en obra',
      'Etapa 3 preventa',
      'Preventa',
    ]);
    expect(editor.json.valores.rol).toEqual([
      'Administrador',
      'Administrador de hostess',
      'Asesor',
      'Broker',
      'Gerente de ventas',
    ]);
    expect(editor.json.valores.clientes).toEqual(['Clientes']);
    const en = editor.json.etiquetas.en;

    const before = await eventCount();
    const changed = {
      ...en,
      status: { ...en.status, Disponible: '  For sale ' },
      clientes: { Clientes: 'Buyers' },
      // An empty label is no translation.
      tag: { ...en.tag, Céntrico: '' },
    };
    const res = await admin.put(`/api/corporativos/${corp}/idiomas/en`, { etiquetas: changed });
    expect(res.status).toBe(200);
    expect(res.json.etiquetas.en.status.Disponible).toBe('For sale');
    expect(res.json.etiquetas.en.tag.Céntrico).toBeUndefined();
    expect(await eventCount()).toBe(before + 1);
    const again = await admin.put(`/api/corporativos/${corp}/idiomas/en`, {
      etiquetas: changed,
    });
    expect(again.status).toBe(200);
    expect(await eventCount()).toBe(before + 1);

    const served = await client(app).get(`/api/wsObtenerIdiomas?idCorporativo=${corp}&lang=en`);
    expect(served.json.etiquetas.status.Disponible).toBe('For sale');
    // Put back for the other tests.
    await admin.put(`/api/corporativos/${corp}/idiomas/en`, { etiquetas: en });
  });

  it('refuses others (403 / 401) and bad labels (400), writing nothing', async () => {
    const before = await eventCount();
    const body = { etiquetas: { status: { Disponible: 'X' } } };
    const asesor = await as('asesor@vitrina.demo');
    expect((await asesor.get(`/api/corporativos/${corp}/idiomas`)).status).toBe(403);
    expect((await asesor.put(`/api/corporativos/${corp}/idiomas/en`, body)).status).toBe(403);
    expect((await client(app).put(`/api/corporativos/${corp}/idiomas/en`, body)).status).toBe(401);
    const admin = await as('admin@vitrina.demo');
    // Another corporate: allowed only where the administrator administers it too.
    const foreign = await admin.put(`/api/corporativos/${pacifico}/idiomas/en`, body);
    expect([200, 403]).toContain(foreign.status);
    const afterForeign = await eventCount();
    for (const bad of [
      { etiquetas: { colores: { a: 'b' } } },
      { etiquetas: { status: { Disponible: 'x'.repeat(121) } } },
      { etiquetas: { status: { Disponible: 7 } } },
      { etiquetas: { status: 'Available' } },
      { etiquetas: {}, extra: true },
      'status,Disponible,Available',
    ]) {
      const res = await admin.put(`/api/corporativos/${corp}/idiomas/en`, bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await admin.put(`/api/corporativos/${corp}/idiomas/fr`, body)).status).toBe(400);
    expect(await eventCount()).toBe(afterForeign);
    expect(afterForeign - before).toBeLessThanOrEqual(1);
  });
});
