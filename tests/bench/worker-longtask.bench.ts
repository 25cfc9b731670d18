/**
 * In Chromium, through the Vite harness: (1) export 1,000,000 quotations through the core
 * worker and record the longest main-thread task (PerformanceObserver 'longtask'), against the
 * same export run on the main thread; (2) filter 100,000 units through the worker, round-trip
 * median, against a plain Array.filter on the main thread.
 * Run: `npx tsx tests/bench/worker-longtask.bench.ts [rows] [units]`.
 */

import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, startHarnessServer } from '../e2e/harness/serve';
import { recordResult } from './support/results';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const UNITS = Number(process.argv[3] ?? 100_000);
const FILTER_RUNS = 41;

async function main(): Promise<void> {
  console.log(
    `Worker long-task bench: ${ROWS.toLocaleString('en')} quotations, ${UNITS.toLocaleString('en')} units, Chromium`,
  );
  const server = await startHarnessServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    page.setDefaultTimeout(600_000);
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(server.url);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
    const mode = await page.evaluate(() => window.coreHarness.mode());
    if (mode !== 'worker') throw new Error(`the client runs in ${mode} mode`);

    await page.evaluate((n) => window.coreHarness.loadUnits(n), UNITS);
    const filter = await page.evaluate((n) => window.coreHarness.filterTimings(n), FILTER_RUNS);

    const fromUrl = await page.evaluate((n) => window.coreHarness.exportFromUrl(n), ROWS);
    await page.evaluate((n) => window.coreHarness.makeRows(n), ROWS);
    const viaWorker = await page.evaluate(() => window.coreHarness.exportViaWorker());
    const onMain = await page.evaluate(() => window.coreHarness.exportOnMainThread());

    console.log('');
    console.log('| measure | through the worker | main-thread baseline | target | met |');
    console.log('|---|---:|---:|---|---|');
    console.log(
      `| export ${ROWS.toLocaleString('en')} rows held on the main thread (sent in slices): longest task | ${viaWorker.longest.toFixed(0)} ms (${viaWorker.longTaskCount} tasks > 50 ms) | ${onMain.longest.toFixed(0)} ms | no task > 50 ms | ${viaWorker.longest <= 50 ? 'yes' : 'NO'} |`,
    );
    console.log(
      `| same, rows fetched by the worker (exportQuoteReportFromUrl) | ${fromUrl.longest.toFixed(0)} ms (${fromUrl.longTaskCount} tasks > 50 ms) | ${onMain.longest.toFixed(0)} ms | no task > 50 ms | ${fromUrl.longest <= 50 ? 'yes' : 'NO'} |`,
    );
    console.log(
      `| export wall time (rows on main thread / fetched by worker) | ${viaWorker.ms.toFixed(0)} / ${fromUrl.ms.toFixed(0)} ms | ${onMain.ms.toFixed(0)} ms | — | — |`,
    );
    console.log(
      `| export size | ${(viaWorker.size / 1e6).toFixed(1)} MB | ${(onMain.size / 1e6).toFixed(1)} MB | equal | ${viaWorker.size === onMain.size ? 'yes' : 'NO'} |`,
    );
    console.log(
      `| filter ${UNITS.toLocaleString('en')} units: median round trip | ${filter.workerMedian.toFixed(1)} ms | ${filter.mainMedian.toFixed(1)} ms (Array.filter) | < 16 ms | ${filter.workerMedian < 16 ? 'yes' : 'NO'} |`,
    );
    const longest = (measure: string, value: number, count: number) =>
      recordResult({
        bench: 'worker-longtask',
        measure: `${measure}: main thread's longest task (${count} over 50 ms)`,
        value,
        unit: 'ms',
        baseline: { label: 'export on the main thread', value: onMain.longest },
        target: { text: 'no task > 50 ms', met: value <= 50 },
      });
    longest(
      `CSV export of ${ROWS.toLocaleString('en')} rows, sent in slices`,
      viaWorker.longest,
      viaWorker.longTaskCount,
    );
    longest('CSV export, rows fetched by the worker', fromUrl.longest, fromUrl.longTaskCount);
    recordResult({
      bench: 'worker-longtask',
      measure: `filter ${UNITS.toLocaleString('en')} units in the worker: median round trip`,
      value: filter.workerMedian,
      unit: 'ms',
      baseline: { label: 'Array.filter on the main thread', value: filter.mainMedian },
      target: { text: '< 16 ms', met: filter.workerMedian < 16 },
    });
    console.log(
      `\nLongest-task ratio, main thread / worker: ${(onMain.longest / Math.max(1, viaWorker.longest)).toFixed(1)}× (a worker figure of 0 means no long task at all; divided by 1 ms).`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
