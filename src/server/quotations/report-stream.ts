/**
 * The weekly quotation report, streamed (issue 21), oldest first on `(fecha_alta, posicion)`
 * (index `rm_quotations_report`, migration 025), each row's JSON built by the database and
 * written to the response as it comes, so the server never holds more than a few chunks whatever
 * the week's size.
 *
 * - PostgreSQL: one binary COPY of the rows (store/copy-column.ts) on a pooled connection held
 *   until the last row, at most {@link REPORT_CONNECTIONS} for all reports together. The rows'
 *   bytes go into the answer's chunks as they are (no decoding to strings and encoding back), from
 *   one snapshot, as fast as the database makes them and the client takes them: while the client
 *   is behind, the connection's socket is paused and the database waits.
 * - PGlite (one connection, queries queued in order, in this process's event loop): keyset pages,
 *   each its own query, sized to a time budget ({@link PGLITE_PAGE_BUDGET_MS}); after each page,
 *   while other requests are being answered, the loop waits until they are done (at most
 *   {@link PGLITE_YIELD_LIMIT_MS}), so their queries run between two pages, and when none is it
 *   goes on at once (`yieldToOthers`). A page is read only when the socket took the previous one.
 * - A client that goes away cancels the stream: the COPY's connection is closed, or no further
 *   page is read.
 * - Two shapes: `json` is the spec's `QuoteReportRow[]` array; `ndjson` (the client's) starts
 *   with a summary line `{ total, escrituracion, divisa }` (how many rows, and whether any has a
 *   deed amount or a currency other than MXN: the CSV's optional columns), then lines each holding
 *   some rows as a JSON array (a page, or a chunk of the COPY).
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
 * Rows per page where the report is read in pages (PGlite): the first page (small, for the first
 * byte, as it blocks the one connection and the event loop while it runs), and the bounds the
 * page size moves between, following the time budget. The largest page, about 0.9 MB, is still a
 * short task for the event loop, which receives, encodes and writes a page at once.
 */
export const REPORT_PAGE_ROWS = {
  first: 100,
  min: 100,
  max: 2_000,
} as const;

/**
 * PostgreSQL connections that all the reports of one pool hold at once (a COPY each; the pool has
 * 10 by default, `store/db.ts`): the rest always stay free for other requests, however many
 * reports stream. A fifth report waits for one of the four to end.
 */
export const REPORT_CONNECTIONS = 4;

/**
 * The report connections of a pool of `connections`: {@link REPORT_CONNECTIONS}, and never more
 * than half the pool, so a small pool (`poolSize`) still keeps most of itself for light requests.
 */
export const reportConnections = (connections: number) =>
  Math.max(1, Math.min(REPORT_CONNECTIONS, Math.floor(connections / 2)));

/** Per pool (the `db` a report reads): how many reports' COPYs run, and those waiting a turn. */
const reportSlots = new WeakMap<Queryable, { running: number; waiting: (() => void)[] }>();

/** Waits until fewer than `limit` reports of this pool run; answers the slot's release. */
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
function keyCondition(params: unknown[], op: '>', key: ReportKey) {
  params.push(key.fechaAlta, key.posicion);
  return ` AND (q.fecha_alta, q.posicion) ${op} ($${params.length - 1}::timestamptz, $${params.length}::bigint)`;
}

/**
 * One page of the report, oldest first: up to `limit` rows after `after`, as their JSON texts
 * joined by commas (null when the page is empty), and the key of its last row.
 */
export async function weeklyReportPage(
  db: Queryable,
  scope: WeeklyReportScope,
  after: ReportKey | null,
  limit: number,
): Promise<{ rows: string | null; count: number; last: ReportKey | null }> {
  const { where, params } = scopeWhere(scope);
  const keyset = after ? keyCondition(params, '>', after) : '';
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

export interface ReportStreamOptions {
  format: 'json' | 'ndjson';
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
  let turnPending = false;
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
          // One chunk per turn of the event loop: the socket is read again at the next turn,
          // and then only if the client keeps up. Otherwise, once the database has written the
          // rest of the report into the socket's buffers (it is faster than the client), libuv
          // would read it back to back, dozens of chunks in one turn, and every other request
          // on this event loop would wait for them.
          control?.pause();
          if (!turnPending) {
            turnPending = true;
            setImmediate(nextTurn);
          }
        };
        const nextTurn = () => {
          turnPending = false;
          if ((controller.desiredSize ?? 1) > 0) control?.resume();
        };
        const rowsOf: CopyRows = {
          row(bytes, start, end) {
            if (finished) return;
            const size = end - start;
            // Room for the row, a separator, and the line's brackets.
            if (length + size + 4 > scratch.length) {
              const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, length + size + 4));
              scratch.copy(grown, 0, 0, length);
              scratch = grown;
            }
            // A line of its own per chunk (ndjson), or one array over every chunk (json).
            if (ndjson || rows > 0) {
              scratch[length] = ndjson && length === 0 ? OPEN : COMMA;
              length += 1;
            }
            bytes.copy(scratch, length, start, end);
            length += size;
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
        if (!turnPending) control?.resume();
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
  let after: ReportKey | null = null;
  let size: number = options.pageRows ?? REPORT_PAGE_ROWS.first;
  let pages = 0;
  let pauses = 0;
  let lastPageMs = 0;
  let lastPageRows = size;
  let started = false;
  let finished = false;
  const end = (cancelled: boolean) => {
    if (finished) return;
    finished = true;
    options.onEnd?.({ pages, pauses, cancelled });
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
          if (pages > 0) {
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
          const t0 = performance.now();
          const page = await weeklyReportPage(db, scope, after, size);
          if (finished) return;
          lastPageMs = performance.now() - t0;
          lastPageRows = size;
          if (page.rows !== null) {
            const text =
              options.format === 'ndjson'
                ? `[${page.rows}]\n`
                : pages === 0
                  ? page.rows
                  : `,${page.rows}`;
            pages++;
            controller.enqueue(encoder.encode(text));
            after = page.last;
            // A full page may have more after it; a short one is the last.
            if (page.count === size) return;
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
