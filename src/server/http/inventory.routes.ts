import { Hono } from 'hono';
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { UNIT_STATUSES, type Prototype, type Unit } from '../../core/types';
import { streams } from '../domain/catalogue-events';
import type { NewEvent, AppendRequest } from '../store/event-store';
import { ApiError, forbidden, jsonBody, notFound, parse } from './errors';
import { requireMember, type Ctx, type Env } from './context';
import { loadClusters, loadDevelopmentById, loadPrototypes, loadUnits } from './catalogue.routes';

const id = z.string().min(1).max(64);
const statusBody = z.strictObject({ status: z.enum(UNIT_STATUSES as [string, ...string[]]) });
const priceBody = z.strictObject({ precio: z.number().finite().min(0).max(10_000_000_000) });

async function requireInventoryAdmin(c: Ctx) {
  const membership = await requireMember(c, { id: parse(id, c.req.param('c')) });
  if (!membership.role.permisos.administrarInventario) throw forbidden();
  return membership;
}

async function findUnit(c: Ctx, corporateId: string) {
  const unitId = parse(id, c.req.param('u'));
  const { rows } = await c
    .get('deps')
    .db.query<{ doc: Unit }>('SELECT doc FROM rm_units WHERE corporate_id = $1 AND id = $2', [
      corporateId,
      unitId,
    ]);
  const unit = rows[0]?.doc;
  if (!unit) throw notFound();
  return unit;
}

export interface ImportError {
  linea: number;
  motivo: string;
}

const csvRow = z.object({
  tipo: z.enum(['prototipo', 'unidad']),
  clave: z.string().trim().min(1).max(80),
  cluster: z.string().trim().max(80).default(''),
  prototipo: z.string().trim().max(80).default(''),
  nivel: z.string().default(''),
  posicion: z.string().default(''),
  status: z.string().trim().default(''),
  precio: z.string().default(''),
  recamaras: z.string().default(''),
  banios: z.string().default(''),
  baniosMedios: z.string().default(''),
  cajones: z.string().default(''),
  areaTotal: z.string().default(''),
});

const num = (
  value: string,
  field: string,
  errors: string[],
  opts: { int?: boolean; min?: number } = {},
) => {
  const v = value.trim();
  if (v === '' || !/^-?\d+(\.\d+)?$/.test(v)) {
    errors.push(`${field}: número requerido`);
    return 0;
  }
  const n = Number(v);
  if (opts.int && !Number.isInteger(n)) errors.push(`${field}: debe ser entero`);
  if (n < (opts.min ?? 0)) errors.push(`${field}: debe ser mayor o igual a ${opts.min ?? 0}`);
  return n;
};

/**
 * Inventory administration: status and price changes and CSV imports, all as events, so each unit
 * keeps its history. Needs the role permission `administrarInventario`.
 */
export const inventoryRoutes = new Hono<Env>()
  .put('/corporativos/:c/unidades/:u/status', async (c) => {
    const { corporate, user } = await requireInventoryAdmin(c);
    const { status } = parse(statusBody, await jsonBody(c));
    const unit = await findUnit(c, corporate.id);
    if (unit.status !== status) {
      const deps = c.get('deps');
      await deps.store.append(streams.unit(corporate.id, unit.id), 'any', [
        {
          id: deps.newId(),
          type: 'UnitStatusChanged',
          data: { idUnidad: unit.id, from: unit.status ?? null, to: status },
          corporateId: corporate.id,
          actorId: user.id,
          occurredAt: deps.clock(),
        },
      ]);
    }
    return c.json(await findUnit(c, corporate.id));
  })
  .put('/corporativos/:c/unidades/:u/precio', async (c) => {
    const { corporate, user } = await requireInventoryAdmin(c);
    const { precio } = parse(priceBody, await jsonBody(c));
    const unit = await findUnit(c, corporate.id);
    if (unit.precio !== precio) {
      const deps = c.get('deps');
      await deps.store.append(streams.unit(corporate.id, unit.id), 'any', [
        {
          id: deps.newId(),
          type: 'UnitPriceChanged',
          data: { idUnidad: unit.id, from: unit.precio, to: precio },
          corporateId: corporate.id,
          actorId: user.id,
          occurredAt: deps.clock(),
        },
      ]);
    }
    return c.json(await findUnit(c, corporate.id));
  })
  .get('/corporativos/:c/unidades/:u/historial', async (c) => {
    const { corporate } = await requireMember(c, { id: parse(id, c.req.param('c')) });
    const unit = await findUnit(c, corporate.id);
    const deps = c.get('deps');
    const events = await deps.store.readStream(streams.unit(corporate.id, unit.id));
    const actorIds = [...new Set(events.map((e) => e.actorId).filter((a): a is string => !!a))];
    const { rows } = await deps.db.query<{ id: string; nombre: string }>(
      "SELECT id, (doc->>'nombre') || ' ' || (doc->>'apellidos') AS nombre FROM rm_users WHERE id = ANY($1::text[])",
      [actorIds],
    );
    const names = new Map(rows.map((r) => [r.id, r.nombre]));
    return c.json(
      events
        .filter(
          (e) =>
            e.type === 'UnitStatusChanged' ||
            e.type === 'UnitPriceChanged' ||
            e.type === 'UnitListed',
        )
        .map((e) => {
          const data = e.data as { from?: unknown; to?: unknown; unit?: Unit };
          return {
            fecha: e.occurredAt,
            tipo: e.type,
            campo: e.type === 'UnitPriceChanged' ? 'precio' : 'status',
            anterior: e.type === 'UnitListed' ? null : (data.from ?? null),
            nuevo: e.type === 'UnitListed' ? (data.unit?.status ?? null) : data.to,
            actor: e.actorId
              ? (names.get(e.actorId) ?? (e.actorId === 'seed' ? 'Sistema' : e.actorId))
              : 'Sistema',
          };
        })
        .reverse(),
    );
  })
  .post('/corporativos/:c/desarrollos/:d/importar', async (c) => {
    const { corporate, user } = await requireInventoryAdmin(c);
    const deps = c.get('deps');
    const development = await loadDevelopmentById(
      deps.db,
      corporate.id,
      parse(id, c.req.param('d')),
    );
    if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    const text = await c.req.text();
    let records: Record<string, string>[];
    try {
      records = parseCsv<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
        columns: true,
        skip_empty_lines: true,
        trim: true,
        relax_column_count: false,
      });
    } catch (error) {
      throw new ApiError(
        400,
        'IMPORT_INVALID',
        'import_invalid',
        {},
        { errores: [{ linea: 0, motivo: `CSV: ${(error as Error).message.slice(0, 200)}` }] },
      );
    }
    if (records.length === 0)
      throw new ApiError(
        400,
        'IMPORT_INVALID',
        'import_invalid',
        {},
        { errores: [{ linea: 1, motivo: 'El archivo no tiene filas' }] },
      );
    if (records.length > 20_000)
      throw new ApiError(
        400,
        'IMPORT_INVALID',
        'import_invalid',
        {},
        { errores: [{ linea: 0, motivo: 'Máximo 20000 filas por archivo' }] },
      );

    const [clusters, prototypes, units] = await Promise.all([
      loadClusters(deps.db, corporate.id, development.id),
      loadPrototypes(deps.db, corporate.id, development.id),
      loadUnits(deps.db, corporate.id, development.id),
    ]);
    const clusterByName = new Map(clusters.map((cl) => [cl.nombre.toLowerCase(), cl]));
    const protoByName = new Map(prototypes.map((p) => [p.nombre.toLowerCase(), p]));
    const unitByKey = new Map(units.map((u) => [`${u.idCluster}|${u.nombre.toLowerCase()}`, u]));
    const errors: ImportError[] = [];
    const requests: AppendRequest[] = [];
    const now = deps.clock();
    const event = (type: string, data: unknown): NewEvent => ({
      id: deps.newId(),
      type,
      data,
      corporateId: corporate.id,
      actorId: user.id,
      occurredAt: now,
    });
    const seenUnits = new Set<string>();

    records.forEach((raw, index) => {
      const linea = index + 2; // the header is line 1
      const parsed = csvRow.safeParse(raw);
      if (!parsed.success) {
        errors.push({
          linea,
          motivo: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
        });
        return;
      }
      const row = parsed.data;
      const problems: string[] = [];
      if (row.tipo === 'prototipo') {
        const precio = num(row.precio, 'precio', problems);
        const recamaras = num(row.recamaras, 'recamaras', problems, { int: true });
        const banios = num(row.banios, 'banios', problems, { int: true });
        const baniosMedios = num(row.baniosMedios || '0', 'baniosMedios', problems, { int: true });
        const cajones = num(row.cajones, 'cajones', problems, { int: true });
        const areaTotal = num(row.areaTotal, 'areaTotal', problems);
        if (protoByName.has(row.clave.toLowerCase()))
          problems.push(`prototipo ${row.clave} ya existe`);
        if (problems.length) return errors.push({ linea, motivo: problems.join('; ') });
        const prototype: Prototype = {
          id: `pro-${deps.newId().slice(0, 8)}`,
          idDesarrollo: development.id,
          nombre: row.clave,
          activo: true,
          clusters: clusters.map((cl) => cl.id),
          precio,
          metrajes: { areaTotal },
          caracteristicas: { recamaras, banios, baniosMedios, cajones },
        };
        protoByName.set(row.clave.toLowerCase(), prototype);
        requests.push({
          streamId: streams.prototype(corporate.id, prototype.id),
          expectedVersion: 0,
          events: [event('PrototypeAdded', { prototype })],
        });
        return;
      }
      const cluster = clusterByName.get(row.cluster.toLowerCase());
      if (!cluster) problems.push(`cluster '${row.cluster}' no existe`);
      const status = row.status;
      if (!(UNIT_STATUSES as readonly string[]).includes(status))
        problems.push(`status '${status}' no es válido`);
      const precio = num(row.precio, 'precio', problems);
      const key = `${cluster?.id}|${row.clave.toLowerCase()}`;
      if (seenUnits.has(key)) problems.push(`unidad ${row.clave} repetida en el archivo`);
      seenUnits.add(key);
      const existing = unitByKey.get(key);
      if (existing) {
        if (problems.length) return errors.push({ linea, motivo: problems.join('; ') });
        const changes: NewEvent[] = [];
        if (existing.status !== status)
          changes.push(
            event('UnitStatusChanged', {
              idUnidad: existing.id,
              from: existing.status ?? null,
              to: status,
            }),
          );
        if (existing.precio !== precio)
          changes.push(
            event('UnitPriceChanged', { idUnidad: existing.id, from: existing.precio, to: precio }),
          );
        if (changes.length)
          requests.push({
            streamId: streams.unit(corporate.id, existing.id),
            expectedVersion: 'any',
            events: changes,
          });
        return;
      }
      const proto = protoByName.get(row.prototipo.toLowerCase());
      if (!proto) problems.push(`prototipo '${row.prototipo}' no existe`);
      const nivel = num(row.nivel, 'nivel', problems, { int: true, min: 1 });
      const posicion = num(row.posicion, 'posicion', problems, { int: true, min: 1 });
      if (cluster && nivel > cluster.niveles)
        problems.push(
          `nivel ${nivel} mayor que los ${cluster.niveles} niveles de ${cluster.nombre}`,
        );
      if (problems.length || !cluster || !proto)
        return errors.push({ linea, motivo: problems.join('; ') });
      const unit: Unit = {
        id: `uni-${deps.newId().slice(0, 8)}`,
        idDesarrollo: development.id,
        idCluster: cluster.id,
        idPrototipo: proto.id,
        nombre: row.clave,
        nivel,
        posicion,
        status,
        categoria: 'Departamento',
        precio,
        divisa: development.divisa,
        caracteristicas: {
          ...proto.caracteristicas,
          baniosTotales: proto.caracteristicas.banios + 0.5 * proto.caracteristicas.baniosMedios,
        },
        metrajes: { ...proto.metrajes },
      };
      requests.push({
        streamId: streams.unit(corporate.id, unit.id),
        expectedVersion: 0,
        events: [event('UnitListed', { unit })],
      });
      return;
    });

    if (errors.length > 0) {
      throw new ApiError(
        400,
        'IMPORT_INVALID',
        'import_invalid',
        { count: errors.length },
        { errores: errors },
      );
    }
    // One transaction: a file is imported whole or not at all.
    const results = requests.length ? await deps.store.appendMany(requests) : [];
    return c.json({
      filas: records.length,
      eventos: results.reduce((n, r) => n + r.written, 0),
    });
  });
