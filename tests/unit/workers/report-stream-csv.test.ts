import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildQuoteReportCsv,
  type QuoteReportOptions,
  type QuoteReportRow,
  type QuoteReportSummary,
} from '../../../src/core/quote-report';
import { buildQuoteReportFromLines, ndjsonLines } from '../../../src/workers/core-api';
import { makeQuoteRows } from '../../fixtures/quote-rows';

const options: QuoteReportOptions = {
  language: 'es',
  viewer: { id: 'admin', isAdmin: true },
  hidePrototypeName: false,
  timeZone: 'America/Mexico_City',
};
const NOW = new Date('2024-06-05T12:00:00Z');

/** The summary the server sends first (report-stream.ts), computed the server's way. */
const summaryOf = (rows: readonly QuoteReportRow[]): QuoteReportSummary => ({
  total: rows.length,
  escrituracion: rows.some((r) => r.escrituracion !== 0),
  divisa: rows.some((r) => r.divisa !== undefined && r.divisa !== 'MXN'),
});

/** The NDJSON body: the summary, then the rows cut into pages at `cuts`. */
function ndjson(rows: readonly QuoteReportRow[], cuts: number[]): string {
  const bounds = [...new Set([0, ...cuts.map((c) => c % (rows.length + 1)), rows.length])].sort(
    (a, b) => a - b,
  );
  const pages: string[] = [];
  for (let i = 1; i < bounds.length; i++) {
    pages.push(JSON.stringify(rows.slice(bounds[i - 1], bounds[i])));
  }
  return [JSON.stringify(summaryOf(rows)), ...pages].map((l) => `${l}\n`).join('');
}

/** A body delivered in network chunks of `size` bytes (a line spans many of them). */
function body(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function streamedCsv(text: string, chunk: number, opts = options) {
  const out = await buildQuoteReportFromLines(
    ndjsonLines(body(text, chunk)),
    opts,
    NOW,
    undefined,
    {
      yieldBetweenChunks: false,
    },
  );
  if (out.kind !== 'report') return out;
  return {
    ...out,
    csv: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await out.blob.arrayBuffer()),
  };
}

describe('the weekly report written page by page as it streams (issue 21)', () => {
  it('writes the same file as the whole array, wherever the pages and the chunks end', async () => {
    const all = makeQuoteRows(300, 7);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.boolean(),
        async (count, cuts, chunk, hide) => {
          const rows = all.slice(0, count);
          const opts = { ...options, hidePrototypeName: hide };
          const whole = buildQuoteReportCsv(rows, opts, NOW);
          const streamed = await streamedCsv(ndjson(rows, cuts), chunk, opts);
          expect(whole.kind).toBe('report');
          expect(streamed.kind).toBe('report');
          if (whole.kind !== 'report' || streamed.kind !== 'report') return;
          expect(streamed.csv).toBe(whole.csv);
          expect(streamed.fileName).toBe(whole.fileName);
          expect(streamed.rowCount).toBe(count);
        },
      ),
      { numRuns: 60 },
    );
    // 60 runs take 1-2 s alone and went over the default 5 s on a machine busy with other suites.
  }, 30_000);

  it('keeps the optional columns the whole week needs, decided before the first page', async () => {
    const rows = makeQuoteRows(20, 3).map((r, i) => ({
      ...r,
      escrituracion: (i === 19 ? 100 : 0) as QuoteReportRow['escrituracion'],
      divisa: i === 18 ? 'USD' : 'MXN',
    }));
    const whole = buildQuoteReportCsv(rows, options, NOW);
    const streamed = await streamedCsv(ndjson(rows, [5, 10]), 64);
    if (whole.kind !== 'report' || streamed.kind !== 'report') throw new Error('no report');
    expect(whole.csv.split('\r\n')[0]).toContain('Moneda');
    expect(whole.csv.split('\r\n')[0]).toContain('Escrituración');
    expect(streamed.csv).toBe(whole.csv);
  });

  it('answers no quotations this week for an empty week', async () => {
    const out = await streamedCsv('{"total":0,"escrituracion":false,"divisa":false}\n', 10);
    expect(out).toEqual({ kind: 'no_quotes_this_week' });
  });
});
