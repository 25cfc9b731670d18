import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { openSeeded, pgliteBackend } from './support/backends';
import { login } from './support/http';

/**
 * Serving (issue 19): JSON answers go gzip-compressed to a client that accepts it (the clusters
 * of a development were 115 KB uncompressed); the live stream (text/event-stream) never is, so
 * its events are not held back in a compressor's buffer; a client that accepts no compression
 * gets the plain body.
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

it('compresses a JSON answer with gzip when the client accepts it, the same JSON inside', async () => {
  const plain = await app.request(clustersPath(), { headers: { cookie } });
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-encoding')).toBeNull();
  const plainText = await plain.text();
  expect(plainText.length).toBeGreaterThan(50_000);

  const res = await app.request(clustersPath(), {
    headers: { cookie, 'accept-encoding': 'gzip, deflate, br' },
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
  expect(((await res.json()) as unknown[]).length).toBeGreaterThan(0);
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
