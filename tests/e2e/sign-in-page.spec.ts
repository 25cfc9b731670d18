/**
 * The light sign-in page (issue 21 target 6): login.html with its own entry, served for /login.
 * It loads one script and none of the application; it keeps every behaviour of the sign-in
 * (translated errors, the language switch, the redirect query, the role landing, a signed-in
 * visitor sent on, the links) and the application reaches it with a full navigation.
 */
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';

const PASSWORD = 'Vitrina2026!';
const SHOTS = 'tests/e2e/__screenshots__';
const A11Y = { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], seriousOnly: true };

/** The scripts a page requests (paths), from the moment this is called. */
function scriptsOf(page: Page): Set<string> {
  const scripts = new Set<string>();
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
  });
  return scripts;
}

async function fillAndSubmit(page: Page, email: string, password: string, submit = 'Entrar') {
  await page.getByLabel(/^(Correo electrónico|Email)$/).fill(email);
  await page.getByLabel(/^(Contraseña|Password)$/, { exact: true }).fill(password);
  await page.getByRole('button', { name: submit, exact: true }).click();
}

test('the page is its own: one script, none of the application; title, focus and links', async ({
  page,
}) => {
  const scripts = scriptsOf(page);
  await page.goto('/login', { waitUntil: 'networkidle' });
  await expect(page.getByRole('heading', { level: 1, name: 'Inicia sesión' })).toBeVisible();
  expect([...scripts]).toHaveLength(1);
  expect([...scripts][0]).toMatch(/^\/assets\/login-[\w-]+\.js$/);
  await expect(page).toHaveTitle('Iniciar sesión – Vitrina');
  await expect(page.getByLabel('Correo electrónico')).toBeFocused();
  await expect(page.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute(
    'href',
    '/recuperar',
  );
  await expect(page.getByRole('link', { name: '¿Eres broker? Regístrate' })).toHaveAttribute(
    'href',
    '/registro',
  );
  // The skip link (shown while focused) reaches the page's main region.
  const skip = page.getByRole('link', { name: 'Saltar al contenido' });
  await skip.focus();
  await skip.press('Enter');
  await expect(page.locator('main#content')).toBeFocused();
  expect(await axeViolations(page, A11Y)).toEqual([]);
});

test('a wrong password: the translated error, in Spanish and, after the switch, in English', async ({
  page,
}) => {
  await page.goto('/login');
  await fillAndSubmit(page, 'asesor@vitrina.demo', 'Wrong-password-1');
  await expect(page.getByRole('alert')).toHaveText('El correo o la contraseña no son correctos');
  await expect(page).toHaveURL('/login');

  const toggle = page.getByTestId('language-toggle');
  await expect(toggle).toHaveAccessibleName('EN — Cambiar el idioma a inglés');
  await toggle.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(page).toHaveTitle('Sign in – Vitrina');
  await expect(toggle).toHaveAccessibleName('ES — Switch the language to Spanish');
  await fillAndSubmit(page, 'asesor@vitrina.demo', 'Wrong-password-1', 'Sign in');
  await expect(page.getByRole('alert')).toHaveText('The email or the password is not correct');
  expect(await axeViolations(page, A11Y)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/sign-in-en-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/sign-in-en-1280.png`, fullPage: true });

  // The choice is remembered: the next visit (and the application after the sign-in) is English.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await fillAndSubmit(page, 'asesor@vitrina.demo', PASSWORD, 'Sign in');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');
  await expect(page.getByTestId('page-title')).toBeFocused();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
});

test('the hostess lands on the events page, with focus at its heading', async ({ page }) => {
  await page.goto('/login');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SHOTS}/sign-in-es-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/sign-in-es-390.png`, fullPage: true });
  await fillAndSubmit(page, 'hostess@vitrina.demo', PASSWORD);
  await expect(page).toHaveURL('/corporativos/grupo-horizonte/eventos');
  await expect(page.getByTestId('page-title')).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem('vitrina:auth'))).not.toBeNull();
  // Back does not return to the sign-in page.
  await page.goBack();
  await expect(page).not.toHaveURL(/\/login/);
});

test('the redirect query is kept: the registration link names its corporate, and the sign-in goes there', async ({
  page,
}) => {
  await page.goto('/login?redirect=%2Fcorporativos%2Fdesarrollos-pacifico%2Fusuarios');
  await expect(page.getByRole('link', { name: '¿Eres broker? Regístrate' })).toHaveAttribute(
    'href',
    '/registro/desarrollos-pacifico',
  );
  await fillAndSubmit(page, 'admin@vitrina.demo', PASSWORD);
  await expect(page).toHaveURL('/corporativos/desarrollos-pacifico/usuarios');
});

test('a signed-in visitor is sent on; the application reaches the page with a full navigation', async ({
  page,
}) => {
  await page.goto('/login');
  await fillAndSubmit(page, 'asesor@vitrina.demo', PASSWORD);
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');

  // Signed in, /login has nothing to offer: the root behaviour sends the visitor on.
  await page.goto('/login');
  await expect(page).toHaveURL('/corporativos/grupo-horizonte');

  // A link of the application to /login (the recovery page's "back to sign-in") loads the page.
  await page.context().clearCookies();
  await page.goto('/recuperar');
  const scripts = scriptsOf(page);
  await page.getByRole('link', { name: /iniciar sesión/i }).click();
  await expect(page).toHaveURL('/login');
  await expect(page.getByRole('heading', { level: 1, name: 'Inicia sesión' })).toBeVisible();
  expect([...scripts].some((s) => /^\/assets\/login-[\w-]+\.js$/.test(s))).toBe(true);
});
