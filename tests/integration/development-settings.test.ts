/**
 * Issue 20 item 4: a development's settings the spec names (§3 Development: menu,
 * reedireccionarLandingPage, landingPage, campanias, caracteristicasUnidad, subcategorias,
 * proyecto, configVistaNivel.mostrarColorIndependienteFachada "true when absent"; message
 * template (prospecto, developmentId)), edited by the administrator as events; a capture's
 * `medio` may name one of the development's campaigns.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('development settings', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: ReturnType<typeof client>;
  let asesor: ReturnType<typeof client>;
  let corpId: string;
  let dev: { id: string; slug: string };
  let foreignDev: string;
  const url = () => `/api/corporativos/${corpId}/desarrollos/${dev.id}/ajustes`;
  const settingsEvents = async () =>
    (
      await rt.deps.db.query<{ data: { changes: Record<string, unknown> } }>(
        `SELECT data FROM events WHERE type = 'DevelopmentSettingsChanged' AND stream_id LIKE $1 ORDER BY global_position`,
        [`%${dev.id}`],
      )
    ).rows.map((r) => r.data.changes);

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    dev = (await admin.get(`/api/wsObtenerDesarrollo?idCorporativo=${corpId}&slug=torre-alameda`))
      .json;
    const pac = client(app, await login(app, 'asesor.pacifico@vitrina.demo'));
    const pacId = (await pac.get('/api/wsObtenerCorporativo?slug=desarrollos-pacifico')).json.id;
    foreignDev = (await pac.get(`/api/wsObtenerDesarrollos?idCorporativo=${pacId}`)).json[0].id;
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('the public landing answer is null while redirection is off, 404 for an unknown development', async () => {
    const res = await app.request(
      `/api/public/corporativos/grupo-horizonte/desarrollos/${dev.slug}/landing`,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ landingPage: null });
    expect(
      (await app.request('/api/public/corporativos/grupo-horizonte/desarrollos/nada/landing'))
        .status,
    ).toBe(404);
  });

  it('GET ajustes: the defaults — every sub-page in order, mostrarColorIndependienteFachada true when absent, no landing, no template', async () => {
    const res = await admin.get(url());
    expect(res.status).toBe(200);
    expect(res.json.menu[0]).toBe('presentacion');
    expect(res.json.menu).toContain('disponibilidad');
    expect(res.json.reedireccionarLandingPage).toBe(false);
    expect(res.json.landingPage).toBe('');
    expect(res.json.configVistaNivel).toEqual({ mostrarColorIndependienteFachada: true });
    expect(res.json.plantillaMensaje).toEqual({ prospecto: '', developmentId: dev.id });
    expect((await asesor.get(url())).status).toBe(403);
    expect(
      (await admin.get(`/api/corporativos/${corpId}/desarrollos/${foreignDev}/ajustes`)).status,
    ).toBe(404);
  });

  it('PUT ajustes records only the changed fields as DevelopmentSettingsChanged; the development document carries them', async () => {
    const body = {
      menu: ['presentacion', 'cotizacion', 'disponibilidad', 'cotizacion'],
      reedireccionarLandingPage: true,
      landingPage: ' https://alameda.example.com/landing ',
      campanias: ['Feria Inmobiliaria 2026', ' ', 'Facebook Ads'],
      caracteristicasUnidad: ['Balcón', 'Cuarto de servicio'],
      subcategorias: ['Lujo'],
      proyecto: 'Alameda Fase 1',
      configVistaNivel: { mostrarColorIndependienteFachada: false },
      plantillaMensaje: {
        prospecto: 'Hola {nombre}, soy {asesor} de {desarrollo}.',
        developmentId: 'otro',
      },
    };
    const publicAvailability = async () => {
      const res = await app.request(
        `/api/public/corporativos/grupo-horizonte/desarrollos/${dev.slug}/disponibilidad`,
      );
      expect(res.status).toBe(200);
      return ((await res.json()) as { desarrollo: Record<string, unknown> }).desarrollo;
    };
    // The public availability follows the same settings (read once before: its ready answer is
    // kept per catalogue revision, which the change must move).
    expect((await publicAvailability()).configVistaNivel).toEqual({
      mostrarColorIndependienteFachada: true,
    });
    const res = await admin.put(url(), body);
    expect(res.status).toBe(200);
    const shown = await publicAvailability();
    expect(shown.configVistaNivel).toEqual({ mostrarColorIndependienteFachada: false });
    expect(shown.caracteristicasUnidad).toEqual(['Balcón', 'Cuarto de servicio']);
    expect(res.json.menu).toEqual(['presentacion', 'cotizacion', 'disponibilidad']);
    expect(res.json.landingPage).toBe('https://alameda.example.com/landing');
    expect(res.json.campanias).toEqual(['Feria Inmobiliaria 2026', 'Facebook Ads']);
    expect(res.json.plantillaMensaje).toEqual({
      prospecto: 'Hola {nombre}, soy {asesor} de {desarrollo}.',
      developmentId: dev.id,
    });
    const doc = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${corpId}&slug=${dev.slug}`)
    ).json;
    expect(doc.menu).toEqual(['presentacion', 'cotizacion', 'disponibilidad']);
    expect(doc.configVistaNivel).toEqual({ mostrarColorIndependienteFachada: false });
    expect(doc.proyecto).toBe('Alameda Fase 1');
    expect(doc.caracteristicasUnidad).toEqual(['Balcón', 'Cuarto de servicio']);
    expect(doc.subcategorias).toEqual(['Lujo']);
    // The public pages' landing: the visitor is sent there (signed out).
    const landing = await app.request(
      `/api/public/corporativos/grupo-horizonte/desarrollos/${dev.slug}/landing`,
    );
    expect(await landing.json()).toEqual({ landingPage: 'https://alameda.example.com/landing' });
    let events = await settingsEvents();
    expect(events).toHaveLength(1);
    // The same again: nothing; one field: only that field.
    expect((await admin.put(url(), body)).status).toBe(200);
    expect(await settingsEvents()).toHaveLength(1);
    expect((await admin.put(url(), { ...body, proyecto: 'Alameda Fase 2' })).status).toBe(200);
    events = await settingsEvents();
    expect(events.at(-1)).toEqual({ proyecto: 'Alameda Fase 2' });
  });

  it('refuses what is not valid: an unknown page, an http landing page, redirection without one, another role', async () => {
    expect((await admin.put(url(), { menu: ['nope'] })).status).toBe(400);
    const http = await admin.put(url(), { landingPage: 'http://alameda.example.com' });
    expect(http.status).toBe(400);
    expect(http.json[0]).toMatchObject({ errorCode: 'SETTINGS_INVALID', campos: ['landingPage'] });
    const empty = await admin.put(url(), { reedireccionarLandingPage: true, landingPage: '' });
    expect(empty.json[0].campos).toEqual(['landingPage']);
    expect((await admin.put(url(), { menu: [] })).status).toBe(400);
    expect((await admin.put(url(), { proyecto: 'a\u0000b' })).status).toBe(400);
    expect((await asesor.put(url(), { proyecto: 'x' })).status).toBe(403);
  });

  it('a capture whose medio names one of the development’s campaigns is that campaign’s lead; an unknown medio is refused', async () => {
    const capture = (medio: string, email: string, desarrollo?: string) =>
      app.request(`/api/public/registro?medio=${encodeURIComponent(medio)}&corp=grupo-horizonte`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
        body: JSON.stringify({ nombre: 'Campaña', email, ...(desarrollo ? { desarrollo } : {}) }),
      });
    const ok = await capture('facebook ads', 'campania@example.com', dev.slug);
    expect(ok.status, await ok.clone().text()).toBe(202);
    const { rows } = await rt.deps.db.query<{ medio: string }>(
      `SELECT doc->>'medioContacto' AS medio FROM rm_leads WHERE doc->>'email' = 'campania@example.com'`,
    );
    expect(rows[0]?.medio).toBe('Facebook Ads');
    expect((await capture('Facebook Ads', 'sin-desarrollo@example.com')).status).toBe(400);
    expect((await capture('Radio', 'radio@example.com', dev.slug)).status).toBe(400);
  });
});
