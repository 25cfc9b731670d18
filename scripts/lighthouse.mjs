// `npm run lighthouse`: Lighthouse (performance, accessibility, best practices, SEO) on the
// sign-in page, the adviser's availability (signed in: the session cookie sent with every
// request), the public availability and simulator, and a shared quotation (issue 19's bar: 95 in
// every category), against the built client served by the real server on a fresh embedded store
// with the demo tenant. A measurement, not a test: it prints the scores and what keeps any under
// 95. The signed-in page and the shared quotation are `noindex` on purpose: their SEO score has
// no target.
//
//   npm run build && npm run lighthouse
//   LIGHTHOUSE_PORT=4380 VITRINA_DIST_DIR=/tmp/dist npm run lighthouse
//   LIGHTHOUSE_PRESET=desktop npm run lighthouse      (default: Lighthouse's mobile emulation)
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const port = Number(process.env.LIGHTHOUSE_PORT ?? 4380);
const base = `http://127.0.0.1:${port}`;
const distDir = process.env.VITRINA_DIST_DIR ?? 'dist';
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const preset = process.env.LIGHTHOUSE_PRESET || undefined;
const BAR = 95;
const only = process.env.LIGHTHOUSE_ONLY ? new RegExp(process.env.LIGHTHOUSE_ONLY, 'i') : null;

if (!existsSync(join(distDir, 'index.html'))) {
  console.error(`No build in ${distDir}: run \`npm run build\` first (or set VITRINA_DIST_DIR).`);
  process.exit(1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'vitrina-lighthouse-'));
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  stdio: ['ignore', 'ignore', 'inherit'],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    VITRINA_DATA_DIR: dataDir,
    VITRINA_DIST_DIR: distDir,
    NODE_ENV: 'production',
  },
});
const stop = () => {
  server.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
process.on('SIGINT', () => {
  stop();
  process.exit(130);
});

async function waitForServer() {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${base}/api/wsObtenerConfiguracionesGenerales`);
      if (res.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the server did not start in 5 minutes');
}

/** The demo adviser's session: the `Cookie` header a signed-in request carries. */
async function adviserCookie() {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ email: 'asesor@vitrina.demo', password: 'Vitrina2026!' }),
  });
  if (!login.ok) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
  return (login.headers.getSetCookie?.() ?? []).map((c) => c.split(';')[0]).join('; ');
}

/** A shared quotation of a Disponible Torre Alameda unit, made by the demo adviser: its path. */
async function sharedQuotationPath(cookie) {
  const get = async (path) => (await fetch(`${base}${path}`, { headers: { cookie } })).json();
  const post = async (path, body) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: base },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const corp = await get('/api/wsObtenerCorporativo?slug=grupo-horizonte');
  const dev = await get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`);
  const clusters = await get(
    `/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`,
  );
  const unit = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Disponible');
  const schemes = await get(
    `/api/wsObtenerEsquemasPago?idCorporativo=${corp.id}&idDesarrollo=${dev.id}&idCluster=${unit.idCluster}`,
  );
  const quotation = await post(`/api/corporativos/${corp.id}/cotizaciones`, {
    idUnidad: unit.id,
    idEsquema: schemes.find((s) => s.valido).id,
    divisa: 'MXN',
    nuevoLead: { nombre: 'Lighthouse' },
  });
  const shared = await post(
    `/api/corporativos/${corp.id}/cotizaciones/${quotation.id}/compartir`,
    {},
  );
  return shared.url;
}

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];

/** Lighthouse on `url`; `cookie`, when given, is sent with every request (a signed-in page). */
function audit(url, cookie) {
  const outFile = join(dataDir, `report-${Date.now()}.json`);
  const args = [
    url,
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    '--quiet',
    '--output=json',
    `--output-path=${outFile}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    '--chrome-flags=--headless --no-sandbox --disable-gpu',
    ...(preset ? [`--preset=${preset}`] : []),
  ];
  const r = spawnSync('node_modules/.bin/lighthouse', args, {
    env: { ...process.env, CHROME_PATH: chrome },
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (r.status !== 0 || !existsSync(outFile)) {
    throw new Error(`lighthouse failed on ${url}: ${r.stderr?.slice(-800)}`);
  }
  const report = JSON.parse(readFileSync(outFile, 'utf8'));
  if (process.env.LIGHTHOUSE_REPORTS) {
    mkdirSync(process.env.LIGHTHOUSE_REPORTS, { recursive: true });
    const last = new URL(url).pathname.split('/').filter(Boolean).slice(-1)[0] ?? 'root';
    const name = cookie ? `signed-in-${last}` : last;
    copyFileSync(
      outFile,
      join(process.env.LIGHTHOUSE_REPORTS, `${preset ?? 'mobile'}-${name}.json`),
    );
  }
  return report;
}

/**
 * Under `npm run bench` (tests/bench/login-budget.bench.ts runs this script), each score is a
 * line of the results table (the shape of tests/bench/support/results.ts). A page that is not to
 * be indexed (the shared quotation: a buyer's own document, `noindex` on purpose) fails
 * Lighthouse's "Page is blocked from indexing" audit by design: its SEO score has no target.
 */
function record(name, category, score, report) {
  const file = process.env.VITRINA_BENCH_RESULTS;
  if (!file) return;
  const noindex = category === 'seo' && report.audits['is-crawlable']?.score === 0;
  appendFileSync(
    file,
    JSON.stringify({
      bench: 'lighthouse',
      measure: `${name}, ${category}, ${preset ?? 'mobile'}${noindex ? ' (noindex on purpose)' : ''}`,
      value: score,
      unit: '',
      ...(noindex ? {} : { target: { text: `≥ ${BAR}`, met: score >= BAR } }),
    }) + '\n',
  );
}

let failing = 0;
try {
  await waitForServer();
  const cookie = await adviserCookie();
  const pages = [
    ['Sign-in', '/login'],
    // The adviser's own availability (issue 19 names "the availability" beside the public pages).
    [
      'Availability (adviser)',
      '/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
      cookie,
    ],
    [
      'Public availability',
      '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad',
    ],
    [
      'Public simulator',
      '/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/cotizacion',
    ],
    ['Shared quotation', await sharedQuotationPath(cookie)],
  ].filter(([name]) => !only || only.test(name));
  console.log(`Lighthouse ${preset ?? 'mobile'} on ${base} (bar: ${BAR})\n`);
  for (const [name, path, pageCookie] of pages) {
    const report = audit(`${base}${path}`, pageCookie);
    const scores = CATEGORIES.map((c) => [c, Math.round((report.categories[c]?.score ?? 0) * 100)]);
    console.log(`${name.padEnd(22)} ${scores.map(([c, s]) => `${c} ${s}`).join(' · ')}`);
    for (const [category, score] of scores) record(name, category, score, report);
    for (const [category, score] of scores) {
      if (score >= BAR) continue;
      failing++;
      // What costs the points: the category's audits that did not pass, heaviest first.
      const refs = report.categories[category].auditRefs
        .filter((ref) => ref.weight > 0 && (report.audits[ref.id]?.score ?? 1) < 0.9)
        .sort((a, b) => b.weight - a.weight)
        .slice(0, 5);
      for (const ref of refs) {
        const a = report.audits[ref.id];
        console.log(`    ${category}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`);
      }
    }
  }
} finally {
  stop();
}
process.exitCode = failing > 0 ? 1 : 0;
