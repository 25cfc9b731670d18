/**
 * Issue 20, item 4 (availability side): a development's settings acting on its screens. With
 * `configVistaNivel.mostrarColorIndependienteFachada` false the availability grid paints every
 * unit in the one façade colour (true when absent: each in its status colour); a unit's detail
 * lists the development's `caracteristicasUnidad`; the presentation shows its `subcategorias`.
 * The public availability honours the same two settings.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { FACADE_COLOUR } from '../../src/core/development-settings';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';

/** The demo corporate's and development's ids, for the API calls around the screens. */
async function developmentIds(request: APIRequestContext) {
  const corp = (await (await request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json()) as {
    id: string;
  };
  const dev = (await (
    await request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=${DEV}`)
  ).json()) as { id: string };
  return { corp, dev };
}

const rgb = (hex: string) =>
  `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('façade colour flag, unit features and subcategories on the development’s screens', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'admin@vitrina.demo', password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  await page.goto(`${DEV_PATH}/disponibilidad`);
  const grid = page.getByTestId('availability-grid');
  await expect(grid).toHaveAttribute('data-ready', 'true');
  // Absent or true: each unit in its own status colour (more than one colour on the façade).
  await expect(grid).toHaveAttribute('data-facade-colours', 'independent');

  const { corp, dev } = await developmentIds(page.request);
  const put = (data: object) =>
    page.request.put(`/api/corporativos/${corp.id}/desarrollos/${dev.id}/ajustes`, {
      data,
      headers: { origin: new URL(page.url()).origin },
    });
  const saved = await put({
    configVistaNivel: { mostrarColorIndependienteFachada: false },
    caracteristicasUnidad: ['Balcón', 'Cuarto de servicio'],
    subcategorias: ['Lujo', 'Residencial'],
  });
  expect(saved.status()).toBe(200);
  try {
    await page.goto(`${DEV_PATH}/disponibilidad`);
    await expect(grid).toHaveAttribute('data-ready', 'true');
    await expect(grid).toHaveAttribute('data-facade-colours', 'one');
    const colours = await grid
      .locator('[data-unit-id]')
      .evaluateAll((cells) => [...new Set(cells.map((c) => getComputedStyle(c).backgroundColor))]);
    expect(colours).toEqual([rgb(FACADE_COLOUR)]);
    await grid.locator('[data-unit-id]').first().click();
    const features = page.getByTestId('unit-features');
    await expect(features.getByRole('listitem')).toHaveText(['Balcón', 'Cuarto de servicio']);
    await expect(features.getByText('Características de la unidad')).toBeVisible();
    expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/settings-facade-one-colour-es-1280.png` });
    await features.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-unit-features-es-1280.png` });

    await page.goto(`${DEV_PATH}/presentacion`);
    const sub = page.getByRole('list', { name: 'Subcategorías' });
    await expect(sub.getByRole('listitem')).toHaveText(['Lujo', 'Residencial']);
    await page.screenshot({ path: `${SHOTS}/settings-subcategories-es-1280.png` });

    // The public availability follows the same settings: one façade colour, the features.
    await page.goto(`/public${DEV_PATH}/disponibilidad`);
    const publicGrid = page.getByTestId('availability-grid');
    await expect(publicGrid).toHaveAttribute('data-ready', 'true');
    await expect(publicGrid).toHaveAttribute('data-facade-colours', 'one');
    const publicColours = await publicGrid
      .locator('[data-unit-id]')
      .evaluateAll((cells) => [...new Set(cells.map((c) => getComputedStyle(c).backgroundColor))]);
    expect(publicColours).toEqual([rgb(FACADE_COLOUR)]);
    await publicGrid.locator('[data-unit-id]').first().click();
    const publicFeatures = page.getByTestId('unit-features');
    await expect(publicFeatures.getByRole('listitem')).toHaveText(['Balcón', 'Cuarto de servicio']);
    expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
    await publicFeatures.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/settings-public-facade-features-es-1280.png` });
  } finally {
    const restored = await put({
      configVistaNivel: { mostrarColorIndependienteFachada: true },
      caracteristicasUnidad: [],
      subcategorias: [],
    });
    expect(restored.status()).toBe(200);
  }
});

for (const [language, width] of [
  ['es', 1280],
  ['en', 390],
] as const) {
  test(`a refused landing page is marked at its field, and a later save clears the old error toasts (${language} ${width})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), language);
    const page = await context.newPage();
    const login = await page.request.post('/api/auth/login', {
      data: { email: 'admin@vitrina.demo', password: PASSWORD },
    });
    expect(login.status()).toBe(200);
    const texts =
      language === 'es'
        ? {
            field: 'Landing page (https)',
            save: 'Guardar ajustes',
            saved: 'Ajustes guardados',
            message: 'Escribe una dirección completa que empiece con https://',
          }
        : {
            field: 'Landing page (https)',
            save: 'Save settings',
            saved: 'Settings saved',
            message: 'Enter a full address that starts with https://',
          };
    await page.goto(`${DEV_PATH}/ajustes`);
    await expect(page.locator('[data-menu-page]').first()).toBeVisible();
    const { corp, dev } = await developmentIds(page.request);
    const ajustes = `/api/corporativos/${corp.id}/desarrollos/${dev.id}/ajustes`;
    const before = (await (await page.request.get(ajustes)).json()) as { landingPage: string };
    const landing = page.getByLabel(texts.field);
    const errors = page.locator('[data-overlay] [role="alert"]');
    try {
      // http:// passes the browser's own URL check; the server refuses it (https only).
      await landing.fill('http://ejemplo.com');
      await page.getByRole('button', { name: texts.save }).click();
      await expect(landing).toHaveAttribute('aria-invalid', 'true');
      await expect(landing).toBeFocused();
      await expect(landing).toHaveAccessibleDescription(new RegExp(texts.message));
      await expect(page.getByTestId('field-error')).toContainText(texts.message);
      await expect(errors).not.toHaveCount(0);
      expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
      await page.screenshot({
        path: `${SHOTS}/settings-landing-invalid-${language}-${width}.png`,
      });

      await landing.fill('https://ejemplo.com');
      await page.getByRole('button', { name: texts.save }).click();
      await expect(page.getByRole('status').filter({ hasText: texts.saved })).toBeVisible();
      // Read at once: a toast closes itself after 5 s, so waiting would hide the defect.
      expect(await errors.count()).toBe(0);
      await expect(landing).not.toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByTestId('field-error')).toHaveCount(0);
      await page.screenshot({
        path: `${SHOTS}/settings-landing-saved-${language}-${width}.png`,
      });
    } finally {
      const restored = await page.request.put(ajustes, {
        data: { landingPage: before.landingPage },
        headers: { origin: new URL(page.url()).origin },
      });
      expect(restored.status()).toBe(200);
      await context.close();
    }
  });
}
