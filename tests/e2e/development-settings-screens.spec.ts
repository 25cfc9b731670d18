/**
 * Issue 20, item 4 (availability side): a development's settings acting on its screens. With
 * `configVistaNivel.mostrarColorIndependienteFachada` false the availability grid paints every
 * unit in the one façade colour (true when absent: each in its status colour); a unit's detail
 * lists the development's `caracteristicasUnidad`; the presentation shows its `subcategorias`.
 * The public availability honours the same two settings.
 */
import { expect, test } from '@playwright/test';
import { FACADE_COLOUR } from '../../src/core/development-settings';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';

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

  const corp = (await (
    await page.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as { id: string };
  const dev = (await (
    await page.request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=${DEV}`)
  ).json()) as { id: string };
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
