/**
 * The typed client of the core worker: starts it lazily, shuts it down when idle, cancels
 * with an AbortSignal, and runs the core on the main thread where no Worker exists.
 */

import { proxy, wrap } from 'comlink';
import type { Remote } from 'comlink';
import type { FilterContext, UnitFilters } from '../core/filters';
import type { Quote, QuoteInput } from '../core/pricing';
import type {
  NoQuotesThisWeek,
  QuoteReportOptions,
  QuoteReportRow,
  ReportProgress,
} from '../core/quote-report';
import type { PaymentScheme, Showroom, StatusColors, Unit } from '../core/types';
import type { Display } from '../core/display';
import type {
  ChatUnitFigures,
  ChatUnitFiguresInput,
  DevelopmentFigures,
  DevelopmentFiguresInput,
  DisplayRows,
} from '../core/display-rows';
import type { CheckInCandidate } from '../core/check-in';
import type { CheckInHistoryLabels, CheckInHistoryRow } from '../core/check-in-history';
import type { DevicePosition } from '../core/geo';
import type { ChatQuery, ChatQueryContext } from '../core/chat-query';
import type { CheckInHistoryBlob, CoreApiImpl, QuoteReportBlob, SchemeCheck } from './core-api';
import type { CoreApi } from './core.worker';

export type { CheckInHistoryBlob, QuoteReportBlob, SchemeCheck } from './core-api';

/** Options of a client call. */
export interface CallOptions {
  /** Aborting rejects the call with an `AbortError` DOMException. */
  signal?: AbortSignal;
}

/** Options of a report export. */
export interface ExportOptions extends CallOptions {
  onProgress?: (progress: ReportProgress) => void;
}

/** How the client is set up. */
export interface CoreClientOptions {
  /** Terminate the worker after this long without calls (ms). Default 30 s. */
  idleMs?: number;
  /** Makes the worker; default the module worker next to this file. */
  createWorker?: () => Worker;
  /** Run on the main thread even if `Worker` exists. */
  forceDirect?: boolean;
  /**
   * Rows (or units) per message when sending large arrays to the worker. Default: adaptive,
   * sized so that serialising one message takes about 8 ms of main-thread time.
   */
  transferChunk?: number;
}

/** The client's backend: the worker through Comlink, or the core called directly. */
export type CoreClientMode = 'worker' | 'direct';

type Api = Remote<CoreApi>;

interface InFlight {
  long: boolean;
  rerun: () => void;
}

const DEFAULT_IDLE_MS = 30_000;
/** First slice size when adapting; then sized to the measured cost of serialising. */
const INITIAL_SLICE = 1_000;
const MIN_SLICE = 100;
const MAX_SLICE = 50_000;
/** Main-thread time one message may spend in structured clone (well under a 50 ms task). */
const SLICE_BUDGET_MS = 8;

function abortError(): DOMException {
  return new DOMException('The operation was aborted.', 'AbortError');
}

function defaultWorker(): Worker {
  return new Worker(new URL('./core.worker.ts', import.meta.url), { type: 'module' });
}

/**
 * A client of the core worker. Every method returns a promise and accepts an AbortSignal.
 * Unit sets given to {@link CoreClient.loadUnits} are remembered so they can be sent again to
 * a restarted worker (after idle shutdown or a cancelled long job).
 */
export class CoreClient {
  readonly mode: CoreClientMode;
  private readonly idleMs: number;
  private readonly createWorker: () => Worker;
  private readonly transferChunk: number | undefined;
  private worker: Worker | undefined;
  private remote: Api | undefined;
  private direct: Promise<CoreApiImpl> | undefined;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly inFlight = new Set<InFlight>();
  private readonly datasets = new Map<string, Unit[]>();
  /** The array each key was loaded from (by identity: {@link holds}). */
  private readonly sources = new Map<string, readonly Unit[]>();
  private readonly loaded = new Map<string, Promise<void>>();
  private jobCounter = 0;
  private generation = 0;

  constructor(options: CoreClientOptions = {}) {
    this.idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
    this.createWorker = options.createWorker ?? defaultWorker;
    this.transferChunk =
      options.transferChunk === undefined ? undefined : Math.max(1, options.transferChunk);
    this.mode =
      options.forceDirect === true ||
      (options.createWorker === undefined && typeof Worker === 'undefined')
        ? 'direct'
        : 'worker';
  }

  /** Whether a worker is running now. */
  get running(): boolean {
    return this.worker !== undefined;
  }

  /**
   * Starts the worker ahead of its first call (its script loads and runs meanwhile), for a page
   * that knows it will need it once its data arrives; stopped again after the idle time if no
   * call comes. Nothing to start on the main thread.
   */
  warm(): void {
    if (this.mode !== 'worker' || this.worker !== undefined) return;
    void this.api().then(() => this.scheduleIdle());
  }

  /** Stops the worker now (it restarts on the next call). Calls in flight are re-run. */
  terminate(): void {
    this.stopWorker();
    for (const call of [...this.inFlight]) call.rerun();
  }

  /**
   * Keeps a development's units under `key` in the worker, sent in parts so the main thread
   * never serialises them in one long task. Resolves with the number of units.
   */
  async loadUnits(key: string, units: readonly Unit[], options: CallOptions = {}): Promise<number> {
    const copy = units.slice();
    this.datasets.set(key, copy);
    this.sources.set(key, units);
    this.loaded.delete(key);
    await this.ensureLoaded(key, options.signal);
    return copy.length;
  }

  /** Forgets the units under `key`, here and in the worker. */
  async unloadUnits(key: string): Promise<void> {
    this.datasets.delete(key);
    this.sources.delete(key);
    const wasLoaded = this.loaded.delete(key);
    if (wasLoaded && (this.mode === 'direct' || this.remote !== undefined)) {
      await this.call(false, undefined, (api) => api.unloadUnits(key));
    }
  }

  /**
   * Indexes (into the array given to {@link loadUnits}) of the units passing the filters.
   */
  async filterUnitIds(
    key: string,
    filters: UnitFilters,
    ctx: FilterContext,
    options: CallOptions = {},
  ): Promise<Uint32Array> {
    if (!this.datasets.has(key)) throw new Error(`no units loaded under '${key}'`);
    return this.call(false, options.signal, async (api) => {
      await this.ensureLoaded(key, options.signal);
      return api.filterUnitIds(key, filters, ctx);
    });
  }

  /** The units passing the filters (resolved from the ids the worker returns). */
  async filterUnits(
    key: string,
    filters: UnitFilters,
    ctx: FilterContext,
    options: CallOptions = {},
  ): Promise<Unit[]> {
    const ids = await this.filterUnitIds(key, filters, ctx, options);
    const units = this.datasets.get(key) ?? [];
    return Array.from(ids, (i) => units[i]!);
  }

  /**
   * The display rows of the units loaded under `key` (core/display-rows.ts), built in the worker
   * in one pass; called when the units load and again when the display settings change.
   */
  async displayRows(
    key: string,
    colors: StatusColors,
    display: Display,
    developmentCurrency?: string | null,
    options: CallOptions = {},
  ): Promise<DisplayRows> {
    if (!this.datasets.has(key)) throw new Error(`no units loaded under '${key}'`);
    const rows = await this.call(false, options.signal, async (api) => {
      await this.ensureLoaded(key, options.signal);
      return api.displayRowsText(key, colors, display, developmentCurrency ?? null);
    });
    this.displayRowCalls++;
    return JSON.parse(rows) as DisplayRows;
  }

  /** The developments' cards' figures, built in the worker (core/display-rows.ts). */
  developmentFigures(
    items: readonly DevelopmentFiguresInput[],
    colors: StatusColors,
    display: Display,
    options: CallOptions = {},
  ): Promise<DevelopmentFigures[]> {
    return this.call<DevelopmentFigures[]>(false, options.signal, (api) =>
      api.developmentFigures([...items], colors, display),
    );
  }

  /** The chat assistant's unit cards' figures, built in the worker. */
  chatUnitFigures(
    units: readonly ChatUnitFiguresInput[],
    display: Display,
    options: CallOptions = {},
  ): Promise<ChatUnitFigures[]> {
    return this.call<ChatUnitFigures[]>(false, options.signal, (api) =>
      api.chatUnitFigures([...units], display),
    );
  }

  /** How many display-row builds the client has answered (a test reads it from the page). */
  displayRowCalls = 0;

  /** Whether `units` (the same array) is what `key` holds, so loading it again can be skipped. */
  holds(key: string, units: readonly Unit[]): boolean {
    return this.sources.get(key) === units;
  }

  /** Prices a quotation in the worker. */
  quote(input: QuoteInput, options: CallOptions = {}): Promise<Quote> {
    return this.call(false, options.signal, (api) => api.quote(input));
  }

  /** Which showroom a position is within, in the worker (core/check-in.ts checkInCandidate). */
  checkInCandidate(
    showrooms: readonly Showroom[],
    position: DevicePosition,
    options: CallOptions = {},
  ): Promise<CheckInCandidate<Showroom>> {
    return this.call<CheckInCandidate<Showroom>>(false, options.signal, (api) =>
      api.checkInCandidate([...showrooms], position),
    );
  }

  /** A showroom's check-in history of a day as a CSV Blob, built in the worker. */
  checkInHistoryCsv(
    rows: readonly CheckInHistoryRow[],
    labels: CheckInHistoryLabels,
    timeZone: string,
    showroomName: string,
    day: string,
    options: CallOptions = {},
  ): Promise<CheckInHistoryBlob> {
    return this.call<CheckInHistoryBlob>(false, options.signal, (api) =>
      api.checkInHistoryCsv([...rows], labels, timeZone, showroomName, day),
    );
  }

  /** What the chat assistant understands of a question, read in the worker. */
  parseChatQuestion(
    question: string,
    ctx: ChatQueryContext,
    options: CallOptions = {},
  ): Promise<ChatQuery> {
    return this.call<ChatQuery>(false, options.signal, (api) =>
      api.parseChatQuestion(question, ctx),
    );
  }

  /** Checks a payment scheme in the worker. */
  validateScheme(scheme: PaymentScheme, options: CallOptions = {}): Promise<SchemeCheck> {
    return this.call<SchemeCheck>(false, options.signal, (api) => api.validateScheme(scheme));
  }

  /**
   * Builds the quote report in the worker and resolves with a Blob (or the
   * `no_quotes_this_week` outcome). The rows are sent in parts; progress is reported per
   * chunk. Aborting rejects at once and restarts the worker, dropping the job.
   */
  exportQuoteReport(
    rows: readonly QuoteReportRow[],
    reportOptions: QuoteReportOptions,
    now: Date,
    options: ExportOptions = {},
  ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
    const { signal, onProgress } = options;
    if (this.mode === 'direct') {
      return this.call(true, signal, async () => {
        const { buildQuoteReportBlob } = await import('./core-api');
        return buildQuoteReportBlob(rows, reportOptions, now, onProgress, {
          yieldBetweenChunks: true,
          ...(signal === undefined ? {} : { signal }),
        });
      });
    }
    return this.call(true, signal, async (api) => {
      const jobId = `job-${++this.jobCounter}`;
      await this.sendInSlices(rows, (slice) => api.stageQuoteRows(jobId, slice), signal);
      return api.buildStagedQuoteReport(jobId, reportOptions, now, this.progress(onProgress));
    });
  }

  /**
   * Like {@link exportQuoteReport}, but the worker fetches the rows (a JSON array) from `url`
   * itself, so a huge response never touches the main thread.
   */
  exportQuoteReportFromUrl(
    url: string,
    reportOptions: QuoteReportOptions,
    now: Date,
    options: ExportOptions = {},
  ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
    return this.call<QuoteReportBlob | NoQuotesThisWeek>(true, options.signal, (api) =>
      api.buildQuoteReportFromUrl(url, reportOptions, now, this.progress(options.onProgress)),
    );
  }

  /**
   * The streamed weekly report (NDJSON) from `url`, fetched and written into the CSV page by
   * page in the worker as the pages arrive (core-api.ts `buildQuoteReportFromStream`): the rows
   * never reach the main thread, and no whole week is held as rows anywhere. Aborting restarts
   * the worker, which drops the request (a direct call aborts its fetch).
   */
  exportQuoteReportFromStream(
    url: string,
    reportOptions: QuoteReportOptions,
    now: Date,
    options: ExportOptions = {},
  ): Promise<QuoteReportBlob | NoQuotesThisWeek> {
    const { signal, onProgress } = options;
    // A signal cannot cross to the worker (aborting terminates it); a direct call's fetch takes it.
    const fetchSignal = this.mode === 'direct' ? signal : undefined;
    return this.call<QuoteReportBlob | NoQuotesThisWeek>(true, signal, (api) =>
      api.buildQuoteReportFromStream(
        url,
        reportOptions,
        now,
        this.progress(onProgress),
        fetchSignal,
      ),
    );
  }

  private async ensureLoaded(key: string, signal: AbortSignal | undefined): Promise<void> {
    const existing = this.loaded.get(key);
    if (existing !== undefined) return existing;
    const units = this.datasets.get(key);
    if (units === undefined) throw new Error(`no units loaded under '${key}'`);
    const generation = this.generation;
    const loading = this.call(false, signal, async (api) => {
      await this.sendInSlices(units, (slice, first) => api.loadUnits(key, slice, !first), signal);
    });
    this.loaded.set(key, loading);
    try {
      await loading;
    } catch (error) {
      if (this.loaded.get(key) === loading) this.loaded.delete(key);
      throw error;
    }
    // A restart in between lost the set; load it again on the new worker.
    if (generation !== this.generation) return this.ensureLoaded(key, signal);
  }

  /**
   * Sends `items` in slices, one message each, awaiting each before the next, so the main
   * thread is free between them. Comlink posts the message synchronously inside `send`, so
   * the time `send` takes is the structured-clone cost; slice sizes adapt to keep it near
   * {@link SLICE_BUDGET_MS} (unless a fixed `transferChunk` was configured). An empty list is
   * sent as one empty slice, so `first` is always seen.
   */
  private async sendInSlices<T>(
    items: readonly T[],
    send: (slice: T[], first: boolean) => Promise<unknown>,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    let size = this.transferChunk ?? INITIAL_SLICE;
    let i = 0;
    do {
      if (signal?.aborted === true) throw abortError();
      const slice = items.slice(i, i + size);
      const t0 = performance.now();
      const pending = send(slice, i === 0);
      const spent = performance.now() - t0;
      await pending;
      i += slice.length;
      if (this.transferChunk === undefined) {
        const ideal = (size * SLICE_BUDGET_MS) / Math.max(spent, 0.25);
        size = Math.round(Math.min(MAX_SLICE, Math.max(MIN_SLICE, Math.min(ideal, size * 2))));
      }
    } while (i < items.length);
  }

  /**
   * A progress callback as the backend takes it: a proxy across the worker boundary (a function
   * cannot be cloned), made for each attempt (a restarted worker gets its own); as is, direct.
   */
  private progress(onProgress: ExportOptions['onProgress']) {
    if (onProgress === undefined || this.mode === 'direct') return onProgress;
    return proxy(onProgress);
  }

  private async api(): Promise<Api> {
    if (this.mode === 'direct') {
      this.direct ??= import('./core-api').then((m) =>
        m.createCoreApi({ yieldBetweenChunks: true }),
      );
      // The direct API has the same methods returning plain values; callers await them.
      return (await this.direct) as unknown as Api;
    }
    if (this.remote === undefined) {
      this.worker = this.createWorker();
      this.remote = wrap<CoreApi>(this.worker);
      this.loaded.clear();
    }
    return this.remote;
  }

  private stopWorker(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.worker === undefined) return;
    this.worker.terminate();
    this.worker = undefined;
    this.remote = undefined;
    this.loaded.clear();
    this.generation++;
  }

  private scheduleIdle(): void {
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.inFlight.size > 0 || this.worker === undefined) return;
    const timer = setTimeout(() => {
      if (this.inFlight.size === 0) this.stopWorker();
    }, this.idleMs);
    // In Node (tests), an idle timer must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.idleTimer = timer;
  }

  /**
   * Runs `run` against the backend. On abort: reject with AbortError; if the call is long and
   * runs in a worker, terminate that worker (other calls in flight are re-run on a new one).
   */
  private call<T>(
    long: boolean,
    signal: AbortSignal | undefined,
    run: (api: Api) => Promise<T> | T,
  ): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(abortError());
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      let attempt = 0;
      const entry: InFlight = { long, rerun: () => start() };
      const finish = (): void => {
        settled = true;
        this.inFlight.delete(entry);
        signal?.removeEventListener('abort', onAbort);
        this.scheduleIdle();
      };
      const onAbort = (): void => {
        if (settled) return;
        finish();
        reject(abortError());
        if (long && this.mode === 'worker') this.terminate();
      };
      const start = (): void => {
        const mine = ++attempt;
        this.api()
          .then((api) => run(api))
          .then(
            (value) => {
              if (settled || mine !== attempt) return;
              finish();
              resolve(value);
            },
            (error: unknown) => {
              if (settled || mine !== attempt) return;
              finish();
              reject(
                error instanceof Error || error instanceof DOMException
                  ? error
                  : new Error(String(error)),
              );
            },
          );
      };
      this.inFlight.add(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      start();
    });
  }
}

let shared: CoreClient | undefined;

/** The app-wide client (lazily created; the worker itself starts on first use). */
export function getCoreClient(): CoreClient {
  shared ??= new CoreClient();
  return shared;
}
