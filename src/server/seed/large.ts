/**
 * Large-data generator: `npm run seed:large -- --units N --quotations M [--data-dir DIR]
 * [--seed S]`.
 *
 * Opens the runtime (PGlite in `--data-dir`, else `VITRINA_DATA_DIR`, else `./data`; or
 * PostgreSQL when `DATABASE_URL` is set), seeds the demo tenant when the store is empty, then
 * adds to grupo-horizonte the development `gran-torre` with N units (default 2000) over several
 * towers, and M quotations (default 10000) dated this week (Monday 00:00 in the corporate's time
 * zone up to now) spread over the corporate's advisers, each for one of that adviser's leads.
 *
 * Everything is written as events through `appendMany` in batches, so the read models are the
 * projections' own. Ids and event ids come from a seeded generator: running it again with the
 * same seed is a no-op (the store recognises the event ids), another `--seed` adds more.
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
import type {
  Cluster,
  Corporate,
  Development,
  Optional,
  PaymentScheme,
  Prototype,
  Unit,
  UnitStatus,
  User,
} from '../../core/types';
import type { CorporateConfig } from '../catalogue/events';
import { streams } from '../catalogue/events';
import { findCorporate } from '../http/context';
import { leadStream } from '../leads/streams';
import { displayName } from '../quotations/commands';
import { quotationStream } from '../quotations/streams';
import { effectiveStatusColors } from '../public/views';
import { openRuntime, seedDemoIfEmpty } from '../runtime';
import type { AppendRequest, EventStore, NewEvent } from '../store/event-store';
import { seededRandom, type SeededRandom } from './random';

const BATCH = 500;
const DEV_SLUG = 'gran-torre';

const STATUS_WEIGHTS: [UnitStatus, number][] = [
  ['Disponible', 62],
  ['Apartado', 8],
  ['Bloqueado', 4],
  ['Reservado', 6],
  ['Vendido', 14],
  ['No Disponible', 2],
  ['Incompleto', 2],
  ['Sin Estatus', 2],
];

const pickStatus = (r: SeededRandom): UnitStatus => r.weighted(STATUS_WEIGHTS);

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

/** The events of the large development: its document, towers, prototypes and `count` units. */
function buildDevelopment(r: SeededRandom, corporateId: string, count: number, at: () => Date) {
  const devId = `dev-${r.id8()}`;
  const towers = Math.max(1, Math.ceil(count / 400));
  const perTower = Math.ceil(count / towers);
  const perLevel = 20;
  const clusters: Cluster[] = Array.from({ length: towers }, (_, i) => ({
    id: `clu-${r.id8()}`,
    idDesarrollo: devId,
    nombre: `Torre ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`,
    niveles: Math.ceil(perTower / perLevel),
    unidadesPorNivel: perLevel,
  }));
  const clusterIds = clusters.map((c) => c.id);
  const plans = [
    { nombre: 'Estudio', recamaras: 1, banios: 1, cajones: 1, area: 48, precio: 2_600_000 },
    { nombre: 'Loft', recamaras: 1, banios: 1, cajones: 1, area: 62, precio: 3_400_000 },
    { nombre: 'Doble', recamaras: 2, banios: 2, cajones: 1, area: 86, precio: 4_900_000 },
    { nombre: 'Familiar', recamaras: 3, banios: 2, cajones: 2, area: 118, precio: 6_800_000 },
  ];
  const prototypes: Prototype[] = plans.map((p) => ({
    id: `pro-${r.id8()}`,
    idDesarrollo: devId,
    nombre: p.nombre,
    activo: true,
    clusters: clusterIds,
    precio: p.precio,
    metrajes: { areaTotal: p.area, areaInterior: Math.round(p.area * 0.88) },
    caracteristicas: {
      recamaras: p.recamaras,
      banios: p.banios,
      baniosMedios: 0,
      cajones: p.cajones,
    },
  }));
  const part = (nombre: string, porcentaje: number) => ({ nombre, porcentaje });
  const esquemasPago: PaymentScheme[] = [
    {
      id: `esq-${r.id8()}`,
      nombre: 'Contado',
      descuento: part('Descuento', 0.07),
      enganche: part('Enganche', 1),
      diferido: part('Diferido', 0),
      mensualidades: part('Mensualidades', 0),
      escrituracion: part('Escrituración', 0),
      contraEntrega: part('Contra entrega', 0),
    },
    {
      id: `esq-${r.id8()}`,
      nombre: '20/80',
      descuento: part('Descuento', 0.02),
      enganche: part('Enganche', 0.1),
      diferido: part('Diferido', 0),
      mensualidades: { ...part('Mensualidades', 0.1), numeroMensualidades: 18 },
      escrituracion: part('Escrituración', 0.02),
      contraEntrega: part('Contra entrega', 0.78),
    },
    {
      id: `esq-${r.id8()}`,
      nombre: '20/80',
      idCluster: clusterIds[0]!,
      descuento: part('Descuento', 0.04),
      enganche: part('Enganche', 0.1),
      diferido: part('Diferido', 0.05),
      mensualidades: { ...part('Mensualidades', 0.05), numeroMensualidades: 12 },
      escrituracion: part('Escrituración', 0),
      contraEntrega: part('Contra entrega', 0.8),
    },
  ];
  const opcionales: Optional[] = [
    { id: `opc-${r.id8()}`, nombre: 'Bodega', precio: 150_000 },
    { id: `opc-${r.id8()}`, nombre: 'Cajón adicional', precio: 320_000 },
    {
      id: `opc-${r.id8()}`,
      nombre: 'Acabados premium',
      precio: 380_000,
      idCluster: clusterIds[0]!,
    },
  ];
  const development: Development = {
    id: devId,
    slug: DEV_SLUG,
    idCorporativo: corporateId,
    nombre: 'Gran Torre',
    nombreCorto: 'Gran Torre',
    ubicacion: {
      direccion: 'Paseo de la Reforma 500',
      ciudad: 'Ciudad de México',
      estado: 'CDMX',
      coordenadas: { _latitude: 19.4265, _longitude: -99.1676 },
    },
    orden: 9,
    enApp: true,
    enWeb: true,
    divisa: 'MXN',
    categorias: ['cat-departamentos'],
    tagsBusqueda: ['tag-centro'],
    tagsEtapaEntrega: ['Preventa'],
    presentacion: {
      titulo: 'Gran Torre',
      descripcion: `Desarrollo de carga con ${count} unidades en ${towers} torres.`,
    },
    amenidades: ['Gimnasio', 'Alberca', 'Coworking'],
    opcionales,
    galeria: { items: [] },
    documentos: [],
    esquemasPago,
    fechaEntrega: '2028-12-01',
  };

  const event = (type: string, data: unknown): NewEvent => ({
    id: r.uuid(),
    type,
    data,
    corporateId,
    actorId: 'seed:large',
    occurredAt: at(),
  });
  const requests: AppendRequest[] = [
    {
      streamId: streams.development(corporateId, devId),
      expectedVersion: 'any',
      events: [event('DevelopmentPublished', { development })],
    },
    ...clusters.map((cluster) => ({
      streamId: streams.cluster(corporateId, cluster.id),
      expectedVersion: 'any' as const,
      events: [event('ClusterAdded', { cluster })],
    })),
    ...prototypes.map((prototype) => ({
      streamId: streams.prototype(corporateId, prototype.id),
      expectedVersion: 'any' as const,
      events: [event('PrototypeAdded', { prototype })],
    })),
  ];
  for (let i = 0; i < count; i++) {
    const cluster = clusters[Math.floor(i / perTower)]!;
    const k = i % perTower;
    const nivel = Math.floor(k / perLevel) + 1;
    const posicion = (k % perLevel) + 1;
    const pi = (posicion + nivel) % prototypes.length;
    const proto = prototypes[pi]!;
    const unit: Unit = {
      id: `uni-${r.id8()}`,
      idDesarrollo: devId,
      idCluster: cluster.id,
      idPrototipo: proto.id,
      nombre: `${cluster.nombre.replace('Torre ', '')}${nivel}${String(posicion).padStart(2, '0')}`,
      nivel,
      posicion,
      status: pickStatus(r),
      categoria: 'Departamento',
      precio: Math.round((plans[pi]!.precio * (1 + (nivel - 1) * 0.01)) / 1000) * 1000,
      divisa: 'MXN',
      caracteristicas: { ...proto.caracteristicas, baniosTotales: proto.caracteristicas.banios },
      metrajes: { ...proto.metrajes },
    };
    requests.push({
      streamId: streams.unit(corporateId, unit.id),
      expectedVersion: 'any',
      events: [event('UnitListed', { unit })],
    });
  }
  return requests;
}

const FIRST_NAMES = ['Ana', 'Luis', 'María', 'Jorge', 'Elena', 'Pablo', 'Rosa', 'Iván', 'Noemí'];
const LAST_NAMES = ['García', 'López', 'Hernández', 'Martínez', 'Pérez', 'Sánchez', 'Torres'];

async function main() {
  const { values } = parseArgs({
    options: {
      units: { type: 'string', default: '2000' },
      quotations: { type: 'string', default: '10000' },
      'data-dir': { type: 'string' },
      seed: { type: 'string', default: '7' },
    },
  });
  const unitCount = Number(values.units);
  const quotationCount = Number(values.quotations);
  const seed = Number(values.seed);
  if (![unitCount, quotationCount, seed].every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new Error('--units, --quotations and --seed must be whole numbers ≥ 0');
  }
  const databaseUrl = process.env.DATABASE_URL;
  const dataDir = resolve(values['data-dir'] ?? process.env.VITRINA_DATA_DIR ?? './data');
  const runtime = await openRuntime({ databaseUrl, dataDir });
  const started = Date.now();
  try {
    const { db, store, clock } = runtime.deps;
    console.log(`store: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}`);
    await seedDemoIfEmpty(store, () => console.log('Seeding the demo tenant…'));
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
