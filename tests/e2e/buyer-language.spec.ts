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

/** The id of a unit of residencial-los-olivos by its name, from the public clusters read. */
async function unitId(page: Page, name: string): Promise<string> {
  const res = await page.request.get(
    `/api/public/corporativos/${CORP}/desarrollos/residencial-los-olivos/disponibilidad`,
  );
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { clusters: { unidades: { id: string; nombre: string }[] }[] };
  const unit = body.clusters.flatMap((c) => c.unidades).find((u) => u.nombre === name);
  expect(unit).toBeDefined();
  return unit!.id;
}

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
        // Each stage's state in the reader's language: the corporate's words, stored in Spanish.
        await expect(grid.getByTestId('cluster-stage')).toHaveText(
          lng === 'es'
            ? ['Entregada', 'En obra', 'Preventa']
            : ['Delivered', 'Under construction', 'Pre-sale'],
        );
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

      // A house's detail and quotation say its street, not a level.
      await page.goto(
        `/corporativos/${CORP}/desarrollos/residencial-los-olivos/disponibilidad?unidad=${await unitId(page, '1205')}`,
      );
      const detail = page.getByTestId('unit-detail');
      await expect(detail).toContainText('Calle Encino');
      await expect(detail).not.toContainText(lng === 'es' ? 'Nivel' : 'Level');
      await page.goto(
        `/corporativos/${CORP}/desarrollos/residencial-los-olivos/cotizacion?unidad=${await unitId(page, '1205')}`,
      );
      const facts = page.locator('dl').first();
      await expect(facts).toContainText(lng === 'es' ? 'Calle' : 'Street');
      await expect(facts).toContainText('Calle Encino');
      await expect(facts).not.toContainText(lng === 'es' ? 'Nivel' : 'Level');
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

/** A shared quotation of a Disponible Torre Alameda unit, made by the adviser: its path. */
async function sharedQuotation(request: APIRequestContext): Promise<string> {
  await signIn(request, 'asesor@vitrina.demo');
  const corporate = (await (
    await request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as {
    id: string;
  };
  const dev = (await (
    await request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=torre-alameda`)
  ).json()) as { id: string };
  const clusters = (await (
    await request.get(`/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}`)
  ).json()) as { unidades: { id: string; idCluster: string; status?: string }[] }[];
  const unit = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Disponible')!;
  const schemes = (await (
    await request.get(
      `/api/wsObtenerEsquemasPago?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}&idCluster=${unit.idCluster}`,
    )
  ).json()) as { id: string; valido: boolean }[];
  const created = await request.post(`/api/corporativos/${corporate.id}/cotizaciones`, {
    data: {
      idUnidad: unit.id,
      idEsquema: schemes.find((s) => s.valido)!.id,
      divisa: 'MXN',
      nuevoLead: { nombre: 'Buyer Reads English' },
    },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  const shared = await request.post(
    `/api/corporativos/${corporate.id}/cotizaciones/${id}/compartir`,
    { data: {} },
  );
  expect(shared.status()).toBe(201);
  return ((await shared.json()) as { url: string }).url;
}

test.describe('issue 19: an English-speaking buyer', () => {
  test.use({ locale: 'en-US' });

  test('the public availability follows the browser’s English, with a switch that is remembered', async ({
    page,
  }) => {
    const path = `/public/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`;
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(path);
      await gridReady(page);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByRole('heading', { level: 1 })).toContainText('availability');
      // The corporate's own words in English: the legend says Available, not Disponible.
      const legend = page.getByRole('list', { name: 'Units by status' });
      await expect(legend).toContainText('Available');
      await expect(legend).not.toContainText('Disponible');
      await expect(
        page.getByRole('button', { name: /^(Unit|Unidad) A\d+, Available/ }).first(),
      ).toBeAttached();
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/issue19-public-availability-en-${width}.png` });
    }
    await page.getByTestId('language-toggle').click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('list', { name: 'Unidades por estatus' })).toContainText(
      'Disponible',
    );
    await page.reload();
    await gridReady(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.screenshot({ path: `${SHOTS}/issue19-public-availability-es-1280.png` });
    // The choice travels in a cookie too, so the server paints the page's first frame in it
    // (the browser still asks for English).
    const chosen = async () =>
      (await page.context().cookies()).find((c) => c.name === 'vitrina_idioma')?.value;
    expect(await chosen()).toBe('es');
    const html = await (
      await page.request.get(path, { headers: { 'accept-language': 'en-US' } })
    ).text();
    expect(html).toContain('<h1>Disponibilidad de Torre Alameda</h1>');
    // A choice remembered before the cookie existed gets it back on the next page.
    await page.context().clearCookies();
    await page.reload();
    await gridReady(page);
    await expect.poll(chosen).toBe('es');
  });

  test('a signed-out visitor reads the states of Los Olivos’ stages in English on the public site plan', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(
      `/public/corporativos/${CORP}/desarrollos/residencial-los-olivos/disponibilidad`,
    );
    await gridReady(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByTestId('cluster-stage')).toHaveText([
      'Delivered',
      'Under construction',
      'Pre-sale',
    ]);
    await page.screenshot({ path: `${SHOTS}/issue19-public-olivos-stages-en-1280.png` });
  });

  test('the shared quotation opens in the language its link names; the sign-in page switches', async ({
    page,
  }) => {
    const url = await sharedQuotation(page.request);
    await page.context().clearCookies();
    await page.setViewportSize({ width: 1280, height: 900 });
    // Browser in English, but the adviser chose Spanish for this buyer.
    await page.goto(`${url}?lang=es`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByTestId('language-toggle')).toHaveText('EN');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${url}?lang=en`);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.getByTestId('language-toggle')).toHaveText('ES');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/issue19-shared-quotation-en-${width}.png` });
    }

    await page.evaluate(() => localStorage.removeItem('vitrina:idioma'));
    await page.goto('/login');
    const toggle = page.getByTestId('language-toggle');
    await expect(toggle).toBeVisible();
    const before = await page.getByRole('heading', { level: 1 }).textContent();
    await toggle.click();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(before ?? '');
    expect(await serious(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/issue19-login-switched-1280.png` });
  });

  test('a signed-in adviser in English reads the corporate’s English labels', async ({ page }) => {
    await useLanguage(page, 'en');
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`);
    await gridReady(page);
    const legend = page.getByRole('list', { name: 'Units by status' });
    await expect(legend).toContainText('Sold');
    await expect(legend).not.toContainText('Vendido');
    const filters = page.getByRole('form', { name: 'Filters' });
    await expect(filters).toContainText('On hold');
    await page.screenshot({ path: `${SHOTS}/issue19-labels-en-1280.png` });

    // The list view's status column, the quotation's status and currencies, and the public
    // simulator's optionals: the same English words.
    await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad-simple`);
    const table = page.locator('table');
    await expect(table).toContainText('Available');
    await expect(table).not.toContainText('Disponible');
    await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/cotizacion`);
    await page.getByRole('combobox').first().selectOption({ index: 1 });
    await expect(page.getByTestId('quote-unit-status')).toHaveText('Available');
    await expect(page.locator('option', { hasText: 'USD' })).toHaveText('USD · US Dollar');
    await page.goto(`/public/corporativos/${CORP}/desarrollos/torre-alameda/cotizacion`);
    await page.getByRole('combobox', { name: 'Unit' }).selectOption({ index: 1 });
    await expect(page.getByRole('checkbox', { name: 'Storage room' })).toBeVisible();
    // The clients list's status filter: the corporate's English lead statuses.
    await page.goto(`/corporativos/${CORP}/clientes`);
    const statusFilter = page.getByRole('combobox', { name: 'Status', exact: true });
    await expect(statusFilter.locator('option')).toContainText(['All statuses', 'Contacted']);
    await expect(statusFilter.locator('option', { hasText: 'Contactado' })).toHaveCount(0);
    // The developments' delivery tags, on their cards and their presentation.
    await page.goto(`/corporativos/${CORP}/desarrollos`);
    // The featured row and the list both show it: the list's card.
    const card = page.locator('[data-development="torre-alameda"]').last();
    await expect(card.getByRole('list', { name: 'Delivery stages' })).toHaveText(/Delivery 2027/);
    await expect(card.getByRole('list', { name: 'Delivery stages' })).not.toContainText(
      'Entrega 2027',
    );
    await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/presentacion`);
    await expect(page.getByRole('list', { name: 'Delivery stages' })).toContainText('Pre-sale');
    await expect(page.getByRole('list', { name: 'Delivery stages' })).not.toContainText('Preventa');
  });
});

test('in English the roles read in the corporate’s English: the users table, its filter and the invite dialog', async ({
  page,
}) => {
  await useLanguage(page, 'en');
  await signIn(page.request, 'admin@vitrina.demo');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/corporativos/${CORP}/usuarios`);
  const table = page.getByRole('table');
  await expect(table).toContainText('Sales manager');
  await expect(table).not.toContainText('Gerente de ventas');
  const filter = page.getByRole('combobox', { name: 'Role', exact: true });
  await expect(filter.locator('option')).toContainText(['All roles', 'Administrator']);
  await expect(filter.locator('option', { hasText: 'Asesor' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite user' });
  const role = dialog.getByRole('combobox', { name: 'Role' });
  await expect(role.locator('option', { hasText: 'Adviser' })).toHaveCount(1);
  await expect(role.locator('option', { hasText: 'Asesor' })).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/issue19-roles-en-1280.png` });
});

test('an administrator edits the English labels; the English grid shows them at once', async ({
  page,
}) => {
  await signIn(page.request, 'admin@vitrina.demo');
  for (const lng of ['es', 'en'] as const) {
    await page.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), lng);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/corporativos/${CORP}/idiomas`);
      const field = page.getByRole('textbox', { name: 'Disponible', exact: true });
      await expect(field).toHaveValue('Available');
      expect(await serious(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/issue19-labels-page-${lng}-${width}.png` });
    }
  }
  // In English now (the last language above).
  await page.setViewportSize({ width: 1280, height: 900 });
  const field = page.getByRole('textbox', { name: 'Disponible', exact: true });
  await field.fill('For sale');
  await page.getByRole('button', { name: 'Save labels' }).click();
  await expect(page.getByText('Labels saved')).toBeVisible();
  await page.goto(`/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`);
  await gridReady(page);
  await expect(page.getByRole('list', { name: 'Units by status' })).toContainText('For sale');
  // Put back.
  await page.goto(`/corporativos/${CORP}/idiomas`);
  await page.getByRole('textbox', { name: 'Disponible', exact: true }).fill('Available');
  await page.getByRole('button', { name: 'Save labels' }).click();
  await expect(page.getByText('Labels saved')).toBeVisible();
});
