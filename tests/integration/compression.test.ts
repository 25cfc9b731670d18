import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { chooseEncoding } from '../../src/server/http/compression';
import { mountClient } from '../../src/server/http/static';
import { precompress } from '../../vite.config';
import { openSeeded, pgliteBackend } from './support/backends';
import { login } from './support/http';

/**
 * Serving (issue 19): JSON answers go brotli-compressed to a client that accepts it, else gzip
 * (the clusters of a development were 115 KB uncompressed); the live stream (text/event-stream)
 * never is, so its events are not held back in a compressor's buffer; a client that accepts no
 * compression gets the plain body. The client's files are compressed once, at build (the Vite
 * plugin `precompress`), and served with their encoding.
 */
type Rt = Awaited<ReturnType<typeof openSeeded>>;
let rt: Rt;
let app: ReturnType<typeof createApp>;
let cookie: string;
let corporateId: string;
let developmentId: string;

beforeAll(async () => {
  rt = await openSeeded(pgliteBackend);
  app = createApp(rt.deps);
  cookie = await login(app, 'asesor@vitrina.demo');
  const corp = (await (
    await app.request('/api/wsObtenerCorporativo?slug=grupo-horizonte', { headers: { cookie } })
  ).json()) as { id: string };
  corporateId = corp.id;
  const dev = (await (
    await app.request(`/api/wsObtenerDesarrollo?idCorporativo=${corporateId}&slug=torre-alameda`, {
      headers: { cookie },
    })
  ).json()) as { id: string };
  developmentId = dev.id;
});
afterAll(async () => {
  await rt.dispose();
});

const clustersPath = () =>
  `/api/wsObtenerClusters?idCorporativo=${corporateId}&idDesarrollo=${developmentId}`;

it('compresses a JSON answer with brotli when the client accepts it, the same JSON inside', async () => {
  const plain = await app.request(clustersPath(), { headers: { cookie } });
  const plainText = await plain.text();
  const res = await app.request(clustersPath(), {
    headers: { cookie, 'accept-encoding': 'gzip, deflate, br, zstd' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('br');
  expect(res.headers.get('content-length')).toBeNull();
  expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.length).toBeLessThan(plainText.length / 5);
  expect(brotliDecompressSync(body).toString('utf8')).toBe(plainText);
});

it('chooses the encoding by the header: br first, a refused one (q=0) never, identity none', () => {
  expect(chooseEncoding('gzip, deflate, br')).toBe('br');
  expect(chooseEncoding('gzip, br;q=0')).toBe('gzip');
  expect(chooseEncoding('br;q=0.5, gzip;q=0.8')).toBe('gzip');
  expect(chooseEncoding('*')).toBe('br');
  expect(chooseEncoding('identity')).toBeNull();
  expect(chooseEncoding('gzip;q=0, br;q=0')).toBeNull();
  expect(chooseEncoding(undefined)).toBeNull();
});

it('compresses a JSON answer with gzip when the client accepts gzip only, the same JSON inside', async () => {
  const plain = await app.request(clustersPath(), { headers: { cookie } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-encoding')).toBeNull();
  const plainText = await plain.text();
  expect(plainText.length).toBeGreaterThan(50_000);

  const res = await app.request(clustersPath(), {
    headers: { cookie, 'accept-encoding': 'gzip, deflate' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('gzip');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
  const body = Buffer.from(await res.arrayBuffer());
  expect(body.length).toBeLessThan(plainText.length / 4);
  expect(gunzipSync(body).toString('utf8')).toBe(plainText);
});

it('sends the plain body to a client that accepts no compression', async () => {
  const res = await app.request(clustersPath(), {
    headers: { cookie, 'accept-encoding': 'identity' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBeNull();
  // The same address answers compressed to another client: a cache keeps them apart.
  expect(res.headers.get('vary')).toMatch(/accept-encoding/i);
  expect(res.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
  // Sent as UTF-8 bytes encoded once per body: the development list's accents arrive whole.
  const list = await app.request(`/api/wsObtenerDesarrollos?idCorporativo=${corporateId}`, {
    headers: { cookie },
  });
  const text = new TextDecoder('utf-8', { fatal: true }).decode(await list.arrayBuffer());
  expect(text).toMatch(/[À-ÿ]/);
  expect(JSON.parse(text)).toEqual(
    expect.arrayContaining([expect.objectContaining({ slug: 'torre-alameda' })]),
  );
});

it('never compresses the live stream (text/event-stream)', async () => {
  const res = await app.request('/api/stream', {
    headers: { cookie, 'accept-encoding': 'gzip, deflate, br' },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
  expect(res.headers.get('content-encoding')).toBeNull();
  // The first event arrives as plain text at once.
  const reader = res.body!.getReader();
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toMatch(/^(event|data|id|retry|:)/m);
  await reader.cancel();
});

it('serves the build pre-compressed: .br to a brotli client, .gz to a gzip one, plain to others', async () => {
  // A small build: a script, a style, the shell and an image, compressed by the build's plugin.
  const dist = mkdtempSync(join(tmpdir(), 'vitrina-dist-'));
  try {
    mkdirSync(join(dist, 'assets'));
    const script = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ clave: `A${i}`, status: 'Disponible' })))};\n`;
    writeFileSync(join(dist, 'assets', 'index-abc.js'), script);
    writeFileSync(join(dist, 'assets', 'tiny.css'), 'a{color:red}');
    writeFileSync(join(dist, 'assets', 'photo.png'), Buffer.alloc(4096, 7));
    writeFileSync(
      join(dist, 'index.html'),
      `<!doctype html><title>Vitrina</title>${' '.repeat(2048)}`,
    );
    const plugin = precompress();
    (plugin.configResolved as (c: unknown) => void)({ root: dist, build: { outDir: '.' } });
    (plugin.closeBundle as { handler: () => void }).handler();
    // Only what is worth it: the tiny style and the image got no companions.
    expect(
      brotliDecompressSync(readFileSync(join(dist, 'assets', 'index-abc.js.br'))).toString(),
    ).toBe(script);
    expect(gunzipSync(readFileSync(join(dist, 'assets', 'index-abc.js.gz'))).toString()).toBe(
      script,
    );
    expect(() => readFileSync(join(dist, 'assets', 'tiny.css.br'))).toThrow();
    expect(() => readFileSync(join(dist, 'assets', 'photo.png.br'))).toThrow();

    const client = createApp(rt.deps);
    expect(mountClient(client, dist)).toBe(true);
    const get = (path: string, acceptEncoding: string) =>
      client.request(path, { headers: { 'accept-encoding': acceptEncoding } });

    const br = await get('/assets/index-abc.js', 'gzip, deflate, br');
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('content-type')).toMatch(/javascript/);
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(br.headers.get('cache-control')).toMatch(/immutable/);
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(script);

    const gz = await get('/assets/index-abc.js', 'gzip');
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(script);

    const plain = await get('/assets/index-abc.js', 'identity');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(await plain.text()).toBe(script);

    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("push", () => {});');
    const worker = await get('/sw.js', 'br');
    expect(worker.headers.get('cache-control')).toBe('no-cache');

    const image = await get('/assets/photo.png', 'gzip, deflate, br');
    expect(image.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await image.arrayBuffer()).length).toBe(4096);

    // A client route gets the shell, compressed like any page.
    const shell = await get('/corporativos/grupo-horizonte', 'br');
    expect(shell.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shell.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(Buffer.from(await shell.arrayBuffer())).toString()).toMatch(
      /<title>Vitrina<\/title>/,
    );
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

it('a ready catalogue read carries every header another answer gets: the security headers, its cache rule and charset, on 200 and 304 alike', async () => {
  const other = await app.request('/api/auth/me', { headers: { cookie } });
  const security = [
    'x-content-type-options',
    'referrer-policy',
    'x-frame-options',
    'content-security-policy',
  ];
  for (const name of security) expect(other.headers.get(name), name).toBeTruthy();
  const listPath = `/api/wsObtenerDesarrollos?idCorporativo=${corporateId}`;
  const ok = await app.request(listPath, { headers: { cookie } });
  expect(ok.status).toBe(200);
  const etag = ok.headers.get('etag')!;
  const notModified = await app.request(listPath, {
    headers: { cookie, 'if-none-match': etag },
  });
  expect(notModified.status).toBe(304);
  const clusters = await app.request(clustersPath(), {
    headers: { cookie, 'accept-encoding': 'br' },
  });
  expect(clusters.headers.get('content-encoding')).toBe('br');
  for (const res of [ok, notModified, clusters]) {
    for (const name of security) expect(res.headers.get(name), name).toBe(other.headers.get(name));
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  }
  expect(ok.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  expect(clusters.headers.get('content-type')).toBe('application/json; charset=UTF-8');
  // Served over HTTPS, the ready answers get HSTS like the others do.
  const secure = await app.request(`https://vitrina.example${listPath}`, { headers: { cookie } });
  expect(secure.status).toBe(200);
  expect(secure.headers.get('strict-transport-security')).toBe(
    (await app.request('https://vitrina.example/api/auth/me', { headers: { cookie } })).headers.get(
      'strict-transport-security',
    ),
  );
  expect(secure.headers.get('strict-transport-security')).toContain('max-age=');
});
