/**
 * Spec §3 `reedireccionarLandingPage` / `landingPage` (issue 20 item 4): a visitor of a
 * development's public simulator is sent to the development's landing page when the
 * administrator set one, as on the public availability; without one the simulator stays. The
 * server's answer (`GET …/landing`) is tested in tests/integration/development-settings.test.ts;
 * here it is stubbed, so no development's settings change under the other specs.
 */
import { expect, test } from '@playwright/test';

const CORP = 'grupo-horizonte';
const DEV = 'torre-alameda';
const SIMULATOR = `/public/corporativos/${CORP}/desarrollos/${DEV}/cotizacion`;
const LANDING = 'https://alameda.example.com/landing';

test('the public simulator sends its visitor to the development’s landing page when redirection is on', async ({
  page,
}) => {
  await page.route(`**/api/public/corporativos/${CORP}/desarrollos/${DEV}/landing`, (route) =>
    route.fulfill({ json: { landingPage: LANDING } }),
  );
  // The landing page is another site: answered here, never fetched.
  await page.route(`${LANDING}**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>Torre Alameda landing</h1>' }),
  );
  await page.goto(SIMULATOR);
  await expect(page).toHaveURL(LANDING);
  await expect(page.getByRole('heading', { name: 'Torre Alameda landing' })).toBeVisible();
});

test('without a landing page the public simulator stays', async ({ page }) => {
  const asked = page.waitForResponse((r) => r.url().endsWith(`/desarrollos/${DEV}/landing`));
  await page.goto(SIMULATOR);
  expect(await (await asked).json()).toEqual({ landingPage: null });
  await expect(page).toHaveURL(new RegExp(`${SIMULATOR}`));
  await expect(page.getByRole('main')).toBeVisible();
});
