/**
 * CSV quote report, 1,000,000 quotations: our chunked byte writer against papaparse.unparse,
 * csv-stringify (sync) and a bare `rows.map(r => r.join(',')).join('\n')`, all measured in this
 * run on the same rows. Run: `npx tsx --expose-gc tests/bench/csv.bench.ts [rows]`.
 *
 * The libraries and the bare join get the rows as arrays of raw values and write numbers as
 * they are; ours starts from the row objects and does everything the report needs (date in the
 * corporate's time zone, cents as decimals, RFC 4180 quoting, injection prefix, UTF-8 bytes
 * with BOM, a Blob), so the comparison favours the baselines.
 */

import { stringify } from 'csv-stringify/sync';
import Papa from 'papaparse';
import { planQuoteReport, quoteReportChunks } from '../../src/core/quote-report';
import type { QuoteReportOptions, QuoteReportRow } from '../../src/core/quote-report';
import { makeQuoteRows, quoteRowsAsArrays } from '../fixtures/quote-rows';
import { recordResult } from './support/results';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const options: QuoteReportOptions = {
  language: 'es',
  viewer: { id: 'admin', isAdmin: true },
  hidePrototypeName: false,
  timeZone: 'America/Mexico_City',
};

const gc = (globalThis as { gc?: () => void }).gc;
const collect = (): void => gc?.();
const mb = (bytes: number): number => bytes / 1e6;

function ours(
  rows: readonly QuoteReportRow[],
  onChunk?: () => void,
): { bytes: number; blob: Blob } {
  const plan = planQuoteReport(rows, options);
  if (plan.kind !== 'plan') throw new Error('no rows');
  // As the worker does it: each chunk copied into a Blob before the writer reuses its buffer.
  const parts: Blob[] = [];
  let bytes = 0;
  for (const chunk of quoteReportChunks(plan, options)) {
    parts.push(new Blob([chunk.bytes as Uint8Array<ArrayBuffer>]));
    bytes += chunk.bytes.length;
    onChunk?.();
  }
  return { bytes, blob: new Blob(parts, { type: 'text/csv;charset=utf-8' }) };
}

interface Result {
  name: string;
  times: number[];
  bytes: number;
}

function time(name: string, reps: number, run: () => number, results: Map<string, Result>): void {
  for (let i = 0; i < reps; i++) {
    collect();
    const t0 = performance.now();
    const bytes = run();
    const ms = performance.now() - t0;
    const r = results.get(name) ?? { name, times: [], bytes };
    r.times.push(ms);
    results.set(name, r);
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

function main(): void {
  console.log(`CSV quote report bench: ${ROWS.toLocaleString('en')} rows, node ${process.version}`);
  if (gc === undefined) console.log('(run with --expose-gc for steadier memory figures)');
  const rows = makeQuoteRows(ROWS, 42);
  const arrays = quoteRowsAsArrays(rows);

  // Memory first, in a quiet heap: resident-set growth while building, sampled after each chunk.
  collect();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const built = ours(rows, () => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  });
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  const outputBytes = built.bytes;
  const memoryRatio = (rssPeak - rssBefore) / outputBytes;

  const results = new Map<string, Result>();
  const enc = (s: string): number => Buffer.byteLength(s, 'utf8');
  // Interleaved so background load hits every method alike.
  for (let round = 0; round < 3; round++) {
    time('ours (report → UTF-8 Blob)', 1, () => ours(rows).bytes, results);
    time('bare join', 1, () => enc(arrays.map((r) => r.join(',')).join('\n')), results);
    if (round < 2) {
      time('papaparse.unparse', 1, () => enc(Papa.unparse(arrays)), results);
      time('csv-stringify (sync)', 1, () => enc(stringify(arrays)), results);
    }
  }

  const get = (name: string): Result => {
    const r = results.get(name);
    if (r === undefined) throw new Error(name);
    return r;
  };
  const oursR = get('ours (report → UTF-8 Blob)');
  const oursMs = median(oursR.times);
  console.log('');
  console.log(
    '| method | median ms | runs | output MB | MB/s | ours is × faster |\n|---|---:|---:|---:|---:|---:|',
  );
  for (const r of results.values()) {
    const ms = median(r.times);
    console.log(
      `| ${r.name} | ${ms.toFixed(0)} | ${r.times.length} | ${mb(r.bytes).toFixed(1)} | ${(mb(r.bytes) / (ms / 1000)).toFixed(1)} | ${(ms / oursMs).toFixed(2)} |`,
    );
  }
  const papa = median(get('papaparse.unparse').times);
  const stringifyMs = median(get('csv-stringify (sync)').times);
  const bare = median(get('bare join').times);
  const fasterLibrary = Math.min(papa, stringifyMs);
  const vsLibrary = fasterLibrary / oursMs;
  const vsBare = oursMs / bare;
  console.log('');
  console.log('| target | measured | met |\n|---|---:|---|');
  console.log(
    `| ≥ 4× the faster library | ${vsLibrary.toFixed(2)}× | ${vsLibrary >= 4 ? 'yes' : 'NO'} |`,
  );
  console.log(
    `| within 1.5× of the bare join | ${vsBare.toFixed(2)}× its time | ${vsBare <= 1.5 ? 'yes' : 'NO'} |`,
  );
  console.log(
    `| peak memory < 3× output | ${memoryRatio.toFixed(2)}× (${mb(rssPeak - rssBefore).toFixed(0)} MB RSS growth for ${mb(outputBytes).toFixed(0)} MB) | ${memoryRatio < 3 ? 'yes' : 'NO'} |`,
  );
  const rowCount = `${ROWS.toLocaleString('en')} rows`;
  recordResult({
    bench: 'csv',
    measure: `quote report CSV, ${rowCount}: time (baseline: the faster library)`,
    value: oursMs,
    unit: 'ms',
    baseline: { label: papa <= stringifyMs ? 'papaparse' : 'csv-stringify', value: fasterLibrary },
    target: { text: '≤ 0.25× (4× faster)', met: vsLibrary >= 4 },
  });
  recordResult({
    bench: 'csv',
    measure: `quote report CSV, ${rowCount}: time against a bare join`,
    value: oursMs,
    unit: 'ms',
    baseline: { label: 'bare join', value: bare },
    target: { text: '≤ 1.5×', met: vsBare <= 1.5 },
  });
  recordResult({
    bench: 'csv',
    measure: `quote report CSV, ${rowCount}: RSS growth against the output size`,
    value: mb(rssPeak - rssBefore),
    unit: 'MB',
    baseline: { label: 'output', value: mb(outputBytes) },
    target: { text: '< 3×', met: memoryRatio < 3 },
  });
}

main();
