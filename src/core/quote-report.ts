/**
 * The weekly quote report as CSV (spec §5, §9): one row per quotation, RFC 4180 quoting,
 * formula injection neutralised, UTF-8 with BOM.
 *
 * It is built for a million rows: fields are written straight into UTF-8 bytes (repeating
 * ones encoded once and copied), numbers with integer arithmetic instead of Intl, dates
 * through per-slot and per-day caches, and the bytes come out in chunks of one reused buffer,
 * so a caller (the worker) copies each chunk into a Blob and reports progress between them.
 */

import { tzOffset } from '@date-fns/tz';
import { TZDate } from '@date-fns/tz';
import type { Money } from './brands';

/** A quotation flattened for the report. Money fields are integer cents. */
export interface QuoteReportRow {
  /** Creation time, seconds since the epoch. */
  fechaAlta: number;
  idAsesor: string;
  nombreAsesor: string;
  nombreCliente: string;
  nombreDesarrollo: string;
  nombreCluster: string;
  nombreUnidad: string;
  nombrePrototipo: string;
  precioLista: Money;
  descuento: Money;
  precioFinal: Money;
  enganche: Money;
  diferido: Money;
  mensualidades: Money;
  escrituracion: Money;
  contraEntrega: Money;
  /**
   * Currency code of every amount of the row (the quotation's currency). Absent means the base
   * currency, MXN.
   */
  divisa?: string;
}

/** The report's columns, in order. */
export const QUOTE_REPORT_COLUMNS = [
  'fecha',
  'asesor',
  'cliente',
  'desarrollo',
  'cluster',
  'unidad',
  'prototipo',
  'divisa',
  'precioLista',
  'descuento',
  'precioFinal',
  'enganche',
  'diferido',
  'mensualidades',
  'escrituracion',
  'contraEntrega',
] as const;

/** One of {@link QUOTE_REPORT_COLUMNS}. */
export type QuoteReportColumn = (typeof QUOTE_REPORT_COLUMNS)[number];

/** Languages the report headers exist in. */
export type ReportLanguage = 'es' | 'en';

/** Column headers; the payment labels are spec §9's. */
export const QUOTE_REPORT_HEADERS: Readonly<
  Record<ReportLanguage, Readonly<Record<QuoteReportColumn, string>>>
> = {
  es: {
    fecha: 'Fecha',
    asesor: 'Asesor',
    cliente: 'Cliente',
    desarrollo: 'Desarrollo',
    cluster: 'Cluster',
    unidad: 'Unidad',
    prototipo: 'Prototipo',
    divisa: 'Moneda',
    precioLista: 'Precio de lista',
    descuento: 'Descuento',
    precioFinal: 'Precio final',
    enganche: 'Enganche',
    diferido: 'Diferido',
    mensualidades: 'Mensualidades',
    escrituracion: 'Escrituración',
    contraEntrega: 'Contra entrega',
  },
  en: {
    fecha: 'Date',
    asesor: 'Adviser',
    cliente: 'Client',
    desarrollo: 'Development',
    cluster: 'Cluster',
    unidad: 'Unit',
    prototipo: 'Prototype',
    divisa: 'Currency',
    precioLista: 'List price',
    descuento: 'Discount',
    precioFinal: 'Final price',
    enganche: 'Down payment',
    diferido: 'Deferred',
    mensualidades: 'Monthly payment',
    escrituracion: 'Deed',
    contraEntrega: 'Upon delivery',
  },
};

/** Who asks for the report and how. Plain data, so it crosses to the worker. */
export interface QuoteReportOptions {
  language: ReportLanguage;
  /** Non-admin viewers get only their own quotations (`idAsesor` = `viewer.id`). */
  viewer: { id: string; isAdmin: boolean };
  /** `corporate.configCotizacion.exportadorCotizaciones.ocultarNombrePrototipoCsv`. */
  hidePrototypeName: boolean;
  /** Time zone of the dates in the report (the corporate's `zonaHoraria`). */
  timeZone: string;
}

/** The spec's outcome when there is nothing to export (toast `no_quotes_this_week`). */
export interface NoQuotesThisWeek {
  kind: 'no_quotes_this_week';
}

/** What will be written: the viewer's rows and the columns kept. */
export interface QuoteReportPlan {
  kind: 'plan';
  rows: readonly QuoteReportRow[];
  columns: QuoteReportColumn[];
  includePrototype: boolean;
  includeEscrituracion: boolean;
  includeDivisa: boolean;
}

/** The byte-order mark that makes Excel read the file as UTF-8. */
export const UTF8_BOM = '\uFEFF';
/** RFC 4180 record separator. */
export const CSV_LINE_END = '\r\n';
/** Rows per chunk of {@link quoteReportChunks}. */
export const DEFAULT_CHUNK_ROWS = 16_384;

const QUOTE_NEEDED = /[",\r\n]/;
const ALL_QUOTES = /"/g;

/**
 * One CSV field: a field whose first character is `=`, `+`, `-`, `@`, tab, CR or LF gets a
 * leading `'` (so spreadsheets do not evaluate it); a field containing `"`, `,`, CR or LF is
 * wrapped in double quotes with inner quotes doubled (RFC 4180). Null and undefined are empty.
 */
export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined) return '';
  let v = value;
  if (v.length === 0) return v;
  const c = v.charCodeAt(0);
  // = + - @ TAB CR LF
  if (c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13 || c === 10) {
    v = "'" + v;
  }
  return QUOTE_NEEDED.test(v) ? '"' + v.replace(ALL_QUOTES, '""') + '"' : v;
}

/**
 * Cents as a plain decimal with two decimals and no grouping (`123456` → `'1234.56'`), so
 * spreadsheets read it as a number. Integer arithmetic only.
 */
export function csvMoney(cents: number): string {
  if (cents < 0) return '-' + csvMoney(-cents);
  const whole = Math.floor(cents / 100);
  const rest = cents - whole * 100;
  return rest < 10 ? whole + '.0' + rest : whole + '.' + rest;
}

const TWO_DIGITS: readonly string[] = Array.from({ length: 100 }, (_, i) =>
  i < 10 ? '0' + i : String(i),
);

/** Civil date of a day number (days since 1970-01-01), H. Hinnant's algorithm. */
function civilFromDays(days: number): { y: number; m: number; d: number } {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return { y: yoe + era * 400 + (m <= 2 ? 1 : 0), m, d };
}

/** Spec §9 file name: `Reporte_Cotizaciones_{dd}_{mm}_{yyyy}.csv`, the date in `timeZone`. */
export function reportFileName(date: Date, timeZone = 'UTC'): string {
  const d = new TZDate(date.getTime(), timeZone);
  return `Reporte_Cotizaciones_${TWO_DIGITS[d.getDate()]!}_${TWO_DIGITS[d.getMonth() + 1]!}_${d.getFullYear()}.csv`;
}

const BASE_CURRENCY = 'MXN';

/**
 * Applies the spec §5 rules: keeps the viewer's own quotations unless the viewer is an admin,
 * drops the escrituración column when every kept quotation has 0 there, drops the prototype
 * column when the corporate hides it; no rows left → {@link NoQuotesThisWeek}. The currency
 * column is added when a kept quotation is in another currency than MXN, so a week that mixes
 * MXN and USD quotations never mixes their amounts unlabelled.
 */
export function planQuoteReport(
  rows: readonly QuoteReportRow[],
  options: QuoteReportOptions,
): QuoteReportPlan | NoQuotesThisWeek {
  const viewerId = options.viewer.id;
  const kept = options.viewer.isAdmin ? rows : rows.filter((r) => r.idAsesor === viewerId);
  if (kept.length === 0) return { kind: 'no_quotes_this_week' };
  let includeEscrituracion = false;
  for (const r of kept) {
    if (r.escrituracion !== 0) {
      includeEscrituracion = true;
      break;
    }
  }
  let includeDivisa = false;
  for (const r of kept) {
    if (r.divisa !== undefined && r.divisa !== BASE_CURRENCY) {
      includeDivisa = true;
      break;
    }
  }
  const includePrototype = !options.hidePrototypeName;
  const columns = QUOTE_REPORT_COLUMNS.filter(
    (c) =>
      (c !== 'prototipo' || includePrototype) &&
      (c !== 'escrituracion' || includeEscrituracion) &&
      (c !== 'divisa' || includeDivisa),
  );
  return {
    kind: 'plan',
    rows: kept,
    columns,
    includePrototype,
    includeEscrituracion,
    includeDivisa,
  };
}

/** Progress of a chunked build. */
export interface ReportProgress {
  rowsDone: number;
  rowsTotal: number;
}

const UTF8_BOM_BYTES = [0xef, 0xbb, 0xbf] as const;

/**
 * A growable UTF-8 byte buffer that writes CSV fields directly, so no intermediate string is
 * built per row and no separate encoding pass is needed.
 */
const FIELD_CACHE_LIMIT = 4096;

/** ASCII digits of 00..99, two bytes each. */
const DIGIT_PAIRS = Uint8Array.from({ length: 200 }, (_, i) =>
  i % 2 === 0 ? 48 + Math.floor(i / 20) : 48 + (((i - 1) / 2) % 10),
);

class CsvByteWriter {
  buf: Uint8Array;
  pos = 0;

  constructor(capacity: number) {
    this.buf = new Uint8Array(Math.max(1024, capacity));
  }

  ensure(extra: number): void {
    if (this.pos + extra <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + extra) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /**
   * The bytes written since the last call, as a view of the writer's buffer; the next writes
   * reuse the buffer, so the view is only valid until then. Reusing one cache-warm buffer
   * instead of allocating a fresh one per chunk is what keeps a million-row report fast: fresh
   * ArrayBuffers are external memory, and allocating hundreds of megabytes of them forces
   * full garbage collections that have to walk the rows being exported.
   */
  take(): Uint8Array {
    const out = this.buf.subarray(0, this.pos);
    this.pos = 0;
    return out;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /**
   * A comma without a capacity check: every field writer reserves one spare byte for the
   * separator that follows it.
   */
  comma(): void {
    this.buf[this.pos++] = 44;
  }

  /** A CSV text field with the rules of {@link csvField}, UTF-8 encoded. */
  text(value: string | null | undefined): void {
    if (value === null || value === undefined || value.length === 0) {
      this.ensure(1);
      return;
    }
    const len = value.length;
    // Worst case: a leading quote, every char 3 bytes (or a doubled quote), closing quote.
    this.ensure(len * 3 + 5);
    const buf = this.buf;
    const start = this.pos;
    let p = start;
    const c0 = value.charCodeAt(0);
    const inject =
      c0 === 61 || c0 === 43 || c0 === 45 || c0 === 64 || c0 === 9 || c0 === 13 || c0 === 10;
    if (inject) buf[p++] = 39;
    let quote = false;
    for (let i = 0; i < len; i++) {
      const c = value.charCodeAt(i);
      if (c < 0x80) {
        if (c === 34 || c === 44 || c === 13 || c === 10) quote = true;
        buf[p++] = c;
      } else if (c < 0x800) {
        buf[p++] = 0xc0 | (c >> 6);
        buf[p++] = 0x80 | (c & 63);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const d = i + 1 < len ? value.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          buf[p++] = 0xf0 | (cp >> 18);
          buf[p++] = 0x80 | ((cp >> 12) & 63);
          buf[p++] = 0x80 | ((cp >> 6) & 63);
          buf[p++] = 0x80 | (cp & 63);
          i++;
        } else {
          // A lone surrogate becomes U+FFFD, as TextEncoder does.
          buf[p++] = 0xef;
          buf[p++] = 0xbf;
          buf[p++] = 0xbd;
        }
      } else {
        buf[p++] = 0xe0 | (c >> 12);
        buf[p++] = 0x80 | ((c >> 6) & 63);
        buf[p++] = 0x80 | (c & 63);
      }
    }
    if (!quote) {
      this.pos = p;
      return;
    }
    // Rare: write it again, quoted, with inner quotes doubled. The bytes after the opening
    // quote are shifted right by one, so copy from the end of the first pass backwards.
    const written = buf.subarray(start, p);
    let extra = 2;
    for (let i = 0; i < written.length; i++) if (written[i] === 34) extra++;
    this.ensure(written.length + extra + 1);
    const out = this.buf;
    const src = out.slice(start, p);
    let q = start;
    out[q++] = 34;
    for (let i = 0; i < src.length; i++) {
      const b = src[i]!;
      out[q++] = b;
      if (b === 34) out[q++] = 34;
    }
    out[q++] = 34;
    this.pos = q;
  }

  /**
   * {@link text} through a cache of encoded fields: report columns such as the adviser, the
   * development or the cluster repeat on most rows, so their bytes are built once and copied.
   * The cache stops growing at {@link FIELD_CACHE_LIMIT} entries (high-cardinality columns).
   */
  cachedText(value: string | null | undefined, cache: Map<string, Uint8Array>): void {
    const key = value ?? '';
    const bytes = cache.get(key);
    if (bytes === undefined) {
      const start = this.pos;
      this.text(key);
      if (cache.size < FIELD_CACHE_LIMIT) cache.set(key, this.buf.slice(start, this.pos));
      return;
    }
    const n = bytes.length;
    this.ensure(n + 1);
    const buf = this.buf;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = bytes[i]!;
    this.pos = p;
  }

  /** Cents as `1234.56` (see {@link csvMoney}). */
  money(cents: number): void {
    this.ensure(25);
    if (!Number.isSafeInteger(cents)) return;
    const buf = this.buf;
    let p = this.pos;
    let v = cents;
    if (v < 0) {
      buf[p++] = 45;
      v = -v;
    }
    let whole = Math.floor(v / 100);
    const rest = v - whole * 100;
    let digits = 1;
    let q: number;
    if (whole <= 0x7fffffff) {
      // Int32 fast path (any amount below 2.1 billion): digit count by comparison, then two
      // digits per division from a pair table.
      digits =
        whole < 1e4
          ? whole < 10
            ? 1
            : whole < 100
              ? 2
              : whole < 1000
                ? 3
                : 4
          : whole < 1e6
            ? whole < 1e5
              ? 5
              : 6
            : whole < 1e8
              ? whole < 1e7
                ? 7
                : 8
              : whole < 1e9
                ? 9
                : 10;
      q = p + digits;
      while (whole >= 100) {
        const next = (whole / 100) | 0;
        const pair = (whole - next * 100) << 1;
        buf[--q] = DIGIT_PAIRS[pair + 1]!;
        buf[--q] = DIGIT_PAIRS[pair]!;
        whole = next;
      }
      if (whole >= 10) {
        const pair = whole << 1;
        buf[--q] = DIGIT_PAIRS[pair + 1]!;
        buf[--q] = DIGIT_PAIRS[pair]!;
      } else {
        buf[--q] = 48 + whole;
      }
    } else {
      for (let w = whole; w >= 10; w = Math.floor(w / 10)) digits++;
      q = p + digits - 1;
      do {
        const next = Math.floor(whole / 10);
        buf[q--] = 48 + (whole - next * 10);
        whole = next;
      } while (whole > 0);
    }
    p += digits;
    buf[p++] = 46;
    const pair = rest << 1;
    buf[p++] = DIGIT_PAIRS[pair]!;
    buf[p++] = DIGIT_PAIRS[pair + 1]!;
    this.pos = p;
  }

  /** Already-encoded bytes. */
  bytes(b: Uint8Array): void {
    this.ensure(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  /**
   * Epoch seconds as ISO `yyyy-MM-dd HH:mm` in the corporate's zone, through the formatter's
   * caches: spreadsheets (LibreOffice, Excel, Sheets) import it as a date and time in any locale,
   * where `dd/MM/yyyy` stayed text outside a day-first locale (issue 19).
   */
  date(seconds: number, dates: ReportDateBytes): void {
    this.ensure(33);
    if (!Number.isFinite(seconds)) return;
    const local = dates.local(seconds);
    const day = Math.floor(local / 86400);
    const prefix = dates.dayPrefix(day);
    this.buf.set(prefix, this.pos);
    let p = this.pos + prefix.length;
    const minute = Math.floor((local - day * 86400) / 60);
    const h = Math.floor(minute / 60);
    const m = minute - h * 60;
    const buf = this.buf;
    buf[p++] = 48 + Math.floor(h / 10);
    buf[p++] = 48 + (h % 10);
    buf[p++] = 58;
    buf[p++] = 48 + Math.floor(m / 10);
    buf[p++] = 48 + (m % 10);
    this.pos = p;
  }
}

/** Per-report caches for dates: UTC offset per 15-minute slot, encoded day prefix per day. */
class ReportDateBytes {
  private readonly offsets = new Map<number, number>();
  private readonly days = new Map<number, Uint8Array>();
  private lastSlot = NaN;
  private lastOffset = 0;
  private lastDay = NaN;
  private lastPrefix: Uint8Array = new Uint8Array(0);
  private readonly encoder = new TextEncoder();

  constructor(private readonly timeZone: string) {}

  /** Local seconds (epoch seconds shifted by the zone's offset at that instant). */
  local(seconds: number): number {
    const slot = Math.floor(seconds / 900);
    if (slot !== this.lastSlot) {
      let off = this.offsets.get(slot);
      if (off === undefined) {
        off = tzOffset(this.timeZone, new Date(slot * 900_000)) * 60;
        this.offsets.set(slot, off);
      }
      this.lastSlot = slot;
      this.lastOffset = off;
    }
    return Math.floor(seconds) + this.lastOffset;
  }

  dayPrefix(day: number): Uint8Array {
    if (day === this.lastDay) return this.lastPrefix;
    let prefix = this.days.get(day);
    if (prefix === undefined) {
      const { y, m, d } = civilFromDays(day);
      prefix = this.encoder.encode(
        String(y).padStart(4, '0') + '-' + TWO_DIGITS[m]! + '-' + TWO_DIGITS[d]! + ' ',
      );
      this.days.set(day, prefix);
    }
    this.lastDay = day;
    this.lastPrefix = prefix;
    return prefix;
  }
}

interface FieldCaches {
  asesor: Map<string, Uint8Array>;
  cliente: Map<string, Uint8Array>;
  desarrollo: Map<string, Uint8Array>;
  cluster: Map<string, Uint8Array>;
  unidad: Map<string, Uint8Array>;
  prototipo: Map<string, Uint8Array>;
  divisa: Map<string, Uint8Array>;
}

const newFieldCaches = (): FieldCaches => ({
  asesor: new Map(),
  cliente: new Map(),
  desarrollo: new Map(),
  cluster: new Map(),
  unidad: new Map(),
  prototipo: new Map(),
  divisa: new Map(),
});

function writeRows(
  w: CsvByteWriter,
  plan: QuoteReportPlan,
  start: number,
  end: number,
  dates: ReportDateBytes,
  caches: FieldCaches,
): void {
  const rows = plan.rows;
  const proto = plan.includePrototype;
  const escr = plan.includeEscrituracion;
  const divisa = plan.includeDivisa;
  const c = caches;
  for (let i = start; i < end; i++) {
    const r = rows[i]!;
    w.date(r.fechaAlta, dates);
    w.comma();
    w.cachedText(r.nombreAsesor, c.asesor);
    w.comma();
    w.cachedText(r.nombreCliente, c.cliente);
    w.comma();
    w.cachedText(r.nombreDesarrollo, c.desarrollo);
    w.comma();
    w.cachedText(r.nombreCluster, c.cluster);
    w.comma();
    w.cachedText(r.nombreUnidad, c.unidad);
    w.comma();
    if (proto) {
      w.cachedText(r.nombrePrototipo, c.prototipo);
      w.comma();
    }
    if (divisa) {
      w.cachedText(r.divisa ?? BASE_CURRENCY, c.divisa);
      w.comma();
    }
    w.money(r.precioLista);
    w.comma();
    w.money(r.descuento);
    w.comma();
    w.money(r.precioFinal);
    w.comma();
    w.money(r.enganche);
    w.comma();
    w.money(r.diferido);
    w.comma();
    w.money(r.mensualidades);
    w.comma();
    if (escr) {
      w.money(r.escrituracion);
      w.comma();
    }
    w.money(r.contraEntrega);
    w.byte(13);
    w.byte(10);
  }
}

/**
 * The report as UTF-8 bytes in chunks of `chunkRows` rows; the first chunk starts with the BOM
 * and the header. A caller (the worker) turns each chunk into a Blob (which copies it) and
 * reports progress between them, without ever holding the whole report as a string.
 *
 * Each chunk's `bytes` is a view of one reused buffer and is overwritten when the next chunk
 * is asked for: copy it first (`new Blob([bytes])`, `bytes.slice()`, a streaming decode).
 */
export function* quoteReportChunks(
  plan: QuoteReportPlan,
  options: Pick<QuoteReportOptions, 'language' | 'timeZone'>,
  chunkRows = DEFAULT_CHUNK_ROWS,
): Generator<{ bytes: Uint8Array; progress: ReportProgress }, void, void> {
  const total = plan.rows.length;
  const step = Math.max(1, Math.floor(chunkRows));
  const w = new CsvByteWriter(Math.min(step, total) * 200 + 1024);
  const dates = new ReportDateBytes(options.timeZone);
  const caches = newFieldCaches();
  for (const b of UTF8_BOM_BYTES) w.byte(b);
  const labels = QUOTE_REPORT_HEADERS[options.language];
  plan.columns.forEach((c, i) => {
    if (i > 0) w.byte(44);
    w.text(labels[c]);
  });
  w.byte(13);
  w.byte(10);
  for (let start = 0; start < total; start += step) {
    const end = Math.min(total, start + step);
    writeRows(w, plan, start, end, dates, caches);
    yield { bytes: w.take(), progress: { rowsDone: end, rowsTotal: total } };
  }
}

/** A report built in memory: its bytes (BOM included) and its text. */
export interface QuoteReportCsv {
  kind: 'report';
  fileName: string;
  /** The full text, starting with the BOM. */
  csv: string;
  rowCount: number;
}

/**
 * Builds the whole report as one string (for small reports and tests; the worker collects
 * {@link quoteReportChunks} into a Blob instead). `now` names the file.
 */
export function buildQuoteReportCsv(
  rows: readonly QuoteReportRow[],
  options: QuoteReportOptions,
  now: Date,
): QuoteReportCsv | NoQuotesThisWeek {
  const plan = planQuoteReport(rows, options);
  if (plan.kind === 'no_quotes_this_week') return plan;
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let csv = '';
  for (const chunk of quoteReportChunks(plan, options)) {
    csv += decoder.decode(chunk.bytes, { stream: true });
  }
  csv += decoder.decode();
  return {
    kind: 'report',
    fileName: reportFileName(now, options.timeZone),
    csv,
    rowCount: plan.rows.length,
  };
}

/**
 * General CSV for arbitrary rows with the same quoting and injection rules: strings through
 * {@link csvField}, finite numbers as `String(n)`, booleans as `true`/`false`, anything else
 * empty. Lines end with CRLF; no BOM.
 */
export function csvFromRows(rows: readonly (readonly unknown[])[]): string {
  const lines: string[] = new Array<string>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let line = '';
    for (let j = 0; j < row.length; j++) {
      const v = row[j];
      const text =
        typeof v === 'string'
          ? csvField(v)
          : typeof v === 'number'
            ? Number.isFinite(v)
              ? String(v)
              : ''
            : typeof v === 'boolean'
              ? String(v)
              : '';
      line = j === 0 ? text : line + ',' + text;
    }
    lines[i] = line + CSV_LINE_END;
  }
  return lines.join('');
}

/**
 * What a streamed weekly report says before its rows (issue 21): how many rows follow, and
 * whether any of them has a deed amount other than 0 or a currency other than MXN (the rules of
 * {@link planQuoteReport}, applied by the server to the whole week).
 */
export interface QuoteReportSummary {
  total: number;
  escrituracion: boolean;
  divisa: boolean;
}

/**
 * The plan of a report whose rows arrive in pages after a {@link QuoteReportSummary}: the same
 * columns {@link planQuoteReport} keeps for those rows, decided before the first row is seen.
 * `rows` stays empty; the pages go to a {@link QuoteReportPageWriter}.
 */
export function planStreamedQuoteReport(
  summary: QuoteReportSummary,
  options: Pick<QuoteReportOptions, 'hidePrototypeName'>,
): QuoteReportPlan | NoQuotesThisWeek {
  if (summary.total === 0) return { kind: 'no_quotes_this_week' };
  const includePrototype = !options.hidePrototypeName;
  const includeEscrituracion = summary.escrituracion;
  const includeDivisa = summary.divisa;
  const columns = QUOTE_REPORT_COLUMNS.filter(
    (c) =>
      (c !== 'prototipo' || includePrototype) &&
      (c !== 'escrituracion' || includeEscrituracion) &&
      (c !== 'divisa' || includeDivisa),
  );
  return { kind: 'plan', rows: [], columns, includePrototype, includeEscrituracion, includeDivisa };
}

/**
 * Writes a report page by page as its rows arrive (the worker, from the streamed weekly report):
 * {@link header} first, then {@link page} for each page, the bytes the same as
 * {@link quoteReportChunks} writes for all the rows at once. Each answer is a view of the
 * writer's reused buffer, valid until the next call: copy it (a Blob) first.
 */
export class QuoteReportPageWriter {
  private readonly w = new CsvByteWriter(64 * 1024);
  private readonly dates: ReportDateBytes;
  private readonly caches = newFieldCaches();

  constructor(
    private readonly plan: QuoteReportPlan,
    private readonly options: Pick<QuoteReportOptions, 'language' | 'timeZone' | 'viewer'>,
  ) {
    this.dates = new ReportDateBytes(options.timeZone);
  }

  /** The BOM and the header line. */
  header(): Uint8Array {
    const w = this.w;
    for (const b of UTF8_BOM_BYTES) w.byte(b);
    const labels = QUOTE_REPORT_HEADERS[this.options.language];
    this.plan.columns.forEach((c, i) => {
      if (i > 0) w.byte(44);
      w.text(labels[c]);
    });
    w.byte(13);
    w.byte(10);
    return w.take();
  }

  /** One page's lines (a viewer who is not an admin keeps only their own rows) and their count. */
  page(rows: readonly QuoteReportRow[]): { bytes: Uint8Array; rows: number } {
    const viewerId = this.options.viewer.id;
    const kept = this.options.viewer.isAdmin ? rows : rows.filter((r) => r.idAsesor === viewerId);
    writeRows(this.w, { ...this.plan, rows: kept }, 0, kept.length, this.dates, this.caches);
    return { bytes: this.w.take(), rows: kept.length };
  }
}
