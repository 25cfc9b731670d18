/**
 * Catalogue reads (issue 21) at the seed:large sizes x1, x10, x100 (248, 2,480 and 24,800 units
 * in `gran-torre`, `npm run seed:large -- --units N --quotations 0`, PGlite):
 *
 * - the development list and the clusters of `gran-torre` (whole, and its first page of 2
 *   clusters), answered by the app in process (`app.request`, signed in as an adviser): a repeat
 *   (ready JSON text of the revision), a revalidation (`If-None-Match` → 304) and a read right
 *   after a unit status change (the body built once for the new revision); bytes of each.
 *   Baseline, same run: a bare `SELECT` of the same rows (the corporate's developments and units;
 *   the development's clusters and units), read by the same driver.
 * - the availability page's time to interactive in Chromium (the built app, the grid painted with
 *   units, as tests/bench/availability.bench.ts measures it) at 248 and 24,800 units, against a
 *   bare static HTML page served by the same server in the same run. Targets: ≤ 3× bare at 248
 *   units, ≤ 6× at 24,800.
 *
 * Run: `npm run bench -- catalogue-reads` (or `npx tsx tests/bench/catalogue-reads.bench.ts`).
 * `BENCH_SCALES=1,10` picks sizes; the seeded stores live in `BENCH_STORE_DIR` (default
 * /tmp/h2-catalogue-x<scale>) and are reused when present; `BENCH_DIST=<dir>` uses an existing
 * build; `BENCH_ONLY_TTI=1` measures only the page. Prints figures; asserts nothing.
 */

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS } from '../../playwright.config';
import { createApp } from '../../src/server/app';
import { openRuntime } from '../../src/server/runtime';
import { signIn } from './support/browser';
import { recordResult } from './support/results';
import {
  DEMO_PASSWORD as PASSWORD,
  buildClient,
  median,
  seedLarge,
  spawnAppServer,
  stopProcess,
  waitForServer,
} from './support/server';

const SCALES = (process.env.BENCH_SCALES ?? '1,10,100').split(',').map(Number);
const STORE_DIR = process.env.BENCH_STORE_DIR ?? '/tmp';
const PORT = Number(process.env.BENCH_PORT ?? 44101);
const BASE = `http://127.0.0.1:${PORT}`;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE_PATH = '/corporativos/grupo-horizonte/desarrollos/gran-torre/disponibilidad';
const BARE_PATH = '/bench-bare.html';
const REPEATS = 30;
const CHANGES = 8;
const NAV_RUNS = 5;
const TTI_SCALES = new Set([1, 100]);

const storeOf = (scale: number) => join(STORE_DIR, `h2-catalogue-x${scale}`);

function seed(scale: number): string {
  const store = storeOf(scale);
  if (!existsSync(join(store, 'PG_VERSION'))) seedLarge(store, 248 * scale);
  return store;
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

interface ReadFigures {
  repeat: number;
  revalidate: number;
  afterChange: number;
  bytes: number;
  bare: number;
  bareBytes: number;
}

/** The reads in process, against a bare SELECT of the same rows. */
async function serverReads(scale: number, store: string) {
  const rt = await openRuntime({ dataDir: store });
  try {
    const app = createApp(rt.deps);
    const login = async (email: string) => {
      const res = await app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    };
    const asesor = await login('asesor@vitrina.demo');
    const admin = await login('admin@vitrina.demo');
    const get = (path: string, cookie: string, headers: Record<string, string> = {}) =>
      app.request(path, { headers: { cookie, ...headers } });
    const corp = (await (
      await get('/api/wsObtenerCorporativo?slug=grupo-horizonte', asesor)
    ).json()) as {
      id: string;
    };
    const dev = (await (
      await get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=gran-torre`, asesor)
    ).json()) as { id: string };
    const clustersUrl = `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`;
    const units = (
      (await (await get(clustersUrl, admin)).json()) as {
        unidades: { id: string; status?: string }[];
      }[]
    ).flatMap((c) => c.unidades);
    let flip = 0;
    // A unit status change (an administrator's), so the next read is the revision's first.
    const change = async () => {
      const u = units[flip++ % units.length]!;
      const from = u.status ?? 'Disponible';
      const to = from === 'Bloqueado' ? 'Disponible' : 'Bloqueado';
      const res = await app.request(`/api/corporativos/${corp.id}/unidades/${u.id}/status`, {
        method: 'PUT',
        headers: { cookie: admin, 'content-type': 'application/json' },
        body: JSON.stringify({ status: to, statusAnterior: from }),
      });
      if (res.status === 200) u.status = to;
    };

    const measureRead = async (url: string, bare: () => Promise<number>): Promise<ReadFigures> => {
      const first = await get(url, asesor);
      const text = await first.text();
      const etag = first.headers.get('etag') ?? '';
      const repeat: number[] = [];
      const revalidate: number[] = [];
      const afterChange: number[] = [];
      const bareTimes: number[] = [];
      let bareBytes = 0;
      for (let i = 0; i < REPEATS; i++) {
        repeat.push((await timed(async () => (await get(url, asesor)).text()))[0]);
        revalidate.push(
          (await timed(async () => (await get(url, asesor, { 'if-none-match': etag })).text()))[0],
        );
        const [t, bytes] = await timed(bare);
        bareTimes.push(t);
        bareBytes = bytes;
      }
      for (let i = 0; i < CHANGES; i++) {
        await change();
        afterChange.push((await timed(async () => (await get(url, asesor)).text()))[0]);
      }
      return {
        repeat: median(repeat),
        revalidate: median(revalidate),
        afterChange: median(afterChange),
        bytes: Buffer.byteLength(text),
        bare: median(bareTimes),
        bareBytes,
      };
    };
    const db = rt.deps.db;
    const bareList = async () => {
      const devs = await db.query<{ doc: string }>(
        'SELECT doc::text AS doc FROM rm_developments WHERE corporate_id = $1',
        [corp.id],
      );
      const unitRows = await db.query<{ s: string | null }>(
        "SELECT doc->>'status' AS s FROM rm_units WHERE corporate_id = $1",
        [corp.id],
      );
      return devs.rows.reduce((n, r) => n + r.doc.length, 0) + unitRows.rows.length;
    };
    const bareClusters = async () => {
      const cl = await db.query<{ doc: string }>(
        'SELECT doc::text AS doc FROM rm_clusters WHERE development_id = $1',
        [dev.id],
      );
      const us = await db.query<{ doc: string }>(
        'SELECT doc::text AS doc FROM rm_units WHERE development_id = $1',
        [dev.id],
      );
      return [...cl.rows, ...us.rows].reduce((n, r) => n + r.doc.length, 0);
    };
    const list = await measureRead(`/api/wsObtenerDesarrollos?idCorporativo=${corp.id}`, bareList);
    const clusters = await measureRead(clustersUrl, bareClusters);
    const pageIds = (
      (await (await get(`${clustersUrl}&limite=2`, asesor)).json()) as { id: string }[]
    ).map((c) => c.id);
    const barePage = async () => {
      const cl = await db.query<{ doc: string }>(
        'SELECT doc::text AS doc FROM rm_clusters WHERE id = ANY($1::text[])',
        [pageIds],
      );
      const us = await db.query<{ doc: string }>(
        'SELECT doc::text AS doc FROM rm_units WHERE development_id = $1 AND cluster_id = ANY($2::text[])',
        [dev.id, pageIds],
      );
      return [...cl.rows, ...us.rows].reduce((n, r) => n + r.doc.length, 0);
    };
    const page = await measureRead(`${clustersUrl}&limite=2`, barePage);
    const label = `x${scale} (${(248 * scale).toLocaleString('en')} units)`;
    for (const [name, f] of [
      ['development list', list],
      ['gran-torre clusters, whole', clusters],
      ['gran-torre clusters, first page (2 clusters)', page],
    ] as const) {
      const baseline = { label: 'bare SELECT of the same rows', value: f.bare };
      console.log(
        `${label} ${name}: repeat ${f.repeat.toFixed(2)} ms, 304 ${f.revalidate.toFixed(2)} ms, after a change ${f.afterChange.toFixed(2)} ms, ${f.bytes} B; bare SELECT ${f.bare.toFixed(2)} ms (${f.bareBytes} B)`,
      );
      recordResult({
        bench: 'catalogue-reads',
        measure: `${name}, ${label}, repeat (ready JSON), median`,
        value: f.repeat,
        unit: 'ms',
        baseline,
      });
      recordResult({
        bench: 'catalogue-reads',
        measure: `${name}, ${label}, If-None-Match → 304, median`,
        value: f.revalidate,
        unit: 'ms',
        baseline,
      });
      recordResult({
        bench: 'catalogue-reads',
        measure: `${name}, ${label}, first read after a unit change, median`,
        value: f.afterChange,
        unit: 'ms',
        baseline,
      });
      recordResult({
        bench: 'catalogue-reads',
        measure: `${name}, ${label}, body`,
        value: f.bytes,
        unit: 'B',
        baseline: { label: 'bare SELECT of the same rows (text)', value: f.bareBytes },
      });
    }
  } finally {
    await rt.close();
  }
}

/**
 * ms from navigation start until the grid shows every one of the development's `units` and a
 * frame is painted. The grid is ready once the clusters it has are drawn: with only the first
 * read in (the rest still on its way) it said so too, and one run in three at x100 ended there
 * (2.1 s against 5.4-5.7 s), so the count is waited for as well.
 */
async function availabilityInteractive(page: Page, units: number): Promise<number> {
  await page.goto(`${BASE}${PAGE_PATH}`, { waitUntil: 'commit' });
  await page.waitForFunction(
    (all) =>
      document.querySelector('[data-testid="availability-grid"]')?.getAttribute('data-ready') ===
        'true' && document.querySelectorAll('[data-unit-id]').length === all,
    units,
    { polling: 'raf', timeout: 120_000 },
  );
  return paintedAt(page);
}

/** ms from navigation start until the bare page has loaded and a frame is painted. */
async function bareInteractive(page: Page): Promise<number> {
  await page.goto(`${BASE}${BARE_PATH}`, { waitUntil: 'load' });
  return paintedAt(page);
}

const paintedAt = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<number>((r) =>
        requestAnimationFrame(() => setTimeout(() => r(performance.now()), 0)),
      ),
  );

async function timeToInteractive(scale: number, store: string, distDir: string) {
  const server = spawnAppServer(store, distDir, PORT);
  let browser: Browser | undefined;
  try {
    await waitForServer(server, BASE);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const units = 248 * scale;
    const tti: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < NAV_RUNS; i++) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      await context.addInitScript('window.__name = (f) => f');
      await signIn(context, BASE);
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error('page error:', e.message));
      bare.push(await bareInteractive(page));
      try {
        tti.push(await availabilityInteractive(page, units));
      } catch (error) {
        await page.screenshot({ path: join(tmpdir(), `h2-catalogue-tti-x${scale}.png`) });
        throw error;
      }
      await context.close();
    }
    const target = scale <= 1 ? 3 : 6;
    const ratio = median(tti) / median(bare);
    console.log(
      `x${scale} availability time to interactive: ${median(tti).toFixed(0)} ms; bare static page ${median(bare).toFixed(0)} ms (${ratio.toFixed(1)}×, target ≤ ${target}×)`,
    );
    recordResult({
      bench: 'catalogue-reads',
      measure: `availability page time to interactive, ${units.toLocaleString('en')} units, median`,
      value: median(tti),
      unit: 'ms',
      baseline: { label: 'bare static page, same server', value: median(bare) },
      target: { text: `≤ ${target}× bare`, met: ratio <= target },
    });
  } finally {
    await browser?.close();
    await stopProcess(server);
  }
}

async function main() {
  console.log(`Catalogue reads bench: sizes ${SCALES.map((s) => `x${s}`).join(', ')}`);
  const tmp = mkdtempSync(join(tmpdir(), 'vitrina-bench-catalogue-'));
  const distDir = process.env.BENCH_DIST ?? join(tmp, 'dist');
  try {
    if (!process.env.BENCH_DIST) buildClient(distDir);
    // The bare page: static HTML of the same server, no script.
    writeFileSync(
      join(distDir, BARE_PATH.slice(1)),
      '<!doctype html><html lang="es"><meta charset="utf-8"><title>bare</title><p>Disponibilidad</p></html>',
    );
    for (const scale of SCALES) {
      const store = seed(scale);
      if (!process.env.BENCH_ONLY_TTI) await serverReads(scale, store);
      if (TTI_SCALES.has(scale)) await timeToInteractive(scale, store, distDir);
    }
  } finally {
    if (process.env.BENCH_DIST) rmSync(join(distDir, BARE_PATH.slice(1)), { force: true });
    rmSync(tmp, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
