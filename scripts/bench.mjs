// Runs every tests/bench/*.bench.ts in sequence with tsx (one at a time: benchmarks must not
// compete for the CPU). Exits non-zero only when a bench crashes; results are printed, not
// asserted.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
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

const crashed = [];
for (const file of files) {
  const name = relative(root, file);
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', file], {
    cwd: root,
    stdio: 'inherit',
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (run.status !== 0) {
    crashed.push(name);
    console.log(`=== ${name}: CRASHED (status ${run.status ?? run.signal}) after ${seconds} s ===`);
  } else {
    console.log(`=== ${name}: done in ${seconds} s ===`);
  }
}

if (crashed.length > 0) {
  console.error(`\n${crashed.length} bench(es) crashed: ${crashed.join(', ')}`);
  process.exit(1);
}
console.log(`\n${files.length} bench(es) ran.`);
