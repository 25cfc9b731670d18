/**
 * Clients page at 100,000 leads in one corporate (issue 6, performance): first page and
 * search-as-you-type latency measured at the server (the Hono app, PGlite), with the 004_leads
 * indexes and, as the baseline in the same run, without them. Target: search under 50 ms.
 * Run: `npm run bench` (or `npx tsx tests/bench/leads-search.bench.ts`).
 */
import { performance } from 'node:perf_hooks';
import { normalizeLeadFields, type Lead } from '../../src/core/lead';
import { createApp } from '../../src/server/app';
import { LEAD_COLUMNS, leadRow } from '../../src/server/leads/projection';
import { openRuntime, seedDemoIfEmpty } from '../../src/server/runtime';
import { DEMO_PASSWORD } from '../../src/server/seed/demo';
import { recordResult } from './support/results';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const BATCH = 1000;

// Deterministic data: a small LCG so every run measures the same table.
let seed = 42;
const rand = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
const nombres = [
  'María',
  'José',
  'Juan',
  'Ana',
  'Luis',
  'Carmen',
  'Jorge',
  'Lucía',
  'Miguel',
  'Sofía',
  'Pedro',
  'Elena',
  'Diego',
  'Valeria',
  'Fernando',
  'Paula',
  'Ricardo',
  'Daniela',
  'Alejandro',
  'Gabriela',
  'Marco',
  'Mariana',
  'Raúl',
  'Ximena',
  'Óscar',
  'Renata',
  'Héctor',
  'Camila',
  'Iván',
  'Regina',
];
const apellidos = [
  'Hernández',
  'García',
  'Martínez',
  'López',
  'González',
  'Pérez',
  'Rodríguez',
  'Sánchez',
  'Ramírez',
  'Cruz',
  'Flores',
  'Gómez',
  'Morales',
  'Vázquez',
  'Reyes',
  'Jiménez',
  'Torres',
  'Díaz',
  'Gutiérrez',
  'Ruiz',
  'Mendoza',
  'Aguilar',
  'Ortiz',
  'Moreno',
  'Castillo',
  'Romero',
  'Álvarez',
  'Méndez',
  'Chávez',
  'Rivera',
  'Juárez',
  'Ramos',
  'Domínguez',
  'Herrera',
  'Medina',
  'Castro',
  'Vargas',
  'Guzmán',
  'Velázquez',
  'Rojas',
];
const dominios = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.mx', 'icloud.com'];
const statuses = ['nuevo', 'contactado', 'visita', 'negociacion', 'cerrado', 'perdido'];
const medios = ['Showroom', 'Sitio web', 'Teléfono', 'WhatsApp', 'Referido', 'Redes sociales'];

const strip = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function median(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
function p95(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)]!;
}

async function main() {
  const t0 = performance.now();
  const rt = await openRuntime({ dataDir: 'memory://' });
  await seedDemoIfEmpty(rt.deps.store);
  const { db } = rt.deps;
  const app = createApp(rt.deps);
  const login = async (email: string) => {
    const res = await app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    });
    const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0]!;
    const user = (await res.json()) as { id: string };
    return { cookie, id: user.id };
  };
  const gerente = await login('gerente@vitrina.demo');
  const asesor = await login('asesor@vitrina.demo');
  const asesor2 = await login('asesor2@vitrina.demo');
  const corp = (
    await db.query<{ id: string }>("SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'")
  ).rows[0]!.id;
  const owners = [gerente.id, asesor.id, asesor2.id, 'usr-bench-1', 'usr-bench-2', 'usr-bench-3'];

  // Bulk load through the projection's own row mapping (the same columns the events produce).
  const start = Math.floor(Date.UTC(2022, 0, 1) / 1000);
  const span = Math.floor(Date.UTC(2026, 10, 1) / 1000) - start;
  for (let done = 0; done < LEADS; done += BATCH) {
    const rows: unknown[] = [];
    const values: string[] = [];
    for (let i = done; i < Math.min(LEADS, done + BATCH); i++) {
      const nombre = pick(nombres);
      const ap = `${pick(apellidos)} ${pick(apellidos)}`;
      const lead: Lead = {
        id: `lead-${String(i).padStart(6, '0')}`,
        idCorporativo: corp,
        ...normalizeLeadFields({
          nombre,
          apellidos: ap,
          email: `${strip(nombre)}.${strip(ap.split(' ')[0]!)}${i}@${pick(dominios)}`,
          telefono: `55 ${String(1000 + Math.floor(rand() * 9000))} ${String(1000 + Math.floor(rand() * 9000))}`,
          celular:
            rand() < 0.5
              ? `33 ${String(1000 + Math.floor(rand() * 9000))} ${String(i % 10000).padStart(4, '0')}`
              : null,
          medioContacto: pick(medios),
          status: pick(statuses),
        }),
        idVendedor: pick(owners),
        fechaAlta: start + Math.floor(rand() * span),
        eliminado: rand() < 0.02,
      };
      const row = leadRow(lead);
      values.push(`(${row.map((_, k) => `$${rows.length + k + 1}`).join(', ')})`);
      rows.push(...row);
    }
    await db.query(
      `INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) VALUES ${values.join(', ')}`,
      rows,
    );
  }
  await db.query('ANALYZE rm_leads');
  const loaded = performance.now();
  console.log(`loaded ${LEADS} leads in ${((loaded - t0) / 1000).toFixed(1)} s (seed included)`);

  const get = async (user: { cookie: string }, query: string) => {
    const t = performance.now();
    const path = query.startsWith('/')
      ? query
      : `/api/wsObtenerLeads?idCorporativo=${corp}${query}`;
    const res = await app.request(path, {
      headers: { cookie: user.cookie },
    });
    const body = (await res.json()) as unknown[];
    const ms = performance.now() - t;
    if (res.status !== 200) throw new Error(`${query}: ${res.status}`);
    return { ms, count: body.length };
  };

  // Typing "maria gonz" letter by letter, a surname, an email and a phone, page of 50.
  const typed = (text: string) =>
    Array.from({ length: text.length }, (_, i) => text.slice(0, i + 1)).filter(
      (s) => s.trim() !== '',
    );
  const cases: { name: string; user: { cookie: string }; queries: string[] }[] = [
    // What every authenticated call pays (session, user, membership), for reference.
    {
      name: 'overhead: wsObtenerStatusLeads',
      user: gerente,
      queries: [`/api/wsObtenerStatusLeads?idCorporativo=${corp}`],
    },
    { name: 'first page (Todos)', user: gerente, queries: ['&limit=50'] },
    { name: 'first page (Propios)', user: asesor, queries: ['&limit=50'] },
    {
      name: 'type "maria gonz" (Todos)',
      user: gerente,
      queries: typed('maria gonz').map((q) => `&limit=50&q=${encodeURIComponent(q)}`),
    },
    {
      name: 'type "hernandez" (Todos)',
      user: gerente,
      queries: typed('hernandez').map((q) => `&limit=50&q=${encodeURIComponent(q)}`),
    },
    {
      name: 'type "regina.ro" (Todos)',
      user: gerente,
      queries: typed('regina.ro').map((q) => `&limit=50&q=${encodeURIComponent(q)}`),
    },
    {
      name: 'type "33 1234" (Todos)',
      user: gerente,
      queries: typed('33 1234').map((q) => `&limit=50&q=${encodeURIComponent(q)}`),
    },
    {
      name: 'type "ximena" (Propios)',
      user: asesor,
      queries: typed('ximena').map((q) => `&limit=50&q=${encodeURIComponent(q)}`),
    },
    { name: 'status filter (Todos)', user: gerente, queries: ['&limit=50&status=cerrado'] },
  ];

  const measure = async () => {
    const out = new Map<string, number[]>();
    for (const c of cases) {
      const samples: number[] = [];
      for (const q of c.queries) await get(c.user, q); // warm-up
      for (let r = 0; r < RUNS; r++)
        for (const q of c.queries) samples.push((await get(c.user, q)).ms);
      out.set(c.name, samples);
    }
    return out;
  };

  const indexed = await measure();
  const full = await get(gerente, '');
  console.log(
    `full list without paging (spec call): ${full.count} leads in ${full.ms.toFixed(0)} ms`,
  );

  const plan = await db.query<{ 'QUERY PLAN': string }>(
    `EXPLAIN SELECT doc FROM rm_leads WHERE corporate_id = $1 AND NOT eliminado
       AND (search_name LIKE $2 OR search_name_rev LIKE $2 OR email_norm LIKE $2)
     ORDER BY fecha_alta DESC, id DESC LIMIT 51`,
    [corp, 'maria g%'],
  );
  console.log('plan (indexed):\n  ' + plan.rows.map((r) => r['QUERY PLAN']).join('\n  '));

  const { rows: indexes } = await db.query<{ indexname: string }>(
    "SELECT indexname FROM pg_indexes WHERE tablename = 'rm_leads' AND indexname <> 'rm_leads_pkey'",
  );
  for (const { indexname } of indexes) await db.query(`DROP INDEX ${indexname}`);
  await db.query('ANALYZE rm_leads');
  const baseline = await measure();

  const f = (n: number) => n.toFixed(1).padStart(7);
  console.log(`\n${LEADS} leads, ${RUNS} runs per query, latency at the server in ms (PGlite)`);
  console.log(
    `${'query'.padEnd(30)} | ${'idx med'.padStart(7)} | ${'idx p95'.padStart(7)} | ${'no-idx med'.padStart(10)} | ${'no-idx p95'.padStart(10)} | speed-up`,
  );
  console.log('-'.repeat(88));
  const searchIdx: number[] = [];
  const searchBase: number[] = [];
  for (const c of cases) {
    const a = indexed.get(c.name)!;
    const b = baseline.get(c.name)!;
    if (c.name.startsWith('type')) {
      searchIdx.push(...a);
      searchBase.push(...b);
    }
    console.log(
      `${c.name.padEnd(30)} | ${f(median(a))} | ${f(p95(a))} | ${f(median(b)).padStart(10)} | ${f(p95(b)).padStart(10)} | ${(median(b) / median(a)).toFixed(1)}x`,
    );
  }
  console.log('-'.repeat(88));
  console.log(
    `${'all search keystrokes'.padEnd(30)} | ${f(median(searchIdx))} | ${f(p95(searchIdx))} | ${f(median(searchBase)).padStart(10)} | ${f(p95(searchBase)).padStart(10)} | ${(median(searchBase) / median(searchIdx)).toFixed(1)}x`,
  );
  console.log(
    `target: search under 50 ms at the server -> p95 ${p95(searchIdx) < 50 ? 'MET' : 'NOT MET'} (${p95(searchIdx).toFixed(1)} ms)`,
  );
  recordResult({
    bench: 'leads-search',
    measure: `lead search keystroke at ${LEADS.toLocaleString('en')} leads (PGlite), p95`,
    value: p95(searchIdx),
    unit: 'ms',
    baseline: { label: 'same query without the search indexes', value: p95(searchBase) },
    target: { text: '< 50 ms', met: p95(searchIdx) < 50 },
  });
  await rt.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
