// `npm test`: everything CI runs. It prepares what a fresh machine lacks (Chromium, a running
// PostgreSQL), then runs unit, property and integration tests (Vitest) and end-to-end tests
// (Playwright in Chromium), and closes with one summary line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ci = process.env.CI === 'true' || process.env.CI === '1';
const only = process.argv.includes('--only')
  ? process.argv[process.argv.indexOf('--only') + 1]
  : null;
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const out = mkdtempSync(join(tmpdir(), 'vitrina-test-'));
const totals = { passed: 0, failed: 0, skipped: 0 };
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
  } catch {
    totals.failed += 1;
  }
}

function playwrightCounts(file) {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8'));
    totals.passed += r.stats?.expected ?? 0;
    totals.failed += (r.stats?.unexpected ?? 0) + (r.stats?.flaky ?? 0);
    totals.skipped += r.stats?.skipped ?? 0;
  } catch {
    totals.failed += 1;
  }
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
      const file = join(out, 'playwright.json');
      const r = run('npx', ['playwright', 'test'], {
        env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: file },
      });
      playwrightCounts(file);
      if (r.status !== 0) failedStep = true;
    }
  }
}

console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 ? 1 : 0);
