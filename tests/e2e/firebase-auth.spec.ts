/**
 * Sign-in with Firebase Authentication (issue 22), in Chromium: a server of its own started with
 * VITRINA_AUTH_PROVIDER=firebase against the Auth emulator (both on free ports, started and
 * stopped here), the same build as every other spec. The built-in server of the run
 * (playwright.config) shows that a built-in deployment's sign-in page loads nothing of Firebase.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './support/axe';
import {
  freePort,
  startAuthEmulator,
  type AuthEmulator,
} from '../integration/support/firebase-emulator';

const SHOTS = 'tests/e2e/__screenshots__';
const PASSWORD = 'Firebase-Vitrina-1';

let emulator: AuthEmulator;
let server: ChildProcess;
let dataDir: string;
let base = '';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  emulator = await startAuthEmulator();
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'vitrina-e2e-firebase-'));
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    stdio: 'ignore',
    detached: true,
    env: {
      ...process.env,
      VITRINA_DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_BASE_URL: base,
      VITRINA_AUTH_PROVIDER: 'firebase',
      FIREBASE_PROJECT_ID: emulator.projectId,
      FIREBASE_API_KEY: 'demo-api-key',
      FIREBASE_AUTH_DOMAIN: `${emulator.projectId}.firebaseapp.com`,
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    },
  });
  const deadline = Date.now() + 180_000;
  for (;;) {
    const up = await fetch(`${base}/api/wsObtenerConfiguracionesGenerales`)
      .then((r) => r.ok)
      .catch(() => false);
    if (up) break;
    if (Date.now() > deadline) throw new Error('the firebase server did not start');
    await new Promise((done) => setTimeout(done, 500));
  }
  // Firebase accounts of two demo people, their e-mail verified; one unknown to Vitrina.
  for (const email of ['asesor@vitrina.demo', 'admin@vitrina.demo', 'nadie@example.com']) {
    const account = await emulator.signUp(email, PASSWORD);
    await emulator.verifyEmail(account.uid);
  }
});

test.afterAll(async () => {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  await emulator?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function signIn(page: Page, email: string, path = '/login') {
  await page.goto(`${base}${path}`);
  await expect(page.getByTestId('hosted-sign-in')).toBeVisible();
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
}

/** Accounts Firebase keeps signed in in this browser (its local persistence: localStorage). */
const firebaseUsers = (page: Page) =>
  page.evaluate(
    () => Object.keys(localStorage).filter((k) => k.startsWith('firebase:authUser:')).length,
  );

test('a built-in deployment: the sign-in page loads nothing of Firebase', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Inicia sesión' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((u) => /firebase|hosted-sign-in/.test(u))).toBe(false);
  await expect(page.getByTestId('hosted-sign-in')).toHaveCount(0);
  expect((await page.request.get('/api/auth/proveedor')).status()).toBe(200);
  expect(await (await page.request.get('/api/auth/proveedor')).json()).toEqual({
    proveedor: 'builtin',
  });
});

test('the sign-in page under firebase, es and en, 1280/820/390: screenshots and axe', async ({
  browser,
}) => {
  for (const language of ['es', 'en'] as const) {
    for (const width of [1280, 820, 390]) {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), language);
      const page = await context.newPage();
      await page.goto(`${base}/login`);
      await expect(page.getByTestId('hosted-sign-in')).toBeVisible();
      await expect(page.getByTestId('hosted-sign-in')).toHaveText(
        language === 'es'
          ? 'Inicia sesión con la cuenta de tu empresa (Firebase).'
          : 'Sign in with your company account (Firebase).',
      );
      if (width !== 820)
        await page.screenshot({ path: `${SHOTS}/firebase-login-${language}-${width}.png` });
      expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
      await context.close();
    }
  }
});

test('sign in with a Firebase account, land where the rules say, reload stays signed in, sign out clears both', async ({
  page,
}) => {
  await signIn(page, 'asesor@vitrina.demo');
  await expect(page).toHaveURL(`${base}/corporativos/grupo-horizonte`);
  await expect(page.getByTestId('page-title')).toHaveText(/Grupo Horizonte/);
  expect(await firebaseUsers(page)).toBe(1);
  const session = await (await page.request.get(`${base}/api/auth/session`)).json();
  expect(session.email).toBe('asesor@vitrina.demo');

  await page.reload();
  await expect(page).toHaveURL(`${base}/corporativos/grupo-horizonte`);
  await expect(page.getByTestId('page-title')).toHaveText(/Grupo Horizonte/);

  await page
    .getByRole('navigation', { name: 'Navegación principal' })
    .getByRole('button', { name: 'Cerrar sesión' })
    .click();
  await expect(page).toHaveURL(`${base}/login`);
  await expect(page.getByTestId('logout-loading')).toBeHidden();
  expect(await (await page.request.get(`${base}/api/auth/session`)).json()).toBeNull();
  expect(await firebaseUsers(page)).toBe(0);
  // Signed out of Firebase too: a reload does not sign in again on its own.
  await page.reload();
  await page.waitForTimeout(3500);
  await expect(page).toHaveURL(`${base}/login`);
  expect(await (await page.request.get(`${base}/api/auth/session`)).json()).toBeNull();
});

test('a redirect query is honoured after a Firebase sign-in', async ({ page }) => {
  await signIn(
    page,
    'admin@vitrina.demo',
    '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte%2Fusuarios',
  );
  await expect(page).toHaveURL(`${base}/corporativos/grupo-horizonte/usuarios`);
  // The people page says which sign-in the deployment uses.
  await expect(page.getByTestId('sign-in-provider')).toContainText('Firebase Authentication');
  await expect(page.getByText('admin@vitrina.demo').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/firebase-users-es-1280.png` });
  expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
});

test('an account Vitrina does not know gets "no access", and stays signed out of both', async ({
  page,
}) => {
  await signIn(page, 'nadie@example.com');
  await expect(page.getByRole('alert')).toHaveText(
    'Tu cuenta no tiene acceso a Vitrina. Pide una invitación a tu corporativo.',
  );
  await expect(page).toHaveURL(`${base}/login`);
  expect(await firebaseUsers(page)).toBe(0);
  expect(await (await page.request.get(`${base}/api/auth/session`)).json()).toBeNull();
  await page.screenshot({ path: `${SHOTS}/firebase-login-no-access-es-1280.png` });
});

test('a wrong password is answered by Firebase, in the form', async ({ page }) => {
  await page.goto(`${base}/login`);
  await page.getByLabel('Correo electrónico').fill('asesor@vitrina.demo');
  await page.getByLabel('Contraseña', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('El correo o la contraseña no son correctos');
});

test('Firebase unreachable: a clear message on the sign-in page', async ({ page }) => {
  await page.goto(`${base}/login`);
  await expect(page.getByTestId('hosted-sign-in')).toBeVisible();
  await page.route(`http://${emulator.host}/**`, (route) => route.abort('connectionrefused'));
  await page.getByLabel('Correo electrónico').fill('asesor@vitrina.demo');
  await page.getByLabel('Contraseña', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'No se pudo conectar con el servicio de inicio de sesión (Firebase). Revisa tu conexión e inténtalo de nuevo.',
  );
  await page.screenshot({ path: `${SHOTS}/firebase-login-unreachable-es-1280.png` });
});

test('password recovery under firebase: Firebase mails its own link', async ({ page }) => {
  await page.goto(`${base}/recuperar`);
  await page.getByLabel('Correo electrónico').fill('asesor@vitrina.demo');
  await page.getByRole('button', { name: /enlace|Enviar/i }).click();
  await expect
    .poll(async () =>
      (await emulator.oobCodes()).some(
        (c) => c.email === 'asesor@vitrina.demo' && c.requestType === 'PASSWORD_RESET',
      ),
    )
    .toBe(true);
});

test('Google is offered only where the deployment says the project enables it', async ({
  page,
}) => {
  await page.goto(`${base}/login`);
  await expect(page.getByTestId('hosted-sign-in')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continuar con Google' })).toHaveCount(0);
  // The same deployment with Google enabled (FIREBASE_GOOGLE_SIGN_IN=1): its answer, as served.
  const answer = (await (await page.request.get(`${base}/api/auth/proveedor`)).json()) as {
    firebase: Record<string, unknown>;
  };
  await page.route(`${base}/api/auth/proveedor`, (route) =>
    route.fulfill({ json: { ...answer, firebase: { ...answer.firebase, google: true } } }),
  );
  await page.reload();
  await expect(page.getByRole('button', { name: 'Continuar con Google' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/firebase-login-google-es-1280.png` });
  expect(await axeViolations(page, { seriousOnly: true })).toEqual([]);
});
