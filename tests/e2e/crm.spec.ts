import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { FAKE_CLIENT, startCrmFake, type CrmFake } from '../support/crm-fakes/index';
import { axeViolations } from './support/axe';

/**
 * CRM sync (issue 17) in Chromium against the HubSpot fake of `tests/support/crm-fakes` on
 * loopback, as people would:
 * - the administrator opens the CRM settings from the settings dialog, saves HubSpot without a
 *   scope and sees 'No hay scope' at the field, then completes it (the client secret typed once
 *   in a write-only field) and sees the lead map's preview;
 * - the adviser connects from Clients: the fake's authorize page opens in the popup, "Autorizar"
 *   sends it back to the clients page, which exchanges the code, tells the opener and closes; the
 *   strip says who is connected and until when, and the list is the CRM's;
 * - the adviser registers a lead and sees it synced (the HubSpot record exists);
 * - the fake expires the tokens and refuses the refresh: the list is empty with the reconnect
 *   prompt, and the adviser reconnects through the window again.
 * Screenshots of the CRM page and the clients page at 1280, 820 and 390 px in es and en; axe
 * (WCAG 2 A/AA, serious and critical) clean on each. The built bundle and every API answer the
 * browser got contain neither the client secret nor any token the fake issued.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const CRM_PAGE = `/corporativos/${CORP}/crm`;
const CLIENTS = `/corporativos/${CORP}/clientes`;
const SHOTS = 'tests/e2e/__screenshots__';
const SIZES = [
  ['1280', { width: 1280, height: 800 }],
  ['820', { width: 820, height: 1180 }],
  ['390', { width: 390, height: 844 }],
] as const;

let fake: CrmFake;
/** Every API answer body the browsers got, to look for secrets afterwards. */
const answers: string[] = [];

test.beforeAll(async () => {
  fake = await startCrmFake('hubspot');
});
test.afterAll(async ({ browser }) => {
  // Leave the demo corporate as the other specs know it: no CRM configured (a write still queued
  // is dropped) and the adviser disconnected (the clients page lists Vitrina's own leads again).
  const admin = await context(browser, 'admin@vitrina.demo');
  const { id } = (await (
    await admin.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as { id: string };
  const configUrl = `/api/corporativos/${id}/crm/config`;
  const config = (await (await admin.request.get(configUrl)).json()) as Record<string, unknown>;
  expect((await admin.request.put(configUrl, { data: { ...config, tipo: null } })).status()).toBe(
    200,
  );
  const adviser = await context(browser, 'asesor@vitrina.demo');
  expect((await adviser.request.delete(`/api/crm/user?idCorporativo=${id}`)).status()).toBeLessThan(
    300,
  );
  await Promise.all([admin.close(), adviser.close()]);
  await fake?.close();
});

async function context(
  browser: Browser,
  email: string,
  language: 'es' | 'en' = 'es',
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport });
  await ctx.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), language);
  const res = await ctx.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
  expect(res.status()).toBe(200);
  ctx.on('response', (response) => {
    if (!response.url().includes('/api/')) return;
    void response.text().then(
      (text) => answers.push(text),
      () => undefined,
    );
  });
  return ctx;
}

async function axeClean(page: Page) {
  expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
}

/** Connects (or reconnects) through the fake's authorize page in the popup. */
async function authoriseInPopup(page: Page, button: RegExp) {
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: button }).click();
  const popup = await popupPromise;
  await popup.waitForURL(/\/oauth\/authorize/);
  await expect(popup.getByRole('heading', { name: 'HubSpot' })).toBeVisible();
  await popup.getByRole('button', { name: 'Autorizar' }).click();
  // Back on the clients page the popup exchanges the code, tells this window and closes itself.
  await popup.waitForEvent('close', { timeout: 20_000 });
}

test('HubSpot: configured by the administrator, connected by the adviser, a lead synced, reconnected after expiry', async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const config = fake.config();

  // --- The administrator configures HubSpot.
  const admin = await context(browser, 'admin@vitrina.demo');
  const adminPage = await admin.newPage();
  await adminPage.goto(`/corporativos/${CORP}`);
  await adminPage.getByRole('button', { name: /Configuraciones/ }).click();
  await adminPage.getByRole('link', { name: 'Configuración del CRM' }).click();
  await expect(adminPage).toHaveURL(new RegExp(`${CRM_PAGE}$`));
  await expect(adminPage.getByRole('heading', { name: 'Configuración del CRM' })).toBeVisible();

  const form = adminPage.locator('form[aria-labelledby="crm-config-title"]');
  await form.getByLabel('Tipo de CRM').selectOption('Hubspot');
  await form.getByLabel('Client ID').fill(String(config.clientId));
  await form.getByRole('button', { name: 'Establecer' }).click();
  await form.getByLabel('Nuevo client secret').fill(FAKE_CLIENT.clientSecret);
  await form.getByLabel('URL de autorización (authorizeUri)').fill(String(config.authorizeUri));
  await form.getByLabel('URL de token (tokenUri)').fill(String(config.tokenUri));
  await form.getByLabel('URL base de la API').fill(String(config.apiBase));
  await form.getByLabel('Scope').fill('');
  await form.getByLabel('URL de token (tokenUri)').fill('');
  await form.getByRole('button', { name: 'Guardar' }).click();
  // The spec's message at each field (each its own: both said 'No hay authorizeUri' once), and
  // the first of them takes the focus (the button seemed to do nothing when they were off screen).
  await expect(form.getByLabel('Scope')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByTestId('field-error')).toHaveText(['No hay tokenUri', 'No hay scope']);
  await expect(form.locator('[aria-invalid="true"]').first()).toBeFocused();
  await form.getByLabel('URL de token (tokenUri)').fill(String(config.tokenUri));
  await form.getByLabel('Scope').fill(String(config.scope));
  await form.getByRole('button', { name: 'Guardar' }).click();
  await expect(adminPage.getByText('Configuración del CRM guardada')).toBeVisible();
  // Write-only: stored, never shown again.
  await adminPage.reload();
  await expect(adminPage.getByTestId('secret-status')).toHaveText('Guardado (no se muestra).');
  await expect(adminPage.locator('input[type="password"]')).toHaveCount(0);
  expect(await adminPage.content()).not.toContain(FAKE_CLIENT.clientSecret);
  // The lead map's preview answers for a sample lead.
  await expect(adminPage.getByTestId('map-preview')).not.toHaveText(/Preparando/);

  // --- The adviser connects from Clients through the popup.
  const adviser = await context(browser, 'asesor@vitrina.demo');
  const page = await adviser.newPage();
  await page.goto(CLIENTS);
  const strip = page.getByTestId('crm-strip');
  await expect(strip).toContainText('no está conectada');
  await authoriseInPopup(page, /Conectar Hubspot/);
  await expect(strip).toContainText(/Conectado a Hubspot como .+ hasta /);
  // The parameters of the return never stay in an address.
  expect(page.url()).not.toContain('code=');

  // --- A lead registered in Vitrina goes to HubSpot through the outbox.
  const email = `crm.${Date.now()}@example.com`;
  await page.getByRole('button', { name: 'Nuevo cliente' }).click();
  const dialog = page.getByRole('dialog', { name: 'Registrar cliente' });
  await dialog.getByLabel('Nombre', { exact: true }).fill('Renata');
  await dialog.getByLabel('Apellidos').fill('Sincronizada');
  await dialog.getByLabel('Correo electrónico').fill(email);
  await dialog.getByLabel('Teléfono').fill('5512345678');
  await dialog.getByRole('button', { name: 'Registrar cliente' }).click();
  await expect(page).toHaveURL(new RegExp(`${CLIENTS}/[^/?]+`));
  const sync = page.getByTestId('lead-sync');
  await expect(sync.getByTestId('sync-state')).toHaveAttribute('data-estado', 'sincronizado', {
    timeout: 30_000,
  });
  expect(
    [...fake.records.values()].some((r) => JSON.stringify(r).toLowerCase().includes(email)),
  ).toBe(true);
  await expect(sync).toContainText('Sincronizado');
  await expect(sync.getByRole('button', { name: 'Exportar' })).toBeVisible();
  const leadUrl = page.url();
  for (const language of ['es', 'en'] as const) {
    for (const [size, viewport] of SIZES) {
      const ctx = await context(browser, 'asesor@vitrina.demo', language, viewport);
      const p = await ctx.newPage();
      await p.goto(leadUrl);
      await expect(p.getByTestId('sync-state')).toHaveAttribute('data-estado', 'sincronizado');
      await p.getByTestId('lead-sync').scrollIntoViewIfNeeded();
      await p.screenshot({ path: `${SHOTS}/crm-lead-${language}-${size}.png` });
      await axeClean(p);
      await ctx.close();
    }
  }
  // --- A change the CRM refuses: its exact error on the lead, then Retry.
  // No page is open meanwhile, so no CRM list call takes the one-shot error first.
  await page.goto('about:blank');
  const leadId = new URL(leadUrl).pathname.split('/').pop()!;
  const { id: corpId } = (await (
    await adviser.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as { id: string };
  const leadApi = `/api/corporativos/${corpId}/leads/${leadId}`;
  fake.switches.nextErrors.push({
    status: 400,
    body: {
      status: 'error',
      message: 'Property values were not valid: phone',
      correlationId: 'e2e-1',
      category: 'VALIDATION_ERROR',
    },
  });
  const current: unknown = await (await adviser.request.get(leadApi)).json();
  const put = await adviser.request.put(leadApi, {
    data: { telefono: '5587654321', leadAnterior: current },
  });
  expect(put.status()).toBe(200);
  await expect
    .poll(
      async () =>
        (
          (await (await adviser.request.get(`${leadApi}/crm`)).json()) as {
            sync: { estado: string };
          }
        ).sync.estado,
      { timeout: 30_000 },
    )
    .toBe('fallido');
  await page.goto(leadUrl);
  await expect(sync.getByTestId('sync-state')).toHaveAttribute('data-estado', 'fallido');
  await expect(sync.getByTestId('sync-error')).toContainText('VALIDATION_ERROR');
  await sync.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/crm-lead-failed-es-1280.png` });
  // The panel only: with two changes the lead's history list (leads feature) scrolls, and axe
  // reports that scrollable list as not focusable (scrollable-region-focusable), not ours.
  expect(
    await axeViolations(page, { include: '[data-testid="lead-sync"]', seriousOnly: true }),
  ).toEqual([]);
  // The administrator sees it among the failures.
  await adminPage.goto(CRM_PAGE);
  await expect(adminPage.getByTestId('sync-row').filter({ hasText: 'Renata' })).toContainText(
    'VALIDATION_ERROR',
  );
  await sync.getByRole('button', { name: 'Reintentar' }).click();
  await expect(sync.getByTestId('sync-state')).toHaveAttribute('data-estado', 'sincronizado', {
    timeout: 30_000,
  });

  // And it is in the CRM's list, as one of ours (it opens).
  await page.goto(CLIENTS);
  await page.getByRole('searchbox').fill(email);
  await expect(page.getByRole('link', { name: /Renata Sincronizada/ })).toBeVisible({
    timeout: 15_000,
  });

  // Screenshots and axe of the connected clients page and the CRM page.
  for (const language of ['es', 'en'] as const) {
    for (const [size, viewport] of SIZES) {
      const ctx = await context(browser, 'asesor@vitrina.demo', language, viewport);
      const p = await ctx.newPage();
      await p.goto(CLIENTS);
      await expect(p.getByTestId('crm-strip')).toContainText(/Hubspot/);
      await expect(p.getByTestId('lead-total')).not.toHaveText(/Cargando|Loading/);
      await p.screenshot({ path: `${SHOTS}/crm-clients-${language}-${size}.png` });
      await axeClean(p);
      await ctx.close();

      const actx = await context(browser, 'admin@vitrina.demo', language, viewport);
      const ap = await actx.newPage();
      await ap.goto(CRM_PAGE);
      await expect(ap.getByTestId('secret-status')).toBeVisible();
      await expect(ap.getByTestId('sync-counts')).toBeVisible();
      await expect(ap.getByTestId('map-preview')).toContainText('"email"');
      await ap.screenshot({
        path: `${SHOTS}/crm-settings-${language}-${size}.png`,
        fullPage: true,
      });
      await axeClean(ap);
      await actx.close();
    }
  }

  // --- The fake expires the tokens and refuses the refresh: reconnect.
  fake.switches.expireTokens();
  fake.switches.revokeRefresh = true;
  await page.reload();
  await expect(strip).toContainText('Vuelve a conectar', { timeout: 20_000 });
  await expect(page.getByTestId('lead-row')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/crm-reconnect-es-1280.png` });
  await axeClean(page);
  fake.switches.revokeRefresh = false;
  await authoriseInPopup(page, /Volver a conectar/);
  await expect(strip).toContainText(/Conectado a Hubspot como/);
  await expect(page.getByTestId('lead-row').first()).toBeVisible({ timeout: 15_000 });

  // --- No secret or token in any answer the browsers got.
  const tokens = [
    ...fake.tokenCalls.flatMap((c) => [c.form.refresh_token, c.form.code]),
    FAKE_CLIENT.clientSecret,
  ].filter((t): t is string => !!t && t.length > 8);
  expect(tokens.length).toBeGreaterThan(1);
  for (const answer of answers) {
    for (const t of tokens) expect(answer).not.toContain(t);
    expect(answer).not.toMatch(/\b(at|rt)-[0-9a-f]{32}\b/);
  }

  await admin.close();
  await adviser.close();
});

test('the sync counts fit their tiles on a phone (390 px): «Reintentando» does not overflow', async ({
  browser,
}) => {
  const ctx = await context(browser, 'admin@vitrina.demo', 'es', SIZES[2][1]);
  const page = await ctx.newPage();
  await page.goto(CRM_PAGE);
  const counts = page.getByTestId('sync-counts');
  await expect(counts).toContainText('Reintentando');
  const tiles = await counts.locator(':scope > div').evaluateAll((divs) =>
    divs.map((div) => ({
      text: div.textContent,
      fits: div.scrollWidth <= div.clientWidth,
      labelFits: [...div.children].every(
        (child) =>
          child.getBoundingClientRect().right <= div.getBoundingClientRect().right - 1 &&
          child.scrollWidth <= child.clientWidth,
      ),
    })),
  );
  expect(tiles).toHaveLength(3);
  for (const tile of tiles)
    expect(tile, tile.text ?? '').toMatchObject({ fits: true, labelFits: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await counts.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/crm-sync-counts-es-390.png` });
  await ctx.close();
});

test('the built bundle holds no client secret and no token', () => {
  const dist = process.env.VITRINA_DIST_DIR ?? 'dist';
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(dist);
  expect(files.some((f) => f.endsWith('.js'))).toBe(true);
  for (const file of files) {
    const text = readFileSync(file, 'latin1');
    expect(text, file).not.toContain(FAKE_CLIENT.clientSecret);
    expect(text, file).not.toMatch(/\b(at|rt)-[0-9a-f]{32}\b/);
  }
});
