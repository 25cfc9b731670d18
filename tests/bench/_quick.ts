import { makeQuoteRows, quoteRowsAsArrays } from '/work/main/tests/fixtures/quote-rows';
import { planQuoteReport, quoteReportChunks } from '/work/main/src/core/quote-report';
import Papa from 'papaparse';
const rows = makeQuoteRows(1_000_000);
const arrays = quoteRowsAsArrays(rows);
const opts = { language: 'es' as const, viewer: { id: 'x', isAdmin: true }, hidePrototypeName: false, timeZone: 'America/Mexico_City' };
for (let k = 0; k < 3; k++) {
  let t = performance.now();
  const plan = planQuoteReport(rows, opts);
  if (plan.kind !== 'plan') throw 1;
  const enc = new TextEncoder(); let bytes = 0; const parts: Uint8Array[] = [];
  for (const c of quoteReportChunks(plan, opts)) { const u = enc.encode(c.text); bytes += u.length; parts.push(u); }
  const tOurs = performance.now() - t;
  t = performance.now();
  let strLen = 0;
  for (const c of quoteReportChunks(plan, opts)) strLen += c.text.length;
  const tOursNoEnc = performance.now() - t;
  t = performance.now();
  const bare = arrays.map((r) => r.join(',')).join('\n');
  const tBare = performance.now() - t;
  let tPapa = NaN;
  if (k === 0) { t = performance.now(); const p = Papa.unparse(arrays); tPapa = performance.now() - t; console.log('papa len', p.length); }
  console.log({ tOurs, tOursNoEnc, tBare, tPapa, bytes, strLen, bareLen: bare.length });
}
