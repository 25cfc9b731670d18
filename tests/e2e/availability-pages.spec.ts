/**
 * The availability on screen first (issue 21): the signed-in grid reads its first 2 clusters,
 * then every other cluster behind them, and shows them all in one view; a revisit revalidates
 * with the ETag the server gave.
 */
import { expect, test } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`;

test('the grid reads the first 2 clusters, then the rest, and shows every unit in one view', async ({
  page,
}) => {
  const res = await page.request.post('/api/auth/login', {
    data: { email: 'asesor@vitrina.demo', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  const corporate = await (await page.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)).json();
  const dev = await (
    await page.request.get(
      `/api/wsObtenerDesarrollo?idCorporativo=${corporate.id}&slug=torre-alameda`,
    )
  ).json();
  const whole = await page.request.get(
    `/api/wsObtenerClusters?idCorporativo=${corporate.id}&idDesarrollo=${dev.id}`,
  );
  const clusters = (await whole.json()) as { id: string; unidades: unknown[] }[];
  const total = clusters.reduce((n, c) => n + c.unidades.length, 0);
  expect(clusters.length).toBeGreaterThanOrEqual(2);
  expect(whole.headers()['etag']).toBeTruthy();

  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/wsObtenerClusters')) reads.push(new URL(r.url()).search);
  });
  await page.goto(DEV_PATH);
  await expect(page.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('[data-unit-id]')).toHaveCount(total);
  // Nothing says the rest is loading once it is in.
  await expect(page.getByText(/Cargando el resto de la disponibilidad/)).toHaveCount(0);
  expect(reads.some((q) => q.includes('limite=2'))).toBe(true);
  expect(reads.some((q) => q.includes(`despuesDe=${clusters[1]!.id}`))).toBe(true);
  expect(reads.every((q) => q.includes('limite=2') || q.includes('despuesDe='))).toBe(true);
});
