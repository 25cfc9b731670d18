/**
 * The domain core as the worker exposes it. Kept apart from `core.worker.ts` so the client can
 * run the very same functions on the main thread where no Worker exists.
 */

import { releaseProxy, transfer } from 'comlink';
import { filterUnitIndexes, priceFrom, rentPrice } from '../core/filters';
import type { FilterContext, UnitFilters } from '../core/filters';
import { parseChatQuestion, type ChatQuery, type ChatQueryContext } from '../core/chat-query';
import { quote, validateScheme } from '../core/pricing';
import type { Quote, QuoteInput } from '../core/pricing';
import {
  planQuoteReport,
  planStreamedQuoteReport,
  QuoteReportPageWriter,
  quoteReportChunks,
  reportFileName,
} from '../core/quote-report';
import type {
  NoQuotesThisWeek,
  QuoteReportOptions,
  QuoteReportRow,
  QuoteReportSummary,
  ReportProgress,
} from '../core/quote-report';
import type { PaymentScheme, Showroom, StatusColors, Unit } from '../core/types';
import { checkInCandidate, type CheckInCandidate } from '../core/check-in';
import {
  checkInHistoryCsv,
  checkInHistoryFileName,
  type CheckInHistoryLabels,
  type CheckInHistoryRow,
} from '../core/check-in-history';
import type { DevicePosition } from '../core/geo';
import {
  buildChatUnitFigures,
  buildDevelopmentFigures,
  buildDisplayRows,
  type ChatUnitFigures,
  type ChatUnitFiguresInput,
  type DevelopmentFigures,
  type DevelopmentFiguresInput,
} from '../core/display-rows';
import type { Display } from '../core/display';

/** A finished quote report: a Blob ready for download (the text never crosses as a string). */
export interface QuoteReportBlob {
  kind: 'report';
  fileName: string;
  blob: Blob;
  rowCount: number;
  byteLength: number;
}

/** A check-in history export: a Blob ready for download and its file name. */
export interface CheckInHistoryBlob {
  fileName: string;
  blob: Blob;
}

/** Called between chunks of a report build. */
export type ProgressCallback = (progress: ReportProgress) => unknown;

/** Plain-data outcome of {@link CoreApiImpl.validateScheme} (class instances do not clone). */
export type SchemeCheck = { ok: true } | { ok: false; code: string; message: string };

/** How a report build behaves where it runs. */
export interface ReportHooks {
  /** Yield to the event loop between chunks (on the main thread, so the page stays live). */
  yieldBetweenChunks: boolean;
  /** Stops the build between chunks (only usable where the signal lives, i.e. direct calls). */
  signal?: AbortSignal;
}

/** Rows per chunk when building a report. */
export const REPORT_CHUNK_ROWS = 16_384;

function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

const yieldToEventLoop = (): Promise<void> =>
  new Promise((resolve) => {
    // A MessageChannel task runs sooner than setTimeout(0), which browsers clamp to 4 ms.
    if (typeof MessageChannel === 'undefined') {
      setTimeout(resolve, 0);
      return;
    }
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });

function notify(onProgress: ProgressCallback | undefined, progress: ReportProgress): void {
  if (onProgress === undefined) return;
  // Through Comlink the callback returns a promise; progress is fire-and-forget.
  void Promise.resolve(onProgress(progress)).catch(() => undefined);
}

/**
 * Builds the quote report chunk by chunk into a Blob, reporting progress after each chunk.
 */
export async function buildQuoteReportBlob(
  rows: readonly QuoteReportRow[],
  options: QuoteReportOptions,
  now: Date,
  onProgress: ProgressCallback | undefined,
  hooks: ReportHooks,
): Promise<QuoteReportBlob | NoQuotesThisWeek> {
  const plan = planQuoteReport(rows, options);
  if (plan.kind === 'no_quotes_this_week') return plan;
  // One Blob per chunk: it copies the chunk out of the writer's reused buffer, and the final
  // Blob references the parts without copying them again.
  const parts: Blob[] = [];
  let byteLength = 0;
  for (const chunk of quoteReportChunks(plan, options, REPORT_CHUNK_ROWS)) {
    parts.push(new Blob([chunk.bytes as Uint8Array<ArrayBuffer>]));
    byteLength += chunk.bytes.length;
    notify(onProgress, chunk.progress);
    if (isAborted(hooks.signal)) throw abortError();
    if (hooks.yieldBetweenChunks) {
      await yieldToEventLoop();
      if (isAborted(hooks.signal)) throw abortError();
    }
  }
  return {
    kind: 'report',
    fileName: reportFileName(now, options.timeZone),
    blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }),
    rowCount: plan.rows.length,
    byteLength,
  };
}

/**
 * The lines of an NDJSON body as they arrive. A line may span many network chunks (a page of
 * the report is megabytes): only each new chunk is searched for the line end, and the pieces of
 * a line are joined once it is complete.
 */
export async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: string[] = [];
  try {
    for (;;) {
      const { done, value: bytes } = await reader.read();
      if (done) break;
      const value = decoder.decode(bytes, { stream: true });
      let from = 0;
      for (let end = value.indexOf('\n'); end !== -1; end = value.indexOf('\n', from)) {
        pending.push(value.slice(from, end));
        const line = pending.join('');
        pending = [];
        if (line.length > 0) yield line;
        from = end + 1;
      }
      if (from < value.length) pending.push(value.slice(from));
    }
    const last = pending.join('') + decoder.decode();
    if (last.length > 0) yield last;
  } finally {
    // Stopped early (no rows, aborted, failed): the rest of the body is not read.
    reader.cancel().catch(() => undefined);
  }
}

/**
 * Builds the quote report from the streamed weekly report (NDJSON: a
 * {@link QuoteReportSummary} line, then one JSON array of rows per page), writing each page into
 * the CSV as it arrives, so the week is never whole in memory as rows; progress per page.
 */
export async function buildQuoteReportFromLines(
  lines: AsyncIterable<string>,
  options: QuoteReportOptions,
  now: Date,
  onProgress: ProgressCallback | undefined,
  hooks: ReportHooks,
): Promise<QuoteReportBlob | NoQuotesThisWeek> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const summary: QuoteReportSummary = first.done
    ? { total: 0, escrituracion: false, divisa: false }
    : (JSON.parse(first.value) as QuoteReportSummary);
  const plan = planStreamedQuoteReport(summary, options);
  if (plan.kind === 'no_quotes_this_week') {
    await iterator.return?.();
    return plan;
  }
  const writer = new QuoteReportPageWriter(plan, options);
  const header = writer.header();
  const parts: Blob[] = [new Blob([header as Uint8Array<ArrayBuffer>])];
  let byteLength = header.length;
  let rowCount = 0;
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const page = writer.page(JSON.parse(next.value) as QuoteReportRow[]);
      parts.push(new Blob([page.bytes as Uint8Array<ArrayBuffer>]));
      byteLength += page.bytes.length;
      rowCount += page.rows;
      notify(onProgress, { rowsDone: rowCount, rowsTotal: Math.max(summary.total, rowCount) });
      if (isAborted(hooks.signal)) throw abortError();
      if (hooks.yieldBetweenChunks) {
        await yieldToEventLoop();
        if (isAborted(hooks.signal)) throw abortError();
      }
    }
  } finally {
    await iterator.return?.();
  }
  if (rowCount === 0) return { kind: 'no_quotes_this_week' };
  return {
    kind: 'report',
    fileName: reportFileName(now, options.timeZone),
    blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }),
    rowCount,
    byteLength,
  };
}

function releaseIfProxy(callback: unknown): void {
  // A Comlink proxy of a callback holds a MessagePort open until released.
  const release = (callback as Record<symbol, unknown> | undefined)?.[releaseProxy];
  if (typeof release === 'function') (release as () => void).call(callback);
}

/**
 * Creates the API: the state it keeps (loaded unit sets, staged report rows) lives in the
 * closure, so the worker and a direct fallback each have their own.
 */
export function createCoreApi(hooks: Omit<ReportHooks, 'signal'> = { yieldBetweenChunks: false }) {
  const unitSets = new Map<string, Unit[]>();
  const staged = new Map<string, QuoteReportRow[]>();

  const api = {
    /** Liveness check. */
    ping(): 'pong' {
      return 'pong';
    },

    /**
     * Stores a development's units under `key` (replacing them, or appending when `append`),
     * so filtering does not send them again. Returns how many units the key now holds.
     */
    loadUnits(key: string, units: Unit[], append = false): number {
      const current = append ? unitSets.get(key) : undefined;
      if (current === undefined) unitSets.set(key, units);
      else for (const u of units) current.push(u);
      return unitSets.get(key)?.length ?? 0;
    },

    /** Forgets the units under `key`. */
    unloadUnits(key: string): boolean {
      return unitSets.delete(key);
    },

    /** How many units `key` holds (0 when unknown). */
    unitCount(key: string): number {
      return unitSets.get(key)?.length ?? 0;
    },

    /**
     * Indexes (in load order) of the units under `key` that pass the filters, as a Uint32Array
     * whose buffer is transferred, not copied. Throws when the key is not loaded.
     */
    filterUnitIds(key: string, filters: UnitFilters, ctx: FilterContext): Uint32Array {
      const units = unitSets.get(key);
      if (units === undefined) throw new Error(`no units loaded under '${key}'`);
      const ids = filterUnitIndexes(units, filters, ctx);
      return transfer(ids, [ids.buffer]);
    },

    /**
     * The display rows of the units under `key` (core/display-rows.ts): status colour and label,
     * quotable, visible price in the chosen currency, areas in the chosen unit, rent, and the
     * development's price from and rent, in one pass. Throws when the key is not loaded.
     *
     * Answered as JSON text: thousands of small row objects cost the main thread tens of
     * milliseconds to structured-clone on arrival (one task), a string arrives as one copy and
     * `JSON.parse` rebuilds the rows in about a millisecond.
     */
    displayRowsText(
      key: string,
      colors: StatusColors,
      display: Display,
      developmentCurrency?: string | null,
    ): string {
      const units = unitSets.get(key);
      if (units === undefined) throw new Error(`no units loaded under '${key}'`);
      return JSON.stringify(buildDisplayRows(units, colors, display, developmentCurrency));
    },

    /** The developments' cards' figures (core/display-rows.ts {@link buildDevelopmentFigures}). */
    developmentFigures(
      items: DevelopmentFiguresInput[],
      colors: StatusColors,
      display: Display,
    ): DevelopmentFigures[] {
      return buildDevelopmentFigures(items, colors, display);
    },

    /** The chat assistant's unit cards' figures ({@link buildChatUnitFigures}). */
    chatUnitFigures(units: ChatUnitFiguresInput[], display: Display): ChatUnitFigures[] {
      return buildChatUnitFigures(units, display);
    },

    /** {@link priceFrom} over the units under `key`. */
    priceFrom(key: string, statusColors: StatusColors): number | undefined {
      return priceFrom(unitSets.get(key) ?? [], statusColors);
    },

    /** {@link rentPrice} over the units under `key`. */
    rentPrice(key: string): number | undefined {
      return rentPrice(unitSets.get(key) ?? []);
    },

    /** What the chat assistant understands of a question (core/chat-query.ts). */
    parseChatQuestion(question: string, ctx: ChatQueryContext): ChatQuery {
      return parseChatQuestion(question, ctx);
    },

    /** Prices a quotation ({@link quote}); an invalid scheme rejects with its message. */
    quote(input: QuoteInput): Quote {
      return quote(input);
    },

    /** {@link validateScheme} as plain data. */
    validateScheme(scheme: PaymentScheme): SchemeCheck {
      const v = validateScheme(scheme);
      return v.ok ? v : { ok: false, code: v.error.code, message: v.error.message };
    },

    /**
     * Which of the showrooms the position is within, or how far the nearest active one is
     * (core/check-in.ts {@link checkInCandidate}: the rule the server applies again).
     */
    checkInCandidate(showrooms: Showroom[], position: DevicePosition): CheckInCandidate<Showroom> {
      return checkInCandidate(showrooms, position);
    },

    /** A showroom's check-ins of a day as a CSV file (the quote report's CSV rules). */
    checkInHistoryCsv(
      rows: CheckInHistoryRow[],
      labels: CheckInHistoryLabels,
      timeZone: string,
      showroomName: string,
      day: string,
    ): CheckInHistoryBlob {
      return {
        fileName: checkInHistoryFileName(showroomName, day),
        blob: new Blob([checkInHistoryCsv(rows, labels, timeZone)], {
          type: 'text/csv;charset=utf-8',
        }),
      };
    },

    /** Adds rows to a report being staged under `jobId` (large reports arrive in parts). */
    stageQuoteRows(jobId: string, rows: QuoteReportRow[]): number {
      const current = staged.get(jobId);
      if (current === undefined) staged.set(jobId, rows);
      else for (const r of rows) current.push(r);
      return staged.get(jobId)?.length ?? 0;
    },

    /** Drops the rows staged under `jobId`. */
    discardStagedRows(jobId: string): boolean {
      return staged.delete(jobId);
    },

    /** Builds the report from `rows` in chunks, reporting progress; see {@link buildQuoteReportBlob}. */
    async buildQuoteReport(
      rows: QuoteReportRow[],
      options: QuoteReportOptions,
      now: Date,
      onProgress?: ProgressCallback,
    ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
      try {
        return await buildQuoteReportBlob(rows, options, now, onProgress, hooks);
      } finally {
        releaseIfProxy(onProgress);
      }
    },

    /** Builds the report from the rows staged under `jobId`, then drops them. */
    async buildStagedQuoteReport(
      jobId: string,
      options: QuoteReportOptions,
      now: Date,
      onProgress?: ProgressCallback,
    ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
      const rows = staged.get(jobId) ?? [];
      staged.delete(jobId);
      return api.buildQuoteReport(rows, options, now, onProgress);
    },

    /**
     * Fetches the rows (a JSON array of {@link QuoteReportRow}) from `url` inside the worker,
     * so a huge response is neither parsed nor copied on the main thread, then builds the report.
     */
    async buildQuoteReportFromUrl(
      url: string,
      options: QuoteReportOptions,
      now: Date,
      onProgress?: ProgressCallback,
    ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`quote rows request failed with status ${response.status}`);
      const rows = (await response.json()) as QuoteReportRow[];
      return api.buildQuoteReport(rows, options, now, onProgress);
    },

    /**
     * Fetches the streamed weekly report (NDJSON, `/api/cotizaciones/reporte-semanal`) inside
     * the worker and writes each page into the CSV as it arrives
     * ({@link buildQuoteReportFromLines}).
     */
    async buildQuoteReportFromStream(
      url: string,
      options: QuoteReportOptions,
      now: Date,
      onProgress?: ProgressCallback,
      signal?: AbortSignal,
    ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
      try {
        const response = await fetch(url, {
          credentials: 'same-origin',
          ...(signal === undefined ? {} : { signal }),
        });
        if (!response.ok || !response.body) {
          throw new Error(`quote rows request failed with status ${response.status}`);
        }
        return await buildQuoteReportFromLines(
          ndjsonLines(response.body),
          options,
          now,
          onProgress,
          { ...hooks, ...(signal === undefined ? {} : { signal }) },
        );
      } finally {
        releaseIfProxy(onProgress);
      }
    },
  };
  return api;
}

/** The API object {@link createCoreApi} returns. */
export type CoreApiImpl = ReturnType<typeof createCoreApi>;
