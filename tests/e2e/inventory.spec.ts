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

async function developmentId(request: APIRequestContext, corporateId: string, slug: string) {
  const res = await request.get(
    `/api/wsObtenerDesarrollo?idCorporativo=${corporateId}&slug=${slug}`,
  );
  return ((await res.json()) as { id: string }).id;
}

/** The box of an element, which must be rendered. */
async function box(locator: ReturnType<Page['locator']>) {
  const b = await locator.boundingBox();
  expect(b, 'rendered').not.toBeNull();
  return b!;
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

  test('the filters live in the URL: a reload, back and forward, a unit opened and a shared link keep them; invalid values are ignored', async ({
    page,
    browser,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    const { units } = await alamedaUnits(page.request);
    await page.goto(`${DEV_PATH}/disponibilidad`);
    await gridReady(page);
    const filters = page.getByRole('form', { name: 'Filtros' });
    const status = filters.getByRole('status');
    const bedrooms = filters.getByRole('group', { name: 'Recámaras' });
    await expect(status).toHaveText('248 de 248 unidades coinciden');

    // Two bedrooms, then a top price typed key by key.
    await bedrooms.getByRole('button', { name: '2' }).click();
    const two = units.filter((u) => u.caracteristicas.recamaras === 2).length;
    await expect(status).toHaveText(`${two} de 248 unidades coinciden`);
    await expect(page).toHaveURL(/[?&]recamaras=%5B2%5D/);
    await filters.getByLabel('Precio máximo').pressSequentially('5,000,000');
    await expect(page).toHaveURL(/[?&]precioMax=5000000(&|$)/);
    // The bound's currency goes with it, so the link means the same to whoever opens it.
    await expect(page).toHaveURL(/[?&]divisa=MXN(&|$)/);
    const filtered = await status.textContent();
    expect(filtered).not.toBe(`${two} de 248 unidades coinciden`);

    // A reload keeps them: the chip pressed, the bound, the count.
    await page.reload();
    await gridReady(page);
    await expect(status).toHaveText(filtered!);
    await expect(bedrooms.getByRole('button', { name: '2' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    // As it was typed, grouped by thousands.
    await expect(filters.getByLabel('Precio máximo')).toHaveValue('5,000,000');

    // A unit opened and closed keeps them.
    await page.locator('[data-match="true"]').first().click();
    await expect(page).toHaveURL(/unidad=.*recamaras=%5B2%5D.*precioMax=5000000/);
    await expect(status).toHaveText(filtered!);
    await page.goBack();
    await expect(page).not.toHaveURL(/unidad=/);
    await expect(status).toHaveText(filtered!);

    // Back: the typed bound was one step (not one per key), then the chip; forward again.
    await page.goBack();
    await expect(status).toHaveText(`${two} de 248 unidades coinciden`);
    await expect(filters.getByLabel('Precio máximo')).toHaveValue('');
    await page.goBack();
    await expect(status).toHaveText('248 de 248 unidades coinciden');
    await expect(bedrooms.getByRole('button', { name: '2' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await page.goForward();
    await page.goForward();
    await expect(status).toHaveText(filtered!);
    await shot(page, 'filters-in-url');

    // The link, opened by someone else, shows the same units.
    const shared = page.url();
    const other = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await signIn(other.request, 'asesor2@vitrina.demo');
      const page2 = await other.newPage();
      await page2.goto(shared);
      await gridReady(page2);
      await expect(page2.getByRole('form', { name: 'Filtros' }).getByRole('status')).toHaveText(
        filtered!,
      );
    } finally {
      await other.close();
    }
    // Someone who shows prices in dollars gets the bound in dollars (5,000,000 MXN at 18.5 is
    // $270,270 USD), the same units, and the address says so.
    const inDollars = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      await inDollars.addInitScript(() => localStorage.setItem('vitrina:divisa', 'USD'));
      await signIn(inDollars.request, 'asesor2@vitrina.demo');
      const page3 = await inDollars.newPage();
      await page3.goto(shared);
      await gridReady(page3);
      const dollarFilters = page3.getByRole('form', { name: 'Filtros' });
      await expect(dollarFilters.getByRole('status')).toHaveText(filtered!);
      await expect(dollarFilters.getByLabel('Precio máximo')).toHaveValue('270,270');
      await expect(page3).toHaveURL(/[?&]precioMax=270270(&|$)/);
      await expect(page3).toHaveURL(/[?&]divisa=USD(&|$)/);
    } finally {
      await inDollars.close();
    }
    // So does the public availability's, for a signed-out buyer.
    const visitor = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    try {
      const buyer = await visitor.newPage();
      await buyer.goto(`/public${DEV_PATH}/disponibilidad?recamaras=${encodeURIComponent('[2]')}`);
      await gridReady(buyer);
      const publicFilters = buyer.getByRole('form', { name: 'Filtros' });
      await expect(
        publicFilters.getByRole('group', { name: 'Recámaras' }).getByRole('button', { name: '2' }),
      ).toHaveAttribute('aria-pressed', 'true');
      await expect(publicFilters.getByRole('status')).not.toHaveText(/^(\d+) de \1 /);
    } finally {
      await visitor.close();
    }

    // Values that are no filter are ignored, never an error.
    await page.goto(
      `${DEV_PATH}/disponibilidad?recamaras=${encodeURIComponent('[9,"x"]')}&precioMin=abc&banios=%5B&status=${encodeURIComponent('{"a":1}')}`,
    );
    await gridReady(page);
    await expect(status).toHaveText('248 de 248 unidades coinciden');
    await expect(page).not.toHaveURL(/recamaras|precioMin|banios|status/);
  });

  test('a currency or area unit chosen in the settings while bounds are set: the bounds follow, the same units match', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.goto(
      `${DEV_PATH}/disponibilidad?precioMax=5000000&divisa=MXN&areaMin=80&unidadArea=m2`,
    );
    await gridReady(page);
    const filters = page.getByRole('form', { name: 'Filtros' });
    const status = filters.getByRole('status');
    await expect(status).not.toHaveText(/^248 de 248/);
    const before = await status.textContent();
    await expect(filters.getByLabel('Precio máximo')).toHaveValue('5,000,000');
    await expect(filters.getByLabel('Superficie mínima')).toHaveValue('80');

    await page.getByRole('button', { name: 'Configuraciones' }).first().click();
    const settings = page.getByRole('dialog');
    await settings.getByRole('combobox').selectOption('USD');
    await settings.getByText('Pies cuadrados (ft²)').click();
    await page.keyboard.press('Escape');
    // 5,000,000 MXN at 18.5 is $270,270 USD; 80 m² is 861.11 ft².
    await expect(filters.getByLabel('Precio máximo')).toHaveValue('270,270');
    await expect(filters.getByLabel('Superficie mínima')).toHaveValue('861.11');
    await expect(status).toHaveText(before!);
    await expect(page).toHaveURL(/[?&]precioMax=270270&divisa=USD/);
    await expect(page).toHaveURL(/[?&]areaMin=861\.11&unidadArea=ft2/);
    await shot(page, 'filters-after-currency-change');
  });

  test('rent from (spec §5): the card and the presentation show the lowest rent where units have one', async ({
    page,
  }) => {
    await signIn(page.request, 'asesor.pacifico@vitrina.demo');
    await page.goto('/corporativos/desarrollos-pacifico/desarrollos');
    const rent = page.getByTestId('rent-from').first();
    await expect(rent).toHaveText(
      /^Renta desde \$[\d,]+(\.\d+)? MXN al mes$|^Renta desde .+ al mes$/,
    );
    await page.screenshot({ path: `${SHOTS}/rent-from-card-es-1280.png` });
    await page.goto('/corporativos/desarrollos-pacifico/desarrollos/playa-azul/presentacion');
    await expect(page.getByTestId('rent-from')).toContainText('Renta desde');
    await page.screenshot({ path: `${SHOTS}/rent-from-presentation-es-1280.png` });
    // Torre Alameda has no rentable unit: no rent line.
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.goto(`/corporativos/${CORP}/desarrollos`);
    await expect(page.getByTestId('price-from').first()).toBeVisible();
    await expect(page.getByTestId('rent-from')).toHaveCount(0);
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

  test('live: a status change made by an administrator repaints another open grid while its worker is busy', async ({
    browser,
  }) => {
    const adminContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const adviserContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await signIn(adminContext.request, 'admin@vitrina.demo');
    await signIn(adviserContext.request, 'asesor@vitrina.demo');
    const { corporate, units } = await alamedaUnits(adviserContext.request);
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
    // The adviser's core worker is kept busy for 6 s: the changed cell's colour and label do not
    // wait for its rebuild of every row (hooks/use-display-rows.ts builds the changed one at once).
    // The repaint is awaited for 2 s from the saved answer (not from the click: on a loaded
    // machine the save alone took most of a second), well inside the worker's busy time.
    const coreWorker = adviser.workers().find((w) => /core\.worker/.test(w.url()));
    expect(coreWorker, 'the core worker').toBeDefined();
    const before = await cell.evaluate((el) => getComputedStyle(el).backgroundColor);
    const saved = admin.waitForResponse(
      (r) => r.request().method() === 'PUT' && r.url().endsWith(`/unidades/${target.id}/status`),
    );
    const busy = coreWorker!
      .evaluate(() => {
        const end = Date.now() + 6000;
        while (Date.now() < end);
      })
      .catch(() => undefined);
    await detail.getByRole('button', { name: 'Guardar estatus' }).click();
    expect((await saved).status()).toBe(200);
    await expect(cell).toHaveAccessibleName(`Unidad ${target.nombre}, Vendido`, { timeout: 2000 });
    expect(await cell.evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe(before);
    await busy;
    await shot(adviser, 'live-repaint');

    // The change is in the unit's history.
    await expect(detail.getByRole('list', { name: 'Historial de estatus y precio' })).toContainText(
      'Estatus: Disponible → Vendido',
    );
    // Leave the unit as it was: later specs quote units of the same tower.
    const restored = await adminContext.request.put(
      `/api/corporativos/${corporate.id}/unidades/${target.id}/status`,
      { data: { status: 'Disponible', statusAnterior: 'Vendido' } },
    );
    expect(restored.status()).toBe(200);
    await adminContext.close();
    await adviserContext.close();
  });

  test('comparator: each unit’s current status and price, one comparator per development', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'admin@vitrina.demo');
    const { corporate, dev, units } = await alamedaUnits(page.request);
    const olivosId = await developmentId(page.request, corporate.id, 'residencial-los-olivos');
    const available = units.filter((u) => u.status === 'Disponible');
    const [a, b] = [available.at(-1)!, available.at(-2)!];
    const sold = units.find((u) => u.status === 'Vendido')!;

    // The list every development shared before, with a copy of a status and price long gone,
    // a unit no longer in the inventory and an item of another development.
    await page.goto(`${DEV_PATH}/presentacion`);
    // Let the page settle first: leaving it with calls in flight can sign the user out.
    await expect(page.getByRole('navigation', { name: 'Secciones del desarrollo' })).toBeVisible();
    await page.evaluate(
      ({ sold, devId, olivosId }) =>
        localStorage.setItem(
          'vitrina:comparador',
          JSON.stringify([
            {
              tipo: 'unidad',
              id: sold.id,
              idDesarrollo: devId,
              nombre: sold.nombre,
              status: 'Disponible',
              precio: 1,
            },
            { tipo: 'unidad', id: 'unidad-retirada', idDesarrollo: devId, nombre: 'Z999' },
            { tipo: 'prototipo', id: 'olivo-viejo', idDesarrollo: olivosId, nombre: 'Olivo' },
          ]),
        ),
      { sold, devId: dev.id, olivosId },
    );

    for (const u of [a, b]) {
      await page.goto(`${DEV_PATH}/disponibilidad?unidad=${u.id}&s=caracteristicas`);
      const detail = page.getByRole('region', { name: `Unidad ${u.nombre}` });
      await detail.getByRole('button', { name: 'Comparar' }).click();
      await expect(detail.getByRole('button', { name: 'En el comparador' })).toBeDisabled();
    }
    await page.goto(`${DEV_PATH}/comparador`);
    await expect(page.getByRole('heading', { name: 'Comparador (4 de 4)' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Comparación lado a lado' });
    const row = (name: string) =>
      table.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    // Columns in the order added: the old list's (sold, Z999), then a and b.
    await expect(table.getByRole('columnheader')).toHaveText([
      `${sold.nombre}Quitar`,
      'Z999Ya no está en el inventarioQuitar',
      `${a.nombre}Quitar`,
      `${b.nombre}Quitar`,
    ]);
    await expect(row('Estatus').getByRole('cell')).toHaveText([
      'Vendido',
      'No disponible',
      'Disponible',
      'Disponible',
    ]);
    await expect(row('Precio').getByRole('cell')).toHaveText([
      'Precio no disponible',
      '—',
      `${money(a.precio)} MXN`,
      `${money(b.precio)} MXN`,
    ]);

    // An administrator changes a's price and b's status: the open comparator follows.
    const newPrice = a.precio + 123_000;
    const put = async (u: ApiUnit, what: 'precio' | 'status', body: object) =>
      expect(
        (
          await page.request.put(`/api/corporativos/${corporate.id}/unidades/${u.id}/${what}`, {
            data: body,
          })
        ).status(),
      ).toBe(200);
    await put(a, 'precio', { precio: newPrice, precioAnterior: a.precio });
    await put(b, 'status', { status: 'Apartado', statusAnterior: 'Disponible' });
    await expect(row('Precio').getByRole('cell')).toHaveText([
      'Precio no disponible',
      '—',
      `${money(newPrice)} MXN`,
      'Precio no disponible',
    ]);
    await expect(row('Estatus').getByRole('cell').nth(3)).toHaveText('Apartado');
    await page.reload();
    await expect(row('Precio').getByRole('cell').nth(2)).toHaveText(`${money(newPrice)} MXN`);
    await expect(row('Estatus').getByRole('cell').nth(3)).toHaveText('Apartado');
    await shot(page, 'comparator-current');

    await table.getByRole('button', { name: 'Quitar Z999 del comparador' }).click();
    await expect(page.getByRole('heading', { name: 'Comparador (3 de 4)' })).toBeVisible();

    // Another development has its own comparator: only its item of the old list.
    await page.goto(`/corporativos/${CORP}/desarrollos/residencial-los-olivos/comparador`);
    await expect(page.getByRole('heading', { name: 'Comparador (1 de 4)' })).toBeVisible();
    await expect(page.getByRole('table')).not.toContainText(a.nombre);
    await expect(page.getByRole('table')).toContainText('Ya no está en el inventario');

    await put(a, 'precio', { precio: a.precio, precioAnterior: newPrice });
    await put(b, 'status', { status: 'Disponible', statusAnterior: 'Apartado' });
  });

  test('simple availability: hidden prices last in both orders, main columns beside the detail', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.goto(`${DEV_PATH}/disponibilidad-simple`);
    const table = page.getByRole('table');
    await expect(table).toContainText('248 unidades');
    const prices = async () =>
      (await table.locator('tbody tr td:nth-child(9)').allTextContents()).map((text) =>
        text === 'Precio no disponible' ? null : Number(text.replace(/[^0-9]/g, '')),
      );
    const expectOrdered = (list: (number | null)[], dir: 1 | -1) => {
      const firstHidden = list.indexOf(null);
      expect(firstHidden).toBeGreaterThan(0);
      expect(list.slice(firstHidden).every((p) => p === null)).toBe(true);
      const shown = list.slice(0, firstHidden) as number[];
      for (let i = 1; i < shown.length; i++)
        expect((shown[i]! - shown[i - 1]!) * dir).toBeGreaterThanOrEqual(0);
    };
    const priceHeader = table.getByRole('columnheader', { name: /^Precio/ });
    await priceHeader.getByRole('button').click();
    await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
    expectOrdered(await prices(), 1);
    await priceHeader.getByRole('button').click();
    await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
    expectOrdered(await prices(), -1);
    await shot(page, 'table-price-desc');

    // A unit open: the table keeps its unit, area, price and status columns in view.
    await table.locator('tbody tr').first().getByRole('button').click();
    await expect(page.getByTestId('unit-detail')).toBeVisible();
    const scroller = table.locator('xpath=..');
    const frame = await box(scroller);
    for (const name of [/^Unidad/, /^Superficie/, /^Precio/, /^Estatus/, /^Recámaras/]) {
      const header = await box(table.getByRole('columnheader', { name }));
      expect(header.x + header.width, String(name)).toBeLessThanOrEqual(frame.x + frame.width);
    }
    expect(
      await scroller.evaluate((el) => el.scrollWidth - el.clientWidth),
      'no horizontal scroll',
    ).toBeLessThanOrEqual(0);
    await shot(page, 'table-unit-detail');
  });

  test('import modal: a translated file button and the chosen file, desktop and phone', async ({
    browser,
  }) => {
    const csv = { name: 'inventario.csv', mimeType: 'text/csv', buffer: Buffer.from('tipo\n') };
    for (const [lng, viewport] of [
      ['es', { width: 1440, height: 900 }],
      ['en', { width: 390, height: 844 }],
    ] as const) {
      const context = await browser.newContext({ viewport });
      await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), lng);
      await signIn(context.request, 'admin@vitrina.demo');
      const page = await context.newPage();
      await page.goto(`${DEV_PATH}/presentacion`);
      const texts =
        lng === 'es'
          ? {
              open: 'Importar inventario',
              field: 'Archivo CSV',
              choose: 'Elegir archivo',
              none: 'Ningún archivo elegido',
              chosen: 'Archivo elegido: inventario.csv',
              submit: 'Importar',
            }
          : {
              open: 'Import inventory',
              field: 'CSV file',
              choose: 'Choose file',
              none: 'No file chosen',
              chosen: 'Chosen file: inventario.csv',
              submit: 'Import',
            };
      await page.getByRole('button', { name: texts.open }).click();
      const dialog = page.getByRole('dialog');
      const choose = dialog.getByText(texts.choose, { exact: true });
      await expect(choose).toBeVisible();
      await expect(dialog.getByTestId('csv-file-name')).toHaveText(texts.none);
      const chooseBox = await box(choose);
      expect(chooseBox.height).toBeGreaterThanOrEqual(36);
      expect(chooseBox.x + chooseBox.width).toBeLessThanOrEqual(viewport.width);
      // The file input (a button to assistive technology) is named by the field and the
      // button drawn for it, and described by the chosen file.
      const input = dialog.getByRole('button', { name: `${texts.field} ${texts.choose}` });
      await expect(input).toHaveAttribute('type', 'file');
      await expect(input).toHaveAccessibleDescription(texts.none);
      const chooser = page.waitForEvent('filechooser');
      await choose.click();
      await (await chooser).setFiles(csv);
      await expect(dialog.getByTestId('csv-file-name')).toHaveText(texts.chosen);
      await expect(input).toHaveAccessibleDescription(texts.chosen);
      await expect(dialog.getByRole('button', { name: texts.submit, exact: true })).toBeEnabled();
      await shot(page, `import-modal-${lng}-${viewport.width}`);
      await context.close();
    }
  });

  test('development tabs: every page reachable at 1440, the current one in view on a phone', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.goto(`${DEV_PATH}/comparador`);
    const nav = page.getByRole('navigation', { name: 'Secciones del desarrollo' });
    const links = nav.getByRole('link');
    await expect(links).toHaveCount(14);
    const navBox = await box(nav);
    for (const link of await links.all()) {
      const b = await box(link);
      expect(b.x + b.width, await link.innerText()).toBeLessThanOrEqual(navBox.x + navBox.width);
    }
    await expect(nav.locator('a[aria-current="page"]')).toHaveText('Comparador');
    await shot(page, 'tabs-1440');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${DEV_PATH}/comparador`);
    const active = nav.locator('a[aria-current="page"]');
    await expect(active).toHaveText('Comparador');
    const phoneNav = await box(nav);
    const activeBox = await box(active);
    expect(activeBox.x).toBeGreaterThanOrEqual(phoneNav.x);
    expect(activeBox.x + activeBox.width).toBeLessThanOrEqual(phoneNav.x + phoneNav.width);
    // Both edges faded: there are pages on either side.
    await expect(nav).toHaveAttribute('data-more-start', 'true');
    await expect(nav).toHaveAttribute('data-more-end', 'true');
    await shot(page, 'tabs-phone');
  });

  test('Los Olivos grid at 1440: whole buildings side by side, readable cells, plurals', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'asesor@vitrina.demo');
    await page.goto(`/corporativos/${CORP}/desarrollos/residencial-los-olivos/disponibilidad`);
    await gridReady(page);
    const grid = page.getByTestId('availability-grid');
    const buildings = grid.locator('section');
    await expect(buildings).toHaveCount(3);
    const [first, second] = [await box(buildings.nth(0)), await box(buildings.nth(1))];
    expect(second.y).toBe(first.y);
    for (const [i, etapa] of [1, 2, 3].entries()) {
      const building = await box(buildings.nth(i));
      for (const unit of [`${etapa}409`, `${etapa}410`, `${etapa}101`]) {
        const cell = await box(grid.getByRole('button', { name: new RegExp(`^Unidad ${unit},`) }));
        expect(cell.x, unit).toBeGreaterThanOrEqual(building.x);
        expect(cell.x + cell.width, unit).toBeLessThanOrEqual(building.x + building.width);
      }
    }
    // No name is cut inside its cell, and the text on a status colour is the more legible one.
    expect(
      await grid
        .locator('[data-unit-id]')
        .evaluateAll((cells) =>
          cells.filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
        ),
    ).toEqual([]);
    const available = grid.getByRole('button', { name: /, Disponible$/ }).first();
    await expect(available).toHaveCSS('color', 'rgb(0, 0, 0)');
    // Houses (issue 19, defect 10): a site plan, lots along the stage's streets.
    await expect(buildings.first()).toContainText('4 calles · 40 casas');
    await expect(buildings.first().locator('[data-layout="site-plan"]')).toBeVisible();
    await shot(page, 'olivos-grid');

    await page.goto(`${DEV_PATH}/prototipos`);
    await expect(page.getByRole('listitem').filter({ hasText: 'Estudio' })).toContainText(
      '1 recámara · 1 baño · 1 cajón',
    );
    await expect(page.getByRole('listitem').filter({ hasText: 'Alameda 2R Plus' })).toContainText(
      '2 recámaras · 2.5 baños · 2 cajones',
    );
  });

  test('admin price: the server’s limit, explained next to the field', async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page.request, 'admin@vitrina.demo');
    const { units } = await alamedaUnits(page.request);
    const target = units.find((u) => u.caracteristicas.baniosMedios === 1)!;
    await page.goto(`${DEV_PATH}/disponibilidad?unidad=${target.id}&s=caracteristicas`);
    const detail = page.getByRole('region', { name: `Unidad ${target.nombre}` });
    await expect(detail).toContainText(`${target.caracteristicas.banios} completos y 1 medio`);
    const field = detail.getByLabel('Precio de lista (MXN)');
    const save = detail.getByRole('button', { name: 'Guardar precio' });
    await field.fill('10,000,000,001');
    await expect(detail.getByRole('alert')).toHaveText(
      'El precio no puede ser mayor que $10,000,000,000 MXN.',
    );
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(field).toHaveAccessibleDescription(
      'El precio no puede ser mayor que $10,000,000,000 MXN.',
    );
    await expect(save).toBeDisabled();
    await shot(page, 'admin-price-limit');
    await field.fill('4,35o,000');
    await expect(detail.getByRole('alert')).toContainText('solo con números');
    await expect(save).toBeDisabled();
    await field.fill('10,000,000,000');
    await expect(detail.getByRole('alert')).toHaveCount(0);
    await expect(save).toBeEnabled();
  });
});
