/**
 * Issue 20, the card's worker, on the real pages: the availability table and grid render the
 * display rows the core worker builds (status colour and label, visible price in the chosen
 * currency, area in the chosen unit), and a settings change (currency, m²/ft²) has the worker
 * build them again. The table marks where its rows were built (`data-rows-engine`) and how many
 * answers it has had (`data-rows-version`); the page modules hold no status rule of their own.
 */
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/torre-alameda`;
const SHOTS = 'tests/e2e/__screenshots__';

interface ApiUnit {
  id: string;
  nombre: string;
  status?: string;
  precio: number;
  metrajes: { areaTotal: number };
}

const money = (amount: number) => `$${Math.round(amount).toLocaleString('en-US')}`;

async function settings(page: Page, currency: string, unit: 'm²' | 'ft²') {
  await page.getByRole('button', { name: 'Configuraciones' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configuraciones' });
  await dialog.getByRole('radio', { name: new RegExp(unit) }).check();
  await dialog.getByLabel('Moneda').selectOption(currency);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
}

test('the availability pages render the rows the core worker builds, again on a settings change', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'asesor@vitrina.demo', password: PASSWORD },
  });
  expect(login.status()).toBe(200);
  const corporate = await (await page.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const dev = await (
    await page.request.get(
      `/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=torre-alameda`,
    )
  ).json();
  const clusters = await (
    await page.request.get(
      `/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}`,
    )
  ).json();
  const units: ApiUnit[] = clusters.flatMap((c: { unidades: ApiUnit[] }) => c.unidades);
  const unit = units.find((u) => u.status === 'Disponible' && u.precio > 0)!;
  const sold = units.find((u) => u.status === 'Vendido')!;

  await page.goto(`${DEV_PATH}/disponibilidad-simple`);
  const table = page.getByTestId('units-table');
  await expect(table).toHaveAttribute('data-rows-engine', 'worker');
  await expect(table).toHaveAttribute('data-rows-version', '1');
  const row = (u: ApiUnit) =>
    page.getByRole('row').filter({ has: page.locator(`[data-unit-row="${u.id}"]`) });
  await expect(row(unit)).toContainText(`${money(unit.precio)} MXN`);
  await expect(row(unit)).toContainText('Disponible');
  await expect(row(sold)).toContainText('Precio no disponible');

  // USD and ft²: the worker builds the rows again (one more answer per change that reached the
  // page — the two may arrive in one transition — and one for any live change of the units
  // meanwhile), the table shows them.
  await settings(page, 'USD', 'ft²');
  await expect(table).not.toHaveAttribute('data-rows-version', '1');
  await expect(table).toHaveAttribute('data-rows-engine', 'worker');
  await expect(row(unit)).toContainText(`${money(unit.precio / 18.5)} USD`);
  const ft2 = (unit.metrajes.areaTotal * 10.7639).toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  await expect(row(unit)).toContainText(`${ft2} ft²`);
  await page.screenshot({ path: `${SHOTS}/display-rows-table-usd-ft2.png` });
  expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);

  // The grid: its cells' colours are the worker's rows (ready only once they arrived).
  await page.goto(`${DEV_PATH}/disponibilidad`);
  const grid = page.getByTestId('availability-grid');
  await expect(grid).toHaveAttribute('data-ready', 'true');
  await expect(
    page.getByRole('button', { name: new RegExp(`^Unidad ${unit.nombre}, Disponible`) }),
  ).toBeVisible();
  await settings(page, 'MXN', 'm²');
});

test('the developments list, home, presentation, legend and filters show the figures the worker builds', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const login = await page.request.post('/api/auth/login', {
    data: { email: 'asesor@vitrina.demo', password: PASSWORD },
  });
  expect(login.status()).toBe(200);

  // The developments list: each card's price from is the worker's answer, again on a switch.
  await page.goto(`/corporativos/${CORP}/desarrollos`);
  const list = page.locator('ul[data-figures-engine]').first();
  await expect(list).toHaveAttribute('data-figures-engine', 'worker');
  await expect(list).toHaveAttribute('data-figures-version', '1');
  const alameda = page.locator('[data-development="torre-alameda"]').first();
  await expect(alameda.getByTestId('price-from')).toContainText('MXN');
  await settings(page, 'USD', 'm²');
  await expect(list).toHaveAttribute('data-figures-version', '2');
  await expect(alameda.getByTestId('price-from')).toContainText(/^Desde \$[\d,]+ USD$/);
  await page.screenshot({ path: `${SHOTS}/display-rows-developments-usd.png` });

  // The corporate home: prices and the units-by-status breakdown.
  await page.goto(`/corporativos/${CORP}`);
  const home = page.getByTestId('home-developments');
  await expect(home).toHaveAttribute('data-figures-engine', 'worker');
  await expect(home).toContainText('USD');
  await expect(home.getByRole('img').first()).toHaveAttribute('aria-label', /Disponible: \d+/);

  // The presentation: price from (and rent) from the display rows.
  await page.goto(`${DEV_PATH}/presentacion`);
  const figures = page.getByTestId('presentation-figures');
  await expect(figures).toHaveAttribute('data-rows-engine', 'worker');
  await expect(figures).toContainText(/\$[\d,]+ USD/);

  // The legend and the status filter: labels, colours and counts from the display rows.
  await page.goto(`${DEV_PATH}/disponibilidad`);
  await expect(page.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
  const legend = page.getByRole('list', { name: 'Unidades por estatus' });
  await expect(legend.locator('[data-status="Disponible"]')).toContainText(/Disponible\s*\d+/);
  await expect(
    page
      .getByRole('form', { name: 'Filtros' })
      .getByRole('checkbox', { name: 'Disponible', exact: true }),
  ).toBeVisible();
  await settings(page, 'MXN', 'm²');
});

test('the page modules keep no status rule or conversion of their own', () => {
  for (const file of [
    'src/ui/features/inventory/components/units-table.tsx',
    'src/ui/features/inventory/components/availability-grid.tsx',
    'src/ui/features/inventory/utils/units-sort.ts',
    'src/ui/features/inventory/components/developments-page.tsx',
    'src/ui/features/inventory/components/featured-page.tsx',
    'src/ui/features/inventory/components/presentation-page.tsx',
    'src/ui/features/inventory/components/filter-panel.tsx',
    'src/ui/features/inventory/components/status-legend.tsx',
    'src/ui/features/inventory/utils/status-counts.ts',
    'src/ui/features/home/components/corporate-home.tsx',
    'src/ui/features/chat/components/chat-answer.tsx',
  ]) {
    const text = readFileSync(file, 'utf8');
    expect(text, file).not.toMatch(
      /\b(statusInfo|isPriceVisible|formatPrice|formatAreaIn|convertMoney|priceFrom|rentPrice)\(/,
    );
  }
});
