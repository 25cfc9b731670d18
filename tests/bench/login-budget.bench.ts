/**
 * Issue 21 target 6: the JavaScript /login loads is at most 1.5× that of the smallest React 19 +
 * Vite app built with the same toolchain. In one run: builds that smallest app (an index.html and
 * a main.tsx rendering an <h1>, with the project's own vite and @vitejs/plugin-react) and the
 * real client, serves the real client on a fresh embedded store, opens /login in Chromium and
 * counts every script it requests until the network is idle. Both sides are measured the same
 * way: each script file gzipped at level 9.
 *
 * Then Lighthouse (issue 19) on the sign-in page and the public pages, mobile and desktop
 * presets, through `scripts/lighthouse.mjs`, which records its scores in the same results table.
 *
 *   npm run bench -- login-budget
 *   VITRINA_DIST_DIR=/tmp/dist npm run bench -- login-budget   (an existing build; not rebuilt)
 *   LOGIN_BUDGET_LIGHTHOUSE=0 npm run bench -- login-budget    (the budget only)
 *   LOGIN_BUDGET_PORT=4390 (the app's port; Lighthouse uses the next one)
 */

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/serve';
import { recordResult } from './support/results';

const ROOT = join(import.meta.dirname, '..', '..');
const PORT = Number(process.env.LOGIN_BUDGET_PORT ?? 4390);
const TARGET_RATIO = 1.5;

const gzipped = (file: string) => gzipSync(readFileSync(file), { level: 9 }).length;
const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The smallest React 19 + Vite app: its JavaScript, gzip bytes. */
async function smallestReactApp(work: string): Promise<number> {
  const dir = join(work, 'smallest');
  mkdirSync(join(dir, 'src'), { recursive: true });
  // The project's own packages, no download.
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>Smallest</title></head>' +
      '<body><div id="root"></div><script type="module" src="/src/main.tsx"></script></body></html>',
  );
  writeFileSync(
    join(dir, 'src', 'main.tsx'),
    "import { createRoot } from 'react-dom/client';\n" +
      "createRoot(document.getElementById('root')!).render(<h1>Hello</h1>);\n",
  );
  const { build } = await import('vite');
  const { default: react } = await import('@vitejs/plugin-react');
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(dir, 'dist') },
  });
  return walk(join(dir, 'dist'))
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + gzipped(f), 0);
}

function buildClient(outDir: string): void {
  const run = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'vite'),
    ['build', '--outDir', outDir, '--logLevel', 'warn'],
    { cwd: ROOT, stdio: 'inherit' },
  );
  if (run.status !== 0) throw new Error('vite build failed');
}

async function startServer(distDir: string, dataDir: string) {
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      VITRINA_DATA_DIR: dataDir,
      VITRINA_DIST_DIR: distDir,
      NODE_ENV: 'production',
    },
  });
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/login`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  server.kill('SIGTERM');
  throw new Error('the server did not start in 5 minutes');
}

/** The built files of every script /login requests until the network is idle. */
async function loginScripts(distDir: string): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    // No service worker: it would fetch the whole precache list, which the page does not run.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    const page = await context.newPage();
    const scripts = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.add(new URL(request.url()).pathname);
    });
    await page.goto(`http://127.0.0.1:${PORT}/login`, { waitUntil: 'networkidle' });
    await page
      .getByRole('button', { name: /entrar|iniciar sesión|sign in/i })
      .first()
      .waitFor();
    return [...scripts].map((path) => join(distDir, path));
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'vitrina-login-budget-'));
  try {
    const given = process.env.VITRINA_DIST_DIR;
    const distDir = given && existsSync(join(given, 'index.html')) ? given : join(work, 'dist');
    if (distDir !== given) buildClient(distDir);
    const baseline = await smallestReactApp(work);

    const server = await startServer(distDir, join(work, 'data'));
    let files: string[];
    try {
      files = await loginScripts(distDir);
    } finally {
      server.kill('SIGTERM');
    }
    const login = files.reduce((sum, f) => sum + gzipped(f), 0);
    console.log(`/login requested ${files.length} scripts:`);
    for (const f of files) console.log(`  ${kb(gzipped(f))} KB  ${f.slice(distDir.length)}`);

    const ratio = login / baseline;
    recordResult({
      bench: 'login-budget',
      measure: `/login JavaScript, gzip (${files.length} scripts)`,
      value: kb(login),
      unit: 'KB',
      baseline: { label: 'smallest React 19 + Vite app', value: kb(baseline) },
      target: { text: `≤ ${TARGET_RATIO}× baseline`, met: ratio <= TARGET_RATIO },
    });

    if (process.env.LOGIN_BUDGET_LIGHTHOUSE === '0') return;
    for (const preset of ['mobile', 'desktop']) {
      spawnSync(process.execPath, ['scripts/lighthouse.mjs'], {
        cwd: ROOT,
        stdio: 'inherit',
        env: {
          ...process.env,
          VITRINA_DIST_DIR: distDir,
          LIGHTHOUSE_PORT: String(PORT + 1),
          LIGHTHOUSE_PRESET: preset === 'mobile' ? '' : preset,
        },
      });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
