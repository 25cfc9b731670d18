import { defineConfig } from '@playwright/test';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const port = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  // `npm test` runs two shards at once on two cores (scripts/test.mjs): a test gets 90 s, not 60.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // In CI a failed test runs once more: the e2e shards share two cores with their servers and
  // Chromium, and a timing slip there (a colour read mid-transition, a click during a
  // navigation) should not stop a landing. A test that passes on its retry is still reported,
  // by name, in `npm test`'s "flaky" list (scripts/test.mjs); one that fails twice fails the run.
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['list'], ['json']] : [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: 'es-MX',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: CHROMIUM_ARGS,
    },
    // The built app registers a service worker that precaches every asset: in each new context
    // that is a second download of the whole app and a worker's CPU, about a quarter of an e2e
    // run's CPU on two cores. Blocked here; the files that test the worker (pwa, push) allow it.
    serviceWorkers: 'block',
    trace: 'off',
    screenshot: 'off',
  },
  webServer: {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${port}/api/wsObtenerConfiguracionesGenerales`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(port) },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
