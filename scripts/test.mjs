// `npm test`: everything CI runs. It prepares what a fresh machine lacks (Chromium, a running
// PostgreSQL), then runs unit, property and integration tests (Vitest) and end-to-end tests
// (Playwright in Chromium), and closes with one summary line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : null;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const out = mkdtempSync(join(tmpdir(), 'vitrina-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
/** What failed, with the first line of its error: printed last, so the tail of a CI log names it. */
const failures = [];
/** e2e tests that failed and then passed on their retry (CI only): named, not counted as failed. */
const flaky = [];
let failedStep = false;

const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts });
const quiet = (cmd, args) => spawnSync(cmd, args, { encoding: 'utf8' });

function ensureChromium() {
  // The e2e tests need Chromium and poppler's pdftotext (the printed quotation is read back).
  const present = () => existsSync('/usr/bin/chromium') && existsSync('/usr/bin/pdftotext');
  if (present()) return true;
  if (!isRoot) {
    console.error(
      'Chromium or pdftotext is missing: run `sudo apt-get update && sudo apt-get install -y chromium poppler-utils`.',
    );
    return false;
  }
  console.log('Installing Chromium and poppler-utils from Debian (once per machine)…');
  run('apt-get', ['update', '-qq']);
  const r = run('apt-get', ['install', '-y', '-qq', 'chromium', 'poppler-utils'], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return r.status === 0 && present();
}

function ensurePostgres() {
  const ready = () => quiet('pg_isready', ['-h', '127.0.0.1', '-p', '5432']).status === 0;
  if (ready()) return true;
  if (existsSync('/etc/postgresql')) {
    const versions = quiet('ls', ['/etc/postgresql']).stdout.trim().split('\n').filter(Boolean);
    for (const v of versions) {
      console.log(`Starting the local PostgreSQL ${v}…`);
      run('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start']);
    }
    for (let i = 0; i < 20 && !ready(); i++) spawnSync('sleep', ['0.5']);
  }
  return ready();
}

function vitestCounts(file) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += r.numPassedTests ?? 0;
    totals.failed += r.numFailedTests ?? 0;
    totals.skipped += (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
    for (const result of r.testResults ?? []) {
      const name = relative(process.cwd(), result.name ?? '');
      const failed = (result.assertionResults ?? []).filter((t) => t.status === 'failed');
      for (const t of failed)
        failures.push(`${name} › ${t.fullName}: ${firstLine(t.failureMessages)}`);
      // A file that failed outside its tests (an import, a hook) has no failed test to name.
      if (result.status === 'failed' && failed.length === 0)
        failures.push(`${name}: ${firstLine([result.message])}`);
    }
  } catch {
    totals.failed += 1;
    failures.push(`vitest: no report (${file})`);
  }
}

// eslint's no-control-regex forbids the escape character in a regular expression literal.
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

function firstLine(messages) {
  const text = (messages ?? []).find((m) => typeof m === 'string' && m.trim()) ?? '';
  // Colour codes off; one line of at most 300 characters.
  const line = text.replace(ANSI_COLOUR, '').trim().split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

function playwrightCounts(file) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += (r.stats?.expected ?? 0) + (r.stats?.flaky ?? 0);
    totals.failed += r.stats?.unexpected ?? 0;
    totals.skipped += r.stats?.skipped ?? 0;
    const walk = (suite, path) => {
      for (const child of suite.suites ?? []) walk(child, [...path, child.title]);
      for (const spec of suite.specs ?? [])
        for (const t of spec.tests ?? []) {
          if (t.status !== 'unexpected' && t.status !== 'flaky') continue;
          const error = (t.results ?? []).map((x) => x.error?.message).find(Boolean);
          const where = `tests/e2e/${spec.file}:${spec.line}`;
          const title = [...path, spec.title].filter(Boolean).join(' › ');
          (t.status === 'flaky' ? flaky : failures).push(
            `${where} › ${title}: ${firstLine([error])}`,
          );
        }
    };
    for (const suite of r.suites ?? []) walk(suite, []);
    for (const e of r.errors ?? []) failures.push(`playwright: ${firstLine([e.message])}`);
  } catch {
    totals.failed += 1;
    failures.push(`playwright: no report (${file})`);
  }
}

/**
 * The e2e files run in E2E_SHARDS Playwright processes at once (files split by time, below), each with its own
 * server on its own port and its own fresh data directory (scripts/e2e-server.mjs), so no test
 * sees another shard's writes. Most of an e2e test's time is waiting (navigation, the server, the
 * worker), so two shards on two cores take well under the one process's time. Each line of a
 * shard's output is prefixed with its number.
 */
const E2E_SHARDS = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const E2E_FIRST_PORT = Number(process.env.E2E_PORT ?? 4173);

/**
 * The e2e files' measured seconds (`tests/e2e/durations.json`, written by a run with
 * E2E_DURATIONS=write): the shards get files of about equal total time, longest first, each to
 * the shard with the least so far. Playwright's own `--shard` splits by test count, which left one
 * shard two minutes behind the other. A file missing from the table counts as the median.
 */
const DURATIONS_FILE = 'tests/e2e/durations.json';

function e2eFiles() {
  const files = readdirSync('tests/e2e')
    .filter((f) => f.endsWith('.spec.ts'))
    .sort();
  const known = existsSync(DURATIONS_FILE) ? JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) : {};
  const values = Object.values(known).sort((a, b) => a - b);
  const fallback = values.length ? values[Math.floor(values.length / 2)] : 1;
  return files.map((f) => ({ file: f, seconds: known[f] ?? fallback }));
}

function shardFiles() {
  const shards = Array.from({ length: E2E_SHARDS }, () => ({ seconds: 0, files: [] }));
  for (const { file, seconds } of e2eFiles().sort((a, b) => b.seconds - a.seconds)) {
    const least = shards.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    least.seconds += seconds;
    least.files.push(`tests/e2e/${file}`);
  }
  return shards.map((s) => s.files.sort());
}

/** Each file's seconds in the finished run's reports, for DURATIONS_FILE. */
function writeDurations(reports) {
  const seconds = {};
  const walk = (suite, file) => {
    for (const child of suite.suites ?? []) walk(child, child.file ?? file);
    for (const spec of suite.specs ?? []) {
      const name = (spec.file ?? file).split('/').pop();
      for (const t of spec.tests)
        for (const r of t.results) seconds[name] = (seconds[name] ?? 0) + r.duration / 1000;
    }
  };
  for (const report of reports) {
    try {
      for (const suite of JSON.parse(readFileSync(report, 'utf8')).suites ?? [])
        walk(suite, suite.file);
    } catch {
      // A shard without a report: its files keep no figure.
    }
  }
  const sorted = Object.fromEntries(
    Object.entries(seconds)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([f, s]) => [f, Math.round(s)]),
  );
  writeFileSync(DURATIONS_FILE, `${JSON.stringify(sorted, null, 2)}\n`);
  console.log(`Wrote ${DURATIONS_FILE}.`);
}

function playwrightShard(n, files) {
  const file = join(out, `playwright-${n}.json`);
  const args = ['playwright', 'test', ...files];
  const child = spawn('npx', args, {
    env: {
      ...env,
      E2E_PORT: String(E2E_FIRST_PORT + n - 1),
      PLAYWRIGHT_JSON_OUTPUT_NAME: file,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = E2E_SHARDS > 1 ? `[e2e ${n}/${E2E_SHARDS}] ` : '';
  for (const [from, to] of [
    [child.stdout, process.stdout],
    [child.stderr, process.stderr],
  ]) {
    let rest = '';
    from.setEncoding('utf8');
    from.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop();
      for (const line of lines) to.write(`${prefix}${line}\n`);
    });
    from.on('end', () => rest && to.write(`${prefix}${rest}\n`));
  }
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ file, status: status ?? 1 })),
  );
}

const env = { ...process.env };
const pgUp = ensurePostgres();
if (pgUp) env.VITRINA_TEST_PG ??= 'postgres://postgres@127.0.0.1:5432/postgres';
else if (ci) {
  console.error('PostgreSQL is required in CI and could not be reached on 127.0.0.1:5432.');
  process.exit(1);
} else {
  console.warn(
    '\n!!! PostgreSQL is not reachable: the PostgreSQL backend tests will be SKIPPED.\n',
  );
}

if (!only || only === 'vitest') {
  const file = join(out, 'vitest.json');
  const r = run(
    'npx',
    ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`],
    { env },
  );
  vitestCounts(file);
  if (r.status !== 0) failedStep = true;
}

if (!only || only === 'e2e') {
  const chromium = ensureChromium();
  if (!chromium) {
    if (ci) {
      console.error('Chromium is required in CI.');
      process.exit(1);
    }
    console.warn('\n!!! Chromium is missing: the end-to-end tests are SKIPPED.\n');
  } else {
    const build = run('npm', ['run', '-s', 'build'], { env });
    if (build.status !== 0) {
      failedStep = true;
      totals.failed += 1;
    } else {
      const shards = E2E_SHARDS > 1 ? shardFiles() : [[]];
      const results = await Promise.all(shards.map((files, i) => playwrightShard(i + 1, files)));
      if (process.env.E2E_DURATIONS === 'write') writeDurations(results.map((r) => r.file));
      for (const r of results) {
        playwrightCounts(r.file);
        if (r.status !== 0) failedStep = true;
      }
    }
  }
}

if (flaky.length) {
  console.log(`\nflaky (${flaky.length}): failed once, passed on the retry`);
  for (const f of flaky) console.log(`  ⚠ ${f}`);
}
if (failures.length) {
  console.log(`\nfailed (${failures.length}):`);
  for (const f of failures) console.log(`  ✘ ${f}`);
}
console.log(
  `\ntotal: ${totals.passed} passed (${flaky.length} on a retry), ${totals.failed} failed, ${totals.skipped} skipped`,
);
process.exit(failedStep || totals.failed > 0 ? 1 : 0);
