/**
 * A development's public page answered with its first paint (issue 19: src/server/public/first-paint.ts,
 * wired by http/static.ts): the corporate's logo and name and the page's heading in the
 * visitor's language and the corporate's colours, the title set, and the app's entry started
 * after the paint. Only a published development that stays on Vitrina gets one; whatever else a
 * client sends gets the bare shell, never an error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate, Development } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { mountClient } from '../../src/server/http/static';
import { publicPageShell } from '../../src/server/public/first-paint';
import { describeBackends, openSeeded } from './support/backends';
import { changeCorporateSettings, demoAlameda, publishDevelopment } from './support/catalogue';
import { signedIn } from './support/http';

type Client = Awaited<ReturnType<typeof signedIn>>;

const SHELL = [
  '<!doctype html><html lang="es"><head><title>Vitrina</title>',
  '<script type="module" crossorigin src="/assets/index-1.js"></script></head>',
  '<body><div id="root"></div><div id="splash" aria-hidden="true"></div></body></html>',
].join('');
const PAGE = '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda';

describeBackends('first paint of a public page', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let admin: Client;
  let corp: Corporate;
  let alameda: Development;
  let dist: string;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    dist = mkdtempSync(join(tmpdir(), 'first-paint-'));
    writeFileSync(join(dist, 'index.html'), SHELL);
    mountClient(app, dist, publicPageShell);
    admin = await signedIn(app, 'admin@vitrina.demo', {});
    ({ corp, alameda } = await demoAlameda(admin));
  });
  afterAll(async () => {
    await rt.dispose();
    rmSync(dist, { recursive: true, force: true });
  });

  const page = async (path: string, headers: Record<string, string> = {}) => {
    const res = await app.request(path, { headers });
    return { res, html: await res.text() };
  };
  const publish = (development: Development) => publishDevelopment(rt, corp.id, development);

  it('paints the availability’s and the simulator’s top bar in the visitor’s language', async () => {
    const es = await page(`${PAGE}/disponibilidad`, { 'accept-language': 'es-MX,es;q=0.9' });
    expect(es.res.status).toBe(200);
    expect(es.html).toContain('<h1>Disponibilidad de Torre Alameda</h1>');
    expect(es.html).toContain(`<p>${corp.nombre}</p>`);
    expect(es.html).toContain(`src="/api/media/${corp.imagen.imagenLogo!}"`);
    expect(es.html).toContain(
      `style="--vt-colorFondoPrincipal:${corp.colores.colorFondoPrincipal!}`,
    );
    expect(es.html).toContain(
      `<title>Disponibilidad de Torre Alameda – ${corp.nombre} – Vitrina</title>`,
    );
    expect(es.html).toContain('<template id="after-paint">');
    expect(es.res.headers.get('cache-control')).toBe('no-cache');
    expect(es.res.headers.get('vary')).toMatch(/accept-language/i);

    // grupo-horizonte is bilingual: an English browser, or the share link's `lang`, reads English.
    expect(corp.multiIdioma).toBe(true);
    const en = await page(`${PAGE}/cotizacion`, { 'accept-language': 'en-US,en;q=0.9' });
    expect(en.html).toContain('<h1>Quote simulator · Torre Alameda</h1>');
    expect(en.html).toContain('<html lang="en">');
    const asked = await page(`${PAGE}/disponibilidad-simple?lang=en`, {
      'accept-language': 'es-MX',
    });
    expect(asked.html).toContain('<h1>Torre Alameda availability</h1>');
  });

  it('paints in the language the visitor chose on the device (its cookie) over the browser’s', async () => {
    const chose = await page(`${PAGE}/disponibilidad`, {
      'accept-language': 'es-MX,es;q=0.9',
      cookie: 'otra=1; vitrina_idioma=en',
    });
    expect(chose.html).toContain('<h1>Torre Alameda availability</h1>');
    expect(chose.html).toContain('<html lang="en">');
    expect(chose.res.headers.get('vary')).toMatch(/cookie/i);
    const spanish = await page(`${PAGE}/cotizacion`, {
      'accept-language': 'en-US,en;q=0.9',
      cookie: 'vitrina_idioma=es',
    });
    expect(spanish.html).toContain('<h1>Simulador de cotización · Torre Alameda</h1>');
    // The share link's `lang` still comes first; a cookie that names no language is ignored.
    const asked = await page(`${PAGE}/disponibilidad?lang=es`, { cookie: 'vitrina_idioma=en' });
    expect(asked.html).toContain('<h1>Disponibilidad de Torre Alameda</h1>');
    for (const cookie of ['vitrina_idioma=xx', 'vitrina_idioma=%00%D8%00', 'vitrina_idioma=']) {
      const other = await page(`${PAGE}/disponibilidad`, { 'accept-language': 'en', cookie });
      expect(other.res.status, cookie).toBe(200);
      expect(other.html, cookie).toContain('<h1>Torre Alameda availability</h1>');
    }
  });

  it('escapes what the corporate’s administrators write', async () => {
    await publish({ ...alameda, nombre: '<img src=x onerror=alert(1)> & "Co"' });
    try {
      const { html } = await page(`${PAGE}/disponibilidad`);
      expect(html).toContain(
        '<h1>Disponibilidad de &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;</h1>',
      );
      expect(html).not.toContain('<img src=x');
    } finally {
      await publish(alameda);
    }
  });

  it('reads only the development from the store once the corporate is cached; a change to the corporate shows on the next page', async () => {
    const db = rt.deps.db;
    const query = db.query.bind(db);
    const statements: string[] = [];
    Object.assign(db, {
      query: (sql: string, params?: unknown[]) => {
        statements.push(sql);
        return query(sql, params);
      },
    });
    const rename = (nombre: string) => changeCorporateSettings(rt, corp.id, { nombre });
    const naming = (table: string) => statements.filter((sql) => sql.includes(table)).length;
    try {
      await page(`${PAGE}/disponibilidad`);
      statements.length = 0;
      for (let i = 0; i < 3; i++) {
        expect((await page(`${PAGE}/disponibilidad`)).html).toContain(`<p>${corp.nombre}</p>`);
      }
      expect(naming('rm_corporates')).toBe(0);
      expect(naming('rm_developments')).toBe(3);

      await rename('Grupo Horizonte Renombrado');
      expect((await page(`${PAGE}/disponibilidad`)).html).toContain(
        '<p>Grupo Horizonte Renombrado</p>',
      );
      // The public API reads it from the same cache.
      const api = await app.request('/api/public/corporativos/grupo-horizonte');
      expect(((await api.json()) as { nombre: string }).nombre).toBe('Grupo Horizonte Renombrado');
    } finally {
      Object.assign(db, { query });
      await rename(corp.nombre);
    }
    expect((await page(`${PAGE}/disponibilidad`)).html).toContain(`<p>${corp.nombre}</p>`);
  });

  it('keeps the bare shell for a development it must not paint', async () => {
    const bare = async (path: string) => {
      const { res, html } = await page(path);
      expect(res.status, path).toBe(200);
      expect(html, path).not.toContain('first-paint');
      expect(html, path).toContain('<script type="module" crossorigin src="/assets/index-1.js">');
    };
    // Unknown, another corporate's, a page without a first paint, bad input.
    await bare('/public/corporativos/grupo-horizonte/desarrollos/no-existe/disponibilidad');
    await bare('/public/corporativos/grupo-horizonte/desarrollos/playa-azul/disponibilidad');
    await bare('/public/corporativos/no-existe/desarrollos/torre-alameda/disponibilidad');
    await bare(`${PAGE}/presentacion`);
    await bare(`${PAGE}%00/disponibilidad`);
    await bare(`/public/corporativos/grupo-horizonte/desarrollos/%ED%A0%80/disponibilidad`);
    await bare(`${PAGE.toUpperCase()}/disponibilidad`);

    // Taken off the web.
    await publish({ ...alameda, enWeb: false });
    try {
      await bare(`${PAGE}/disponibilidad`);
    } finally {
      await publish(alameda);
    }
    // Sending its visitors to its own landing page.
    const settings = `/api/corporativos/${corp.id}/desarrollos/${alameda.id}/ajustes`;
    expect(
      (
        await admin.put(settings, {
          reedireccionarLandingPage: true,
          landingPage: 'https://alameda.example.com/',
        })
      ).status,
    ).toBe(200);
    try {
      await bare(`${PAGE}/cotizacion`);
    } finally {
      await admin.put(settings, { reedireccionarLandingPage: false });
    }
    // Back: painted again.
    expect((await page(`${PAGE}/cotizacion`)).html).toContain('id="first-paint"');
  });
});
