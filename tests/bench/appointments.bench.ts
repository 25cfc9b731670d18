/**
 * Appointments at scale (issue 23, benchmark):
 *
 * 1. `wsObtenerCitas` for one month of a corporate holding 100,000 appointments over a year,
 *    at the server (the Hono app, PGlite), for a manager (everyone's) and an adviser (their
 *    own): median and p95, against reading the same rows with a bare SQL query in the same run.
 *    The appointments are seeded as `AppointmentScheduled` events through the event store (the
 *    projections and reminder timers written as a booking writes them; what `store:verify`
 *    replays), not by inserting read-model rows.
 * 2. The month view in Chromium with 2,000 appointments: from the moment the client has the
 *    data (the response's body read) to the month grid painted (two animation frames after the
 *    appointments are in the DOM). Target: within 100 ms. Needs a built client: the bench builds
 *    one into a temporary directory unless `VITRINA_DIST_DIR` names one.
 *
 * Run: `npm run bench appointments` (or `npx tsx tests/bench/appointments.bench.ts`).
 * BENCH_APPOINTMENTS, BENCH_RUNS and BENCH_RENDERS scale it down for a quick look.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { serve } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { chromium } from 'playwright-core';
import { TIPOS_CITA, reminderFields, type Cita } from '../../src/core/appointment';
import { appointmentStream } from '../../src/server/appointments/streams';
import { createApp } from '../../src/server/app';
import { openRuntime, seedDemoIfEmpty } from '../../src/server/runtime';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import type { AppendRequest } from '../../src/server/store/event-store';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/harness/serve';
import { recordResult } from './support/results';

const APPOINTMENTS = Number(process.env.BENCH_APPOINTMENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 15);
const MONTH_VIEW_APPOINTMENTS = 2_000;
const BATCH = 500;
const ZONE_OFFSET = '-06:00'; // the demo corporate: America/Mexico_City

let seed = 7;
const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
};
const f = (n: number) => n.toFixed(1).padStart(8);

async function main() {
  const t0 = performance.now();
  const rt = await openRuntime({ dataDir: 'memory://' });
  await seedDemoIfEmpty(rt.deps.store);
  const { db, store } = rt.deps;
  const app = createApp(rt.deps);
  const login = async (email: string) => {
    const res = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    if (res.status !== 200) throw new Error(`login ${email}: ${res.status}`);
    const user = (await res.json()) as { id: string };
    return { cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!, id: user.id };
  };
  const gerente = await login('gerente@vitrina.demo');
  const asesor = await login('asesor@vitrina.demo');
  const asesor2 = await login('asesor2@vitrina.demo');
  const { rows: corporates } = await db.query<{
    id: string;
    showrooms: { id: string; activo: boolean }[];
  }>("SELECT id, doc->'showrooms' AS showrooms FROM rm_corporates WHERE slug = 'grupo-horizonte'");
  const corp = corporates[0]!.id;
  const showrooms = corporates[0]!.showrooms.filter((s) => s.activo).map((s) => s.id);
  const developments = (
    await db.query<{ id: string }>('SELECT id FROM rm_developments WHERE corporate_id = $1', [corp])
  ).rows.map((r) => r.id);
  // Clients booked through the API, as the advisers would.
  const leads: string[] = [];
  for (let i = 0; i < 60; i++) {
    const res = await app.request(`/api/corporativos/${corp}/leads`, {
      method: 'POST',
      headers: { cookie: gerente.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({
        nombre: pick(['María', 'José', 'Lucía', 'Andrés', 'Carmen', 'Diego', 'Renata']),
        apellidos: `${pick(['García', 'López', 'Ruiz', 'Torres', 'Méndez'])} ${i}`,
        email: `bench.citas.${i}@example.com`,
        medioContacto: 'Showroom',
      }),
    });
    if (res.status !== 201) throw new Error(`lead: ${res.status} ${await res.text()}`);
    leads.push(((await res.json()) as { id: string }).id);
  }
  const advisers = [asesor.id, asesor2.id, gerente.id];

  // A year of appointments from 2026-01-01, 9:00–19:00 local, 30 to 90 minutes, 1 in 20 cancelled.
  const yearStart = Date.parse(`2026-01-01T00:00:00${ZONE_OFFSET}`);
  const booked = new Date(`2025-12-01T12:00:00Z`);
  for (let done = 0; done < APPOINTMENTS; done += BATCH) {
    const requests: AppendRequest[] = [];
    for (let i = done; i < Math.min(APPOINTMENTS, done + BATCH); i++) {
      const id = `cita-${String(i).padStart(6, '0')}`;
      const dayStart = yearStart + Math.floor(rand() * 365) * 86_400_000;
      const start = dayStart + (9 * 60 + Math.floor(rand() * 40) * 15) * 60_000;
      const end = start + pick([30, 45, 60, 90]) * 60_000;
      const base = {
        id,
        idCorporativo: corp,
        idDesarrollo: pick(developments),
        idShowroom: pick(showrooms),
        fechaInicio: new Date(start).toISOString(),
        fechaFin: new Date(end).toISOString(),
        titulo: 'Visita al showroom',
        tipo: pick(TIPOS_CITA),
        idLead: pick(leads),
        idAsesor: pick(advisers),
        activo: true,
        enviarRecordatorio: rand() < 0.8,
        enviarAntesDe: rand() < 0.5 ? ('10_MIN' as const) : ('5_MIN' as const),
        asistencia: 'pendiente' as const,
        fechaAlta: booked.toISOString(),
        idUsuarioAlta: gerente.id,
      };
      const cita: Cita = { ...base, ...reminderFields(base) };
      const streamId = appointmentStream(corp, id);
      const events = [
        {
          id: randomUUID(),
          type: 'AppointmentScheduled',
          data: { cita },
          corporateId: corp,
          actorId: gerente.id,
          occurredAt: booked,
        },
      ];
      if (rand() < 0.05)
        events.push({
          id: randomUUID(),
          type: 'AppointmentCancelled',
          data: { id, idLead: cita.idLead } as never,
          corporateId: corp,
          actorId: gerente.id,
          occurredAt: booked,
        });
      requests.push({ streamId, expectedVersion: 0, events });
    }
    await store.appendMany(requests);
    if ((done / BATCH) % 40 === 0)
      console.log(`  ${done + requests.length} appointments appended…`);
  }
  await db.query('ANALYZE rm_appointments');
  const loaded = performance.now();
  console.log(
    `seeded ${APPOINTMENTS.toLocaleString('en')} appointments as events in ${((loaded - t0) / 1000).toFixed(1)} s (demo seed included)`,
  );

  // Month: March 2026 as the month view reads it (its six weeks: 2026-02-23 .. 2026-04-05).
  const desde = new Date(`2026-02-23T00:00:00${ZONE_OFFSET}`).toISOString();
  const hasta = new Date(`2026-04-06T00:00:00${ZONE_OFFSET}`).toISOString();
  const call = async (user: { cookie: string }) => {
    const t = performance.now();
    const res = await app.request(
      `/api/wsObtenerCitas?idCorporativo=${corp}&fechaInicio=${encodeURIComponent(desde)}&fechaFin=${encodeURIComponent(hasta)}`,
      { headers: { cookie: user.cookie } },
    );
    const body = (await res.json()) as unknown[];
    if (res.status !== 200) throw new Error(`wsObtenerCitas: ${res.status}`);
    return { ms: performance.now() - t, count: body.length, body };
  };
  // The same rows, bare: the read model's documents for the range, serialized as the answer is.
  const bare = async (adviser: string | null) => {
    const t = performance.now();
    const { rows } = await db.query<{ doc: Cita }>(
      `SELECT doc FROM rm_appointments
        WHERE corporate_id = $1 AND fecha_inicio < $2 AND fecha_fin > $3 AND activo
          AND ($4::text IS NULL OR adviser_id = $4)
        ORDER BY fecha_inicio, id`,
      [corp, hasta, desde, adviser],
    );
    JSON.parse(JSON.stringify(rows.map((r) => r.doc)));
    return { ms: performance.now() - t, count: rows.length };
  };

  const cases = [
    { name: 'manager (every adviser)', run: () => call(gerente), base: () => bare(null) },
    { name: 'adviser (own, Propios)', run: () => call(asesor), base: () => bare(asesor.id) },
  ];
  console.log(
    `\nwsObtenerCitas, one month view (6 weeks) of ${APPOINTMENTS.toLocaleString('en')} appointments, ${RUNS} runs, ms at the server (PGlite)`,
  );
  console.log(
    `${'caller'.padEnd(26)} | ${'rows'.padStart(5)} | ${'ws med'.padStart(8)} | ${'ws p95'.padStart(8)} | ${'SQL med'.padStart(8)} | ${'SQL p95'.padStart(8)} | ratio (med)`,
  );
  console.log('-'.repeat(92));
  for (const c of cases) {
    await c.run();
    await c.base();
    const ws: number[] = [];
    const sql: number[] = [];
    let rows = 0;
    for (let r = 0; r < RUNS; r++) {
      const a = await c.run();
      const b = await c.base();
      if (a.count !== b.count) throw new Error(`${c.name}: ${a.count} rows ≠ ${b.count} bare`);
      rows = a.count;
      ws.push(a.ms);
      sql.push(b.ms);
    }
    console.log(
      `${c.name.padEnd(26)} | ${String(rows).padStart(5)} | ${f(median(ws))} | ${f(p95(ws))} | ${f(median(sql))} | ${f(p95(sql))} | ${(median(ws) / median(sql)).toFixed(2)}x`,
    );
    recordResult({
      bench: 'appointments',
      measure: `wsObtenerCitas month view, ${c.name}, ${rows} rows, median`,
      value: median(ws),
      unit: 'ms',
      baseline: { label: 'bare SQL of the same rows', value: median(sql) },
    });
  }

  await renderBench(app, gerente.cookie, (await call(gerente)).body);
  await rt.close();
}

/** The month view with 2,000 appointments in Chromium: data in hand → grid painted. */
async function renderBench(app: ReturnType<typeof createApp>, cookie: string, month: unknown[]) {
  let dist = process.env.VITRINA_DIST_DIR ? resolve(process.env.VITRINA_DIST_DIR) : '';
  if (!dist) {
    dist = mkdtempSync(join(tmpdir(), 'vitrina-bench-dist-'));
    console.log(`\nbuilding the client into ${dist} (VITRINA_DIST_DIR skips this)…`);
    const built = spawnSync('npx', ['vite', 'build', '--outDir', dist], { stdio: 'ignore' });
    if (built.status !== 0) throw new Error('vite build failed');
  }
  if (!existsSync(join(dist, 'index.html'))) throw new Error(`${dist}: no index.html`);
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(`\nmonth view render: SKIPPED (no Chromium at ${CHROMIUM_PATH})`);
    return;
  }
  const indexHtml = readFileSync(join(dist, 'index.html'), 'utf8');
  const client = new Hono();
  client.use('*', serveStatic({ root: dist }));
  client.get('*', (c) => c.html(indexHtml));
  const server = serve({
    fetch: (req) => (new URL(req.url).pathname.startsWith('/api/') ? app : client).fetch(req),
    port: 0,
    hostname: '127.0.0.1',
  });
  await new Promise((r) => server.once('listening', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // 2,000 of the month's appointments, spread over its days as the real month has them.
  const stride = Math.max(1, Math.floor(month.length / MONTH_VIEW_APPOINTMENTS));
  const sample = month.filter((_, i) => i % stride === 0).slice(0, MONTH_VIEW_APPOINTMENTS);
  const data = JSON.stringify(sample);
  const count = sample.length;

  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: origin }]);
    // The month's appointments answer from memory, so the figure is the client's alone.
    await context.route('**/api/wsObtenerCitas?**', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: data }),
    );
    // Marks when the client has the data (the body of wsObtenerCitas read), and when the month
    // grid shows it: every day cell present and the appointments in them, then two frames.
    // (A string: a function here would carry tsx's name helpers into the page.)
    await context.addInitScript(`
      (() => {
        const read = Response.prototype.text;
        Response.prototype.text = function () {
          const p = read.call(this);
          return this.url.includes('wsObtenerCitas')
            ? p.then((v) => { window.__arrived = performance.now(); return v; })
            : p;
        };
        const watch = new MutationObserver(() => {
          if (window.__arrived === undefined || window.__painted !== undefined) return;
          const days = document.querySelectorAll('[data-testid="calendar-day"]');
          if (days.length !== 42 || !document.querySelector('[data-testid="appointment"]')) return;
          window.__painted = -1;
          requestAnimationFrame(() => requestAnimationFrame(() => {
            window.__painted = performance.now();
          }));
        });
        document.addEventListener('DOMContentLoaded', () =>
          watch.observe(document.body, { childList: true, subtree: true }));
      })();
    `);
    const page = await context.newPage();
    const url = `${origin}/corporativos/grupo-horizonte/eventos?vista=mes&fecha=2026-03-15`;
    const samples: number[] = [];
    for (let i = 0; i < RENDERS + 1; i++) {
      await page.goto(url);
      await page
        .waitForFunction(
          () => ((window as unknown as { __painted?: number }).__painted ?? -1) > 0,
          undefined,
          { timeout: 60_000 },
        )
        .catch(async (error: unknown) => {
          const state = await page.evaluate(() => ({
            url: location.href,
            arrived: (window as unknown as { __arrived?: number }).__arrived,
            days: document.querySelectorAll('[data-testid="calendar-day"]').length,
            text: document.body.innerText.slice(0, 100),
            patched: Response.prototype.text.toString().slice(0, 80),
            citas: performance
              .getEntriesByType('resource')
              .filter((e) => e.name.includes('Citas'))
              .map((e) => e.name),
            blocks: document.querySelectorAll('[data-testid="appointment"]').length,
          }));
          throw new Error(`the month view did not paint: ${JSON.stringify(state)}`, {
            cause: error,
          });
        });
      const ms = await page.evaluate(() => {
        const w = window as unknown as { __arrived: number; __painted: number };
        return w.__painted - w.__arrived;
      });
      if (i > 0) samples.push(ms); // the first load warms the caches
    }
    const shown = await page.getByTestId('appointment').count();
    console.log(
      `\nmonth view, ${count.toLocaleString('en')} appointments (${shown} blocks drawn, 3 a day and "+n more"), Chromium, ${RENDERS} loads`,
    );
    console.log(
      `data in hand → painted: median ${median(samples).toFixed(1)} ms, p95 ${p95(samples).toFixed(1)} ms, max ${Math.max(...samples).toFixed(1)} ms; target within 100 ms -> ${p95(samples) <= 100 ? 'MET' : 'NOT MET'}`,
    );
    recordResult({
      bench: 'appointments',
      measure: `month view with ${count.toLocaleString('en')} appointments: data in hand → painted, p95`,
      value: p95(samples),
      unit: 'ms',
      target: { text: '≤ 100 ms', met: p95(samples) <= 100 },
    });
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
