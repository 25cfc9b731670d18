import { parse } from 'csv-parse/sync';
import type { Options } from 'csv-parse';
import { describe, expect, it } from 'vitest';
import type { Money } from '../../../src/core/brands';
import {
  buildQuoteReportCsv,
  csvField,
  csvFromRows,
  csvMoney,
  planQuoteReport,
  quoteReportChunks,
  reportFileName,
} from '../../../src/core/quote-report';
import type { QuoteReportOptions, QuoteReportRow } from '../../../src/core/quote-report';

const m = (n: number) => n as Money;
const row = (over: Partial<QuoteReportRow> = {}): QuoteReportRow => ({
  fechaAlta: 1_717_459_200, // 2024-06-04T00:00:00Z = 2024-06-03 18:00 in Mexico City
  idAsesor: 'a1',
  nombreAsesor: 'Ana López',
  nombreCliente: 'Juan Pérez',
  nombreDesarrollo: 'Vista Mar',
  nombreCluster: 'Torre A',
  nombreUnidad: 'A-101',
  nombrePrototipo: 'Tipo 1',
  precioLista: m(250_000_000),
  descuento: m(12_500_000),
  precioFinal: m(237_500_000),
  enganche: m(71_250_000),
  diferido: m(0),
  mensualidades: m(47_500_000),
  escrituracion: m(0),
  contraEntrega: m(118_750_000),
  ...over,
});
const admin: QuoteReportOptions = {
  language: 'es',
  viewer: { id: 'admin', isAdmin: true },
  hidePrototypeName: false,
  timeZone: 'America/Mexico_City',
};
const now = new Date('2024-06-07T17:00:00Z');

function records(csv: string): string[][] {
  return parse(csv, { bom: true, relax_column_count: false } satisfies Options);
}

describe('quote report CSV (spec §5, §9)', () => {
  it('names the file Reporte_Cotizaciones_{dd}_{mm}_{yyyy}.csv', () => {
    expect(reportFileName(new Date('2024-06-07T17:00:00Z'))).toBe(
      'Reporte_Cotizaciones_07_06_2024.csv',
    );
    // 2024-01-01 03:00 UTC is still 31 Dec in Mexico City.
    expect(reportFileName(new Date('2024-01-01T03:00:00Z'), 'America/Mexico_City')).toBe(
      'Reporte_Cotizaciones_31_12_2023.csv',
    );
  });

  it('gives no_quotes_this_week when there is nothing to export', () => {
    expect(buildQuoteReportCsv([], admin, now)).toEqual({ kind: 'no_quotes_this_week' });
    const nonAdmin = { ...admin, viewer: { id: 'a2', isAdmin: false } };
    expect(buildQuoteReportCsv([row()], nonAdmin, now)).toEqual({ kind: 'no_quotes_this_week' });
  });

  it('writes a UTF-8 BOM, Spanish headers and one row per quotation', () => {
    const out = buildQuoteReportCsv([row({ escrituracion: m(500) })], admin, now);
    if (out.kind !== 'report') throw new Error('expected a report');
    expect(out.csv.charCodeAt(0)).toBe(0xfeff);
    expect(out.fileName).toBe('Reporte_Cotizaciones_07_06_2024.csv');
    expect(out.csv.split('\r\n')).toEqual([
      '\uFEFFFecha,Asesor,Cliente,Desarrollo,Cluster,Unidad,Prototipo,Precio de lista,Descuento,Precio final,Enganche,Diferido,Mensualidades,Escrituración,Contra entrega',
      '2024-06-03 18:00,Ana López,Juan Pérez,Vista Mar,Torre A,A-101,Tipo 1,2500000.00,125000.00,2375000.00,712500.00,0.00,475000.00,5.00,1187500.00',
      '',
    ]);
  });

  it('writes English headers with the spec §9 labels', () => {
    const out = buildQuoteReportCsv(
      [row({ escrituracion: m(1) })],
      { ...admin, language: 'en' },
      now,
    );
    if (out.kind !== 'report') throw new Error('expected a report');
    expect(records(out.csv)[0]).toEqual([
      'Date',
      'Adviser',
      'Client',
      'Development',
      'Cluster',
      'Unit',
      'Prototype',
      'List price',
      'Discount',
      'Final price',
      'Down payment',
      'Deferred',
      'Monthly payment',
      'Deed',
      'Upon delivery',
    ]);
  });

  it('a non-admin exports only their own quotes', () => {
    const rows = [
      row({ idAsesor: 'a1', nombreCliente: 'Uno' }),
      row({ idAsesor: 'a2', nombreCliente: 'Dos' }),
    ];
    const out = buildQuoteReportCsv(rows, { ...admin, viewer: { id: 'a2', isAdmin: false } }, now);
    if (out.kind !== 'report') throw new Error('expected a report');
    expect(out.rowCount).toBe(1);
    expect(records(out.csv).map((r) => r[2])).toEqual(['Cliente', 'Dos']);
    const all = buildQuoteReportCsv(rows, admin, now);
    expect(all.kind === 'report' && all.rowCount).toBe(2);
  });

  it('drops the escrituración column when every quote has 0 there', () => {
    const plan = planQuoteReport([row(), row()], admin);
    expect(plan.kind === 'plan' && plan.columns).not.toContain('escrituracion');
    const withDeed = planQuoteReport([row(), row({ escrituracion: m(1) })], admin);
    expect(withDeed.kind === 'plan' && withDeed.columns).toContain('escrituracion');
  });

  it('labels the currency of each row when a quote is not in MXN', () => {
    const mxnOnly = planQuoteReport([row(), row({ divisa: 'MXN' })], admin);
    expect(mxnOnly.kind === 'plan' && mxnOnly.columns).not.toContain('divisa');
    const mixed = buildQuoteReportCsv(
      [row({ precioLista: m(100_00) }), row({ divisa: 'USD', precioLista: m(5_40) })],
      { ...admin, language: 'en' },
      now,
    );
    if (mixed.kind !== 'report') throw new Error('expected a report');
    const [header, mxn, usd] = records(mixed.csv);
    expect(header!.slice(6, 8)).toEqual(['Prototype', 'Currency']);
    expect(mxn!.slice(7, 9)).toEqual(['MXN', '100.00']);
    expect(usd!.slice(7, 9)).toEqual(['USD', '5.40']);
    const dollars = buildQuoteReportCsv([row({ divisa: 'USD' })], admin, now);
    expect(dollars.kind === 'report' && records(dollars.csv)[0]![7]).toBe('Moneda');
  });

  it('drops the prototype column when the corporate hides it', () => {
    const out = buildQuoteReportCsv([row()], { ...admin, hidePrototypeName: true }, now);
    if (out.kind !== 'report') throw new Error('expected a report');
    const [header, first] = records(out.csv);
    expect(header).not.toContain('Prototipo');
    expect(first).not.toContain('Tipo 1');
    expect(header).toHaveLength(13);
  });

  it('quotes per RFC 4180', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('plain')).toBe('plain');
    expect(csvField(undefined)).toBe('');
  });

  it("neutralises formula injection with a leading '", () => {
    expect(csvField('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvField('+52 55')).toBe("'+52 55");
    expect(csvField('-1')).toBe("'-1");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('\tx')).toBe("'\tx");
    expect(csvField('\rx')).toBe('"\'\rx"');
    expect(csvField('\nx')).toBe('"\'\nx"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
  });

  it('the byte writer applies the same rules as csvField, accents and emoji included', () => {
    const names = ['=1+1', 'a,"b"', 'Ñandú 🏠', 'x\ny', '-', '', 'Renée'];
    const rows = names.map((n) => row({ nombreCliente: n }));
    const out = buildQuoteReportCsv(rows, admin, now);
    if (out.kind !== 'report') throw new Error('expected a report');
    const body = out.csv.split('\r\n').slice(1).join('\r\n');
    for (const n of names) expect(body).toContain(`,${csvField(n)},`);
    expect(
      records(out.csv)
        .slice(1)
        .map((r) => r[2]),
    ).toEqual(["'=1+1", 'a,"b"', 'Ñandú 🏠', 'x\ny', "'-", '', 'Renée']);
  });

  it('formats cents without grouping, two decimals', () => {
    expect(csvMoney(0)).toBe('0.00');
    expect(csvMoney(5)).toBe('0.05');
    expect(csvMoney(123_456_789)).toBe('1234567.89');
    expect(csvMoney(-150)).toBe('-1.50');
    // The byte writer agrees, above and below the int32 range of whole units.
    const big = row({ precioLista: m(987_654_321_012), descuento: m(7) });
    const out = buildQuoteReportCsv([big], admin, now);
    if (out.kind !== 'report') throw new Error('expected a report');
    expect(records(out.csv)[1]!.slice(7, 9)).toEqual(['9876543210.12', '0.07']);
  });

  it('chunks carry progress and concatenate to the whole report', () => {
    const rows = Array.from({ length: 10 }, (_, i) => row({ nombreUnidad: `U${i}` }));
    const plan = planQuoteReport(rows, admin);
    if (plan.kind !== 'plan') throw new Error('expected a plan');
    // Each chunk is a view of a reused buffer: copied before the next one is asked for.
    const chunks = Array.from(quoteReportChunks(plan, admin, 4), (c) => ({
      bytes: c.bytes.slice(),
      progress: c.progress,
    }));
    expect(chunks.map((c) => c.progress.rowsDone)).toEqual([4, 8, 10]);
    expect(chunks.every((c) => c.progress.rowsTotal === 10)).toBe(true);
    const joined = new TextDecoder('utf-8', { ignoreBOM: true }).decode(
      new Uint8Array(chunks.flatMap((c) => Array.from(c.bytes))),
    );
    const whole = buildQuoteReportCsv(rows, admin, now);
    expect(whole.kind === 'report' && whole.csv).toBe(joined);
  });

  it('csvFromRows applies the same field rules to arbitrary rows', () => {
    expect(csvFromRows([['a', 1, true, null, '=x']])).toBe("a,1,true,,'=x\r\n");
  });
});
