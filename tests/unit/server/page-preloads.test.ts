/**
 * What a public page's HTML announces (src/server/http/page-preloads.ts): its first API reads,
 * the route's chunks the main entry does not load already, and its texts in the visitor's likely
 * language; nothing on any other page.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../../src/server/http/context';
import { FIRST_PAGE, publicAvailabilityUrl } from '../../../src/core/availability-pages';
import { mountClient } from '../../../src/server/http/static';
import {
  acceptedLanguages,
  preloadLinks,
  publicPageNeeds,
  withPreloads,
  type Manifest,
} from '../../../src/server/http/page-preloads';

const DEV = 'src/ui/routes/public/corporativos/$corporativo/desarrollos/$desarrollo/';
const manifest: Manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_grid-1.js': {
    file: 'assets/grid-1.js',
    imports: ['index.html', '_shared-1.js', '_cells-1.js'],
  },
  '_cells-1.js': { file: 'assets/cells-1.js' },
  [`${DEV}disponibilidad.tsx?tsr-split=component`]: {
    file: 'assets/disponibilidad-1.js',
    imports: ['_grid-1.js', 'index.html'],
  },
  'src/ui/routes/public/cotizacion/$token.tsx?tsr-split=component': {
    file: 'assets/token-1.js',
    imports: ['index.html'],
  },
  'src/ui/i18n/locales/en/common.json': { file: 'assets/common-en.js' },
  'src/ui/i18n/locales/en/errors.json': { file: 'assets/errors-en.js' },
  'src/ui/i18n/locales/en/shell.json': { file: 'assets/shell-en.js' },
  'src/ui/i18n/locales/en/inventory.json': { file: 'assets/inventory-en.js' },
  'src/ui/i18n/locales/es/inventory.json': { file: 'assets/inventory-es.js' },
  'src/ui/i18n/locales/es/quotes.json': { file: 'assets/quotes-es.js' },
};
const base = 'http://127.0.0.1';
const hrefs = (links: string) => [...links.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('public page preloads', () => {
  it('announces the availability: data, route chunks not in the entry, texts in English', () => {
    const url = new URL(`${base}/public/corporativos/grupo-h/desarrollos/torre-a/disponibilidad`);
    const links = preloadLinks(manifest, url, 'en-US,en;q=0.9,es;q=0.8');
    expect(hrefs(links)).toEqual([
      // The first page of clusters (issue 21), the URL the page asks for.
      '/api/public/corporativos/grupo-h/desarrollos/torre-a/disponibilidad?limite=2',
      '/api/public/corporativos/grupo-h/desarrollos/torre-a/landing',
      '/assets/disponibilidad-1.js',
      '/assets/grid-1.js',
      '/assets/cells-1.js',
      '/assets/common-en.js',
      '/assets/errors-en.js',
      '/assets/shell-en.js',
      '/assets/inventory-en.js',
    ]);
    expect(links).toContain('<link rel="preload" as="fetch" crossorigin href="/api/public/');
    expect(links).toContain(
      '<link rel="modulepreload" crossorigin fetchpriority="low" href="/assets/grid-1.js">',
    );
  });

  it("follows the share link's language, then the browser's; Spanish's shell is in the entry", () => {
    const url = new URL(`${base}/public/cotizacion/k1.abc?lang=es`);
    expect(hrefs(preloadLinks(manifest, url, 'en-US'))).toEqual([
      '/api/public/cotizaciones/k1.abc',
      '/assets/token-1.js',
      '/assets/quotes-es.js',
    ]);
    const spanish = new URL(`${base}/public/corporativos/c/desarrollos/d/disponibilidad`);
    expect(hrefs(preloadLinks(manifest, spanish, 'fr;q=0.9, es-MX'))).toContain(
      '/assets/inventory-es.js',
    );
  });

  it('re-encodes path segments as the page does, and leaves other pages alone', () => {
    expect(publicPageNeeds('/public/corporativos/a%20b/desarrollos/d/cotizacion')?.reads[0]).toBe(
      '/api/public/corporativos/a%20b/desarrollos/d/disponibilidad',
    );
    // The availability preloads its first page at the URL the client builds.
    expect(
      publicPageNeeds('/public/corporativos/a%20b/desarrollos/d/disponibilidad-simple')?.reads[0],
    ).toBe(publicAvailabilityUrl('a b', 'd', FIRST_PAGE));
    expect(publicPageNeeds('/public/corporativos/%E0%A4%A/desarrollos/d/disponibilidad')).toBe(
      null,
    );
    expect(publicPageNeeds('/public/corporativos/c/desarrollos/d/otra')).toBe(null);
    for (const path of ['/login', '/corporativos/c/desarrollos/d/disponibilidad', '/'])
      expect(preloadLinks(manifest, new URL(`${base}${path}`), 'en')).toBe('');
  });

  it('orders Accept-Language by quality', () => {
    expect(acceptedLanguages('fr;q=0.5, en-GB;q=0.8, es')).toEqual(['es', 'en-GB', 'fr']);
    expect(acceptedLanguages('en;q=0, es')).toEqual(['es']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('puts the links at the end of the head', () => {
    expect(withPreloads('<html><head><title>V</title></head><body></body></html>', '<link>')).toBe(
      '<html><head><title>V</title><link></head><body></body></html>',
    );
    expect(withPreloads('<head></head>', '')).toBe('<head></head>');
  });
});

describe('the served shell', () => {
  it('says it varies with Accept-Language where it preloads texts, and only there', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'vitrina-preloads-'));
    try {
      writeFileSync(
        join(dist, 'index.html'),
        '<!doctype html><html><head></head><body></body></html>',
      );
      mkdirSync(join(dist, '.vite'));
      writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(manifest));
      const app = new Hono<Env>();
      expect(mountClient(app, dist)).toBe(true);
      const get = (path: string) =>
        app.request(path, { headers: { 'accept-language': 'en-US,en;q=0.9' } });
      const publicPage = await get(
        '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
      );
      expect(publicPage.status).toBe(200);
      expect(publicPage.headers.get('vary')).toMatch(/Accept-Language/);
      expect(await publicPage.text()).toContain('inventory-en.js');
      const appPage = await get('/corporativos/grupo-horizonte');
      expect(appPage.status).toBe(200);
      expect(appPage.headers.get('vary') ?? '').not.toMatch(/Accept-Language/);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
