/**
 * A development's public page painted from its HTML (issue 19: src/server/public/first-paint.ts):
 * before the app's script has run, the visitor sees the page's top bar — the corporate's logo
 * and name and the page's heading — and the app's own header then takes its place at the same
 * place and size (nothing moves, and the heading a visitor saw first stays the largest thing
 * painted). Checked in both languages at a phone's, a tablet's and a desktop's width, for the
 * availability and the simulator: the paint alone (scripts blocked), then the app.
 */
import { expect, test, type Page } from '@playwright/test';

const SHOTS = 'tests/e2e/__screenshots__';
const BASE = '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda';
const PAGES = [
  {
    page: 'disponibilidad',
    es: 'Disponibilidad de Torre Alameda',
    en: 'Torre Alameda availability',
  },
  {
    page: 'cotizacion',
    es: 'Simulador de cotización · Torre Alameda',
    en: 'Quote simulator · Torre Alameda',
  },
] as const;

/** The text boxes of the top bar's heading and corporate name under `scope`, rounded to 0.1 px. */
const boxes = (page: Page, scope: string) =>
  page.evaluate((scope) => {
    const box = (selector: string) => {
      const el = document.querySelector(selector);
      if (!el) return null;
      const range = document.createRange();
      range.selectNodeContents(el);
      const r = range.getBoundingClientRect();
      return [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10);
    };
    return {
      heading: box(`${scope} header h1`),
      corporate: box(`${scope} header p`),
      text: document.querySelector(`${scope} header h1`)?.textContent,
    };
  }, scope);

for (const { page: name, ...headings } of PAGES) {
  for (const lang of ['es', 'en'] as const) {
    test(`${name} (${lang}): the first paint is the app's top bar, at 390, 820 and 1280 px`, async ({
      browser,
    }) => {
      for (const width of [390, 820, 1280]) {
        const context = await browser.newContext({
          locale: lang === 'es' ? 'es-MX' : 'en-US',
          viewport: { width, height: 844 },
          serviceWorkers: 'block',
        });
        try {
          // The paint alone: no script runs.
          const painted = await context.newPage();
          await painted.route(/\.js(\?|$)/, (route) => route.abort());
          await painted.goto(`${BASE}/${name}`);
          const first = await boxes(painted, '#first-paint');
          expect(first.text, `${width}`).toBe(headings[lang]);
          await expect(painted).toHaveTitle(`${headings[lang]} – Grupo Horizonte – Vitrina`);
          if (width === 390)
            await painted.screenshot({ path: `${SHOTS}/first-paint-${name}-${lang}-390.png` });

          // The app: its header in the same place, and the paint gone.
          const app = await context.newPage();
          await app.goto(`${BASE}/${name}`);
          await expect(app.getByRole('heading', { level: 1, name: headings[lang] })).toBeVisible();
          await expect(app.locator('#first-paint')).toHaveCount(0);
          expect(await boxes(app, '#root'), `${width}`).toEqual(first);
        } finally {
          await context.close();
        }
      }
    });
  }
}

test('the paint stays over the app until the page has its data, then goes', async ({ page }) => {
  // The development's data held back (its first page of clusters, issue 21): the app runs, the
  // page waits for it.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    '**/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad?limite=2',
    async (route) => {
      await held;
      await route.continue();
    },
  );
  await page.goto(`${BASE}/disponibilidad`);
  // The app is running (its loading state is in the page, under the paint)…
  await expect(page.locator('#root main [role="status"]')).toBeAttached();
  await expect(page.locator('#first-paint h1')).toBeVisible();
  await expect(page.locator('#first-paint h1')).toHaveText('Disponibilidad de Torre Alameda');
  // …and once the data comes the app's header replaces it.
  release();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Disponibilidad de Torre Alameda' }),
  ).toBeVisible();
});
