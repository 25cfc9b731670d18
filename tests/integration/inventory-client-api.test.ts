import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import type { Development } from '../../src/core/types';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, login } from './support/http';

describeBackends('favourite developments and documents', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: ReturnType<typeof client>;
  let pacifico: ReturnType<typeof client>;
  let asesorId: string;
  let horizonteId: string;
  let alameda: Development;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    asesor = client(app, await login(app, 'asesor@vitrina.demo'));
    pacifico = client(app, await login(app, 'asesor.pacifico@vitrina.demo'));
    asesorId = (await asesor.get('/api/auth/session')).json.id;
    horizonteId = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json.id;
    alameda = (
      await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${horizonteId}&slug=torre-alameda`)
    ).json;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('toggles a favourite development: added, then removed, each time as an event', async () => {
    const path = `/api/users/${asesorId}/desarrollos-favoritos`;
    const body = { idCorporativo: horizonteId, idDesarrollo: alameda.id };
    const added = await asesor.put(path, body);
    expect(added.status).toBe(200);
    expect(added.json.desarrollosFavoritos[horizonteId][alameda.id]).toBe(true);
    const reread = await asesor.get(`/api/wsObtenerUsuario?id=${asesorId}`);
    expect(reread.json.desarrollosFavoritos[horizonteId][alameda.id]).toBe(true);

    const removed = await asesor.put(path, body);
    expect(removed.status).toBe(200);
    expect(removed.json.desarrollosFavoritos[horizonteId]?.[alameda.id]).toBeUndefined();

    const events = await rt.deps.store.readStream(`user:${asesorId}`);
    const types = events.map((e) => e.type).filter((t) => t.startsWith('Development'));
    expect(types.slice(-2)).toEqual(['DevelopmentFavourited', 'DevelopmentUnfavourited']);
  });

  it('refuses favourites for another user, another corporate, unknown developments and extra fields', async () => {
    const mine = `/api/users/${asesorId}/desarrollos-favoritos`;
    const pacificoId = (await pacifico.get('/api/auth/session')).json.id;
    expect(
      (
        await asesor.put(`/api/users/${pacificoId}/desarrollos-favoritos`, {
          idCorporativo: horizonteId,
          idDesarrollo: alameda.id,
        })
      ).status,
    ).toBe(403);
    const foreign = await pacifico.put(`/api/users/${pacificoId}/desarrollos-favoritos`, {
      idCorporativo: horizonteId,
      idDesarrollo: alameda.id,
    });
    expect(foreign.status).toBe(403);
    expect(foreign.json[0].message).toBe('No tienes permisos para ver el corporativo');
    expect(
      (await asesor.put(mine, { idCorporativo: horizonteId, idDesarrollo: 'dev-nope' })).status,
    ).toBe(404);
    const extra = await asesor.put(mine, {
      idCorporativo: horizonteId,
      idDesarrollo: alameda.id,
      esAdmin: true,
    });
    expect(extra.status).toBe(400);
  });

  it('answers wsObtenerDocumento with the metadata and a media url that serves the file', async () => {
    const doc = alameda.documentos[0]!;
    const res = await asesor.get(
      `/api/wsObtenerDocumento?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}&idDocumento=${doc.id}`,
    );
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: doc.id,
      titulo: 'Brochure',
      idMedia: doc.idMedia,
      contentType: 'application/pdf',
      url: `/api/media/${doc.idMedia}`,
    });
    // A member's session reads the file; signed out, a document is not found (issue 13).
    const file = await asesor.get(res.json.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect((file.json as string).startsWith('%PDF')).toBe(true);
    expect((await app.request(res.json.url)).status).toBe(404);
  });

  it('refuses documents of another corporate, unknown ids and missing parameters', async () => {
    const doc = alameda.documentos[0]!;
    const foreign = await pacifico.get(
      `/api/wsObtenerDocumento?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}&idDocumento=${doc.id}`,
    );
    expect(foreign.status).toBe(403);
    const unknown = await asesor.get(
      `/api/wsObtenerDocumento?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}&idDocumento=doc-nope`,
    );
    expect(unknown.status).toBe(404);
    expect(unknown.json[0]).toEqual({
      errorCode: 'DOCUMENT_NOT_FOUND',
      message: 'No se encontró el documento',
    });
    const missing = await asesor.get(`/api/wsObtenerDocumento?idCorporativo=${horizonteId}`);
    expect(missing.status).toBe(400);
    const anonymous = await client(app).get(
      `/api/wsObtenerDocumento?idCorporativo=${horizonteId}&idDesarrollo=${alameda.id}&idDocumento=${doc.id}`,
    );
    expect(anonymous.status).toBe(401);
  });
});
