/**
 * Browser harness for the core worker: the Chromium spec and the long-task bench drive it
 * through `window.coreHarness`. Served by a Vite dev server rooted at the repository.
 */

import { emptyUnitFilters, filterUnitIndexes, unitMatchesFilters } from '../../../src/core/filters';
import type { FilterContext, UnitFilters } from '../../../src/core/filters';
import { planQuoteReport, quoteReportChunks } from '../../../src/core/quote-report';
import type { QuoteReportOptions, QuoteReportRow } from '../../../src/core/quote-report';
import { defaultStatusColors } from '../../../src/core/status';
import type { Unit } from '../../../src/core/types';
import { CoreClient } from '../../../src/workers/core-client';
import { makeQuoteRows } from '../../fixtures/quote-rows';
import { makeUnits } from '../../fixtures/units';

const ctx: FilterContext = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
const reportOptions: QuoteReportOptions = {
  language: 'es',
  viewer: { id: 'admin', isAdmin: true },
  hidePrototypeName: false,
  timeZone: 'America/Mexico_City',
};
const client = new CoreClient({ idleMs: 600_000 });

let units: Unit[] = [];
let rows: QuoteReportRow[] = [];
const longTasks: { start: number; duration: number }[] = [];

new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });

/** Filters that vary from call to call, so nothing is cached. */
function filtersFor(i: number): UnitFilters {
  return {
    ...emptyUnitFilters(),
    recamaras: [1 + (i % 4)],
    precioMin: 1_000_000 + (i % 10) * 100_000,
    precioMax: 9_000_000,
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** Longest long task (ms) that started within [from, to]; 0 when there was none. */
function longestTask(from: number, to: number): { longest: number; count: number } {
  const inWindow = longTasks.filter((t) => t.start >= from && t.start <= to);
  return { longest: Math.max(0, ...inWindow.map((t) => t.duration)), count: inWindow.length };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

const harness = {
  mode: () => client.mode,

  /** Makes `count` units and loads them into the worker. */
  async loadUnits(count: number): Promise<number> {
    units = makeUnits(count, 11);
    return client.loadUnits('dev', units);
  },

  /** Filters through the worker and directly; returns both index lists' summaries. */
  async filterBoth(recamaras: number[]): Promise<{ worker: number[]; direct: number[] }> {
    const filters = { ...emptyUnitFilters(), recamaras };
    const ids = await client.filterUnitIds('dev', filters, ctx);
    return {
      worker: Array.from(ids),
      direct: Array.from(filterUnitIndexes(units, filters, ctx)),
    };
  },

  /** Round-trip median (ms) of worker filtering vs plain Array.filter on this thread. */
  async filterTimings(runs: number): Promise<{ workerMedian: number; mainMedian: number }> {
    const worker: number[] = [];
    const main: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await client.filterUnitIds('dev', filtersFor(i), ctx);
      worker.push(performance.now() - t0);
      const t1 = performance.now();
      const f = filtersFor(i);
      units.filter((u) => unitMatchesFilters(u, f, ctx));
      main.push(performance.now() - t1);
      await nextFrame();
    }
    return { workerMedian: median(worker), mainMedian: median(main) };
  },

  /** Makes `count` quotation rows on this thread (before any measurement). */
  makeRows(count: number): number {
    rows = makeQuoteRows(count, 42);
    return rows.length;
  },

  /** Exports the rows through the worker; returns the Blob's first line and summary. */
  async exportViaWorker(): Promise<{
    ms: number;
    fileName: string;
    rowCount: number;
    size: number;
    head: string;
    lines: number;
    progressCalls: number;
    longest: number;
    longTaskCount: number;
  }> {
    await nextFrame();
    let progressCalls = 0;
    const t0 = performance.now();
    const out = await client.exportQuoteReport(rows, reportOptions, new Date(), {
      onProgress: () => progressCalls++,
    });
    const t1 = performance.now();
    await nextFrame();
    if (out.kind !== 'report') throw new Error('expected a report');
    const tasks = longestTask(t0, t1);
    const head = await out.blob.slice(0, 400).arrayBuffer();
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(head);
    let lines = 0;
    if (out.rowCount <= 100_000) {
      const all = await out.blob.text();
      lines = all.split('\r\n').length - 1;
    }
    return {
      ms: t1 - t0,
      fileName: out.fileName,
      rowCount: out.rowCount,
      size: out.blob.size,
      head: text,
      lines,
      progressCalls,
      longest: tasks.longest,
      longTaskCount: tasks.count,
    };
  },

  /**
   * The recommended path for huge reports: the worker fetches the rows itself (here from the
   * harness endpoint standing in for the server), so they never exist on this thread.
   */
  async exportFromUrl(count: number): Promise<{
    ms: number;
    rowCount: number;
    size: number;
    longest: number;
    longTaskCount: number;
  }> {
    await nextFrame();
    const t0 = performance.now();
    const out = await client.exportQuoteReportFromUrl(
      `/__harness/quote-rows.json?n=${count}&seed=42`,
      reportOptions,
      new Date(),
    );
    const t1 = performance.now();
    await nextFrame();
    if (out.kind !== 'report') throw new Error('expected a report');
    const tasks = longestTask(t0, t1);
    return {
      ms: t1 - t0,
      rowCount: out.rowCount,
      size: out.blob.size,
      longest: tasks.longest,
      longTaskCount: tasks.count,
    };
  },

  /** Drops the rows held on this thread. */
  dropRows(): void {
    rows = [];
  },

  /** The same export run synchronously on this thread (the baseline). */
  async exportOnMainThread(): Promise<{ ms: number; size: number; longest: number }> {
    await nextFrame();
    const t0 = performance.now();
    const plan = planQuoteReport(rows, reportOptions);
    if (plan.kind !== 'plan') throw new Error('expected a plan');
    const parts: Blob[] = [];
    for (const c of quoteReportChunks(plan, reportOptions)) {
      parts.push(new Blob([c.bytes as Uint8Array<ArrayBuffer>]));
    }
    const blob = new Blob(parts, { type: 'text/csv;charset=utf-8' });
    const t1 = performance.now();
    await nextFrame();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { ms: t1 - t0, size: blob.size, longest: longestTask(t0 - 1, t1).longest };
  },
};

declare global {
  interface Window {
    coreHarness: typeof harness;
  }
}

window.coreHarness = harness;
document.getElementById('status')!.textContent = 'ready';
