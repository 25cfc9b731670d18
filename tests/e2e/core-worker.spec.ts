import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHarnessServer } from './harness/serve';
import type { HarnessServer } from './harness/serve';

// Self-sufficient: its own Vite server and browser flags, no app server needed.
test.use({
  browserName: 'chromium',
  launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
});

let server: HarnessServer | undefined;

test.beforeAll(async () => {
  server = await startHarnessServer();
});

test.afterAll(async () => {
  await server?.close();
});

test.describe('core worker in Chromium', () => {
  test.setTimeout(120_000);

  test.beforeEach(async ({ page }) => {
    if (server === undefined) throw new Error('harness server not started');
    await page.goto(server.url);
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 60_000 });
  });

  test('runs in a real module worker', async ({ page }) => {
    expect(await page.evaluate(() => window.coreHarness.mode())).toBe('worker');
  });

  test('filters units in the worker exactly as the core does, 4 meaning 4+', async ({ page }) => {
    expect(await page.evaluate(() => window.coreHarness.loadUnits(10_000))).toBe(10_000);
    const fourPlus = await page.evaluate(() => window.coreHarness.filterBoth([4]));
    expect(fourPlus.worker.length).toBeGreaterThan(0);
    expect(fourPlus.worker).toEqual(fourPlus.direct);
    const two = await page.evaluate(() => window.coreHarness.filterBoth([2]));
    expect(two.worker).toEqual(two.direct);
    expect(two.worker.some((i) => fourPlus.worker.includes(i))).toBe(false);
  });

  test('exports the quote report CSV through the worker as a Blob', async ({ page }) => {
    await page.evaluate(() => window.coreHarness.makeRows(50_000));
    const out = await page.evaluate(() => window.coreHarness.exportViaWorker());
    expect(out.rowCount).toBe(50_000);
    expect(out.lines).toBe(50_001);
    expect(out.fileName).toMatch(/^Reporte_Cotizaciones_\d{2}_\d{2}_\d{4}\.csv$/);
    expect(out.head.startsWith('\uFEFFFecha,Asesor,Cliente,Desarrollo,Cluster,Unidad,')).toBe(true);
    expect(out.progressCalls).toBeGreaterThan(0);
    expect(out.size).toBeGreaterThan(50_000 * 100);
  });
});
