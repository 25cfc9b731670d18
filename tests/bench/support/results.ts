/**
 * One table for `npm run bench`: each bench records its figures here and scripts/bench.mjs prints
 * them together at the end, every figure beside the baseline measured in the same run.
 *
 * A bench calls {@link recordResult} once per measure. When run through `npm run bench` the
 * records go to the file named by `VITRINA_BENCH_RESULTS` (one JSON object per line); run alone,
 * they are only printed.
 */
import { appendFileSync } from 'node:fs';

export interface BenchResult {
  /** The bench's short name (the file name without `.bench.ts`). */
  bench: string;
  /** What was measured, in words: "development list, PostgreSQL, req/s". */
  measure: string;
  value: number;
  unit: string;
  /** The same measure for the baseline, run in the same process and moment. */
  baseline?: { label: string; value: number };
  /**
   * The target as text ("≥ 0.25× baseline", "< 50 ms") and whether this run met it. Absent for
   * figures that are reported, not targeted.
   */
  target?: { text: string; met: boolean };
}

export function recordResult(result: BenchResult): void {
  const file = process.env.VITRINA_BENCH_RESULTS;
  if (file) appendFileSync(file, JSON.stringify(result) + '\n');
  const base = result.baseline
    ? ` (baseline ${result.baseline.label}: ${format(result.baseline.value, result.unit)}; ${ratio(result)})`
    : '';
  const target = result.target
    ? ` [target ${result.target.text}: ${result.target.met ? 'met' : 'NOT met'}]`
    : '';
  console.log(`result: ${result.measure}: ${format(result.value, result.unit)}${base}${target}`);
}

export function format(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: 0 })} ${unit}`.trim();
}

export function ratio(result: BenchResult): string {
  if (!result.baseline || result.baseline.value === 0) return '—';
  return `${(result.value / result.baseline.value).toFixed(2)}×`;
}
