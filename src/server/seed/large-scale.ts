/**
 * The scale mode of `npm run seed:large` (issue 21, "a large developer's data"): `--corporates C
 * --developments D --units U --leads L --events E` adds C corporates (clones of grupo-horizonte's
 * settings, slugs `carga-01`…), `--advisers A` advisers in each (password: the demo's), D
 * developments over them holding U units in all, and L leads whose streams hold E lead events in
 * all (each lead registered, then notes and status changes in turn: E/L events per lead).
 *
 * Corporates, advisers, developments and units (tens of thousands of events) go through the store
 * like any append, so the catalogue projection builds their read models. Leads (millions) are
 * written in bulk: each lead's events are decided by the lead aggregate (core/lead.ts `decide` on
 * the folded state), then a batch of leads is one transaction of a few multi-row
 * `INSERT … SELECT FROM unnest(…)` statements (events, streams, `rm_leads`, `rm_lead_notes`), the
 * read-model rows being the leads projection's own (`leadRow` of the folded lead; then, for
 * its derived tables, its own refill, e.g. `recountLeadCounts`; an unknown one stops the seed). The lead event
 * types written are handled by no other projection, so a rebuild from the log reproduces exactly
 * these rows (tests/integration/seed-large.test.ts compares them with store:verify's check). Three
 * batches are in flight while the next is decided. Each batch is its own transaction, so the log
 * holds thousands of transaction ids across digit boundaries, as in production.
 */
import {
  decide as decideLead,
  evolve as evolveLeadState,
  initialLeadState,
  normalizeLeadFields,
  type Lead,
  type LeadCommand,
  type LeadEvent,
  type LeadState,
} from '../../core/lead';
import type { Corporate, User } from '../../core/types';
import { hashPassword } from '../auth/passwords';
import { streams, type CorporateConfig } from '../catalogue/events';
import {
  leadsProjection,
  recountLeadCounts,
  upsertLeadRows,
  upsertNoteRows,
  type LeadNoteRow,
} from '../leads/projection';
import { leadStream } from '../leads/streams';
import type { Db, Queryable } from '../store/db';
import type { AppendRequest, EventStore, NewEvent } from '../store/event-store';
import { DEMO_PASSWORD } from './demo';
import { buildDevelopment } from './large-development';
import { seededRandom, type SeededRandom } from './random';

export interface ScaleOptions {
  corporates: number;
  advisers: number;
  developments: number;
  units: number;
  leads: number;
  /** Lead events in all (at least one per lead: its registration). */
  events: number;
  seed: number;
  /** Leads per bulk transaction (default 2000). */
  leadBatch?: number;
  log?: (line: string) => void;
}

export interface ScaleSummary {
  corporates: number;
  developments: number;
  units: number;
  leads: number;
  leadEvents: number;
  catalogueEvents: number;
  seconds: { catalogue: number; leads: number };
}

const FIRST_NAMES = ['Ana', 'Luis', 'María', 'Jorge', 'Elena', 'Pablo', 'Rosa', 'Iván', 'Noemí'];
const LAST_NAMES = ['García', 'López', 'Hernández', 'Martínez', 'Pérez', 'Sánchez', 'Torres'];
const NOTES = [
  'Llamó para pedir precios de dos recámaras.',
  'Visitó el showroom con su familia.',
  'Pide un esquema con mayor enganche.',
  'Enviar la cotización por correo.',
  'Interesado en una unidad con vista.',
];
const CATALOGUE_BATCH = 500;

type Refill = (tx: Queryable, corporateId: string) => Promise<void>;

/**
 * How the bulk fills each table of the leads projection beyond the two it writes row by row: a
 * table missing here stops the seed rather than leave a read model the log would not rebuild.
 */
const DERIVED_LEAD_TABLES: Record<string, Refill | undefined> = {
  rm_lead_counts: recountLeadCounts,
};

function derivedLeadTables(): [string, Refill][] {
  return leadsProjection.tables
    .filter((table) => table !== 'rm_leads' && table !== 'rm_lead_notes')
    .map((table) => {
      const refill = DERIVED_LEAD_TABLES[table];
      if (!refill) throw new Error(`the bulk lead writer does not fill ${table}`);
      return [table, refill];
    });
}

interface ScaleCorporate {
  id: string;
  advisers: string[];
  developments: string[];
  statuses: string[];
}

/** Adds the scale mode's data to an open store (the demo tenant must already be seeded). */
export async function seedScale(
  db: Db,
  store: EventStore,
  options: ScaleOptions,
): Promise<ScaleSummary> {
  const log = options.log ?? (() => undefined);
  const r = seededRandom(0x5ca1e000 + options.seed);
  const started = Date.now();
  const template = await db.query<{ data: { corporate: Corporate; config: CorporateConfig } }>(
    `SELECT e.data FROM events e JOIN rm_corporates c ON c.id = e.corporate_id
     WHERE e.type = 'CorporateRegistered' AND c.slug = 'grupo-horizonte'`,
  );
  const horizonte = template.rows[0]?.data;
  if (!horizonte) throw new Error('grupo-horizonte is missing: seed the demo tenant first');
  const tag = `${options.seed}`.padStart(2, '0');
  const taken = await db.query('SELECT 1 FROM rm_corporates WHERE slug = $1', [`carga-${tag}-01`]);
  if (taken.rows.length > 0) {
    throw new Error(`the scale mode already ran with --seed ${options.seed}: pick another seed`);
  }
  const adviserRole = horizonte.corporate.roles.find((role) => role.id.endsWith('-asesor'));
  if (!adviserRole) throw new Error("grupo-horizonte has no adviser's role");
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const at = new Date();
  const event = (type: string, data: unknown, corporateId: string | null): NewEvent => ({
    id: r.uuid(),
    type,
    data,
    corporateId,
    actorId: 'seed:large',
    occurredAt: at,
  });

  const corporates: ScaleCorporate[] = [];
  const catalogue: AppendRequest[] = [];
  for (let c = 0; c < options.corporates; c++) {
    const n = String(c + 1).padStart(2, '0');
    const id = `corp-${r.id8()}`;
    const corporate: Corporate = {
      ...horizonte.corporate,
      id,
      slug: `carga-${tag}-${n}`,
      nombre: `Carga ${tag}-${n}`,
    };
    catalogue.push({
      streamId: streams.corporate(id),
      expectedVersion: 'any',
      events: [event('CorporateRegistered', { corporate, config: horizonte.config }, id)],
    });
    const advisers: string[] = [];
    for (let a = 0; a < options.advisers; a++) {
      const userId = `usr-${r.id8()}`;
      const user: User = {
        id: userId,
        email: `asesor${a + 1}@carga-${tag}-${n}.vitrina.demo`,
        nombre: r.pick(FIRST_NAMES),
        apellidos: `${r.pick(LAST_NAMES)} ${r.pick(LAST_NAMES)}`,
        corporativos: [],
        corporativosRegistro: [],
        corporativoFavorito: id,
        desarrollosFavoritos: {},
        roles: {},
        fechaAlta: Math.floor(at.getTime() / 1000),
        sesionUltima: null,
        esAdmin: false,
        perfil: 2,
        tipo: 'Asesor',
        aprobarRegistro: true,
        info: { estatus: 'activo' },
      };
      catalogue.push({
        streamId: streams.user(userId),
        expectedVersion: 'any',
        events: [
          event('UserRegistered', { user, passwordHash }, null),
          event(
            'MembershipGranted',
            { idUsuario: userId, idCorporativo: id, idRol: adviserRole.id, aprobado: true },
            id,
          ),
        ],
      });
      advisers.push(userId);
    }
    const statuses = (horizonte.config.statusLeads ?? []).map((s) => s.id);
    corporates.push({ id, advisers, developments: [], statuses });
  }
  const developmentRequests: AppendRequest[][] = [];
  let units = 0;
  for (let d = 0; d < options.developments; d++) {
    const corporate = corporates[d % corporates.length]!;
    const count =
      Math.floor(options.units / options.developments) +
      (d < options.units % options.developments ? 1 : 0);
    const n = String(d + 1).padStart(3, '0');
    const requests = buildDevelopment(r, corporate.id, count, () => at, {
      slug: `carga-${tag}-torre-${n}`,
      nombre: `Torre de carga ${tag}-${n}`,
    });
    corporate.developments.push(requests[0]!.streamId.split(':').at(-1)!);
    developmentRequests.push(requests);
    units += count;
  }
  // Corporates and advisers first; then the developments, several at once, each in its own
  // sequence of batches (a development's batches share its rows, e.g. counters: never two at once).
  let catalogueEvents = await appendBatches(store, [catalogue], 1, log);
  catalogueEvents += await appendBatches(store, developmentRequests, 4, log);
  const catalogueSeconds = (Date.now() - started) / 1000;

  const leadsStarted = Date.now();
  const leadEvents = await bulkLeads(db, r, corporates, options, log);
  return {
    corporates: options.corporates,
    developments: options.developments,
    units,
    leads: options.leads,
    leadEvents,
    catalogueEvents,
    seconds: { catalogue: catalogueSeconds, leads: (Date.now() - leadsStarted) / 1000 },
  };
}

/**
 * Appends each sequence of `sequences` in batches of {@link CATALOGUE_BATCH}, in order, with
 * `parallel` sequences written at once.
 */
async function appendBatches(
  store: EventStore,
  sequences: AppendRequest[][],
  parallel: number,
  log: (line: string) => void,
): Promise<number> {
  let next = 0;
  let written = 0;
  const worker = async () => {
    while (next < sequences.length) {
      const requests = sequences[next++]!;
      for (let i = 0; i < requests.length; i += CATALOGUE_BATCH) {
        const results = await store.appendMany(requests.slice(i, i + CATALOGUE_BATCH));
        written += results.reduce((sum, result) => sum + result.written, 0);
        log(`catalogue: ${written} events`);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return written;
}

/** One bulk batch: the rows of its events, streams and read models, column by column. */
interface LeadBatch {
  events: { cols: unknown[][]; count: number };
  streams: [string[], number[]];
  leads: Lead[];
  notes: LeadNoteRow[];
}

const newBatch = (): LeadBatch => ({
  events: { cols: [[], [], [], [], [], [], [], []], count: 0 },
  streams: [[], []],
  leads: [],
  notes: [],
});

/** The events of one lead: registered, then notes and status changes in turn. */
function leadHistory(
  r: SeededRandom,
  corporate: ScaleCorporate,
  index: number,
  eventCount: number,
  nowSeconds: number,
): { state: LeadState; events: { event: LeadEvent; at: number; actor: string }[] } {
  const adviser = corporate.advisers[index % corporate.advisers.length] ?? null;
  const id = `lead-${r.id8()}${r.id8()}`;
  const nombre = r.pick(FIRST_NAMES);
  // Registered over the last year; each later event a few hours after the one before.
  let t = nowSeconds - Math.floor(r.next() * 365 * 86_400) - eventCount * 7200;
  const commands: LeadCommand[] = [
    {
      type: 'RegisterLead',
      idLead: id,
      idCorporativo: corporate.id,
      idVendedor: adviser,
      fields: normalizeLeadFields({
        nombre,
        apellidos: `${r.pick(LAST_NAMES)} ${r.pick(LAST_NAMES)}`,
        email: `${id.toLowerCase()}@example.com`,
        celular: `55${String(10_000_000 + Math.floor(r.next() * 89_999_999))}`,
        desarrollo: corporate.developments.length ? r.pick(corporate.developments) : null,
        status: corporate.statuses[0] ?? null,
      }),
      now: t,
    },
  ];
  let state: LeadState = initialLeadState;
  const events: { event: LeadEvent; at: number; actor: string }[] = [];
  const run = (command: LeadCommand) => {
    const decision = decideLead(command, state);
    if (!decision.ok) throw new Error(`lead ${id}: ${JSON.stringify(decision.error)}`);
    for (const event of decision.events) {
      state = evolveLeadState(state, event);
      events.push({ event, at: t, actor: adviser ?? 'seed:large' });
    }
  };
  run(commands[0]!);
  let statusIndex = 0;
  for (let k = 1; events.length < eventCount; k++) {
    t += 3600 + Math.floor(r.next() * 3600);
    const before = events.length;
    if (k % 2 === 1 || corporate.statuses.length < 2) {
      run({
        type: 'AddLeadNote',
        key: `n${k}-${r.id8()}`,
        nota: r.pick(NOTES),
        idUsuario: adviser,
        now: t,
      });
    } else {
      const current = state.lead!.status;
      statusIndex = (statusIndex + 1) % corporate.statuses.length;
      run({
        type: 'UpdateLead',
        changes: { status: corporate.statuses[statusIndex]! },
        expected: { status: current },
      });
    }
    if (events.length === before) throw new Error(`lead ${id}: a command decided nothing`);
  }
  return { state, events };
}

async function bulkLeads(
  db: Db,
  r: SeededRandom,
  corporates: ScaleCorporate[],
  options: ScaleOptions,
  log: (line: string) => void,
): Promise<number> {
  if (options.leads === 0 || corporates.length === 0) return 0;
  const derived = derivedLeadTables();
  const perLead = Math.max(1, Math.floor(options.events / options.leads));
  const extra = Math.max(0, options.events - perLead * options.leads);
  const batchSize = options.leadBatch ?? 2000;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const inFlight = new Set<Promise<void>>();
  let written = 0;
  let batch = newBatch();
  const flush = async () => {
    const full = batch;
    batch = newBatch();
    const write = db.transaction((tx) => writeBatch(tx, full));
    const tracked = write.then(() => {
      inFlight.delete(tracked);
    });
    inFlight.add(tracked);
    if (inFlight.size >= 3) await Promise.race(inFlight);
  };
  for (let i = 0; i < options.leads; i++) {
    const corporate = corporates[i % corporates.length]!;
    const count = perLead + (i < extra ? 1 : 0);
    const { state, events } = leadHistory(
      r,
      corporate,
      Math.floor(i / corporates.length),
      count,
      nowSeconds,
    );
    const lead = state.lead!;
    const stream = leadStream(corporate.id, lead.id);
    const cols = batch.events.cols;
    events.forEach(({ event, at, actor }, v) => {
      cols[0]!.push(r.uuid());
      cols[1]!.push(stream);
      cols[2]!.push(v + 1);
      cols[3]!.push(event.type);
      cols[4]!.push(corporate.id);
      cols[5]!.push(actor);
      cols[6]!.push(new Date(at * 1000).toISOString());
      cols[7]!.push(JSON.stringify(event.data));
    });
    batch.events.count += events.length;
    batch.streams[0].push(stream);
    batch.streams[1].push(events.length);
    batch.leads.push(lead);
    for (const note of Object.values(state.notes)) {
      batch.notes.push({ leadId: lead.id, corporateId: corporate.id, note });
    }
    written += events.length;
    if ((i + 1) % batchSize === 0) {
      await flush();
      log(`leads: ${i + 1}/${options.leads} (${written} events)`);
    }
  }
  if (batch.streams[0].length > 0) await flush();
  await Promise.all(inFlight);
  // The projection's derived tables (its counters of live leads), from the rows just written.
  for (const corporate of corporates) {
    for (const [, refill] of derived) await db.transaction((tx) => refill(tx, corporate.id));
  }
  log(`leads: ${options.leads}/${options.leads} (${written} events)`);
  return written;
}

async function writeBatch(tx: Queryable, batch: LeadBatch): Promise<void> {
  // WITH ORDINALITY … ORDER BY: the events take their global positions in the order given.
  await tx.query(
    `INSERT INTO events (id, stream_id, version, type, corporate_id, actor_id, occurred_at, data)
     SELECT id, stream_id, version, type, corporate_id, actor_id, occurred_at, data
     FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[],
                 $7::timestamptz[], $8::jsonb[])
          WITH ORDINALITY AS e(id, stream_id, version, type, corporate_id, actor_id, occurred_at, data, n)
     ORDER BY n`,
    batch.events.cols,
  );
  await tx.query(
    'INSERT INTO streams (stream_id, version) SELECT * FROM unnest($1::text[], $2::int[])',
    batch.streams,
  );
  // The leads projection's own bulk writers (its replay of the log writes the same way).
  await upsertLeadRows(tx, batch.leads);
  await upsertNoteRows(tx, batch.notes);
}
