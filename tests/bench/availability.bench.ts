/**
 * Availability page in Chromium against the built app and a server whose store holds a
 * 2,000-unit development (`gran-torre`, from `npm run seed:large`):
 * - navigation to interactive (grid painted with its filter answer, filter panel usable);
 * - filter change to repaint (a click on a filter chip until the grid shows the new answer and
 *   the next frame is painted);
 * each with the filtering in the core worker (the product) and, as the baseline, the same grid
 * filtered by the same core function on the main thread (`vitrina:filtros-hilo-principal`).
 * Also the login route's initial JavaScript, gzip, read from the build (a private `vite build`
 * into a temporary directory, so a concurrent rebuild of `dist/` cannot disturb the run).
 *
 * Run: `npm run bench -- availability` (or `npx tsx tests/bench/availability.bench.ts [units]`).
 * `BENCH_STORE=<dir>` keeps (and reuses) the seeded store; `BENCH_DIST=<dir>` uses an existing
 * build instead of building one.
 * Prints figures and ratios; asserts nothing.
 */

import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { signedInContext } from './support/browser';
import { recordResult } from './support/results';
import {
  ROOT,
  buildClient,
  median,
  seedLarge,
  spawnAppServer,
  stopProcess,
  waitForServer,
} from './support/server';

const UNITS = Number(process.argv[2] ?? 2000);
const PORT = Number(process.env.BENCH_PORT ?? 4480);
const BASE = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE_PATH = '/corporativos/grupo-horizonte/desarrollos/gran-torre/disponibilidad';
const NAV_RUNS = 5;
const FILTER_ROUNDS = 6;
let distDir = join(ROOT, 'dist');

type Mode = 'worker' | 'main';

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

/** ms from navigation start until the grid shows its filter answer and a frame is painted. */
async function navigationToInteractive(page: Page): Promise<number> {
  return (await navigationTimings(page)).interactive;
}

/** Navigation timings: interactive, and when the units' response (wsObtenerClusters) ended. */
async function navigationTimings(
  page: Page,
): Promise<{ interactive: number; unitsLoaded: number }> {
  await page.goto(`${BASE}${PAGE_PATH}`, { waitUntil: 'commit' });
  await page.waitForFunction(
    () => {
      const grid = document.querySelector('[data-testid="availability-grid"]');
      return (
        grid?.getAttribute('data-ready') === 'true' &&
        document.querySelectorAll('[data-unit-id]').length > 0
      );
    },
    undefined,
    { polling: 'raf', timeout: 60_000 },
  );
  return page.evaluate(
    () =>
      new Promise<{ interactive: number; unitsLoaded: number }>((r) =>
        requestAnimationFrame(() =>
          setTimeout(() => {
            const entry = performance
              .getEntriesByType('resource')
              .find((e) => e.name.includes('wsObtenerClusters'));
            r({
              interactive: performance.now(),
              unitsLoaded: (entry as PerformanceResourceTiming | undefined)?.responseEnd ?? NaN,
            });
          }, 0),
        ),
      ),
  );
}

/**
 * Clicks filter chips in turn; for each, ms from the click until the grid's `data-filter-key`
 * changes (the new answer is rendered) plus the next painted frame.
 */
async function filterChanges(
  page: Page,
  rounds: number,
): Promise<{ times: number[]; matches: number[] }> {
  return page.evaluate(async (n) => {
    const grid = document.querySelector<HTMLElement>('[data-testid="availability-grid"]')!;
    const form = document.querySelector<HTMLFormElement>('form[aria-label]')!;
    const groups = [...form.querySelectorAll<HTMLElement>('[role="group"]')];
    const chip = (group: number, label: string) =>
      [...groups[group]!.querySelectorAll<HTMLButtonElement>('button')].find(
        (b) => b.textContent?.trim() === label,
      )!;
    // Each click changes the answer and none leaves the filters empty (an empty filter is
    // answered without the worker): bedrooms {2}; +parking {2}; bedrooms {2,3}; parking off;
    // bedrooms {3}; bedrooms {1,3}.
    const clicks: [number, string][] = [
      [0, '2'],
      [2, '2'],
      [0, '3'],
      [2, '2'],
      [0, '2'],
      [0, '1'],
    ];
    const times: number[] = [];
    const matches: number[] = [];
    const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    for (let i = 0; i < n; i++) {
      const [group, label] = clicks[i % clicks.length]!;
      const before = grid.dataset.filterKey;
      await frame();
      const t0 = performance.now();
      const changed = new Promise<void>((resolve) => {
        if (grid.dataset.filterKey !== before) return resolve();
        const mo = new MutationObserver(() => {
          if (grid.dataset.filterKey !== before) {
            mo.disconnect();
            resolve();
          }
        });
        mo.observe(grid, { attributes: true, attributeFilter: ['data-filter-key'] });
      });
      chip(group, label).click();
      await changed;
      await new Promise<void>((r) => requestAnimationFrame(() => r()));
      times.push(performance.now() - t0);
      matches.push(grid.querySelectorAll('[data-match="true"]').length);
      await frame();
    }
    return { times, matches };
  }, rounds);
}

async function measure(browser: Browser, mode: Mode) {
  const nav: number[] = [];
  const loaded: number[] = [];
  const filter: number[] = [];
  let matches: number[] = [];
  let units = 0;
  for (let i = 0; i < NAV_RUNS; i++) {
    const context = await signedInContext(browser, BASE, { mainThread: mode === 'main' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`[${mode}] page error:`, e.message));
    const timings = await navigationTimings(page);
    nav.push(timings.interactive);
    loaded.push(timings.unitsLoaded);
    units = await page.locator('[data-unit-id]').count();
    const r = await filterChanges(page, FILTER_ROUNDS);
    filter.push(...r.times.slice(1)); // the first change also warms up the path
    matches = r.matches;
    await context.close();
  }
  return { nav, loaded, filter, matches, units };
}

/** The JavaScript the browser loads for /login (signed out), gzip-compressed from dist/. */
async function loginInitialJs(browser: Browser) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const scripts = new Set<string>();
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.origin === BASE && url.pathname.endsWith('.js')) scripts.add(url.pathname);
  });
  await page.goto(`${BASE}/login`, { waitUntil: 'load' });
  await page.getByRole('button').first().waitFor();
  await page.waitForTimeout(500);
  await context.close();
  let raw = 0;
  let gz = 0;
  const files: { file: string; gzip: number }[] = [];
  for (const path of scripts) {
    const file = join(distDir, path);
    if (!existsSync(file)) continue;
    const bytes = readFileSync(file);
    const g = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gz += g;
    files.push({ file: path, gzip: g });
  }
  return { raw, gz, files: files.sort((a, b) => b.gzip - a.gzip) };
}

async function main() {
  console.log(
    `Availability bench: ${UNITS.toLocaleString('en')}-unit development, Chromium, built app`,
  );
  const dataDir = mkdtempSync(join(tmpdir(), 'vitrina-bench-'));
  // A private build: the shared dist/ may be rebuilt by someone else while the bench runs.
  distDir = process.env.BENCH_DIST ?? join(dataDir, 'dist');
  if (!process.env.BENCH_DIST) buildClient(distDir);
  let server: ChildProcess | undefined;
  let browser: Browser | undefined;
  try {
    const seeded = Date.now();
    const store = process.env.BENCH_STORE ?? join(dataDir, 'store');
    seedLarge(store, UNITS);
    console.log(`seeded in ${((Date.now() - seeded) / 1000).toFixed(1)} s`);
    server = spawnAppServer(store, distDir, PORT);
    await waitForServer(server, BASE);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });

    // One warm-up load (server caches, Chromium code cache), not measured.
    {
      const ctx = await signedInContext(browser, BASE, { mainThread: false });
      const page = await ctx.newPage();
      await navigationToInteractive(page);
      await ctx.close();
    }
    const worker = await measure(browser, 'worker');
    const main = await measure(browser, 'main');
    const login = await loginInitialJs(browser);

    if (JSON.stringify(worker.matches) !== JSON.stringify(main.matches)) {
      console.log(
        `WARNING: different answers: worker ${worker.matches.join(',')} main ${main.matches.join(',')}`,
      );
    }
    console.log(
      `\nunits in the grid: ${worker.units} (worker run), ${main.units} (baseline); matches per step ${worker.matches.join(', ')}`,
    );
    console.log('');
    console.log(
      '| measure | worker (product) | main thread (baseline) | worker / baseline | target | met |',
    );
    console.log('|---|---:|---:|---:|---|---|');
    const row = (label: string, w: number, m: number, target: string, met: string) =>
      console.log(
        `| ${label} | ${w.toFixed(1)} ms | ${m.toFixed(1)} ms | ${(w / m).toFixed(2)}× | ${target} | ${met} |`,
      );
    row('navigation → interactive, median', median(worker.nav), median(main.nav), '—', '—');
    row('navigation → interactive, p95', p95(worker.nav), p95(main.nav), '—', '—');
    row(
      '(of which: units response received), median',
      median(worker.loaded),
      median(main.loaded),
      '—',
      '—',
    );
    row(
      '(of which: units received → interactive), median',
      median(worker.nav.map((n, i) => n - worker.loaded[i]!)),
      median(main.nav.map((n, i) => n - main.loaded[i]!)),
      '—',
      '—',
    );
    row(
      'filter change → repaint, median',
      median(worker.filter),
      median(main.filter),
      '< 100 ms',
      median(worker.filter) < 100 ? 'yes' : 'NO',
    );
    row(
      'filter change → repaint, p95',
      p95(worker.filter),
      p95(main.filter),
      '< 100 ms',
      p95(worker.filter) < 100 ? 'yes' : 'NO',
    );
    console.log(
      `| login route initial JS (gzip) | ${(login.gz / 1024).toFixed(1)} KB (${(login.raw / 1024).toFixed(1)} KB raw, ${login.files.length} files) | — | — | < 150 KB | ${login.gz < 150 * 1024 ? 'yes' : 'NO'} |`,
    );
    const record = (
      measure: string,
      w: number,
      m: number,
      target?: { text: string; met: boolean },
    ) =>
      recordResult({
        bench: 'availability',
        measure,
        value: w,
        unit: 'ms',
        baseline: { label: 'filters on the main thread', value: m },
        ...(target ? { target } : {}),
      });
    record('availability: navigation → interactive, median', median(worker.nav), median(main.nav));
    record(
      'availability: filter change → repaint, median',
      median(worker.filter),
      median(main.filter),
      {
        text: '< 100 ms',
        met: median(worker.filter) < 100,
      },
    );
    record('availability: filter change → repaint, p95', p95(worker.filter), p95(main.filter), {
      text: '< 100 ms',
      met: p95(worker.filter) < 100,
    });
    console.log(
      '\nlogin route scripts (gzip): ' +
        login.files.map((f) => `${f.file} ${(f.gzip / 1024).toFixed(1)} KB`).join(', '),
    );
    console.log(
      `samples: filter ${worker.filter.length} (worker) / ${main.filter.length} (main), navigation ${NAV_RUNS} each`,
    );
  } finally {
    await browser?.close();
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
