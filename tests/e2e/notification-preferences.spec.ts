import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

/**
 * Notification preferences (issue 15 point 6): from the bell's gear, the adviser turns the
 * manager's messages off in the app; a message sent then neither counts nor shows; turned back
 * on, it shows again, unread. The push language follows the interface language the user chose.
 * Screenshots of the dialog at 1280, 820 and 390 px in es and en, with axe (WCAG 2 A/AA) clean.
 */
const PASSWORD = 'Vitrina2026!';
const CORP = 'grupo-horizonte';
const LIST = `/corporativos/${CORP}/desarrollos`;
const SHOTS = 'tests/e2e/__screenshots__';
const SIZES = [
  ['1280', { width: 1280, height: 800 }],
  ['820', { width: 820, height: 1180 }],
  ['390', { width: 390, height: 844 }],
] as const;

async function signedInContext(
  browser: Browser,
  email: string,
  options: { viewport?: { width: number; height: number }; language?: 'es' | 'en' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.language)
    await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), options.language);
  const res = await context.request.post('/api/auth/login', {
    data: { email, password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

async function ids(context: BrowserContext) {
  const corporate = (await (
    await context.request.get(`/api/wsObtenerCorporativo?slug=${CORP}`)
  ).json()) as { id: string };
  const me = (await (await context.request.get('/api/auth/session')).json()) as { id: string };
  return { corp: corporate.id, me: me.id };
}

const prefsPath = (userId: string) => `/api/users/${userId}/notificaciones/preferencias`;

async function openPreferences(page: Page) {
  await page.getByTestId('notification-bell').click();
  await page.getByTestId('notification-preferences-open').click();
  await expect(page.getByTestId('notification-preferences')).toBeVisible();
}

test('in-app off hides the manager’s messages from the bell; back on, they show again; push follows the chosen language', async ({
  browser,
}) => {
  const adviser = await signedInContext(browser, 'asesor@vitrina.demo', { language: 'en' });
  const manager = await signedInContext(browser, 'gerente@vitrina.demo');
  const { corp, me } = await ids(adviser);
  await adviser.request.put(`/api/corporativos/${corp}/notificaciones/leidas`, {
    data: { idUsuario: me, todas: true },
  });
  const page = await adviser.newPage();
  const stream = page.waitForResponse('**/api/stream');
  await page.goto(LIST);
  await stream;
  // The interface language (en, chosen on this device) becomes the push language.
  await expect
    .poll(
      async () =>
        ((await (await adviser.request.get(prefsPath(me))).json()) as { idioma: string }).idioma,
    )
    .toBe('en');

  await openPreferences(page);
  const appBox = page.getByTestId('pref-mensaje-app');
  await expect(appBox).toHaveAccessibleName('Messages from your manager: in the app');
  await expect(appBox).toBeChecked();
  await appBox.click();
  await expect(page.getByTestId('notification-preferences-status')).toHaveText('Saved');
  await expect(appBox).not.toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-preferences')).toHaveCount(0);
  // Focus is back on the bell.
  await expect(page.getByTestId('notification-bell')).toBeFocused();

  const sent = await manager.request.post(`/api/corporativos/${corp}/notificaciones`, {
    data: { titulo: 'Oculto', mensaje: 'No debe contar', idUsuarios: [me] },
  });
  expect(sent.status()).toBe(201);
  // The live change arrives and the list is read again: still nothing to count.
  await page.waitForTimeout(1500);
  await expect(page.getByTestId('notification-count')).toHaveCount(0);
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-list')).not.toContainText('Oculto');
  await page.getByTestId('notification-bell').click();

  await openPreferences(page);
  await page.getByTestId('pref-mensaje-app').click();
  await expect(page.getByTestId('pref-mensaje-app')).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('notification-count')).toHaveText('1');
  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-list')).toContainText('Oculto');

  // Back as it was for the other suites.
  const reset = await adviser.request.put(prefsPath(me), {
    data: { idioma: 'es', tipos: { mensaje: { app: true, push: true } } },
  });
  expect(reset.status()).toBe(200);
  await adviser.close();
  await manager.close();
});

for (const language of ['es', 'en'] as const) {
  test(`the preferences dialog at 1280, 820 and 390 px (${language}), axe clean`, async ({
    browser,
  }) => {
    for (const [name, viewport] of SIZES) {
      const context = await signedInContext(browser, 'asesor@vitrina.demo', {
        viewport,
        language,
      });
      const page = await context.newPage();
      await page.goto(LIST);
      // The bell's list with its gear (its own screenshots are notifications.spec.ts's).
      await page.getByTestId('notification-bell').click();
      await expect(page.getByTestId('notification-preferences-open')).toHaveAccessibleName(
        language === 'es' ? 'Preferencias de notificaciones' : 'Notification preferences',
      );
      if (process.env.NOTIF_PANEL_SHOTS)
        await page.screenshot({
          path: `${process.env.NOTIF_PANEL_SHOTS}/panel-${name}-${language}.png`,
        });
      await page.getByTestId('notification-bell').click();
      await openPreferences(page);
      await expect(page.getByRole('dialog', { name: /Preferencias|preferences/ })).toBeVisible();
      await expect(page.getByTestId('notification-preferences')).toContainText(
        language === 'es' ? 'Recordatorio de cita' : 'Appointment reminder',
      );
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: `${SHOTS}/notification-preferences-${name}-${language}.png` });
      await context.close();
    }
  });
}
