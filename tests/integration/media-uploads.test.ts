/**
 * Media uploads and range requests (issue 20, items 9 and 10): administrators upload gallery
 * images, documents and videos, typed from their bytes and streamed to the media directory under
 * per-kind limits; the JSON body cap stays at 1 MiB everywhere else; media answers Range requests
 * (206, Accept-Ranges, Content-Range) and 416 for a range outside the file.
 */
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, Development } from '../../src/core/types';
import { MAX_IMAGE_BYTES } from '../../src/core/media';
import { createApp } from '../../src/server/app';
import { describeBackends, openSeeded } from './support/backends';
import { client, login, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

const PNG = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...new Array<number>(120).fill(7),
]);
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');
/** An MP4's first box (`ftyp isom`) and then filler: enough for the type and for ranges. */
const MP4 = (() => {
  const bytes = new Uint8Array(4096);
  bytes.set([0, 0, 0, 0x18], 0);
  bytes.set(new TextEncoder().encode('ftypisom'), 4);
  for (let i = 24; i < bytes.length; i++) bytes[i] = i % 251;
  return bytes;
})();

describeBackends('media uploads', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let adminCookie: string;
  let asesor: Client;
  let admin: Client;
  let corp: Corporate;
  let alameda: Development;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    adminCookie = await login(app, 'admin@vitrina.demo');
    admin = client(app, adminCookie);
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    corp = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json;
    alameda = (
      await admin.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
    ).json;
  });
  afterAll(async () => {
    await rt.dispose();
  });

  const uploadPath = (query: Record<string, string>) =>
    `/api/corporativos/${corp.id}/desarrollos/${alameda.id}/medios?${new URLSearchParams(query)}`;

  const upload = async (
    query: Record<string, string>,
    body: BodyInit,
    type = 'application/octet-stream',
    cookie = adminCookie,
  ) => {
    const res = await app.request(uploadPath(query), {
      method: 'POST',
      headers: { cookie, 'content-type': type },
      body,
      // A stream body needs half duplex.
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null, headers: res.headers };
  };

  const development = async () =>
    (await admin.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`))
      .json as Development;

  it('an image goes to the gallery, its bytes to a file, its record to events', async () => {
    const before = await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    const res = await upload({ tipo: 'imagen', titulo: 'Terraza' }, PNG, 'image/png');
    expect(res.status).toBe(201);
    expect(res.json.contentType).toBe('image/png');
    expect(res.json.bytes).toBe(PNG.length);
    const idMedia = res.json.idMedia as string;
    const dev = await development();
    expect(dev.galeria.items.at(-1)).toEqual({ titulo: 'Terraza', imagenRef: { idMedia } });
    expect(readdirSync(rt.deps.mediaDir!)).toContain(`${idMedia}.png`);
    const events = await rt.deps.db.query<{ type: string }>(
      'SELECT type FROM events ORDER BY global_position DESC LIMIT 2',
    );
    expect(events.rows.map((r) => r.type).sort()).toEqual([
      'DevelopmentMediaAdded',
      'MediaUploaded',
    ]);
    const after = await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n + 2);
    const bytes = await app.request(`/api/media/${idMedia}`, { headers: { cookie: adminCookie } });
    expect(bytes.status).toBe(200);
    expect(bytes.headers.get('content-type')).toBe('image/png');
    expect(bytes.headers.get('accept-ranges')).toBe('bytes');
    expect(new Uint8Array(await bytes.arrayBuffer())).toEqual(PNG);
  });

  it('the type comes from the content: a PDF declared and named as an image is refused', async () => {
    const res = await upload({ tipo: 'imagen', titulo: 'foto.png' }, PDF, 'image/png');
    expect(res.status).toBe(415);
    expect(res.json[0].errorCode).toBe('MEDIA_TYPE');
    expect(res.json[0].message).toMatch(/image\/png/);
    // Text that only looks like a name: refused too.
    const text = await upload({ tipo: 'documento', titulo: 'x.pdf' }, 'hello', 'application/pdf');
    expect(text.status).toBe(415);
    // A PDF as a document is taken whatever the declared type.
    const doc = await upload({ tipo: 'documento', titulo: 'Ficha técnica' }, PDF);
    expect(doc.status).toBe(201);
    expect(doc.json.contentType).toBe('application/pdf');
    const dev = await development();
    expect(dev.documentos.at(-1)).toMatchObject({
      titulo: 'Ficha técnica',
      idMedia: doc.json.idMedia,
    });
    expect(readdirSync(rt.deps.mediaDir!).some((f) => f.endsWith('.part'))).toBe(false);
  });

  it('a body over the kind’s limit is stopped while streaming (413) and leaves no file', async () => {
    const chunk = new Uint8Array(1024 * 1024);
    chunk.set(PNG.subarray(0, 8));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > MAX_IMAGE_BYTES + chunk.length) return controller.close();
        controller.enqueue(sent === 0 ? chunk : new Uint8Array(chunk.length));
        sent += chunk.length;
      },
    });
    const files = readdirSync(rt.deps.mediaDir!).length;
    const res = await upload({ tipo: 'imagen', titulo: 'Enorme' }, body, 'image/png');
    expect(res.status).toBe(413);
    expect(res.json[0].errorCode).toBe('MEDIA_TOO_LARGE');
    expect(res.json[0].message).toMatch(/20 MB/);
    expect(sent).toBeLessThan(MAX_IMAGE_BYTES + 3 * chunk.length);
    expect(readdirSync(rt.deps.mediaDir!).length).toBe(files);
    // A declared length over the limit is refused before reading.
    const declared = await app.request(uploadPath({ tipo: 'video', titulo: 'Largo' }), {
      method: 'POST',
      headers: {
        cookie: adminCookie,
        'content-type': 'video/mp4',
        'content-length': String(300 * 1024 * 1024),
      },
      body: MP4,
    });
    expect(declared.status).toBe(413);
  });

  it('the JSON body cap stays at 1 MiB outside the upload route', async () => {
    const big = JSON.stringify({ nombre: 'x'.repeat(1024 * 1024 + 10) });
    const res = await app.request('/api/wsGuardarLead', {
      method: 'POST',
      headers: { cookie: adminCookie, 'content-type': 'application/json' },
      body: big,
    });
    expect(res.status).toBe(413);
    expect((await res.json())[0].errorCode).toBe('BODY_TOO_LARGE');
  });

  it('only inventory administrators upload; bad input has its answer', async () => {
    const cookie = await login(app, 'asesor@vitrina.demo');
    expect((await upload({ tipo: 'imagen', titulo: 'x' }, PNG, 'image/png', cookie)).status).toBe(
      403,
    );
    expect((await upload({ tipo: 'audio', titulo: 'x' }, PNG)).status).toBe(400);
    expect((await upload({ tipo: 'imagen', titulo: '' }, PNG)).status).toBe(400);
    expect((await upload({ tipo: 'imagen', titulo: 'vacío' }, new Uint8Array(0))).status).toBe(400);
    expect((await upload({ tipo: 'imagen', titulo: 'x', poster: 'media-x' }, PNG)).status).toBe(
      400,
    );
    expect((await upload({ tipo: 'video', titulo: 'x', poster: 'no-such' }, MP4)).status).toBe(404);
    void asesor;
  });

  it('a video with its poster goes to the video gallery and answers range requests', async () => {
    const poster = await upload({ tipo: 'poster', titulo: 'Portada' }, PNG, 'image/png');
    expect(poster.status).toBe(201);
    expect(poster.json.item).toBeNull();
    const video = await upload(
      { tipo: 'video', titulo: 'Recorrido', poster: poster.json.idMedia },
      MP4,
      'video/mp4',
    );
    expect(video.status).toBe(201);
    expect(video.json.contentType).toBe('video/mp4');
    const idMedia = video.json.idMedia as string;
    const dev = await development();
    expect(dev.galeriaVideos?.items.at(-1)).toEqual({
      titulo: 'Recorrido',
      imagenRef: { idMedia: poster.json.idMedia },
      videoRef: { idMedia },
    });

    const get = (range?: string) =>
      app.request(`/api/media/${idMedia}`, {
        headers: { cookie: adminCookie, ...(range ? { range } : {}) },
      });
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(MP4.length));

    const first = await get('bytes=0-99');
    expect(first.status).toBe(206);
    expect(first.headers.get('content-range')).toBe(`bytes 0-99/${MP4.length}`);
    expect(first.headers.get('content-type')).toBe('video/mp4');
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(MP4.subarray(0, 100));

    const open = await get('bytes=4000-');
    expect(open.status).toBe(206);
    expect(open.headers.get('content-range')).toBe(`bytes 4000-4095/${MP4.length}`);
    expect(new Uint8Array(await open.arrayBuffer())).toEqual(MP4.subarray(4000));

    const suffix = await get('bytes=-10');
    expect(suffix.status).toBe(206);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(MP4.subarray(MP4.length - 10));

    for (const bad of [`bytes=${MP4.length}-`, 'bytes=50-10', 'bytes=abc', 'bytes=-0']) {
      const res = await get(bad);
      expect(res.status, bad).toBe(416);
      expect(res.headers.get('content-range')).toBe(`bytes */${MP4.length}`);
      expect((await res.json())[0].errorCode).toBe('RANGE_NOT_SATISFIABLE');
    }
    // A seeded media (bytes kept in the event) answers ranges the same way.
    const seeded = await app.request(`/api/media/${alameda.galeria.items[0]!.imagenRef.idMedia}`, {
      headers: { range: 'bytes=0-4' },
    });
    expect(seeded.status).toBe(206);
    expect(await seeded.text()).toBe('<svg ');
  });
});
