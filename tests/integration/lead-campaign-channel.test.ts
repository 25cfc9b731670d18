/**
 * Issue 20 item 4 (spec §3 `campanias`): a lead's channel may be one of the campaigns of its
 * development of interest, as the lead editor offers them; any other value stays refused.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('a lead’s channel may be a campaign of its development', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: ReturnType<typeof client>;
  let asesor: ReturnType<typeof client>;
  let corpId: string;
  let dev: { id: string };
  let other: { id: string };
  // An error answer is the spec's one-element array.
  const details = (json: unknown) =>
    (Array.isArray(json) ? json[0] : (json as { details?: unknown })).details as unknown;
  const leadsUrl = () => `/api/corporativos/${corpId}/leads`;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    admin = client(app, await login(app, 'admin@vitrina.demo'));
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    const list = (await admin.get(`/api/wsObtenerDesarrollos?idCorporativo=${corpId}`)).json as {
      id: string;
      slug: string;
    }[];
    dev = list.find((d) => d.slug === 'torre-alameda')!;
    other = list.find((d) => d.slug !== 'torre-alameda')!;
    const put = await admin.put(`/api/corporativos/${corpId}/desarrollos/${dev.id}/ajustes`, {
      campanias: ['Feria Inmobiliaria 2026'],
    });
    expect(put.status, JSON.stringify(put.json)).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await rt.dispose();
  });

  it('creates and edits a lead whose channel is its development’s campaign; another development’s lead may not take it', async () => {
    const created = await asesor.post(leadsUrl(), {
      nombre: 'Campaña',
      apellidos: 'Feria',
      email: 'feria2026@example.com',
      desarrollo: dev.id,
      medioContacto: 'Feria Inmobiliaria 2026',
    });
    expect(created.status, JSON.stringify(created.json)).toBe(201);
    const lead = created.json;
    expect(lead.medioContacto).toBe('Feria Inmobiliaria 2026');

    // Back to a corporate channel, then to the campaign again through the editor's PUT.
    const toShowroom = await asesor.put(`${leadsUrl()}/${lead.id}`, {
      medioContacto: 'Showroom',
      leadAnterior: { medioContacto: 'Feria Inmobiliaria 2026' },
    });
    expect(toShowroom.status, JSON.stringify(toShowroom.json)).toBe(200);
    const back = await asesor.put(`${leadsUrl()}/${lead.id}`, {
      medioContacto: 'Feria Inmobiliaria 2026',
      leadAnterior: { medioContacto: 'Showroom' },
    });
    expect(back.status, JSON.stringify(back.json)).toBe(200);

    // Changing the development and the channel together checks the new development's campaigns.
    const moved = await asesor.put(`${leadsUrl()}/${lead.id}`, {
      desarrollo: other.id,
      medioContacto: 'Feria Inmobiliaria 2026',
      leadAnterior: { desarrollo: dev.id, medioContacto: 'Feria Inmobiliaria 2026' },
    });
    expect(moved.status).toBe(400);
    expect(details(moved.json)).toEqual([{ path: 'medioContacto', code: 'unknown_value' }]);

    const elsewhere = await asesor.post(leadsUrl(), {
      nombre: 'Otra',
      apellidos: 'Feria',
      email: 'otra.feria@example.com',
      desarrollo: other.id,
      medioContacto: 'Feria Inmobiliaria 2026',
    });
    expect(elsewhere.status).toBe(400);
    expect(details(elsewhere.json)).toEqual([{ path: 'medioContacto', code: 'unknown_value' }]);
  });
});
