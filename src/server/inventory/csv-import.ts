/**
 * The inventory CSV import (spec §7 inventory administration): the file is read, every row is
 * checked against the development as it is, and the import is planned as the facts it would
 * produce. A file with any refused row writes nothing; the reasons are per line, in the caller's
 * language. Writing the plan is the inventory command's job ({@link importInventory}).
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import {
  UNIT_STATUSES,
  type Cluster,
  type Development,
  type Prototype,
  type Unit,
} from '../../core/types';
import { UNIT_PRICE_MAX } from '../../core/unit';
import { ApiError } from '../http/errors';
import { message, type Lang } from '../http/messages';

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

/** Most rows one import file may carry. */
const IMPORT_MAX_ROWS = 20_000;
/** The highest price a unit or prototype may have (as the price change route). */
const PRICE_MAX = UNIT_PRICE_MAX;

/** Columns every file needs, and those its prototype or unit rows need. */
const ALWAYS_COLUMNS = ['tipo', 'clave', 'precio'] as const;
const PROTOTYPE_COLUMNS = ['recamaras', 'banios', 'cajones', 'areaTotal'] as const;
const UNIT_COLUMNS = ['cluster', 'prototipo', 'nivel', 'posicion', 'status'] as const;

/** A number cell; problems are written in the caller's language. */
const num = (
  value: string,
  field: string,
  errors: string[],
  L: Lang,
  opts: { int?: boolean; min?: number; max?: number } = {},
) => {
  const v = value.trim();
  if (v === '' || !/^-?\d+(\.\d+)?$/.test(v)) {
    errors.push(message('import_number_required', L, { field }));
    return 0;
  }
  const n = Number(v);
  const min = opts.min ?? 0;
  if (opts.int && !Number.isInteger(n))
    errors.push(message('import_integer_required', L, { field }));
  if (n < min) errors.push(message('import_min', L, { field, min }));
  if (opts.max !== undefined && n > opts.max)
    errors.push(message('import_max', L, { field, max: opts.max.toLocaleString(L) }));
  return n;
};

/** What csv-parse refused, said in the caller's language (its own messages are English). */
function csvParseProblem(error: unknown, L: Lang): ImportError {
  const e = error as { code?: string; lines?: number; record?: unknown[]; columns?: unknown[] };
  const linea = typeof e.lines === 'number' ? e.lines : 1;
  switch (e.code) {
    case 'CSV_RECORD_INCONSISTENT_COLUMNS':
    case 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH':
      return {
        linea,
        motivo: message('import_columns_count', L, {
          got: Array.isArray(e.record) ? e.record.length : '?',
          expected: Array.isArray(e.columns) ? e.columns.length : '?',
        }),
      };
    case 'CSV_QUOTE_NOT_CLOSED':
      return { linea, motivo: message('import_quote_unclosed', L) };
    case 'INVALID_OPENING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return { linea, motivo: message('import_quote_misplaced', L) };
    default:
      return { linea, motivo: message('import_unreadable', L) };
  }
}

/** One zod issue of a row's shape, in the caller's language. */
function rowIssue(issue: z.core.$ZodIssue, L: Lang): string {
  const field = issue.path.join('.') || 'fila';
  if (field === 'tipo') return message('import_type_invalid', L);
  if (issue.code === 'too_big')
    return message('import_too_long', L, { field, max: Number(issue.maximum) });
  return message('import_required', L, { field });
}

/** A refused import: nothing was written; the reasons are per line. */
export function importRefused(errores: ImportError[]): ApiError {
  return new ApiError(
    400,
    'IMPORT_INVALID',
    errores.length === 1 ? 'import_invalid_one' : 'import_invalid',
    { count: errores.length },
    { errores },
  );
}

/** What an accepted file does: new prototypes and units, and changes to units that exist. */
export interface ImportPlan {
  filas: number;
  prototypes: Prototype[];
  units: Unit[];
  changes: { idUnidad: string; status: string; precio: number }[];
}

/** The development as the import checks rows against it. */
export interface ImportTarget {
  development: Development;
  clusters: Cluster[];
  prototypes: Prototype[];
  units: Unit[];
}

/** Reads and checks the file; a refused file throws {@link importRefused} with every reason. */
export function planImport(
  text: string,
  L: Lang,
  { development, clusters, prototypes, units }: ImportTarget,
  newId: () => string,
): ImportPlan {
  let records: Record<string, string>[];
  let header: string[] = [];
  try {
    records = parseCsv<Record<string, string>>(text.replace(/^\uFEFF/, ''), {
      columns: (names: string[]) => (header = names),
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
    });
  } catch (error) {
    throw importRefused([csvParseProblem(error, L)]);
  }
  if (records.length === 0)
    throw importRefused([{ linea: 1, motivo: message('import_no_rows', L) }]);
  if (records.length > IMPORT_MAX_ROWS)
    throw importRefused([
      {
        linea: IMPORT_MAX_ROWS + 2,
        motivo: message('import_too_many_rows', L, { max: IMPORT_MAX_ROWS.toLocaleString(L) }),
      },
    ]);
  // Missing columns are one problem of the header, not one per row.
  const kinds = new Set(records.map((r) => (r.tipo ?? '').trim()));
  const needed = [
    ...ALWAYS_COLUMNS,
    ...(kinds.has('prototipo') ? PROTOTYPE_COLUMNS : []),
    ...(kinds.has('unidad') ? UNIT_COLUMNS : []),
  ];
  const missing = needed.filter((col) => !header.includes(col));
  if (missing.length > 0)
    throw importRefused([
      { linea: 1, motivo: message('import_columns_missing', L, { columns: missing.join(', ') }) },
    ]);

  const clusterByName = new Map(clusters.map((cl) => [cl.nombre.toLowerCase(), cl]));
  const protoByName = new Map(prototypes.map((p) => [p.nombre.toLowerCase(), p]));
  const unitByKey = new Map(units.map((u) => [`${u.idCluster}|${u.nombre.toLowerCase()}`, u]));
  const errors: ImportError[] = [];
  const newPrototypes: Prototype[] = [];
  const newUnits: Unit[] = [];
  const changes: ImportPlan['changes'] = [];
  const seenUnits = new Set<string>();
  // Who holds each place of a building: `idCluster|nivel|posicion` → unit name.
  const places = new Map(units.map((u) => [`${u.idCluster}|${u.nivel}|${u.posicion}`, u.nombre]));

  records.forEach((raw, index) => {
    const linea = index + 2; // the header is line 1
    const parsed = csvRow.safeParse(raw);
    if (!parsed.success) {
      errors.push({ linea, motivo: parsed.error.issues.map((i) => rowIssue(i, L)).join('; ') });
      return;
    }
    const row = parsed.data;
    const problems: string[] = [];
    if (row.tipo === 'prototipo') {
      const precio = num(row.precio, 'precio', problems, L, { max: PRICE_MAX });
      const recamaras = num(row.recamaras, 'recamaras', problems, L, { int: true, max: 50 });
      const banios = num(row.banios, 'banios', problems, L, { int: true, max: 50 });
      const baniosMedios = num(row.baniosMedios || '0', 'baniosMedios', problems, L, {
        int: true,
        max: 50,
      });
      const cajones = num(row.cajones, 'cajones', problems, L, { int: true, max: 50 });
      const areaTotal = num(row.areaTotal, 'areaTotal', problems, L, { max: 1_000_000 });
      if (protoByName.has(row.clave.toLowerCase()))
        problems.push(message('import_prototype_exists', L, { name: row.clave }));
      if (problems.length) return errors.push({ linea, motivo: problems.join('; ') });
      const prototype: Prototype = {
        id: `pro-${newId().slice(0, 8)}`,
        idDesarrollo: development.id,
        nombre: row.clave,
        activo: true,
        clusters: clusters.map((cl) => cl.id),
        precio,
        metrajes: { areaTotal },
        caracteristicas: { recamaras, banios, baniosMedios, cajones },
      };
      protoByName.set(row.clave.toLowerCase(), prototype);
      newPrototypes.push(prototype);
      return;
    }
    const cluster = clusterByName.get(row.cluster.toLowerCase());
    if (!cluster) problems.push(message('import_cluster_unknown', L, { name: row.cluster }));
    const status = row.status;
    if (!(UNIT_STATUSES as readonly string[]).includes(status))
      problems.push(message('import_status_invalid', L, { status }));
    const precio = num(row.precio, 'precio', problems, L, { max: PRICE_MAX });
    const key = `${cluster?.id}|${row.clave.toLowerCase()}`;
    if (seenUnits.has(key)) problems.push(message('import_unit_repeated', L, { name: row.clave }));
    seenUnits.add(key);
    const existing = unitByKey.get(key);
    if (existing) {
      if (problems.length) return errors.push({ linea, motivo: problems.join('; ') });
      if (existing.status !== status || existing.precio !== precio)
        changes.push({ idUnidad: existing.id, status, precio });
      return;
    }
    const proto = protoByName.get(row.prototipo.toLowerCase());
    if (!proto) problems.push(message('import_prototype_unknown', L, { name: row.prototipo }));
    const nivel = num(row.nivel, 'nivel', problems, L, { int: true, min: 1 });
    const posicion = num(row.posicion, 'posicion', problems, L, { int: true, min: 1 });
    if (cluster && nivel > cluster.niveles)
      problems.push(
        message('import_level_too_high', L, {
          level: nivel,
          levels: cluster.niveles,
          cluster: cluster.nombre,
        }),
      );
    if (cluster && posicion > cluster.unidadesPorNivel)
      problems.push(
        message('import_position_too_high', L, {
          position: posicion,
          positions: cluster.unidadesPorNivel,
          cluster: cluster.nombre,
        }),
      );
    // One unit per place: the grid draws a building as levels × positions.
    const place = `${cluster?.id}|${nivel}|${posicion}`;
    const holder = cluster ? places.get(place) : undefined;
    if (cluster && holder !== undefined)
      problems.push(
        message('import_position_taken', L, {
          level: nivel,
          position: posicion,
          cluster: cluster.nombre,
          unit: holder,
        }),
      );
    if (problems.length || !cluster || !proto)
      return errors.push({ linea, motivo: problems.join('; ') });
    places.set(place, row.clave);
    const unit: Unit = {
      id: `uni-${newId().slice(0, 8)}`,
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
    newUnits.push(unit);
    return;
  });

  if (errors.length > 0) throw importRefused(errors);
  return { filas: records.length, prototypes: newPrototypes, units: newUnits, changes };
}
