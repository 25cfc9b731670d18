// `npm test`: everything CI runs. It prepares what a fresh machine lacks (Chromium, a running
// PostgreSQL), then runs unit, property and integration tests (Vitest) and end-to-end tests
// (Playwright in Chromium), and closes with one summary line.
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * The e2e files run in E2E_SHARDS Playwright processes at once (`--shard`), each with its own
 * server on its own port and its own fresh data directory (scripts/e2e-server.mjs), so no test
 * sees another shard's writes. Most of an e2e test's time is waiting (navigation, the server, the
 * worker), so two shards on two cores take well under the one process's time. Each line of a
 * shard's output is prefixed with its number.
 */
const E2E_SHARDS = Math.max(1, Number(process.env.E2E_SHARDS ?? 2));
const E2E_FIRST_PORT = Number(process.env.E2E_PORT ?? 4173);

function playwrightShard(n) {
  const file = join(out, `playwright-${n}.json`);
  const args = ['playwright', 'test'];
  if (E2E_SHARDS > 1) args.push(`--shard=${n}/${E2E_SHARDS}`);
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
      const results = await Promise.all(
        Array.from({ length: E2E_SHARDS }, (_, i) => playwrightShard(i + 1)),
      );
      for (const r of results) {
        playwrightCounts(r.file);
        if (r.status !== 0) failedStep = true;
      }
    }
  }
}

console.log(`\ntotal: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStep || totals.failed > 0 ? 1 : 0);
