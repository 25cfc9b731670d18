import { expect, test, type Page } from '@playwright/test';

/**
 * Operations (issue 12 point 7): the platform administrator opens the page from the navigation
 * and sees each consumer, the parked event, the parked timer and the dead message that the e2e
 * server's probe made fail on purpose (`POST /__test__/probe`, on only in the e2e server:
 * src/server/test-probes.ts), at 1280, 820 and 390 px; retries each after a confirmation; the
 * rows leave. Anyone else has no Operations item and gets the 403 note.
 */
const PASSWORD = 'Vitrina2026!';
const SHOTS = 'tests/e2e/__screenshots__';

async function signIn(page: Page, email: string) {
  await page.goto('/login');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page).toHaveURL(/\/corporativos/);
}

async function refresh(page: Page) {
  await page.getByRole('button', { name: 'Actualizar' }).click();
  await expect(page.getByRole('button', { name: 'Actualizar' })).toBeEnabled();
}

// The device's time zone, which the page's times follow.
test.use({ timezoneId: 'America/Mexico_City' });

test('the administrator sees every consumer and what failed, at 1280, 820 and 390 px, and retries it', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@vitrina.demo');
  const probe = await page.request.post('/__test__/probe', { data: { failing: true } });
  expect(probe.status()).toBe(200);
  const { eventId, key } = (await probe.json()) as { eventId: string; key: string };

  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  await nav.getByRole('link', { name: 'Operaciones' }).click();
  await expect(page).toHaveURL('/operaciones');
  await expect(page.getByTestId('page-title')).toHaveText('Operaciones');
  await expect(nav.getByRole('link', { name: 'Operaciones' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(page.getByRole('heading', { level: 2, name: 'Operaciones' })).toBeVisible();
  // The platform's page belongs to no corporate: its times are the device's (Mexico City
  // here), zone named; they were UTC with no label.
  const readAt = page.getByTestId('operations-read-at');
  await expect(readAt).toContainText('(hora de America/Mexico_City)');
  const hour = Number(
    new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Mexico_City',
      hour: 'numeric',
      hourCycle: 'h23',
    }).format(new Date()),
  );
  expect(await readAt.textContent()).toMatch(
    new RegExp(`\\b(${hour}|${String(hour).padStart(2, '0')}|${hour % 12 || 12}):\\d\\d`),
  );
  for (const name of [
    'Consumidores',
    'Eventos en cuarentena',
    'Temporizadores',
    'Mensajes de salida',
  ])
    await expect(page.getByRole('heading', { level: 3, name })).toBeVisible();

  const consumers = page.getByRole('table', { name: /Cada consumidor/ });
  const probeRow = consumers.getByRole('row').filter({ hasText: 'e2e-probe' });
  await expect(probeRow).toBeVisible();

  // The consumer parks the event after two quick attempts; the timer and the message fail at once.
  const eventRetry = page.getByRole('button', {
    name: `Reintentar el evento ${eventId} de e2e-probe`,
  });
  const timerRetry = page.getByRole('button', { name: `Reintentar el temporizador ${key}` });
  const messageRetry = page.getByRole('button', { name: `Reintentar el mensaje ${key}` });
  await expect(async () => {
    await refresh(page);
    await expect(eventRetry).toBeVisible({ timeout: 500 });
    await expect(timerRetry).toBeVisible({ timeout: 500 });
    await expect(messageRetry).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 20_000 });
  // Parked, the consumer has moved on: up to date, its lag 0, one event parked. The lag counts
  // the events after the stored checkpoint, which follows the consumer past events it does not
  // handle (another test's, the sign-in's) up to a second later: refreshed until it has.
  await expect(async () => {
    await refresh(page);
    await expect(probeRow.getByRole('cell')).toHaveText(
      ['e2e-probe', 'Al día', '0', /^\d+\/\d+$/, /\(este proceso\)$/, '1', /failing on purpose/],
      { timeout: 1_500 },
    );
  }).toPass({ timeout: 20_000 });
  const parked = page.getByRole('table', { name: /Eventos que un consumidor no pudo procesar/ });
  await expect(parked.getByRole('row').filter({ hasText: eventId })).toContainText(
    'e2e probe: failing on purpose',
  );
  await expect(
    page
      .getByRole('table', { name: 'Fallidos y sin entregar' })
      .getByRole('row')
      .filter({ hasText: key }),
  ).toContainText('550 mailbox unavailable');
  await expect(
    page
      .getByRole('table', { name: 'Fallidos y en cuarentena' })
      .getByRole('row')
      .filter({ hasText: key }),
  ).toContainText('En cuarentena');

  await page.screenshot({ path: `${SHOTS}/operations-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 820, height: 1180 });
  await expect(eventRetry).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/operations-820.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(eventRetry).toBeVisible();
  await expect(
    page.getByTestId('bottom-nav').getByRole('link', { name: 'Operaciones' }),
  ).toBeVisible();
  // Nothing scrolls sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SHOTS}/operations-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });

  // Healthy again: each retry, confirmed, runs the work and its row leaves.
  expect((await page.request.post('/__test__/probe', { data: { failing: false } })).status()).toBe(
    200,
  );
  await eventRetry.click();
  const dialog = page.getByRole('dialog', { name: '¿Reintentar ahora?' });
  await expect(dialog).toContainText(
    `El consumidor e2e-probe procesará de nuevo el evento E2EProbed (${eventId})`,
  );
  await page.screenshot({ path: `${SHOTS}/operations-confirm.png` });
  await dialog.getByRole('button', { name: 'Reintentar' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Reintento pedido' })).toBeVisible();
  for (const button of [timerRetry, messageRetry]) {
    await button.click();
    await dialog.getByRole('button', { name: 'Reintentar' }).click();
    await expect(dialog).toHaveCount(0);
  }
  await expect(async () => {
    await refresh(page);
    await expect(parked.getByRole('row').filter({ hasText: eventId })).toHaveCount(0, {
      timeout: 500,
    });
    await expect(timerRetry).toHaveCount(0, { timeout: 500 });
    await expect(messageRetry).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 20_000 });
  await expect(page.getByText('Ningún evento en cuarentena.')).toBeVisible();
  await expect(page.getByText('Ningún temporizador fallido ni en cuarentena.')).toBeVisible();
  await expect(page.getByText('Ningún mensaje fallido ni sin entregar.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/operations-empty-1280.png`, fullPage: true });
});

test('a sales manager has no Operations item, and the page answers 403', async ({ page }) => {
  await signIn(page, 'gerente@vitrina.demo');
  const nav = page.getByRole('navigation', { name: 'Navegación principal' });
  await expect(nav.getByRole('link', { name: 'Clientes', exact: true })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Operaciones' })).toHaveCount(0);
  await page.goto('/operaciones');
  await expect(
    page.getByRole('heading', { name: 'No tienes permisos para ver las operaciones' }),
  ).toBeVisible();
  expect((await page.request.get('/api/operaciones')).status()).toBe(403);
});

test('in English the page and its navigation item say Operations', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@vitrina.demo');
  await page.getByTestId('language-toggle').click();
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Operations' }).click();
  await expect(page).toHaveURL('/operaciones');
  await expect(page.getByRole('heading', { level: 2, name: 'Operations' })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: /Each consumer/ })
      .getByRole('row')
      .filter({ hasText: 'e2e-probe' }),
  ).toBeVisible();
  await expect(page.getByText('No parked events.')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/operations-en-1280.png`, fullPage: true });
});
