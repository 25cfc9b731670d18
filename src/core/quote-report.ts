/**
 * The weekly quote report as CSV (spec §5, §9): one row per quotation, RFC 4180 quoting,
 * formula injection neutralised, UTF-8 with BOM.
 *
 * It is built for a million rows: each text field is scanned once (a char-code test for the
 * injection characters and one precompiled regex test for quoting), numbers are formatted
 * with integer arithmetic instead of Intl, dates through per-day caches, and the text is
 * produced in chunks so a caller (the worker) can encode each chunk and report progress.
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
}

/** A report built as one string. */
export interface QuoteReportCsv {
  kind: 'report';
  fileName: string;
  csv: string;
  rowCount: number;
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
const HH_MM: readonly string[] = Array.from(
  { length: 1440 },
  (_, m) => TWO_DIGITS[Math.floor(m / 60)]! + ':' + TWO_DIGITS[m % 60]!,
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

/**
 * Formats epoch seconds as `dd/MM/yyyy HH:mm` in a time zone. Offsets are looked up once per
 * 15-minute slot (every real offset change falls on one) and day prefixes once per day.
 */
export function createReportDateFormatter(timeZone: string): (seconds: number) => string {
  const offsets = new Map<number, number>();
  const days = new Map<number, string>();
  let lastSlot = NaN;
  let lastOffset = 0;
  return (seconds: number): string => {
    if (!Number.isFinite(seconds)) return '';
    const slot = Math.floor(seconds / 900);
    if (slot !== lastSlot) {
      let off = offsets.get(slot);
      if (off === undefined) {
        off = tzOffset(timeZone, new Date(slot * 900_000)) * 60;
        offsets.set(slot, off);
      }
      lastSlot = slot;
      lastOffset = off;
    }
    const local = Math.floor(seconds) + lastOffset;
    const day = Math.floor(local / 86400);
    let prefix = days.get(day);
    if (prefix === undefined) {
      const { y, m, d } = civilFromDays(day);
      prefix = TWO_DIGITS[d]! + '/' + TWO_DIGITS[m]! + '/' + String(y).padStart(4, '0') + ' ';
      days.set(day, prefix);
    }
    return prefix + HH_MM[Math.floor((local - day * 86400) / 60)]!;
  };
}

/** Spec §9 file name: `Reporte_Cotizaciones_{dd}_{mm}_{yyyy}.csv`, the date in `timeZone`. */
export function reportFileName(date: Date, timeZone = 'UTC'): string {
  const d = new TZDate(date.getTime(), timeZone);
  return `Reporte_Cotizaciones_${TWO_DIGITS[d.getDate()]!}_${TWO_DIGITS[d.getMonth() + 1]!}_${d.getFullYear()}.csv`;
}

/**
 * Applies the spec §5 rules: keeps the viewer's own quotations unless the viewer is an admin,
 * drops the escrituración column when every kept quotation has 0 there, drops the prototype
 * column when the corporate hides it; no rows left → {@link NoQuotesThisWeek}.
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
  const includePrototype = !options.hidePrototypeName;
  const columns = QUOTE_REPORT_COLUMNS.filter(
    (c) =>
      (c !== 'prototipo' || includePrototype) && (c !== 'escrituracion' || includeEscrituracion),
  );
  return { kind: 'plan', rows: kept, columns, includePrototype, includeEscrituracion };
}

/** BOM + header line + line end. */
export function quoteReportHeader(plan: QuoteReportPlan, language: ReportLanguage): string {
  const labels = QUOTE_REPORT_HEADERS[language];
  return UTF8_BOM + plan.columns.map((c) => csvField(labels[c])).join(',') + CSV_LINE_END;
}

/**
 * The CSV lines of `plan.rows[start..end)`, each ending with CRLF. `formatDate` comes from
 * {@link createReportDateFormatter}; pass the same one to every chunk so its caches are reused.
 */
export function quoteReportLines(
  plan: QuoteReportPlan,
  start: number,
  end: number,
  formatDate: (seconds: number) => string,
): string {
  const rows = plan.rows;
  const proto = plan.includePrototype;
  const escr = plan.includeEscrituracion;
  const stop = Math.min(end, rows.length);
  const parts: string[] = new Array<string>(Math.max(0, stop - start));
  let k = 0;
  for (let i = start; i < stop; i++) {
    const r = rows[i]!;
    let line =
      formatDate(r.fechaAlta) +
      ',' +
      csvField(r.nombreAsesor) +
      ',' +
      csvField(r.nombreCliente) +
      ',' +
      csvField(r.nombreDesarrollo) +
      ',' +
      csvField(r.nombreCluster) +
      ',' +
      csvField(r.nombreUnidad) +
      ',';
    if (proto) line += csvField(r.nombrePrototipo) + ',';
    line +=
      csvMoney(r.precioLista) +
      ',' +
      csvMoney(r.descuento) +
      ',' +
      csvMoney(r.precioFinal) +
      ',' +
      csvMoney(r.enganche) +
      ',' +
      csvMoney(r.diferido) +
      ',' +
      csvMoney(r.mensualidades) +
      ',';
    if (escr) line += csvMoney(r.escrituracion) + ',';
    parts[k++] = line + csvMoney(r.contraEntrega) + CSV_LINE_END;
  }
  return parts.join('');
}

/** Progress of a chunked build. */
export interface ReportProgress {
  rowsDone: number;
  rowsTotal: number;
}

/**
 * The report's text in chunks of `chunkRows` rows (the first chunk starts with the BOM and the
 * header). Lets a caller encode and release each chunk, and report progress, as it goes.
 */
export function* quoteReportChunks(
  plan: QuoteReportPlan,
  options: Pick<QuoteReportOptions, 'language' | 'timeZone'>,
  chunkRows = DEFAULT_CHUNK_ROWS,
): Generator<{ text: string; progress: ReportProgress }, void, void> {
  const formatDate = createReportDateFormatter(options.timeZone);
  const total = plan.rows.length;
  const step = Math.max(1, Math.floor(chunkRows));
  let text = quoteReportHeader(plan, options.language);
  for (let start = 0; start < total; start += step) {
    const end = Math.min(total, start + step);
    text += quoteReportLines(plan, start, end, formatDate);
    yield { text, progress: { rowsDone: end, rowsTotal: total } };
    text = '';
  }
}

/**
 * Builds the whole report as one string (for small reports and tests; the worker uses
 * {@link quoteReportChunks} to produce a Blob). `now` names the file.
 */
export function buildQuoteReportCsv(
  rows: readonly QuoteReportRow[],
  options: QuoteReportOptions,
  now: Date,
): QuoteReportCsv | NoQuotesThisWeek {
  const plan = planQuoteReport(rows, options);
  if (plan.kind === 'no_quotes_this_week') return plan;
  const texts: string[] = [];
  for (const chunk of quoteReportChunks(plan, options)) texts.push(chunk.text);
  return {
    kind: 'report',
    fileName: reportFileName(now, options.timeZone),
    csv: texts.join(''),
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
