import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * Issue 19: what a buyer and an adviser notice on the availability screens — Los Olivos' houses
 * as a site plan (defect 10), the filters reachable at tablet width (defect 5) — in both
 * languages at 1280, 820 and 390 px, axe clean.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const SHOTS = 'tests/e2e/__screenshots__';
const WIDTHS = [1280, 820, 390] as const;

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
}

async function useLanguage(page: Page, lng: 'es' | 'en') {
  await page.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), lng);
}

async function gridReady(page: Page) {
  await expect(page.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
}

const serious = (page: Page) => axeViolations(page, { seriousOnly: true });

test.describe('issue 19: houses, filters, languages', () => {
  for (const lng of ['es', 'en'] as const) {
    test(`Los Olivos houses as a site plan, filtered in the worker (${lng})`, async ({ page }) => {
      await useLanguage(page, lng);
      await signIn(page.request, 'asesor@vitrina.demo');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`/corporativos/${CORP}/desarrollos/residencial-los-olivos/disponibilidad`);
        await gridReady(page);
        const grid = page.getByTestId('availability-grid');
        const stages = grid.locator('section');
        await expect(stages).toHaveCount(3);
        const plan = stages.first().locator('[data-layout="site-plan"]');
        await expect(plan).toBeVisible();
        await expect(stages.first()).toContainText(
          lng === 'es' ? '4 calles · 40 casas' : '4 streets · 40 houses',
        );
        // Lots grouped by street: the street's name, its lots on both sides of the road.
        const street = plan.getByRole('listitem', { name: 'Calle Olivo' });
        await expect(street).toBeVisible();
        await expect(street.getByRole('button')).toHaveCount(10);
        const [odd, even] = [
          await street.getByRole('button', { name: /^(Unidad|Unit) 1101,/ }).boundingBox(),
          await street.getByRole('button', { name: /^(Unidad|Unit) 1102,/ }).boundingBox(),
        ];
        expect(even!.y).toBeGreaterThan(odd!.y + odd!.height);
        expect(await serious(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/issue19-olivos-${lng}-${width}.png` });
      }
      // Still filtered in the worker: 4+ bedrooms leaves only the Encino houses lit.
      await page.setViewportSize({ width: 1280, height: 900 });
      const filters = page.getByRole('form', { name: lng === 'es' ? 'Filtros' : 'Filters' });
      const before = await page.getByTestId('availability-grid').getAttribute('data-filter-key');
      await filters.getByRole('button', { name: '4+' }).first().click();
      await expect(page.getByTestId('availability-grid')).not.toHaveAttribute(
        'data-filter-key',
        before ?? '',
      );
      await gridReady(page);
      const lit = page.getByTestId('availability-grid').locator('[data-match="true"]');
      const dim = page.getByTestId('availability-grid').locator('[data-match="false"]');
      expect(await lit.count()).toBeGreaterThan(0);
      expect(await dim.count()).toBeGreaterThan(0);
      expect((await lit.count()) + (await dim.count())).toBe(120);
    });
  }

  test('at 820 px the filters open from a bar above the towers, without scrolling', async ({
    page,
  }) => {
    await signIn(page.request, 'asesor@vitrina.demo');
    for (const lng of ['es', 'en'] as const) {
      await page.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), lng);
      for (const width of [820, 390] as const) {
        await page.setViewportSize({ width, height: 1000 });
        await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`);
        await gridReady(page);
        const bar = page.getByRole('button', { name: lng === 'es' ? /^Filtros/ : /^Filters/ });
        await expect(bar).toBeInViewport();
        await expect(bar).toHaveAttribute('aria-expanded', 'false');
        const form = page.getByRole('form', { name: lng === 'es' ? 'Filtros' : 'Filters' });
        await expect(form).toBeHidden();
        await bar.click();
        await expect(bar).toHaveAttribute('aria-expanded', 'true');
        await expect(form).toBeVisible();
        const formBox = await form.boundingBox();
        expect(formBox!.y).toBeLessThan(1000);
        // The panel sits above the first tower.
        const tower = await page
          .getByTestId('availability-grid')
          .locator('section')
          .first()
          .boundingBox();
        expect(formBox!.y).toBeLessThan(tower!.y);
        expect(await serious(page)).toEqual([]);
        await page.screenshot({ path: `${SHOTS}/issue19-filters-${lng}-${width}.png` });
        await bar.click();
        await expect(form).toBeHidden();
      }
    }
    // From lg the bar is gone and the panel is a column beside the grid.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    await gridReady(page);
    await expect(page.getByRole('button', { name: /^Filters/ })).toBeHidden();
    await expect(page.getByRole('form', { name: 'Filters' })).toBeInViewport();
  });
});
