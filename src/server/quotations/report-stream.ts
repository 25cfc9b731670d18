/**
 * The weekly quotation report, streamed (issue 21): the rows are read from `rm_quotations` in
 * keyset pages on `(fecha_alta, posicion)` (index `rm_quotations_report`, migration 025), each
 * page built as one JSON text by the database and written to the response as it comes, so the
 * server never holds more than a page or two whatever the week's size.
 *
 * - Every page is its own query. On PostgreSQL a pooled connection is taken for one page and
 *   given back, so a report never holds a connection other requests need; a page's end key is
 *   found first from the index alone ({@link weeklyReportPageEnd}), so the next page is read on
 *   another pooled connection while this one is read and written (one page ahead at most), and
 *   pages grow while the client keeps up; all reports together use at most
 *   {@link REPORT_CONNECTIONS} of the pool. On PGlite (one connection, queries queued in order)
 *   pages are read one after another, sized to a time budget ({@link PGLITE_PAGE_BUDGET_MS});
 *   after each page, while other requests are being answered, the loop waits until they are
 *   done (at most {@link PGLITE_YIELD_LIMIT_MS}), so their queries run between two pages, and
 *   when none is it goes on at once (`yieldToOthers`).
 * - The response is a pull stream: a page is written only when the socket took the previous
 *   one (back-pressure), and a client that goes away cancels it, so reading stops (a page read
 *   ahead is dropped).
 * - Two shapes: `json` is the spec's `QuoteReportRow[]` array; `ndjson` (the client's) starts
 *   with a summary line `{ total, escrituracion, divisa }` (how many rows, and whether any has a
 *   deed amount or a currency other than MXN: the CSV's optional columns), then one line per
 *   page holding that page's rows as a JSON array.
 */
import { startOfWeekMonday } from '../../core/misc';
import { mayGenerateAllUsersReport } from '../../core/permissions';
import type { Membership } from '../http/context';
import type { CopyControl, CopyRows } from '../store/copy-column';
import { sqlLiteral } from '../store/copy-column';
import type { Db, Queryable } from '../store/db';

/** The week and the rows a caller's report covers. */
export interface WeeklyReportScope {
  corporateId: string;
  start: Date;
  end: Date;
  /** Only this adviser's quotations (a role whose report does not cover every user), or all. */
  adviserId: string | null;
}

/** The key a page ends on: the next page starts after it. */
export interface ReportKey {
  fechaAlta: string;
  posicion: string;
}

/**
 * Rows per page: the first page (small, for the first byte; on PGlite a page of its time budget,
 * as it blocks the one connection and the event loop while it runs), and the bounds the page size
 * moves between (PGlite: the time budget; PostgreSQL: fourfold per page while the client keeps
 * up). The largest page, about 0.9 MB, is still a short task for the event loop, which receives,
 * encodes and writes a page at once: light requests answered meanwhile wait for one at most.
 */
export const REPORT_PAGE_ROWS = {
  first: { postgres: 500, pglite: 100 },
  min: 100,
  max: 2_000,
} as const;

/**
 * PostgreSQL connections that all the reports of one pool use at once (page ends and pages; the
 * pool has 10 by default, `store/db.ts`): the rest always stay free for other requests, however
 * many reports stream. Two reports read at full speed (a page and the one ahead each); more
 * share these.
 */
export const REPORT_CONNECTIONS = 4;

/**
 * The report connections of a pool of `connections`: {@link REPORT_CONNECTIONS}, and never more
 * than half the pool, so a small pool (`poolSize`) still keeps most of itself for light requests.
 */
export const reportConnections = (connections: number) =>
  Math.max(1, Math.min(REPORT_CONNECTIONS, Math.floor(connections / 2)));

/** Per pool (the `db` a report reads): how many report queries run, and those waiting a turn. */
const reportSlots = new WeakMap<Queryable, { running: number; waiting: (() => void)[] }>();

/** Waits until fewer than `limit` report queries of this pool run; answers the slot's release. */
async function takeReportSlot(db: Queryable, limit: number): Promise<() => void> {
  let slots = reportSlots.get(db);
  if (!slots) reportSlots.set(db, (slots = { running: 0, waiting: [] }));
  if (slots.running < limit) slots.running++;
  else await new Promise<void>((resolve) => slots.waiting.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // The slot passes straight to the next waiting query, or is given back.
    const next = slots.waiting.shift();
    if (next) next();
    else slots.running--;
  };
}

/** Runs one report query once fewer than `limit` of this pool's run. */
async function inReportSlot<T>(db: Queryable, limit: number, query: () => Promise<T>): Promise<T> {
  const release = await takeReportSlot(db, limit);
  try {
    return await query();
  } finally {
    release();
  }
}

/**
 * Time one page query should take on PGlite, whose one connection and event loop it blocks while
 * it runs: short while other requests are being answered (a request waits for the page under
 * way), longer when nobody else is (fewer pages, each paying a query's fixed cost).
 */
export const PGLITE_PAGE_BUDGET_MS = { othersWaiting: 4, alone: 8 } as const;

/** Monday 00:00 to the next Monday 00:00 of `now`'s week in the corporate's time zone. */
export function weeklyReportScope(m: Membership, now: Date): WeeklyReportScope {
  const tz = m.corporate.zonaHoraria || 'UTC';
  const start = startOfWeekMonday(now, tz);
  const end = startOfWeekMonday(new Date(start.getTime() + 8 * 86_400_000), tz);
  return {
    corporateId: m.corporate.id,
    start,
    end,
    adviserId: mayGenerateAllUsersReport(m.role) ? null : m.user.id,
  };
}

function scopeWhere(scope: WeeklyReportScope) {
  const params: unknown[] = [scope.corporateId, scope.start.toISOString(), scope.end.toISOString()];
  let where = 'q.corporate_id = $1 AND q.fecha_alta >= $2 AND q.fecha_alta < $3';
  if (scope.adviserId !== null) {
    params.push(scope.adviserId);
    where += ` AND q.id_asesor = $${params.length}`;
  }
  return { where, params };
}

/**
 * One row of the report as JSON: the flattened quotation with its currency, and the adviser's
 * and client's current names (those at quote time when the person is gone).
 */
const ROW_JSON = `(q.reporte || jsonb_build_object(
    'divisa', q.doc->'divisa'->>'codigo',
    'nombreAsesor', coalesce(nullif(trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos')), ''), q.reporte->>'nombreAsesor'),
    'nombreCliente', coalesce(nullif(trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos')), ''), q.reporte->>'nombreCliente')))::text`;

/** How many rows the week holds and which optional CSV columns they need. */
export async function weeklyReportSummary(db: Queryable, scope: WeeklyReportScope) {
  const { where, params } = scopeWhere(scope);
  const { rows } = await db.query<{ total: number; escrituracion: boolean; divisa: boolean }>(
    `SELECT count(*)::int AS total,
            coalesce(bool_or(q.reporte->'escrituracion' IS DISTINCT FROM '0'::jsonb), false) AS escrituracion,
            coalesce(bool_or(q.doc->'divisa'->>'codigo' IS DISTINCT FROM 'MXN'), false) AS divisa
       FROM rm_quotations q WHERE ${where}`,
    params,
  );
  return rows[0] ?? { total: 0, escrituracion: false, divisa: false };
}

/** `(fecha_alta, posicion)` against a key: the keyset condition, its parameters appended. */
function keyCondition(params: unknown[], op: '>' | '<=', key: ReportKey) {
  params.push(key.fechaAlta, key.posicion);
  return ` AND (q.fecha_alta, q.posicion) ${op} ($${params.length - 1}::timestamptz, $${params.length}::bigint)`;
}

/**
 * One page of the report, oldest first: up to `limit` rows after `after` (and up to and including
 * `upto`, the page's end found by {@link weeklyReportPageEnd}, when given), as their JSON texts
 * joined by commas (null when the page is empty), and the key of its last row.
 */
export async function weeklyReportPage(
  db: Queryable,
  scope: WeeklyReportScope,
  after: ReportKey | null,
  limit: number,
  upto: ReportKey | null = null,
): Promise<{ rows: string | null; count: number; last: ReportKey | null }> {
  const { where, params } = scopeWhere(scope);
  let keyset = after ? keyCondition(params, '>', after) : '';
  // Bounded by the end key too (the next page, read meanwhile, starts right after it); the limit
  // stays, as it makes the planner walk the index in order rather than sort the range.
  if (upto) keyset += keyCondition(params, '<=', upto);
  params.push(limit);
  // The page as one text, joined by the database: one value to receive instead of a row object
  // per quotation (their parsing and collection were most of the server's own work). The
  // ordered aggregates sort at most a page, in memory.
  const { rows } = await db.query<{
    rows: string | null;
    count: number;
    fecha_alta: string | null;
    posicion: string | null;
  }>(
    `SELECT string_agg(p.row, ',' ORDER BY p.fecha_alta, p.posicion) AS rows, count(*)::int AS count,
            (array_agg(p.fecha_alta::text ORDER BY p.fecha_alta DESC, p.posicion DESC))[1] AS fecha_alta,
            (array_agg(p.posicion::text ORDER BY p.fecha_alta DESC, p.posicion DESC))[1] AS posicion
       FROM (SELECT ${ROW_JSON} AS row, q.fecha_alta, q.posicion
               FROM rm_quotations q
               LEFT JOIN rm_users u ON u.id = q.id_asesor
               LEFT JOIN rm_leads l ON l.id = q.id_lead AND l.corporate_id = q.corporate_id
              WHERE ${where}${keyset}
              ORDER BY q.fecha_alta, q.posicion
              LIMIT $${params.length}) p`,
    params,
  );
  const page = rows[0];
  if (!page || page.rows === null || page.fecha_alta === null || page.posicion === null) {
    return { rows: null, count: 0, last: null };
  }
  return {
    rows: page.rows,
    count: page.count,
    last: { fechaAlta: page.fecha_alta, posicion: page.posicion },
  };
}

/**
 * The key of the `limit`-th row after `after` (the end of a page of `limit` rows), or null when
 * fewer rows are left: read from the index alone, so the page after it can be read at the same
 * time as the page itself.
 */
export async function weeklyReportPageEnd(
  db: Queryable,
  scope: WeeklyReportScope,
  after: ReportKey | null,
  limit: number,
): Promise<ReportKey | null> {
  const { where, params } = scopeWhere(scope);
  const keyset = after ? keyCondition(params, '>', after) : '';
  params.push(limit - 1);
  const { rows } = await db.query<{ fecha_alta: string; posicion: string }>(
    `SELECT q.fecha_alta::text AS fecha_alta, q.posicion::text AS posicion
       FROM rm_quotations q
      WHERE ${where}${keyset}
      ORDER BY q.fecha_alta, q.posicion
     OFFSET $${params.length} LIMIT 1`,
    params,
  );
  const row = rows[0];
  return row ? { fechaAlta: row.fecha_alta, posicion: row.posicion } : null;
}

const sameKey = (a: ReportKey, b: ReportKey | null) =>
  b !== null && a.fechaAlta === b.fechaAlta && a.posicion === b.posicion;

/** The next page's size: the last one's scaled to the time budget, within the bounds. */
export function nextPageRows(rows: number, elapsedMs: number, budgetMs: number): number {
  const scaled = Math.round((rows * budgetMs) / Math.max(elapsedMs, 0.5));
  // Grow at most fourfold per page, so one slow page does not swing it the other way.
  return Math.min(REPORT_PAGE_ROWS.max, Math.max(REPORT_PAGE_ROWS.min, Math.min(scaled, rows * 4)));
}

/** On PGlite without a gauge of other requests: a pause as long as the page took, always. */
const pauseAfterPage = (pageMs: number) =>
  new Promise<void>((resolve) => setTimeout(resolve, Math.max(1, Math.round(pageMs))));

/**
 * The longest the report waits after one page while other requests are being answered: under
 * steady traffic it still reads a page at least this often.
 */
export const PGLITE_YIELD_LIMIT_MS = 50;

/**
 * Whether other requests are being answered, asked once the event loop has taken in what arrived
 * during the page: a page ends inside one loop turn, and a request that came meanwhile is read at
 * the next turn's poll, so the question waits for the check phase after it (a second
 * `setImmediate`: the first runs before that poll).
 */
const othersAfterPoll = (othersWaiting: () => boolean) =>
  new Promise<boolean>((resolve) =>
    setImmediate(() => setImmediate(() => resolve(othersWaiting()))),
  );

/**
 * On PGlite, after a page: while other requests are being answered the report leaves them the
 * one connection and the event loop, asking again every 2 ms, up to {@link PGLITE_YIELD_LIMIT_MS};
 * their queries, which come one after another with I/O between them, then find it free instead
 * of queueing behind a page each. With nobody else to serve it goes on at once. True when it
 * waited.
 */
async function yieldToOthers(othersWaiting: () => boolean): Promise<boolean> {
  const started = performance.now();
  let waited = false;
  while (await othersAfterPoll(othersWaiting)) {
    waited = true;
    if (performance.now() - started >= PGLITE_YIELD_LIMIT_MS) break;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  return waited;
}

/**
 * A page on its way: its end key (PostgreSQL: found first, so the next page can start before
 * this one is read; null when it is the last page or on PGlite) and its rows.
 */
interface PendingPage {
  end: Promise<ReportKey | null>;
  read: Promise<{ page: Awaited<ReturnType<typeof weeklyReportPage>>; ms: number }>;
  limit: number;
  /** The rows have arrived (before the client asked for them: the socket is the slower side). */
  ready: boolean;
}

export interface ReportStreamOptions {
  format: 'json' | 'ndjson';
  /** The store's kind: pages read one ahead (PostgreSQL) or one at a time with pauses (PGlite). */
  kind: 'pglite' | 'postgres';
  /** The store's connections (`Db.connections`): PostgreSQL's reports use at most half. */
  connections: number;
  /**
   * PGlite: whether other requests are being answered now (`RequestGauge.busy`), asked after
   * each page (see `yieldToOthers`); absent: the report pauses as long as each page took.
   */
  othersWaiting?: () => boolean;
  /** A fixed page size instead of the time budget's (tests: page boundaries). */
  pageRows?: number;
  /**
   * Called once when the stream ends (finished, failed or cancelled), with how many pages and
   * how many of the pauses between them left the connection to other requests (PGlite).
   */
  onEnd?: (outcome: { pages: number; pauses: number; cancelled: boolean }) => void;
}

/** The report's rows as one query of literals (COPY takes no parameters), oldest first. */
export function weeklyReportCopySql(scope: WeeklyReportScope): string {
  let where = `q.corporate_id = ${sqlLiteral(scope.corporateId)}
        AND q.fecha_alta >= ${sqlLiteral(scope.start.toISOString())}::timestamptz
        AND q.fecha_alta < ${sqlLiteral(scope.end.toISOString())}::timestamptz`;
  if (scope.adviserId !== null) where += ` AND q.id_asesor = ${sqlLiteral(scope.adviserId)}`;
  return `SELECT ${ROW_JSON}
       FROM rm_quotations q
       LEFT JOIN rm_users u ON u.id = q.id_asesor
       LEFT JOIN rm_leads l ON l.id = q.id_lead AND l.corporate_id = q.corporate_id
      WHERE ${where}
      ORDER BY q.fecha_alta, q.posicion`;
}

/**
 * Bytes of rows written as one chunk of the answer (the ndjson shape: one line). Smaller chunks
 * go out as each of the connection's socket reads ends, so the first byte does not wait.
 */
export const COPY_CHUNK_BYTES = 64 * 1024;

const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE_LINE = Buffer.from(']\n');

/**
 * PostgreSQL: the report from one binary COPY of its rows (store/copy-column.ts) on a connection
 * of the reports' share of the pool, held until the last row. Each row's JSON bytes are copied
 * into the chunk being filled, between the shape's brackets and commas, with no decoding; a
 * chunk goes out when full or when the socket read that brought its rows is done. While the
 * client is behind (four chunks waiting), the connection's socket is paused, and the database
 * waits on it.
 */
function copiedReportStream(
  db: Queryable & Pick<Required<Db>, 'copyColumn'>,
  scope: WeeklyReportScope,
  options: ReportStreamOptions,
): ReadableStream<Uint8Array> {
  const ndjson = options.format === 'ndjson';
  let control: CopyControl | null = null;
  let release: (() => void) | null = null;
  let finished = false;
  let chunks = 0;
  let scratch = Buffer.allocUnsafe(2 * COPY_CHUNK_BYTES);
  let length = 0;
  let rows = 0;
  let flushQueued = false;
  const end = (cancelled: boolean) => {
    if (finished) return;
    finished = true;
    release?.();
    options.onEnd?.({ pages: chunks, pauses: 0, cancelled });
  };
  return new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        const flush = () => {
          flushQueued = false;
          if (length === 0 || finished) return;
          if (ndjson) {
            CLOSE_LINE.copy(scratch, length);
            length += CLOSE_LINE.length;
          }
          controller.enqueue(Uint8Array.prototype.slice.call(scratch, 0, length));
          length = 0;
          chunks++;
          if ((controller.desiredSize ?? 1) <= 0) control?.pause();
        };
        const rowsOf: CopyRows = {
          row(value) {
            if (finished) return;
            // Room for the row, a separator, and the line's brackets.
            if (length + value.length + 4 > scratch.length) {
              const grown = Buffer.allocUnsafe(
                Math.max(2 * scratch.length, length + value.length + 4),
              );
              scratch.copy(grown, 0, 0, length);
              scratch = grown;
            }
            // A line of its own per chunk (ndjson), or one array over every chunk (json).
            if (ndjson || rows > 0) {
              scratch[length] = ndjson && length === 0 ? OPEN : COMMA;
              length += 1;
            }
            scratch.set(value, length);
            length += value.length;
            rows++;
            if (length >= COPY_CHUNK_BYTES) flush();
            else if (!flushQueued) {
              flushQueued = true;
              queueMicrotask(flush);
            }
          },
          end(error) {
            if (finished) return;
            if (error) {
              end(false);
              controller.error(error);
              return;
            }
            flush();
            if (!ndjson) controller.enqueue(Uint8Array.of(0x5d));
            controller.close();
            end(false);
          },
        };
        try {
          if (ndjson) {
            const summary = await weeklyReportSummary(db, scope);
            controller.enqueue(new TextEncoder().encode(`${JSON.stringify(summary)}\n`));
            if (summary.total === 0) {
              controller.close();
              end(false);
              return;
            }
          } else {
            controller.enqueue(Uint8Array.of(OPEN));
          }
          release = await takeReportSlot(db, reportConnections(options.connections));
          if (finished) return release();
          control = await db.copyColumn(weeklyReportCopySql(scope), rowsOf);
          if (finished) control.cancel();
        } catch (error) {
          end(false);
          controller.error(error);
        }
      },
      pull() {
        control?.resume();
      },
      cancel() {
        control?.cancel();
        end(true);
      },
    },
    { highWaterMark: 4 },
  );
}

/**
 * The report as a byte stream (see the module comment): on PostgreSQL one COPY of its rows, on
 * PGlite (or a store that cannot COPY) read page by page. A read that fails errors the stream,
 * which ends the response early: the client sees a truncated body.
 */
export function weeklyReportStream(
  db: Queryable & Pick<Db, 'copyColumn'>,
  scope: WeeklyReportScope,
  options: ReportStreamOptions,
): ReadableStream<Uint8Array> {
  if (db.copyColumn && options.pageRows === undefined) {
    return copiedReportStream(db as Queryable & Pick<Required<Db>, 'copyColumn'>, scope, options);
  }
  const encoder = new TextEncoder();
  const pipelined = options.kind === 'postgres';
  const slots = reportConnections(options.connections);
  let after: ReportKey | null = null;
  let size: number = options.pageRows ?? REPORT_PAGE_ROWS.first[options.kind];
  let pages = 0;
  let pauses = 0;
  let lastPageMs = 0;
  let lastPageRows = size;
  let started = false;
  let finished = false;
  /** PostgreSQL: the next page, read while the current one is read and written (one at most). */
  let ahead: PendingPage | null = null;
  const end = (cancelled: boolean) => {
    if (finished) return;
    finished = true;
    options.onEnd?.({ pages, pauses, cancelled });
  };
  const request = (key: ReportKey | null, limit: number): PendingPage => {
    const t0 = performance.now();
    const pageEnd = pipelined
      ? inReportSlot(db, slots, () => weeklyReportPageEnd(db, scope, key, limit))
      : Promise.resolve(null);
    const pending: PendingPage = {
      end: pageEnd,
      limit,
      ready: false,
      read: pageEnd
        .then((upto) =>
          pipelined
            ? inReportSlot(db, slots, () => weeklyReportPage(db, scope, key, limit, upto))
            : weeklyReportPage(db, scope, key, limit, upto),
        )
        .then((page) => {
          pending.ready = true;
          return { page, ms: performance.now() - t0 };
        }),
    };
    // Awaited later, or dropped when the client goes away first: never an unhandled rejection.
    pending.read.catch(() => undefined);
    return pending;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (!started) {
            started = true;
            if (options.format === 'ndjson') {
              const summary = await weeklyReportSummary(db, scope);
              controller.enqueue(encoder.encode(`${JSON.stringify(summary)}\n`));
              if (summary.total === 0) {
                controller.close();
                end(false);
              }
              return;
            }
            controller.enqueue(encoder.encode('['));
          }
          for (;;) {
            if (!pipelined && pages > 0) {
              const paused = options.othersWaiting
                ? await yieldToOthers(options.othersWaiting)
                : (await pauseAfterPage(lastPageMs), true);
              if (paused) pauses++;
              if (options.pageRows === undefined) {
                const budget = PGLITE_PAGE_BUDGET_MS[paused ? 'othersWaiting' : 'alone'];
                size = nextPageRows(lastPageRows, lastPageMs, budget);
              }
            }
            if (finished) return;
            const current = ahead ?? request(after, size);
            ahead = null;
            // Asked for before its rows arrived: the client keeps up, so pages may grow.
            const keptUp = !current.ready;
            const upto = await current.end;
            if (finished) return;
            if (options.pageRows === undefined && pipelined && keptUp) {
              size = Math.min(REPORT_PAGE_ROWS.max, current.limit * 4);
            }
            // The next page starts right after this one's end, so it is read meanwhile.
            if (upto !== null) ahead = request(upto, size);
            const { page, ms } = await current.read;
            if (finished) return;
            lastPageMs = ms;
            lastPageRows = current.limit;
            // More pages: this one ended at a known key, or it was full. A short page without an
            // end key is the last one: no query for an empty page after it.
            const full = page.count === current.limit;
            const more = upto !== null || full;
            if (full && page.last !== null && !sameKey(page.last, upto)) {
              // Rows saved inside this page's range since its end was found pushed it short of
              // that end: the next page starts after its last row, and the one read ahead is
              // dropped.
              ahead = null;
              after = page.last;
            } else {
              after = upto ?? page.last ?? after;
            }
            if (page.rows !== null) {
              const text =
                options.format === 'ndjson'
                  ? `[${page.rows}]\n`
                  : pages === 0
                    ? page.rows
                    : `,${page.rows}`;
              pages++;
              controller.enqueue(encoder.encode(text));
              if (more) return;
            } else if (more) {
              // Every row of a known range was deleted meanwhile: on to the next page.
              continue;
            }
            break;
          }
          if (options.format === 'json') controller.enqueue(encoder.encode(']'));
          controller.close();
          end(false);
        } catch (error) {
          end(false);
          controller.error(error);
        }
      },
      cancel() {
        end(true);
      },
    },
    { highWaterMark: 0 },
  );
}
