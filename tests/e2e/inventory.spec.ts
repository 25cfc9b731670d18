import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/${DEV}`;
const SHOTS = 'tests/e2e/__screenshots__';

interface ApiUnit {
  id: string;
  nombre: string;
  status?: string;
  precio: number;
  nivel: number;
  caracteristicas: { recamaras: number; banios: number; baniosMedios: number; cajones: number };
  metrajes: { areaTotal: number };
}

async function signIn(request: APIRequestContext, email: string) {
  const res = await request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
}

async function alamedaUnits(request: APIRequestContext) {
  const corporate = await (await request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const dev = await (
    await request.get(`/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=${DEV}`)
  ).json();
  const clusters = await (
    await request.get(`/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}`)
  ).json();
  const units: ApiUnit[] = clusters.flatMap((c: { unidades: ApiUnit[] }) => c.unidades);
  return { corporate, dev, units };
}

/** `$1,234,568` — spec §9 (thousands commas, no decimals). */
function money(amount: number): string {
  return `$${Math.round(amount).toLocaleString('en-US')}`;
}

async function gridReady(page: Page) {
  await expect(page.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/inventory-${name}.png`, fullPage: false });
}

test.describe('inventory', () => {
  test('adviser: filters in the availability grid, unit detail deep link, ft² and USD, comparator', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { units } = await alamedaUnits(page.request);
    expect(units).toHaveLength(248);

    await page.goto(`/corporativos/${CORP}/desarrollos`);
    await expect(page.getByRole('heading', { name: 'Destacados' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Abrir Torre Alameda' }).first()).toBeVisible();
    await shot(page, 'developments-list');

    await page.goto(`${DEV_PATH}/disponibilidad`);
    await gridReady(page);
    const status = page.getByRole('form', { name: 'Filtros' }).getByRole('status');
    await expect(status).toHaveText('248 de 248 unidades coinciden');

    // 2 bedrooms: the count is what the spec's rule gives over the API's units.
    const filters = page.getByRole('form', { name: 'Filtros' });
    await filters
      .getByRole('group', { name: 'Recámaras' })
      .getByRole('button', { name: '2' })
      .click();
    const twoBedrooms = units.filter((u) => u.caracteristicas.recamaras === 2).length;
    expect(twoBedrooms).toBeGreaterThan(0);
    await expect(status).toHaveText(`${twoBedrooms} de 248 unidades coinciden`);

    // …and 4+ parking (4 means 4 or more).
    await filters
      .getByRole('group', { name: 'Estacionamientos' })
      .getByRole('button', { name: '4+' })
      .click();
    const twoAndFourPlus = units.filter(
      (u) => u.caracteristicas.recamaras === 2 && u.caracteristicas.cajones >= 4,
    );
    await expect(status).toHaveText(`${twoAndFourPlus.length} de 248 unidades coinciden`);
    await expect(page.locator('[data-match="true"]')).toHaveCount(twoAndFourPlus.length);
    await shot(page, 'availability-filter-2br-4parking');

    // Widen to 2 or 4+ bedrooms: the penthouses (4 bedrooms, 4 spaces) match.
    await filters
      .getByRole('group', { name: 'Recámaras' })
      .getByRole('button', { name: '4+' })
      .click();
    const matching = units.filter(
      (u) =>
        (u.caracteristicas.recamaras === 2 || u.caracteristicas.recamaras >= 4) &&
        u.caracteristicas.cajones >= 4,
    );
    expect(matching.length).toBeGreaterThan(0);
    await expect(status).toHaveText(`${matching.length} de 248 unidades coinciden`);
    await expect(page.locator('[data-match="true"]')).toHaveCount(matching.length);

    // Open an available matching unit by clicking it in the grid.
    const unit = matching.find((u) => u.status === 'Disponible') ?? matching[0]!;
    await page.getByRole('button', { name: new RegExp(`^Unidad ${unit.nombre},`) }).click();
    await expect(page).toHaveURL(new RegExp(`unidad=${unit.id}&s=caracteristicas`));
    const detail = page.getByRole('region', { name: `Unidad ${unit.nombre}` });
    await expect(detail).toBeVisible();
    await expect(detail).toContainText(`${unit.metrajes.areaTotal.toFixed(2)} m²`);
    await shot(page, 'availability-unit-detail');

    // Reload: the same unit is open, the filters kept.
    await page.reload();
    await gridReady(page);
    await expect(page.getByRole('region', { name: `Unidad ${unit.nombre}` })).toBeVisible();
    await expect(status).toHaveText(`${matching.length} de 248 unidades coinciden`);

    // ft² and USD from the settings modal.
    await page.getByRole('button', { name: 'Configuraciones' }).click();
    const settings = page.getByRole('dialog', { name: 'Configuraciones' });
    await settings.getByRole('radio', { name: /ft²/ }).check();
    await settings.getByLabel('Moneda').selectOption('USD');
    await page.keyboard.press('Escape');
    await expect(settings).toBeHidden();
    const ft2 = (unit.metrajes.areaTotal * 10.7639).toLocaleString('en-US', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    const openDetail = page.getByRole('region', { name: `Unidad ${unit.nombre}` });
    await expect(openDetail).toContainText(`${ft2} ft²`);
    if (unit.status === 'Disponible') {
      await expect(openDetail.getByTestId('unit-price')).toHaveText(
        `${money(unit.precio / 18.5)} USD`,
      );
    } else {
      await expect(openDetail.getByTestId('unit-price')).toHaveText('Precio no disponible');
    }
    await shot(page, 'availability-ft2-usd');

    // Two units into the comparator.
    await openDetail.getByRole('button', { name: 'Comparar' }).click();
    const other = matching.find((u) => u.id !== unit.id)!;
    await page.getByRole('button', { name: new RegExp(`^Unidad ${other.nombre},`) }).click();
    await page
      .getByRole('region', { name: `Unidad ${other.nombre}` })
      .getByRole('button', { name: 'Comparar' })
      .click();
    await page
      .getByRole('navigation', { name: 'Secciones del desarrollo' })
      .getByRole('link', { name: 'Comparador' })
      .click();
    await expect(page.getByRole('heading', { name: 'Comparador (2 de 4)' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Comparación lado a lado' });
    await expect(table.getByRole('columnheader', { name: new RegExp(unit.nombre) })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: new RegExp(other.nombre) })).toBeVisible();
    await expect(table).toContainText(`${ft2} ft²`);
    await shot(page, 'comparator');

    // Every other page of the development, looked at.
    for (const sub of [
      'presentacion',
      'prototipos',
      'departamentos',
      'disponibilidad-simple',
      'galerias',
      'galerias-videos',
      'ubicacion',
      'documentos',
      'amenidades',
      'material-visual',
    ]) {
      await page.goto(`${DEV_PATH}/${sub}`);
      const nav = page.getByRole('navigation', { name: 'Secciones del desarrollo' });
      await expect(nav.locator('a[aria-current="page"]')).toHaveCount(1);
      // Images and queries settle (the event stream keeps the network busy, so no networkidle).
      await page.waitForTimeout(700);
      await shot(page, sub);
    }
    // The gallery's lightbox moves with the arrow keys and closes with Escape.
    await page.goto(`${DEV_PATH}/galerias`);
    await page.getByRole('button', { name: 'Ver imagen Fachada' }).click();
    const lightbox = page.getByRole('dialog', { name: /Fachada/ });
    await expect(lightbox).toBeVisible();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('dialog', { name: /Lobby/ })).toBeVisible();
    await shot(page, 'gallery-lightbox');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('visitor: the public availability shows no hidden price', async ({ page, browser }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    // The hidden prices, read as a signed-in user in another context.
    const admin = await browser.newContext();
    await signIn(admin.request, 'admin@vitrina.demo');
    const { units } = await alamedaUnits(admin.request);
    await admin.close();
    const hidden = units.filter((u) => u.status !== 'Disponible');
    expect(hidden.length).toBeGreaterThan(0);

    const api = await page.request.get(
      `/api/public/corporativos/${CORP}/desarrollos/${DEV}/disponibilidad`,
    );
    const body = await api.json();
    for (const cluster of body.clusters) {
      for (const u of cluster.unidades) {
        if (u.status !== 'Disponible') expect(u).not.toHaveProperty('precio');
      }
    }

    await page.goto(`/public/corporativos/${CORP}/desarrollos/${DEV}/disponibilidad`);
    await gridReady(page);
    await expect(
      page.getByRole('heading', { name: 'Disponibilidad de Torre Alameda' }),
    ).toBeVisible();
    const hiddenUnit = hidden[0]!;
    await page.getByRole('button', { name: new RegExp(`^Unidad ${hiddenUnit.nombre},`) }).click();
    const detail = page.getByRole('region', { name: `Unidad ${hiddenUnit.nombre}` });
    await expect(detail.getByTestId('unit-price')).toHaveText('Precio no disponible');
    await expect(detail.getByRole('link', { name: 'Cotizar' })).toHaveCount(0);
    // A visitor is not sent to the login page by the session guard (3 s).
    await page.waitForTimeout(3500);
    await expect(page).toHaveURL(/\/public\/corporativos\//);
    await expect(page.getByTestId('availability-grid')).toBeVisible();
    await shot(page, 'public-availability');

    await page.goto(`/public/corporativos/${CORP}/desarrollos/${DEV}/disponibilidad-simple`);
    await expect(page.getByRole('table')).toBeVisible();
    await expect(page.getByRole('table')).toContainText(`${units.length} unidades`);
    // Each row: unit, tower, level, type, bedrooms, bathrooms, parking, area, price, status.
    const rows = new Map(
      (await page.getByRole('table').locator('tbody tr').allInnerTexts()).map((row) => {
        const cells = row.split('\t').map((c) => c.trim());
        return [cells[0]!, cells[8]!] as const;
      }),
    );
    expect(rows.size).toBe(units.length);
    for (const u of hidden) expect(rows.get(u.nombre)).toBe('Precio no disponible');
    for (const u of units.filter((x) => x.status === 'Disponible')) {
      expect(rows.get(u.nombre)).toBe(`${money(u.precio)} MXN`);
    }
    await shot(page, 'public-availability-simple');
  });

  test('live: a status change made by an administrator repaints another open grid within one second', async ({
    browser,
  }) => {
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const adviserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(adminContext.request, 'admin@vitrina.demo');
    await signIn(adviserContext.request, 'asesor@vitrina.demo');
    const { units } = await alamedaUnits(adviserContext.request);
    const target = units.find((u) => u.status === 'Disponible')!;

    const adviser = await adviserContext.newPage();
    await adviser.goto(`${DEV_PATH}/disponibilidad`);
    await gridReady(adviser);
    const cell = adviser.getByRole('button', { name: new RegExp(`^Unidad ${target.nombre},`) });
    await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Disponible`);
    // Give the adviser's event stream time to connect.
    await adviser.waitForTimeout(500);

    const admin = await adminContext.newPage();
    await admin.goto(`${DEV_PATH}/disponibilidad?unidad=${target.id}&s=caracteristicas`);
    const detail = admin.getByRole('region', { name: `Unidad ${target.nombre}` });
    await expect(detail.getByRole('region', { name: 'Administrar inventario' })).toBeVisible();
    await detail.getByLabel('Estatus', { exact: true }).selectOption('Vendido');
    await shot(admin, 'admin-unit-detail');
    await detail.getByRole('button', { name: 'Guardar estatus' }).click();
    await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Vendido`, { timeout: 1000 });
    await shot(adviser, 'live-repaint');

    // The change is in the unit's history.
    await expect(detail.getByRole('list', { name: 'Historial de estatus y precio' })).toContainText(
      'Estatus: Disponible → Vendido',
    );
    await adminContext.close();
    await adviserContext.close();
  });
});
