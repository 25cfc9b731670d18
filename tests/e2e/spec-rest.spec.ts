/**
 * Issue 20 (items 1, 2, 8): the featured developments page and its editor, the tutorials (the
 * first-visit tour, the help entry, the administrator's editor) and the users page's last
 * session with its browser. Each screen at 1280, 820 and 390 px in Spanish and English, looked
 * at and axe-clean (serious and critical).
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEVELOPMENT_PAGES } from '../../src/core/development-settings';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const SHOTS = 'tests/e2e/__screenshots__';
const LANGUAGE_KEY = 'vitrina:idioma';
const WIDTHS = [1280, 820, 390] as const;
const LANGS = ['es', 'en'] as const;
type Lang = (typeof LANGS)[number];

// A test walks up to six language × width combinations, each a new context with axe runs: a
// minute is too short for that on a loaded machine (CI runs two e2e shards at once).
test.describe.configure({ mode: 'serial', timeout: 180_000 });

async function contextFor(browser: Browser, lang: Lang, width: number, email: string) {
  const context = await browser.newContext({
    locale: lang === 'es' ? 'es-MX' : 'en-US',
    viewport: { width, height: width < 600 ? 844 : 800 },
  });
  await context.addInitScript(
    ([key, value]) => localStorage.setItem(key!, value!),
    [LANGUAGE_KEY, lang],
  );
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

const serious = (page: Page) => axeViolations(page, { seriousOnly: true });

test('destacados: the featured developments as cards, in the document’s order; the administrator reorders them', async ({
  browser,
}) => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/destacados`);
      await expect(
        page.getByRole('heading', {
          level: 2,
          name: lang === 'es' ? 'Desarrollos destacados' : 'Featured developments',
          exact: true,
        }),
      ).toBeVisible();
      await expect(
        page.getByTestId('featured-list').locator('[data-development]').first(),
      ).toBeVisible();
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/destacados-${lang}-${width}.png`, fullPage: true });
      await context.close();
    }
  }
  // The administrator features a second development and puts it first; the list follows.
  const context = await contextFor(browser, 'es', 1280, 'admin@vitrina.demo');
  const page = await context.newPage();
  const corp = (await (
    await context.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as {
    id: string;
  };
  const before = (await (
    await context.request.get(`/api/wsObtenerDestacados?idCorporativo=${corp.id}`)
  ).json()) as { items: string[] };
  await page.goto(`/corporativos/${CORP}/destacados`);
  const cards = page.getByTestId('featured-list').locator('[data-development]');
  const firstBefore = await cards.first().getAttribute('data-development');
  await page
    .getByRole('button', { name: /^Destacar / })
    .first()
    .click();
  const items = page.locator('[data-featured-item]');
  const added = await items.last().getAttribute('data-featured-item');
  await items
    .last()
    .getByRole('button', { name: /^Subir / })
    .click();
  await page.getByRole('button', { name: 'Guardar destacados' }).click();
  await expect(page.getByText('Destacados guardados')).toBeVisible();
  await expect(cards).toHaveCount(before.items.length + 1);
  expect(await cards.nth(before.items.length - 1).getAttribute('data-development')).toBe(added);
  // The developments list's featured block reads the same document.
  await page.goto(`/corporativos/${CORP}/desarrollos`);
  const block = page.locator('section[aria-labelledby="featured-title"] [data-development]');
  await expect(block).toHaveCount(before.items.length + 1);
  expect(await block.first().getAttribute('data-development')).toBe(
    before.items.length > 1 ? firstBefore : added,
  );
  // Put it back for the other specs.
  const restored = await context.request.put(`/api/corporativos/${corp.id}/destacados`, {
    data: before,
    headers: { origin: new URL(page.url()).origin },
  });
  expect(restored.status()).toBe(200);
  await context.close();
});

test('tutorials: a first-visit tour on the home, remembered once closed; the help entry lists the active ones', async ({
  browser,
}) => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'asesor@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}`);
      const tour = page.getByTestId('first-visit-tour');
      await expect(tour).toBeVisible();
      await expect(tour.getByRole('heading')).toHaveText(
        lang === 'es' ? 'Cotizar una unidad' : 'Quote a unit',
      );
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/tutorials-tour-${lang}-${width}.png` });
      await tour.getByRole('button', { name: lang === 'es' ? 'Siguiente' : 'Next' }).click();
      await expect(tour.getByRole('heading')).toHaveText(
        lang === 'es' ? 'Registrar un cliente' : 'Register a client',
      );
      await tour
        .getByRole('button', { name: lang === 'es' ? 'Omitir recorrido' : 'Skip the tour' })
        .click();
      await expect(tour).toBeHidden();
      await page.reload();
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await expect(page.getByTestId('first-visit-tour')).toBeHidden();
      // The help entry.
      await page.getByTestId('help-button').click();
      const dialog = page.getByRole('dialog');
      await expect(
        dialog.getByRole('heading', { name: lang === 'es' ? 'Tutoriales' : 'Tutorials' }),
      ).toBeVisible();
      await expect(dialog.locator('[data-tutorial]')).toHaveCount(3);
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/tutorials-help-${lang}-${width}.png` });
      await context.close();
    }
  }
});

test('tutorials: the administrator’s editor', async ({ browser }) => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/tutoriales`);
      await expect(page.locator('[data-tutorial-form]')).toHaveCount(3);
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/tutorials-admin-${lang}-${width}.png` });
      await context.close();
    }
  }
});

test('users page: each user’s last session with its browser', async ({ browser }) => {
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/usuarios`);
      // The admin's own session was just recorded by this Chromium (detectBrowser → Chrome).
      const me = page.locator('tr[data-user="admin@vitrina.demo"]');
      await expect(me.getByTestId('last-session-browser')).toHaveText(
        lang === 'es' ? 'en Chrome' : 'in Chrome',
      );
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/users-last-session-${lang}-${width}.png` });
      await context.close();
    }
  }
});

test('development settings: the administrator hides a page and the development’s tabs follow its menu', async ({
  browser,
}) => {
  const DEV = 'torre-alameda';
  for (const lang of LANGS) {
    for (const width of WIDTHS) {
      const context = await contextFor(browser, lang, width, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`/corporativos/${CORP}/desarrollos/${DEV}/ajustes`);
      await expect(page.locator('[data-menu-page]').first()).toBeVisible();
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/development-settings-${lang}-${width}.png` });
      await context.close();
    }
  }
  const context = await contextFor(browser, 'es', 1280, 'admin@vitrina.demo');
  const page = await context.newPage();
  await page.goto(`/corporativos/${CORP}/desarrollos/${DEV}/ajustes`);
  const nav = page.getByRole('navigation', { name: /secciones del desarrollo/i });
  await expect(nav.getByRole('link', { name: 'Amenidades' })).toBeVisible();
  await page.getByRole('button', { name: 'Ocultar Amenidades' }).click();
  await page.getByRole('button', { name: 'Guardar ajustes' }).click();
  await expect(page.getByText('Ajustes guardados')).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Amenidades' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Ajustes' })).toBeVisible();
  // Put the default menu back for the other specs.
  const corp = (await (
    await context.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as {
    id: string;
  };
  const dev = (await (
    await context.request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=${DEV}`)
  ).json()) as { id: string };
  const restored = await context.request.put(
    `/api/corporativos/${corp.id}/desarrollos/${dev.id}/ajustes`,
    { data: { menu: [...DEVELOPMENT_PAGES] }, headers: { origin: new URL(page.url()).origin } },
  );
  expect(restored.status()).toBe(200);
  await context.close();
});

test('settings modal: the administrator reaches the featured and tutorials editors from it', async ({
  browser,
}) => {
  const context = await contextFor(browser, 'es', 1280, 'admin@vitrina.demo');
  const page = await context.newPage();
  await page.goto(`/corporativos/${CORP}`);
  await page.getByRole('button', { name: 'Configuraciones' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Configuraciones' });
  await expect(dialog.getByRole('link', { name: 'Tutoriales' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/settings-modal-content-links-es-1280.png` });
  await dialog.getByRole('link', { name: 'Elegir y ordenar los destacados' }).click();
  await expect(page).toHaveURL(new RegExp(`/corporativos/${CORP}/destacados$`));
  await expect(dialog).toBeHidden();
  await context.close();

  // An adviser administers no content: no such links.
  const adviser = await contextFor(browser, 'es', 1280, 'asesor@vitrina.demo');
  const other = await adviser.newPage();
  await other.goto(`/corporativos/${CORP}`);
  await other.getByRole('button', { name: 'Configuraciones' }).first().click();
  const modal = other.getByRole('dialog', { name: 'Configuraciones' });
  await expect(modal.getByLabel('Moneda')).toBeVisible();
  await expect(modal.getByRole('link', { name: 'Tutoriales' })).toHaveCount(0);
  await adviser.close();
});
