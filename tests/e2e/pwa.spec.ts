import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import {
  chromium,
  expect,
  test,
  type Browser,
  type BrowserContext,
  type Page,
} from '@playwright/test';
import { axeViolations } from './support/axe';

// These tests need the service worker the other files block (playwright.config.ts).
test.use({ serviceWorkers: 'allow' });

/**
 * The installable app (issue 15 point 5): the web manifest and the service worker pass
 * Chromium's installability check (the one Lighthouse reports), the app shell opens offline
 * after the first visit while the API is never answered from a cache, and a newly deployed
 * worker brings up the "update available" prompt (es and en, axe-checked, screenshots at 1280,
 * 820 and 390 px). Push through the same worker: notifications.spec.ts.
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
/** The built client the e2e server serves (scripts/e2e-server.mjs → src/server/main.ts). */
const SW_FILE = join(resolve(process.env.VITRINA_DIST_DIR ?? 'dist'), 'sw.js');

async function signedInContext(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; language?: 'es' | 'en' } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
  });
  if (options.language)
    await context.addInitScript((l) => localStorage.setItem('vitrina:idioma', l), options.language);
  const res = await context.request.post('/api/auth/login', {
    data: { email: 'asesor@vitrina.demo', password: PASSWORD },
  });
  expect(res.status()).toBe(200);
  return context;
}

/** Waits until the app's worker is active and controls the page (it claims on first install). */
async function controlled(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller)
      await new Promise((r) =>
        navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }),
      );
    return registration.active?.scriptURL ?? '';
  });
}

/** The width and height a PNG declares in its IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

test('the manifest and the service worker pass the installability check', async () => {
  // A real profile: Chromium never offers to install from an incognito one, which every
  // Playwright context is, and says so as its only installability error there.
  const { baseURL, launchOptions } = test.info().project.use;
  const profile = mkdtempSync(join(tmpdir(), 'vitrina-pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, { ...launchOptions, baseURL });
  const page = context.pages()[0] ?? (await context.newPage());
  const violations: string[] = [];
  await page.exposeFunction('reportCsp', (v: string) => violations.push(v));
  await page.addInitScript(() =>
    document.addEventListener(
      'securitypolicyviolation',
      (e) =>
        void (window as unknown as { reportCsp: (v: string) => void }).reportCsp(
          `${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`,
        ),
    ),
  );
  await page.goto('/login');

  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/manifest.webmanifest');
  const res = await context.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('application/manifest+json');
  expect(res.headers()['cache-control']).toBe('no-cache');
  const manifest = (await res.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
  expect(manifest).toMatchObject({
    name: 'Vitrina',
    short_name: 'Vitrina',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: '#14213d',
    background_color: '#f5f6f8',
    lang: 'es',
  });
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#14213d');

  // 192 and 512 px for any purpose, and a maskable one: each served as the PNG it claims to be.
  const find = (size: string, purpose: string) =>
    manifest.icons.find(
      (i) => i.sizes === size && (i.purpose ?? 'any').split(' ').includes(purpose),
    );
  const wanted = [find('192x192', 'any'), find('512x512', 'any'), find('512x512', 'maskable')];
  for (const icon of wanted) {
    expect(icon, JSON.stringify(manifest.icons)).toBeDefined();
    const file = await context.request.get(new URL(icon!.src, page.url()).href);
    expect(file.status(), icon!.src).toBe(200);
    expect(file.headers()['content-type']).toBe('image/png');
    expect(icon!.type).toBe('image/png');
    const [w, h] = icon!.sizes.split('x').map(Number);
    expect(pngSize(await file.body())).toEqual({ width: w, height: h });
  }

  const worker = await context.request.get('/sw.js');
  expect(worker.status()).toBe(200);
  expect(worker.headers()['content-type']).toMatch(/^(text|application)\/javascript/);
  expect(worker.headers()['cache-control']).toBe('no-cache');
  expect(await controlled(page)).toBe(new URL('/sw.js', page.url()).href);

  // Chromium's own verdict (what Lighthouse's installability audit reads): no errors, which
  // includes "a service worker with a fetch handler controls the start URL".
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  expect(installabilityErrors).toEqual([]);
  const parsed = await cdp.send('Page.getAppManifest');
  expect(parsed.errors).toEqual([]);
  // The worker, the manifest and the icons need nothing the page's CSP refuses. (zod probes
  // once whether `new Function` is allowed, is refused by script-src, and does without it.)
  expect(violations.filter((v) => !v.startsWith('script-src eval '))).toEqual([]);
  await context.close();
  rmSync(profile, { recursive: true, force: true });
});

test('after the first visit the app shell opens offline, and the API is never answered from a cache', async ({
  browser,
}) => {
  const context = await signedInContext(browser);
  const page = await context.newPage();
  await page.goto(LIST);
  await expect(page.getByRole('heading', { name: 'Desarrollos' })).toBeVisible();
  // The first page has the device to itself for its first seconds: the worker's install (every
  // asset of the app) starts REGISTER_AFTER_LOAD_MS (4 s) after the load event.
  await page.waitForLoadState('load');
  expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations())).toHaveLength(0);
  await controlled(page);

  await context.setOffline(true);
  const shell = await page.reload();
  expect(shell?.fromServiceWorker()).toBe(true);
  expect(shell?.status()).toBe(200);
  await expect(page.locator('#root')).not.toBeEmpty();
  // Signed in but the server out of reach: the offline notice, not the sign-in prompt.
  const notice = page.getByRole('alertdialog', { name: 'Sin conexión' });
  await expect(notice).toBeVisible();
  await expect(page.getByText('Inicia sesión para continuar')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/pwa-offline-1280-es.png` });

  // A deep link of the app is the shell too; the API fails instead of answering stale data.
  const deep = await page.goto(`/corporativos/${CORP}/clientes`);
  expect(deep?.fromServiceWorker()).toBe(true);
  const api = await page.evaluate(() =>
    fetch('/api/auth/session').then(
      (r) => `status ${r.status}`,
      () => 'network error',
    ),
  );
  expect(api).toBe('network error');
  const cached = await page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys())
      for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });
  expect(cached.some((u) => u.endsWith('/index.html') || u.includes('/index.html?'))).toBe(true);
  expect(cached.filter((u) => new URL(u).pathname.startsWith('/api'))).toEqual([]);
  // 'Reintentar' while still offline keeps the notice; back online, the browser's online event
  // looks for the session again: the page opens, still signed in.
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByRole('alertdialog', { name: 'Sin conexión' })).toBeVisible();
  await context.setOffline(false);
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  await expect(page).toHaveURL(`/corporativos/${CORP}/clientes`);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await context.close();
});

test('public pages (embeddable, shared with buyers) always come from the server and register no worker', async ({
  browser,
}) => {
  const PUBLIC = '/public/cotizacion/e2e-no-such-token';
  // An app user's browser: the worker controls the origin, yet a public page is not the cached
  // shell, whose headers forbid framing.
  const context = await signedInContext(browser);
  const page = await context.newPage();
  await page.goto(LIST);
  await controlled(page);
  const shared = await page.goto(PUBLIC);
  expect(shared?.fromServiceWorker()).toBe(false);
  expect(shared?.headers()['content-security-policy']).toContain('frame-ancestors *');
  expect(shared?.headers()['x-frame-options']).toBeUndefined();
  await context.close();

  // A visitor who only ever opens a public page gets no worker and nothing precached.
  const visitor = await browser.newContext();
  const visit = await visitor.newPage();
  await visit.goto(PUBLIC);
  await visit.waitForLoadState('load');
  await visit.waitForTimeout(1000);
  expect(
    await visit.evaluate(async () => ({
      registrations: (await navigator.serviceWorker.getRegistrations()).length,
      caches: (await caches.keys()).length,
    })),
  ).toEqual({ registrations: 0, caches: 0 });
  await visitor.close();
});

/**
 * A new deployment: the served worker changes (one byte is enough for the browser to install it
 * beside the running one, where it waits). Returns the undo, which puts the built one back.
 */
function deployNewWorker(): () => void {
  const original = readFileSync(SW_FILE, 'utf8');
  writeWorker(`${original}\n// e2e: a new deployment at ${Date.now()}\n`);
  return () => writeWorker(original);
}

/** Writes the worker as a deployment does: the file and its pre-compressed copies (`precompress`). */
function writeWorker(text: string): void {
  writeFileSync(SW_FILE, text);
  if (existsSync(`${SW_FILE}.br`)) writeFileSync(`${SW_FILE}.br`, brotliCompressSync(text));
  if (existsSync(`${SW_FILE}.gz`)) writeFileSync(`${SW_FILE}.gz`, gzipSync(text));
}

const TEXTS = {
  es: { message: 'Hay una versión nueva de Vitrina.', reload: 'Actualizar', later: 'Más tarde' },
  en: { message: 'A new version of Vitrina is available.', reload: 'Reload', later: 'Later' },
} as const;

for (const language of ['es', 'en'] as const) {
  test(`a new version brings up a polite, dismissible update prompt (${language})`, async ({
    browser,
  }) => {
    const texts = TEXTS[language];
    const context = await signedInContext(browser, { language });
    const page = await context.newPage();
    await page.goto(LIST);
    await controlled(page);
    const prompt = page.getByTestId('update-prompt');
    await expect(prompt).toHaveCount(0);
    const undo = deployNewWorker();
    try {
      // What the page does every hour (and the browser on every load): look for a new worker.
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())?.update();
      });
      await expect(prompt).toBeVisible();
    } finally {
      undo();
    }
    await expect(prompt).toContainText(texts.message);
    // Announced politely from a live region that was already in the page; the focus stays put.
    const region = page.getByRole('status').filter({ has: prompt });
    await expect(region).toHaveAttribute('aria-live', 'polite');
    await expect(prompt.getByRole('button', { name: texts.reload })).toBeVisible();
    await expect(prompt.getByRole('button', { name: texts.later })).toBeVisible();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
    expect(await axeViolations(page, { include: '[data-testid="update-prompt"]' })).toEqual([]);
    for (const [name, viewport] of SIZES) {
      await page.setViewportSize(viewport);
      await expect(prompt).toBeInViewport();
      await page.screenshot({ path: `${SHOTS}/pwa-update-${name}-${language}.png` });
    }
    // Dismissed with the button (es) or Escape (en); the new worker keeps waiting for later.
    if (language === 'es') await prompt.getByRole('button', { name: texts.later }).click();
    else {
      await prompt.getByRole('button', { name: texts.later }).focus();
      await page.keyboard.press('Escape');
    }
    await expect(prompt).toHaveCount(0);
    expect(
      await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration())?.waiting !== null,
      ),
    ).toBe(true);
    await context.close();
  });
}

test('opening the app after a deployment offers the update; "Reload" hands over to the new worker', async ({
  browser,
}) => {
  const context = await signedInContext(browser);
  const page = await context.newPage();
  await page.goto(LIST);
  await controlled(page);
  // The worker versions, as DevTools sees them.
  const cdp = await context.newCDPSession(page);
  const versions = new Map<string, string>();
  cdp.on('ServiceWorker.workerVersionUpdated', ({ versions: updated }) => {
    for (const v of updated) versions.set(v.versionId, v.status);
  });
  await cdp.send('ServiceWorker.enable');
  const withStatus = (status: string) =>
    [...versions].filter(([, s]) => s === status).map(([id]) => id);
  await expect.poll(() => withStatus('activated').length).toBe(1);
  const old = withStatus('activated')[0];

  const undo = deployNewWorker();
  try {
    const prompt = page.getByTestId('update-prompt');
    // The browser checks the worker on every navigation: a load finds the new one.
    await page.reload();
    await expect(prompt).toBeVisible();
    expect(withStatus('installed')).toHaveLength(1);
    const waiting = withStatus('installed')[0];
    await page.evaluate(() => {
      (window as unknown as { beforeUpdate: boolean }).beforeUpdate = true;
    });
    const reloaded = page.waitForEvent('load');
    await prompt.getByRole('button', { name: TEXTS.es.reload }).click();
    await reloaded;
    await expect(page.getByRole('heading', { name: 'Desarrollos' })).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { beforeUpdate?: boolean }).beforeUpdate),
    ).toBeUndefined();
    // The worker that waited is the active one now, and the old one is gone.
    await expect.poll(() => withStatus('activated')).toEqual([waiting]);
    expect(versions.get(old!)).toBe('redundant');
    expect(
      await page.evaluate(
        async () => (await navigator.serviceWorker.getRegistration())?.waiting ?? null,
      ),
    ).toBeNull();
    await expect(prompt).toHaveCount(0);
  } finally {
    undo();
  }
  await context.close();
});
