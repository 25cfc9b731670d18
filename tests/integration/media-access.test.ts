/**
 * Media is served anonymously only when a public page shows it (issue 13, defect 3): the
 * corporate's logo, a web development's cover, logo and gallery. Documents (the price list) and
 * other media only to approved members of the corporate that owns them.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, Development } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded } from './support/backends';
import { demoAlameda, publishDevelopment } from './support/catalogue';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('media access', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let asesor: Client;
  let pacifico: Client;
  let anonymous: Client;
  let corp: Corporate;
  let alameda: Development;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rt = await openSeeded(backend);
    const app = createApp(rt.deps);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    pacifico = await signedIn(app, 'asesor.pacifico@vitrina.demo', ids);
    anonymous = client(app);
    ({ corp, alameda } = await demoAlameda(asesor));
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const both = async (who: Client, id: string) => {
    const bytes = await who.get(`/api/media/${id}`);
    const info = await who.get(`/api/wsObtenerMedias?id=${id}`);
    return { bytes, info };
  };

  it('a document (the price list) reaches members of its corporate only', async () => {
    const priceList = alameda.documentos.find((d) => d.titulo === 'Lista de precios')!;
    expect(priceList).toBeDefined();
    const events = await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');

    const member = await both(asesor, priceList.idMedia);
    expect(member.bytes.status).toBe(200);
    expect(member.bytes.headers.get('content-type')).toContain('application/pdf');
    expect(member.bytes.headers.get('cache-control')).toMatch(/^private/);
    expect(member.info.status).toBe(200);
    expect(member.info.json.nombre).toMatch(/lista de precios/i);

    for (const who of [anonymous, pacifico]) {
      const { bytes, info } = await both(who, priceList.idMedia);
      expect(bytes.status).toBe(404);
      expect(bytes.json[0].errorCode).toBe('NOT_FOUND');
      expect(info.status).toBe(404);
      expect(JSON.stringify(info.json)).not.toMatch(/lista de precios/i);
    }
    // The answer is the one for an id that does not exist.
    expect((await anonymous.get('/api/media/no-such-media')).status).toBe(404);
    const after = await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    expect(after.rows[0]!.n).toBe(events.rows[0]!.n);
  });

  it('media a public page shows (logo, web cover and gallery) reaches anyone, cacheable', async () => {
    const publicIds = [
      corp.imagen.imagenLogo!,
      alameda.imagenPortada!,
      alameda.imagenLogo!,
      ...alameda.galeria.items.map((i) => i.imagenRef.idMedia),
    ];
    expect(publicIds.every(Boolean)).toBe(true);
    for (const id of publicIds) {
      for (const who of [anonymous, pacifico, asesor]) {
        const { bytes, info } = await both(who, id);
        expect(bytes.status, id).toBe(200);
        expect(bytes.headers.get('cache-control')).toMatch(/^public/);
        expect(info.status).toBe(200);
      }
    }
  });

  it('media of a development taken off the web, and media no public page shows, are for members only', async () => {
    const videos = (alameda.galeriaVideos?.items ?? []).map((i) => i.imagenRef.idMedia);
    const cover = alameda.imagenPortada!;
    await publishDevelopment(rt, corp.id, { ...alameda, enWeb: false });
    try {
      for (const id of [cover, ...videos]) {
        expect((await anonymous.get(`/api/media/${id}`)).status, id).toBe(404);
        expect((await pacifico.get(`/api/media/${id}`)).status, id).toBe(404);
        expect((await asesor.get(`/api/media/${id}`)).status, id).toBe(200);
      }
      // The corporate's logo stays public: the shared quotation and public pages show it.
      expect((await anonymous.get(`/api/media/${corp.imagen.imagenLogo!}`)).status).toBe(200);
    } finally {
      await publishDevelopment(rt, corp.id, alameda);
    }
  });
});
