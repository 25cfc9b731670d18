/**
 * The availability on screen first (issue 21): the signed-in grid reads its first 2 clusters,
 * then every other cluster behind them, and shows them all in one view; a revisit revalidates
 * with the ETag the server gave.
 */
import { expect, test, type Page } from '@playwright/test';

const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const DEV_PATH = `/corporativos/${CORP}/desarrollos/torre-alameda/disponibilidad`;

async function signInAsAdviser(page: Page) {
  const res = await page.request.post('/api/auth/login', {
    data: { email: 'asesor@vitrina.demo', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
}

test('the grid reads the first 2 clusters, then the rest, and shows every unit in one view', async ({
  page,
}) => {
  await signInAsAdviser(page);
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

test('a first load asks for the corporate once and starts the grid’s reads and worker before the page renders', async ({
  page,
}) => {
  await signInAsAdviser(page);
  // Every request and response of the load, in the order the browser reports them.
  const events: string[] = [];
  const name = (url: string) => {
    const { pathname, search } = new URL(url);
    if (pathname.includes('core.worker')) return 'worker';
    if (pathname.endsWith('/ultima-sesion')) return 'ultima-sesion';
    if (pathname === '/api/wsObtenerCorporativo') return `corporativo${search.split('=')[0]}`;
    if (pathname === '/api/wsObtenerClusters')
      return search.includes('limite=2') ? 'clusters-first' : 'clusters-rest';
    return pathname.replace(/^\/api\/(ws)?/, '');
  };
  page.on('request', (r) => events.push(`> ${name(r.url())}`));
  page.on('response', (r) => events.push(`< ${name(r.url())}`));
  await page.goto(DEV_PATH);
  await expect(page.getByTestId('availability-grid')).toHaveAttribute('data-ready', 'true');
  const at = (event: string) => {
    const i = events.indexOf(event);
    expect(i, `${event} in ${events.join(', ')}`).toBeGreaterThanOrEqual(0);
    return i;
  };
  // The session's corporates are read beside the user record, not after it, and the corporate
  // read there by id serves the page: no second read of it by slug.
  expect(at('> ObtenerCorporativos')).toBeLessThan(at('< ultima-sesion'));
  expect(events.filter((e) => e.startsWith('> corporativo'))).toEqual(['> corporativo?id']);
  // The worker's script loads while the development is read, and the first clusters and the
  // prototypes are asked for before the corporate's layout renders (its labels' read).
  expect(at('> worker')).toBeLessThan(at('< ObtenerDesarrollo'));
  expect(at('> clusters-first')).toBeLessThan(at('> ObtenerIdiomas'));
  expect(at('> ObtenerPrototipos')).toBeLessThan(at('> ObtenerIdiomas'));
});
