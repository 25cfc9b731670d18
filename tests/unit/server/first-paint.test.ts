/**
 * A development's public page painted from its HTML (src/server/public/first-paint.ts): the
 * headings are the client's own texts, and the shell keeps everything the app needs until the
 * paint is on screen (public/paint-then-start.js). The answer over HTTP, with the store, is
 * tests/integration/first-paint.test.ts; the boxes against the app's, tests/e2e/public-first-paint.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIRST_PAINT_TITLES, withFirstPaint } from '../../../src/server/public/first-paint';

const locale = (lng: string, ns: string) =>
  JSON.parse(readFileSync(`src/ui/i18n/locales/${lng}/${ns}.json`, 'utf8')) as {
    public?: { title: string };
    simulator?: { title: string };
  };

const SHELL = [
  '<!doctype html><html lang="es"><head><title>Vitrina</title>',
  '<script type="module" crossorigin src="/assets/index-AbC_1.js"></script>',
  '\n    <link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-X.js">',
  '\n    <link rel="modulepreload" crossorigin href="/assets/react-dom-Y_2.js">',
  '<link rel="stylesheet" crossorigin href="/assets/index-1.css"></head>',
  '<body><div id="root"></div><div id="splash" aria-hidden="true"></div></body></html>',
].join('');

const paint = {
  lang: 'en' as const,
  title: 'Tom & Jerry <availability> – Grupo Horizonte – Vitrina',
  html: '<div id="first-paint" aria-hidden="true"><header>…</header></div>',
};

describe('first paint', () => {
  it('writes each heading as the client does, in both languages', () => {
    for (const lng of ['es', 'en'] as const) {
      const inventory = locale(lng, 'inventory').public!.title;
      const quotes = locale(lng, 'quotes').simulator!.title;
      expect(FIRST_PAINT_TITLES[lng].disponibilidad).toBe(inventory);
      expect(FIRST_PAINT_TITLES[lng]['disponibilidad-simple']).toBe(inventory);
      expect(FIRST_PAINT_TITLES[lng].cotizacion).toBe(quotes);
    }
  });

  it('puts the paint after the root and the app’s entry and preloads in a template started after it', () => {
    const preloads = '<link rel="preload" as="fetch" crossorigin href="/api/public/x">';
    const html = withFirstPaint(SHELL, paint, preloads)!;
    expect(html).toContain(`<div id="root"></div>${paint.html}<div id="splash"`);
    // The entry no longer runs on its own: it waits, with the preloads, for the paint.
    expect(html).not.toContain('<script type="module" crossorigin src="/assets/index-AbC_1.js">');
    expect(html).toContain(
      '<template id="after-paint"><link rel="modulepreload" crossorigin href="/assets/index-AbC_1.js" data-entry>' +
        '<link rel="modulepreload" crossorigin href="/assets/rolldown-runtime-X.js">' +
        '<link rel="modulepreload" crossorigin href="/assets/react-dom-Y_2.js">' +
        `${preloads}</template><script type="module" src="/paint-then-start.js"></script>`,
    );
    // The chunks the entry imports wait with it (none left in the head).
    expect(html.match(/modulepreload/g)).toHaveLength(3);
    expect(html).toContain(
      '<title>Tom &amp; Jerry &lt;availability&gt; – Grupo Horizonte – Vitrina</title>',
    );
    expect(html).toContain('<html lang="en">');
    // The stylesheet stays where it was: the paint needs it.
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/index-1.css"></head>');
  });

  it('leaves the shell alone without a paint, or when it is not the built shell expected', () => {
    expect(withFirstPaint(SHELL, null, '')).toBeNull();
    // `npm run dev`: the entry is the source module, not a built script.
    const dev = SHELL.replace(
      '<script type="module" crossorigin src="/assets/index-AbC_1.js"></script>',
      '<script type="module" src="/src/ui/main.tsx"></script>',
    );
    expect(withFirstPaint(dev, paint, '')).toBeNull();
    expect(withFirstPaint(SHELL.replace('<div id="root"></div>', ''), paint, '')).toBeNull();
  });
});
