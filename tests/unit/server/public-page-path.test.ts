/**
 * Which public page a path is (src/server/http/page-preloads.ts `publicPageAt`): read once for
 * the page's preloads and its first paint (public/first-paint.ts), and the texts preloaded.
 */
import { describe, expect, it } from 'vitest';
import { preloadLinks, publicPageAt, type Manifest } from '../../../src/server/http/page-preloads';

describe('publicPageAt', () => {
  it('answers a development page with its segments decoded', () => {
    for (const page of ['disponibilidad', 'disponibilidad-simple', 'cotizacion'] as const)
      expect(
        publicPageAt(`/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/${page}`),
      ).toEqual({
        kind: 'development',
        corporate: 'grupo-horizonte',
        development: 'torre-alameda',
        page,
      });
    expect(publicPageAt('/public/corporativos/a%20b/desarrollos/c%2Fd/disponibilidad/')).toEqual({
      kind: 'development',
      corporate: 'a b',
      development: 'c/d',
      page: 'disponibilidad',
    });
  });

  it('answers a shared quotation with its token', () => {
    expect(publicPageAt('/public/cotizacion/abc.def')).toEqual({
      kind: 'shared',
      token: 'abc.def',
    });
  });

  it('answers null for other paths and for segments that are not a valid encoding', () => {
    for (const path of [
      '/public/corporativos/a/desarrollos/b/otra',
      '/public/corporativos/a/desarrollos/b',
      '/public/corporativos/%E0%A4%A/desarrollos/b/disponibilidad',
      '/public/cotizacion/%ZZ',
      '/public/cotizacion/',
      '/corporativos/a/desarrollos/b/disponibilidad',
      '/public/corporativos/a/desarrollos/b/disponibilidad/extra',
    ])
      expect(publicPageAt(path), path).toBeNull();
  });
});

describe('preloadLinks', () => {
  const manifest: Manifest = {
    'index.html': { file: 'assets/index-1.js', isEntry: true },
    'src/ui/i18n/locales/en/inventory.json': { file: 'assets/inventory-en.js' },
    'src/ui/i18n/locales/es/inventory.json': { file: 'assets/inventory-es.js' },
  };
  const url = new URL('http://x/public/corporativos/a/desarrollos/b/disponibilidad');

  it('preloads the texts of the language remembered on the device over the browser’s', () => {
    expect(preloadLinks(manifest, url, 'es-MX', 'en')).toContain('inventory-en.js');
    expect(preloadLinks(manifest, url, 'en-US', 'es')).toContain('inventory-es.js');
    expect(preloadLinks(manifest, url, 'en-US', 'xx')).toContain('inventory-en.js');
    expect(preloadLinks(manifest, url, 'en-US')).toContain('inventory-en.js');
  });
});
