// Runs every tests/bench/*.bench.ts in sequence with tsx (one at a time: benchmarks must not
// compete for the CPU). Exits non-zero only when a bench crashes; results are printed, not
// asserted.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, 'tests', 'bench');
const only = process.argv.slice(2);
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort()
  .map((f) => join(benchDir, f));

if (files.length === 0) {
  console.error('no bench files found in tests/bench');
  process.exit(1);
}

// Every bench appends its figures (tests/bench/support/results.ts) to one file; the table at the
// end prints them together, each beside its baseline.
const resultsFile = join(mkdtempSync(join(tmpdir(), 'vitrina-bench-')), 'results.jsonl');
const crashed = [];
for (const file of files) {
  const name = relative(root, file);
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, VITRINA_BENCH_RESULTS: resultsFile },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    crashed.push(name);
    console.log(`=== ${name}: CRASHED (status ${run.status ?? run.signal}) after ${seconds} s ===`);
  } else {
    console.log(`=== ${name}: done in ${seconds} s ===`);
  }
}

printTable();

if (crashed.length > 0) {
  console.error(`\n${crashed.length} bench(es) crashed: ${crashed.join(', ')}`);
  process.exit(1);
}
console.log(`\n${files.length} bench(es) ran.`);

function printTable() {
  if (!existsSync(resultsFile)) return;
  const results = readFileSync(resultsFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  if (results.length === 0) return;
  const fmt = (value, unit) => {
    const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
    return `${value.toLocaleString('en', { maximumFractionDigits: digits })} ${unit}`.trim();
  };
  console.log('\n=== all results ===\n');
  console.log('| bench | measure | value | baseline | ratio | target |');
  console.log('|---|---|---:|---|---:|---|');
  for (const r of results) {
    const baseline = r.baseline ? `${r.baseline.label}: ${fmt(r.baseline.value, r.unit)}` : '—';
    const ratio =
      r.baseline && r.baseline.value !== 0 ? `${(r.value / r.baseline.value).toFixed(2)}×` : '—';
    const target = r.target ? `${r.target.text}: ${r.target.met ? 'met' : '**NOT met**'}` : '—';
    console.log(
      `| ${r.bench} | ${r.measure} | ${fmt(r.value, r.unit)} | ${baseline} | ${ratio} | ${target} |`,
    );
  }
}
