/**
 * A member's page names its first reads and scripts in its HTML (issue 21:
 * src/server/http/signed-in-preloads.ts, wired by http/static.ts): the session's reads, the
 * corporate's labels, the development and — on its availability — the first clusters, the
 * prototypes and the rest of the clusters, at the URLs the client builds; the route's scripts,
 * the corporate layout's own import and the texts in the user's language. Only for a session that resolves and a corporate the user is an approved member of;
 * anything else a client sends gets the shell without them, never an error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, Development } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { mountClient } from '../../src/server/http/static';
import { describeBackends, openSeeded } from './support/backends';
import { demoAlameda } from './support/catalogue';
import { client, login, signedIn } from './support/http';

const SHELL =
  '<!doctype html><html lang="es"><head><title>Vitrina</title></head><body><div id="root"></div></body></html>';
const ROUTES = 'src/ui/routes/corporativos/$corporativo';
/** A build's manifest, as Vite writes it: the entry, route chunks split by the router, texts. */
const MANIFEST = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_shared-1.js'] },
  '_shared-1.js': { file: 'assets/shared-1.js' },
  '_grid-1.js': { file: 'assets/grid-1.js', imports: ['_shared-1.js'] },
  [`${ROUTES}/route.tsx?tsr-split=component`]: { file: 'assets/route-corp.js' },
  [`${ROUTES}/index.tsx?tsr-split=component`]: { file: 'assets/corp-home.js' },
  [`${ROUTES}/desarrollos/$desarrollo/route.tsx?tsr-split=loader`]: { file: 'assets/route-dev.js' },
  [`${ROUTES}/desarrollos/$desarrollo/disponibilidad.tsx?tsr-split=component`]: {
    file: 'assets/disponibilidad-1.js',
    imports: ['_grid-1.js'],
  },
  [`${ROUTES}/desarrollos/$desarrollo/cotizacion.tsx?tsr-split=component`]: {
    file: 'assets/cotizacion-1.js',
  },
  [`${ROUTES}/clientes/$lead_.cotizaciones.$cotizacion.tsx?tsr-split=component`]: {
    file: 'assets/lead-quotation-1.js',
  },
  [`${ROUTES}/clientes/$lead.tsx?tsr-split=component`]: { file: 'assets/lead-1.js' },
  [`${ROUTES}/clientes/route.tsx?tsr-split=component`]: { file: 'assets/route-clients.js' },
  // The corporate layout's own import (its beforeLoad), beside the entry's.
  'src/ui/features/crm/api/crm-lead-source.ts': {
    file: 'assets/crm-lead-source-1.js',
    imports: ['_crm-1.js', '_shared-1.js'],
  },
  '_crm-1.js': { file: 'assets/crm-1.js' },
  // Most feature namespaces grouped per language (vite.config.ts), listed under the group's name.
  '_texts-es-1.js': { file: 'assets/texts-es-1.js', name: 'texts-es' },
  '_texts-en-1.js': { file: 'assets/texts-en-1.js', name: 'texts-en' },
  'src/ui/i18n/locales/es/inventory.json': { file: 'assets/inventory-es.js' },
  'src/ui/i18n/locales/en/inventory.json': { file: 'assets/inventory-en.js' },
  'src/ui/i18n/locales/en/common.json': { file: 'assets/common-en.js' },
};

describeBackends('signed-in page preloads', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let corp: Corporate;
  let alameda: Development;
  let adviser: string;
  let dist: string;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    dist = mkdtempSync(join(tmpdir(), 'signed-in-preloads-'));
    writeFileSync(join(dist, 'index.html'), SHELL);
    mkdirSync(join(dist, '.vite'));
    writeFileSync(join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
    mountClient(app, dist);
    ({ corp, alameda } = await demoAlameda(await signedIn(app, 'admin@vitrina.demo', {})));
    adviser = await login(app, 'asesor@vitrina.demo');
  });
  afterAll(async () => {
    await rt.dispose();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = async (path: string, cookie?: string) => {
    const res = await app.request(path, { headers: cookie ? { cookie } : {} });
    const html = await res.text();
    const links = (attributes: string) =>
      [...html.matchAll(new RegExp(`<link ${attributes}[^>]* href="([^"]+)">`, 'g'))].map((m) =>
        m[1]!.replaceAll('&amp;', '&'),
      );
    return {
      res,
      html,
      reads: links('rel="preload" as="fetch"'),
      images: links('rel="preload" as="image" fetchpriority="high"'),
      scripts: links('rel="modulepreload"'),
    };
  };
  const AVAILABILITY = `/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad`;
  const sessionReads = (user: { corporativos: string[] }) => [
    '/api/auth/proveedor',
    '/api/auth/session',
    '/api/wsObtenerCorporativos',
    ...user.corporativos.map((id) => `/api/wsObtenerCorporativo?id=${id}`),
  ];

  it('names the availability’s reads at the client’s URLs, its route’s scripts and the texts', async () => {
    const me = (await client(app, adviser).get('/api/auth/session')).json;
    const { res, reads, images, scripts } = await page(AVAILABILITY, adviser);
    expect(res.status).toBe(200);
    const firstPage = (
      await client(app, adviser).get(
        `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}&limite=2`,
      )
    ).json as { id: string }[];
    expect(firstPage).toHaveLength(2);
    expect(reads).toEqual([
      ...sessionReads(me),
      `/api/wsObtenerIdiomas?idCorporativo=${corp.id}&lang=es`,
      `/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`,
      `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}&limite=2`,
      `/api/wsObtenerPrototipos?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}`,
      // The rest of the clusters, after the first page's last one (in the read's order).
      `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${alameda.id}&despuesDe=${firstPage[1]!.id}`,
    ]);
    // The layouts around the page and the page with what it imports, the corporate layout's own
    // import; not what the entry loads (shared-1), not another page's chunk; Spanish texts
    // (common is in the main chunk), the grouped ones once.
    expect(scripts.sort()).toEqual(
      [
        '/assets/crm-1.js',
        '/assets/crm-lead-source-1.js',
        '/assets/disponibilidad-1.js',
        '/assets/grid-1.js',
        '/assets/inventory-es.js',
        '/assets/route-corp.js',
        '/assets/route-dev.js',
        '/assets/texts-es-1.js',
      ].sort(),
    );
    // Each read answers the member as the page's own request would.
    for (const read of reads) expect((await client(app, adviser).get(read)).status, read).toBe(200);
    // The header's cover picture, the page's largest content, at the address its <img> uses.
    expect(alameda.imagenPortada).toBeTruthy();
    const cover = `/api/media/${alameda.imagenPortada}`;
    expect(images).toEqual([cover]);
    const picture = await app.request(cover, { headers: { cookie: adviser } });
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toMatch(/^image\//);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('vary')).toMatch(/cookie/i);
  });

  it('follows the page: another development page reads the development only; the corporate’s home its labels', async () => {
    const quote = await page(
      '/corporativos/grupo-horizonte/desarrollos/torre-alameda/cotizacion',
      adviser,
    );
    expect(quote.reads.at(-1)).toBe(
      `/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`,
    );
    expect(quote.scripts).toContain('/assets/cotizacion-1.js');
    // Every development page opens under the header and its cover.
    expect(quote.images).toEqual([`/api/media/${alameda.imagenPortada}`]);
    expect(quote.scripts).not.toContain('/assets/disponibilidad-1.js');
    const home = await page('/corporativos/grupo-horizonte', adviser);
    expect(home.reads.at(-1)).toBe(`/api/wsObtenerIdiomas?idCorporativo=${corp.id}&lang=es`);
    expect(home.scripts).toContain('/assets/corp-home.js');
    expect(home.images).toEqual([]);
    // A saved quotation's page (a flat route name) is told from the lead's page.
    const lead = await page('/corporativos/grupo-horizonte/clientes/l1/cotizaciones/q1', adviser);
    expect(lead.scripts).toEqual(
      expect.arrayContaining(['/assets/lead-quotation-1.js', '/assets/route-clients.js']),
    );
    expect(lead.scripts).not.toContain('/assets/lead-1.js');
    // An unknown development: no development reads beyond the development's own (its 404).
    const unknown = await page(
      '/corporativos/grupo-horizonte/desarrollos/no-existe/disponibilidad',
      adviser,
    );
    expect(unknown.reads.some((r) => r.includes('wsObtenerClusters'))).toBe(false);
  });

  it('in English where the user chose it and the corporate offers it', async () => {
    expect(corp.multiIdioma).toBe(true);
    const { reads, scripts } = await page(AVAILABILITY, `${adviser}; vitrina_idioma=en`);
    expect(reads).toContain(`/api/wsObtenerIdiomas?idCorporativo=${corp.id}&lang=en`);
    expect(scripts).toEqual(
      expect.arrayContaining([
        '/assets/inventory-en.js',
        '/assets/common-en.js',
        '/assets/texts-en-1.js',
      ]),
    );
    expect(scripts).not.toContain('/assets/inventory-es.js');
    expect(scripts).not.toContain('/assets/texts-es-1.js');
  });

  it('names nothing for a visitor, an ended session, another corporate or a page outside the app', async () => {
    expect((await page(AVAILABILITY)).reads).toEqual([]);
    expect((await page(AVAILABILITY, 'vitrina_session=not-a-session')).reads).toEqual([]);
    const loggedOut = await login(app, 'asesor@vitrina.demo');
    await client(app, loggedOut).post('/api/auth/logout');
    expect((await page(AVAILABILITY, loggedOut)).reads).toEqual([]);
    for (const path of ['/registro', '/recuperar', '/public/cotizacion/x'])
      expect(
        (await page(path, adviser)).reads.some((r) => r.includes('auth/session')),
        path,
      ).toBe(false);
    // Not a member of desarrollos-pacifico: the session's reads only (the page shows its 403).
    const other = await page(
      '/corporativos/desarrollos-pacifico/desarrollos/playa-azul/disponibilidad',
      adviser,
    );
    const me = (await client(app, adviser).get('/api/auth/session')).json;
    expect(other.reads).toEqual(sessionReads(me));
    // No picture of a development the visitor or the non-member may not see.
    expect(other.images).toEqual([]);
    expect((await page(AVAILABILITY)).images).toEqual([]);
  });

  it('answers the shell, never an error, for any path a client sends', async () => {
    for (const path of [
      '/corporativos/%ZZ/desarrollos/x/disponibilidad',
      '/corporativos/grupo-horizonte/desarrollos/%E0%A4%A/disponibilidad',
      '/corporativos/grupo-horizonte/desarrollos/%00/disponibilidad',
      '/corporativos/grupo-horizonte/desarrollos/%ED%A0%80/disponibilidad',
      `/corporativos/${'x'.repeat(3000)}`,
      '/corporativos//desarrollos//',
    ]) {
      const { res, html } = await page(path, adviser);
      expect(res.status, path).toBe(200);
      expect(html, path).toContain('<div id="root">');
    }
  });
});
