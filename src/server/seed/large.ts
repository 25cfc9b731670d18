/**
 * Large-data generator, two modes.
 *
 * One large development: `npm run seed:large -- --units N --quotations M [--data-dir DIR]
 * [--seed S]`, or `--scale xK` for K × (248 units, 1,000 quotations): x1, x10, x100 as the growth
 * bench seeds them (explicit --units/--quotations win over the preset).
 *
 * Opens the runtime (PGlite in `--data-dir`, else `VITRINA_DATA_DIR`, else `./data`; or
 * PostgreSQL when `DATABASE_URL` is set), seeds the demo tenant when the store is empty, then
 * adds to grupo-horizonte the development `gran-torre` with N units (default 2000) over several
 * towers, and M quotations (default 10000) dated this week (Monday 00:00 in the corporate's time
 * zone up to now) spread over the corporate's advisers, each for one of that adviser's leads
 * (M/4 leads).
 *
 * Everything is written as events through `appendMany` in batches, so the read models are the
 * projections' own. Ids and event ids come from a seeded generator: running it again with the
 * same seed is a no-op (the store recognises the event ids), another `--seed` adds more.
 *
 * A large developer (issue 21): `--corporates C [--advisers A] [--developments D] [--units U]
 * [--leads L] [--events E]` (defaults 10, 20, 50, 50,000, 1,000,000, 5,000,000) adds C
 * corporates with A advisers each, D developments with U units in all, and L leads holding E lead
 * events in all, the leads written in bulk (large-scale.ts). Meant for PostgreSQL
 * (`DATABASE_URL`); PGlite takes small sizes. Once per `--seed`.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { decide as decideLead, initialLeadState, normalizeLeadFields } from '../../core/lead';
import { startOfWeekMonday } from '../../core/misc';
import {
  effectiveSchemes,
  newQuotation,
  priceQuotation,
  quotationEventBase,
  type QuotationEvent,
} from '../../core/quotation';
import type { Cluster, Corporate, Development, Prototype, Unit, User } from '../../core/types';
import type { CorporateConfig } from '../catalogue/events';
import { findCorporate } from '../http/context';
import { leadStream } from '../leads/streams';
import { displayName } from '../quotations/commands';
import { quotationStream } from '../quotations/streams';
import { effectiveStatusColors } from '../public/views';
import { openRuntime, seedDemoIfEmpty } from '../runtime';
import type { AppendRequest, EventStore } from '../store/event-store';
import { buildDevelopment, DEV_SLUG } from './large-development';
import { seedScale } from './large-scale';
import { seededRandom, type SeededRandom } from './random';

const BATCH = 500;

async function appendInBatches(
  store: EventStore,
  requests: AppendRequest[],
  label: string,
): Promise<number> {
  let written = 0;
  for (let i = 0; i < requests.length; i += BATCH) {
    const results = await store.appendMany(requests.slice(i, i + BATCH));
    written += results.reduce((n, r) => n + r.written, 0);
    process.stdout.write(
      `\r  ${label}: ${Math.min(i + BATCH, requests.length)}/${requests.length}`,
    );
  }
  process.stdout.write('\n');
  return written;
}

const FIRST_NAMES = ['Ana', 'Luis', 'María', 'Jorge', 'Elena', 'Pablo', 'Rosa', 'Iván', 'Noemí'];
const LAST_NAMES = ['García', 'López', 'Hernández', 'Martínez', 'Pérez', 'Sánchez', 'Torres'];

async function main() {
  const { values } = parseArgs({
    options: {
      units: { type: 'string' },
      quotations: { type: 'string' },
      'data-dir': { type: 'string' },
      seed: { type: 'string', default: '7' },
      scale: { type: 'string' },
      corporates: { type: 'string' },
      advisers: { type: 'string', default: '20' },
      developments: { type: 'string', default: '50' },
      leads: { type: 'string', default: '1000000' },
      events: { type: 'string', default: '5000000' },
    },
  });
  const whole = (name: string, text: string | undefined, fallback: number): number => {
    const n = text === undefined ? fallback : Number(text);
    if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a whole number ≥ 0`);
    return n;
  };
  // --scale xK: K × (248 units, 1,000 quotations) in gran-torre (about 250 K leads).
  const scale = values.scale === undefined ? null : /^x(\d+)$/.exec(values.scale);
  if (values.scale !== undefined && !scale) throw new Error('--scale must be x1, x10, x100…');
  const factor = scale ? Number(scale[1]) : 0;
  const largeDeveloper = values.corporates !== undefined;
  const unitCount = whole(
    'units',
    values.units,
    largeDeveloper ? 50_000 : scale ? 248 * factor : 2000,
  );
  const quotationCount = whole('quotations', values.quotations, scale ? 1000 * factor : 10000);
  const seed = whole('seed', values.seed, 7);
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = resolve(values['data-dir'] ?? process.env.VITRINA_DATA_DIR ?? './data');
  const runtime = await openRuntime({ databaseUrl, dataDir });
  const started = Date.now();
  try {
    const { db, store, clock } = runtime.deps;
    console.log(`store: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}`);
    await seedDemoIfEmpty(store, () => console.log('Seeding the demo tenant…'));
    if (largeDeveloper) {
      const summary = await seedScale(db, store, {
        corporates: whole('corporates', values.corporates, 10),
        advisers: whole('advisers', values.advisers, 20),
        developments: whole('developments', values.developments, 50),
        units: unitCount,
        leads: whole('leads', values.leads, 1_000_000),
        events: whole('events', values.events, 5_000_000),
        seed,
        log: (line) => process.stdout.write(`\r  ${line}`),
      });
      process.stdout.write('\n');
      console.log(
        `scale: ${summary.corporates} corporates, ${summary.developments} developments, ${summary.units} units (${summary.catalogueEvents} catalogue events in ${summary.seconds.catalogue.toFixed(1)} s); ${summary.leads} leads, ${summary.leadEvents} lead events in ${summary.seconds.leads.toFixed(1)} s`,
      );
      return;
    }
    const corporate: (Corporate & Partial<CorporateConfig>) | null = await findCorporate(db, {
      slug: 'grupo-horizonte',
    });
    if (!corporate) throw new Error('grupo-horizonte is missing');
    const r: SeededRandom = seededRandom(0x5eed0000 + seed);
    const now = clock();
    const tz = corporate.zonaHoraria || 'UTC';
    const weekStart = startOfWeekMonday(now, tz);

    const existing = await db.query<{ doc: Development }>(
      'SELECT doc FROM rm_developments WHERE corporate_id = $1 AND slug = $2',
      [corporate.id, DEV_SLUG],
    );
    if (existing.rows.length === 0 && unitCount > 0) {
      const requests = buildDevelopment(r, corporate.id, unitCount, () => now);
      await appendInBatches(store, requests, 'development and units');
    }
    const devRow = await db.query<{ doc: Development }>(
      'SELECT doc FROM rm_developments WHERE corporate_id = $1 AND slug = $2',
      [corporate.id, DEV_SLUG],
    );
    const development = devRow.rows[0]?.doc;
    if (!development || quotationCount === 0) return;
    const colors = effectiveStatusColors(corporate, development);
    const [unitRows, clusterRows, protoRows, userRows] = await Promise.all([
      db.query<{ doc: Unit }>(
        'SELECT doc FROM rm_units WHERE corporate_id = $1 AND development_id = $2 ORDER BY id',
        [corporate.id, development.id],
      ),
      db.query<{ doc: Cluster }>('SELECT doc FROM rm_clusters WHERE development_id = $1', [
        development.id,
      ]),
      db.query<{ doc: Prototype }>('SELECT doc FROM rm_prototypes WHERE development_id = $1', [
        development.id,
      ]),
      db.query<{ doc: User }>(
        `SELECT doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text) ORDER BY id`,
        [corporate.id],
      ),
    ]);
    const quotable = unitRows.rows
      .map((row) => row.doc)
      .filter((u) => colors[u.status ?? '']?.esCotizable === true);
    if (quotable.length === 0) throw new Error('gran-torre has no quotable unit');
    const clusters = new Map(clusterRows.rows.map((row) => [row.doc.id, row.doc]));
    const prototypes = new Map(protoRows.rows.map((row) => [row.doc.id, row.doc]));
    const advisers = userRows.rows
      .map((row) => row.doc)
      .filter((u) => {
        const role = corporate.roles.find((x) => x.id === u.roles[corporate.id]);
        return role !== undefined && role.permisos.adminHostes !== true;
      });
    if (advisers.length === 0) throw new Error('grupo-horizonte has no advisers');

    // About four quotations per lead; each adviser quotes for their own leads.
    const leadCount = Math.max(advisers.length, Math.ceil(quotationCount / 4));
    const leadsByAdviser = new Map<string, { id: string; nombre: string }[]>();
    const leadRequests: AppendRequest[] = [];
    const at = (ms: number) => new Date(ms);
    for (let i = 0; i < leadCount; i++) {
      const adviser = advisers[i % advisers.length]!;
      const id = `lead-${r.id8()}${r.id8()}`;
      const nombre = r.pick(FIRST_NAMES);
      const apellidos = `${r.pick(LAST_NAMES)} ${r.pick(LAST_NAMES)}`;
      const fields = normalizeLeadFields({
        nombre,
        apellidos,
        email: `${id}@example.com`,
        desarrollo: development.id,
        status: corporate.statusLeads?.[0]?.id ?? null,
      });
      const decision = decideLead(
        {
          type: 'RegisterLead',
          idLead: id,
          idCorporativo: corporate.id,
          idVendedor: adviser.id,
          fields,
          now: Math.floor(weekStart.getTime() / 1000),
        },
        initialLeadState,
      );
      if (!decision.ok) throw new Error(`lead: ${JSON.stringify(decision.error)}`);
      leadRequests.push({
        streamId: leadStream(corporate.id, id),
        expectedVersion: 'any',
        events: decision.events.map((e) => ({
          id: r.uuid(),
          type: e.type,
          data: e.data,
          corporateId: corporate.id,
          actorId: adviser.id,
          occurredAt: at(weekStart.getTime()),
        })),
      });
      const list = leadsByAdviser.get(adviser.id) ?? [];
      list.push({ id, nombre: `${nombre} ${apellidos}` });
      leadsByAdviser.set(adviser.id, list);
    }
    await appendInBatches(store, leadRequests, 'leads');

    const span = Math.max(1, now.getTime() - weekStart.getTime());
    const quotationRequests: AppendRequest[] = [];
    for (let i = 0; i < quotationCount; i++) {
      const adviser = advisers[i % advisers.length]!;
      const lead = r.pick(leadsByAdviser.get(adviser.id)!);
      const unit = r.pick(quotable);
      const schemes = effectiveSchemes(development.esquemasPago, unit.idCluster);
      const scheme = r.pick(schemes);
      const optionals = development.opcionales.filter(
        (o) => (!o.idCluster || o.idCluster === unit.idCluster) && r.next() < 0.3,
      );
      const when = at(weekStart.getTime() + Math.floor(r.next() * span));
      const pricing = priceQuotation({
        corporate,
        development,
        unit,
        statusColors: colors,
        rule: 'quotable',
        idEsquema: scheme.id,
        idsOpcionales: optionals.map((o) => o.id),
        extras: r.next() < 0.1 ? [{ nombre: 'Cortinas', precio: 18_500 }] : [],
        divisa: r.next() < 0.1 ? 'USD' : 'MXN',
        now: when,
      });
      if (!pricing.ok) throw new Error(`quotation: ${JSON.stringify(pricing.error)}`);
      const quotation = newQuotation(pricing.priced, {
        id: r.uuid(),
        idCorporativo: corporate.id,
        zonaHoraria: tz,
        development,
        cluster: clusters.get(unit.idCluster) ?? null,
        prototype: prototypes.get(unit.idPrototipo) ?? null,
        unit,
        adviser: { id: adviser.id, nombre: displayName(adviser) },
        lead,
        now: when,
      });
      const created: QuotationEvent = {
        type: 'QuotationCreated',
        data: { ...quotationEventBase(quotation), cotizacion: quotation },
      };
      quotationRequests.push({
        streamId: quotationStream(corporate.id, quotation.id),
        expectedVersion: 'any',
        events: [
          {
            id: r.uuid(),
            type: created.type,
            data: created.data,
            corporateId: corporate.id,
            actorId: adviser.id,
            occurredAt: when,
          },
        ],
      });
    }
    const written = await appendInBatches(store, quotationRequests, 'quotations');
    console.log(
      `gran-torre: ${unitRows.rows.length} units; ${written} new quotations this week over ${advisers.length} advisers (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await runtime.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
