import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Money } from '../../src/core/brands';
import { buildQuoteReportCsv, csvFromRows } from '../../src/core/quote-report';
import type { QuoteReportRow } from '../../src/core/quote-report';

const INJECTION_START = new Set(['=', '+', '-', '@', '\t', '\r', '\n']);

/** What a field reads as after the round trip: injection-prefixed fields gain a leading '. */
const expected = (field: string) => (INJECTION_START.has(field.charAt(0)) ? "'" + field : field);

/** Text with the characters that matter to CSV over-represented, plus accents and emoji. */
const text = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(',', '"', '\r', '\n', '=', '+', '-', '@', '\t', "'") },
    { weight: 4, arbitrary: fc.constantFrom('á', 'é', 'ñ', 'Ü', '€', '🏠', '中') },
    { weight: 8, arbitrary: fc.constantFrom('a', 'B', '1', ' ', '.', ';') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 1 }) },
  ),
  maxLength: 20,
});

function parseCsv(csv: string): string[][] {
  return parse(csv, { bom: true });
}

describe('CSV properties', () => {
  it('csvFromRows parses back to exactly the input fields (injection-prefixed gain a leading apostrophe)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        (rows) => {
          const widths = new Set(rows.map((r) => r.length));
          fc.pre(widths.size === 1);
          expect(parseCsv(csvFromRows(rows))).toEqual(rows.map((r) => r.map(expected)));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('the quote report parses back to exactly the input names', () => {
    const cents = fc.integer({ min: 0, max: 10_000_000_000 }).map((n) => n as Money);
    const row = fc.record({
      fechaAlta: fc.integer({ min: 946_684_800, max: 2_524_608_000 }),
      idAsesor: fc.constantFrom('a1', 'a2'),
      nombreAsesor: text,
      nombreCliente: text,
      nombreDesarrollo: text,
      nombreCluster: text,
      nombreUnidad: text,
      nombrePrototipo: text,
      precioLista: cents,
      descuento: cents,
      precioFinal: cents,
      enganche: cents,
      diferido: cents,
      mensualidades: cents,
      escrituracion: cents,
      contraEntrega: cents,
    });
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 10 }), (rows: QuoteReportRow[]) => {
        const out = buildQuoteReportCsv(
          rows,
          {
            language: 'es',
            viewer: { id: 'x', isAdmin: true },
            hidePrototypeName: false,
            timeZone: 'America/Mexico_City',
          },
          new Date(0),
        );
        if (out.kind !== 'report') throw new Error('expected a report');
        const records = parseCsv(out.csv).slice(1);
        expect(records).toHaveLength(rows.length);
        records.forEach((rec, i) => {
          const r = rows[i]!;
          expect(rec.slice(1, 7)).toEqual(
            [
              r.nombreAsesor,
              r.nombreCliente,
              r.nombreDesarrollo,
              r.nombreCluster,
              r.nombreUnidad,
              r.nombrePrototipo,
            ].map(expected),
          );
          expect(Math.round(Number(rec[7]) * 100)).toBe(r.precioLista);
          expect(Math.round(Number(rec.at(-1)) * 100)).toBe(r.contraEntrega);
        });
      }),
      { numRuns: 200 },
    );
  });
});
