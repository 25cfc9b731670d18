import type { Queryable } from './db';
import type { EventStore, ReplayOptions } from './event-store';

/** One row of a read-model table, as JSON (`to_jsonb(row)`). */
export type Row = Record<string, unknown>;

/** How a read-model table compares with the same table rebuilt from the log. */
export interface TableComparison {
  table: string;
  /** The primary key's columns, which pair a live row with its rebuilt one. */
  key: string[];
  liveRows: number;
  rebuiltRows: number;
  /** Rows that differ, by kind (full counts); `examples` holds the first few of them. */
  onlyLive: number;
  onlyRebuilt: number;
  changed: number;
  examples: RowDifference[];
}

export type RowDifference =
  | { kind: 'onlyLive'; key: Row; live: Row }
  | { kind: 'onlyRebuilt'; key: Row; rebuilt: Row }
  | { kind: 'changed'; key: Row; live: Row; rebuilt: Row };

export interface Comparison {
  /** Events replayed: the whole log, `count(*)` of `events`. */
  events: number;
  tables: TableComparison[];
  /** Rows that differ across every table. */
  differences: number;
}

export interface CompareOptions {
  /** Differing rows kept as examples per table (all are counted). Default 20. */
  examples?: number;
  /** How the log is replayed (page size; bulk or one event at a time). Default: bulk. */
  replay?: ReplayOptions;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

class RolledBack {
  constructor(readonly comparison: Comparison) {}
}

/**
 * Rebuilds every projection from the log into scratch tables and compares each read-model table
 * with its rebuilt twin, row by row (paired by primary key). Nothing is written: the scratch
 * tables are temporary, in a transaction that is rolled back. The transaction is REPEATABLE READ,
 * so the log and the live tables are read at one instant while servers keep writing.
 */
export async function verifyProjections(
  store: EventStore,
  options: CompareOptions = {},
): Promise<Comparison> {
  try {
    await store.db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      const comparison = await rebuildIntoScratch(store, tx, options);
      throw new RolledBack(comparison);
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.comparison;
    throw error;
  }
  throw new Error('unreachable: the verification transaction must roll back');
}

/**
 * Rebuilds every projection from the log into scratch tables, compares (as
 * {@link verifyProjections}) and swaps the rebuilt rows into the live tables, all in one
 * transaction: readers see the old read models until it commits and the rebuilt ones after.
 * Appends wait for it (the log is locked against inserts), so the rebuild and the swap see the
 * same log. Answers what the swap changed.
 */
export async function rebuildAndSwap(
  store: EventStore,
  options: CompareOptions = {},
): Promise<Comparison> {
  return store.db.transaction(async (tx) => {
    await tx.query('LOCK TABLE events IN EXCLUSIVE MODE');
    const comparison = await rebuildIntoScratch(store, tx, options, async (live, scratch) => {
      for (const table of store.projectionTables()) {
        const columns = await columnsOf(tx, scratch, table);
        await tx.query(`DELETE FROM ${ident(live)}.${ident(table)}`);
        await tx.query(
          `INSERT INTO ${ident(live)}.${ident(table)} (${columns}) SELECT ${columns} FROM ${ident(scratch)}.${ident(table)}`,
        );
      }
    });
    return comparison;
  });
}

async function rebuildIntoScratch(
  store: EventStore,
  tx: Queryable,
  options: CompareOptions,
  beforeEnd?: (live: string, scratch: string) => Promise<void>,
): Promise<Comparison> {
  const live = (await tx.query<{ s: string }>('SELECT current_schema() AS s')).rows[0]!.s;
  // Temporary tables: the session's own schema, so no CREATE privilege on the database is needed
  // and nothing outlives the transaction, whatever happens to this process.
  const scratch = 'pg_temp';
  const tables = store.projectionTables();
  // Same columns, defaults, constraints and indexes (the projections' ON CONFLICT needs them).
  for (const table of tables) {
    await tx.query(
      `CREATE TEMPORARY TABLE ${ident(table)} (LIKE ${ident(live)}.${ident(table)} INCLUDING ALL) ON COMMIT DROP`,
    );
  }
  // The projections name their tables unqualified: first in the path, the scratch ones win;
  // the log and everything else still come from the live schema.
  await tx.query(`SET LOCAL search_path TO ${ident(scratch)}, ${ident(live)}`);
  const events = await store.replayAll(tx, options.replay);
  await tx.query(`SET LOCAL search_path TO ${ident(live)}`);
  const compared: TableComparison[] = [];
  for (const table of tables) {
    compared.push(await compareTable(tx, live, scratch, table, options.examples ?? 20));
  }
  await beforeEnd?.(live, scratch);
  return {
    events,
    tables: compared,
    differences: compared.reduce((n, t) => n + t.onlyLive + t.onlyRebuilt + t.changed, 0),
  };
}

async function columnsOf(tx: Queryable, schema: string, table: string): Promise<string> {
  const { rows } = await tx.query<{ c: string }>(
    `SELECT attname AS c FROM pg_attribute
      WHERE attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass
        AND attnum > 0 AND NOT attisdropped ORDER BY attnum`,
    [schema, table],
  );
  return rows.map((r) => ident(r.c)).join(', ');
}

async function primaryKey(tx: Queryable, schema: string, table: string): Promise<string[]> {
  const { rows } = await tx.query<{ c: string }>(
    `SELECT a.attname AS c
       FROM pg_index i
       JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey::int2[])
      WHERE i.indrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass AND i.indisprimary
      ORDER BY array_position(i.indkey::int2[], a.attnum)`,
    [schema, table],
  );
  return rows.map((r) => r.c);
}

async function compareTable(
  tx: Queryable,
  live: string,
  scratch: string,
  table: string,
  examples: number,
): Promise<TableComparison> {
  const key = await primaryKey(tx, live, table);
  const l = `${ident(live)}.${ident(table)}`;
  const r = `${ident(scratch)}.${ident(table)}`;
  const counts = (
    await tx.query<{ live: number; rebuilt: number }>(
      `SELECT (SELECT count(*)::int FROM ${l}) AS live, (SELECT count(*)::int FROM ${r}) AS rebuilt`,
    )
  ).rows[0]!;
  // Without a primary key, rows pair by their whole content.
  const pairOn = key.length
    ? key.map((c) => `l.${ident(c)} = r.${ident(c)}`).join(' AND ')
    : 'to_jsonb(l) = to_jsonb(r)';
  const absent = (side: string) =>
    key.length ? `${side}.${ident(key[0]!)} IS NULL` : `${side} IS NULL`;
  const keyJson = (side: string) =>
    key.length
      ? `jsonb_build_object(${key.map((c) => `'${c.replace(/'/g, "''")}', ${side}.${ident(c)}`).join(', ')})`
      : `'{}'::jsonb`;
  const diff = `FROM ${l} l FULL JOIN ${r} r ON ${pairOn} WHERE to_jsonb(l) IS DISTINCT FROM to_jsonb(r)`;
  const tally = (
    await tx.query<{ only_live: number; only_rebuilt: number; changed: number }>(
      `SELECT count(*) FILTER (WHERE ${absent('r')})::int AS only_live,
              count(*) FILTER (WHERE ${absent('l')})::int AS only_rebuilt,
              count(*) FILTER (WHERE NOT ${absent('l')} AND NOT ${absent('r')})::int AS changed
         ${diff}`,
    )
  ).rows[0]!;
  const { rows } = await tx.query<{ k: Row; live: Row | null; rebuilt: Row | null }>(
    `SELECT COALESCE(CASE WHEN ${absent('l')} THEN ${keyJson('r')} ELSE ${keyJson('l')} END, '{}'::jsonb) AS k,
            CASE WHEN ${absent('l')} THEN NULL ELSE to_jsonb(l) END AS live,
            CASE WHEN ${absent('r')} THEN NULL ELSE to_jsonb(r) END AS rebuilt
       ${diff}
      ORDER BY 1 LIMIT ${Math.max(0, Math.floor(examples))}`,
  );
  return {
    table,
    key,
    liveRows: counts.live,
    rebuiltRows: counts.rebuilt,
    onlyLive: tally.only_live,
    onlyRebuilt: tally.only_rebuilt,
    changed: tally.changed,
    examples: rows.map((row): RowDifference => {
      if (row.live && row.rebuilt)
        return { kind: 'changed', key: row.k, live: row.live, rebuilt: row.rebuilt };
      if (row.live) return { kind: 'onlyLive', key: row.k, live: row.live };
      return { kind: 'onlyRebuilt', key: row.k, rebuilt: row.rebuilt ?? {} };
    }),
  };
}

/** Where two JSON values differ: `path: live → rebuilt`, at most `limit` of them. */
export function jsonDifferences(live: unknown, rebuilt: unknown, path = '', limit = 6): string[] {
  const out: string[] = [];
  const walk = (a: unknown, b: unknown, at: string) => {
    if (out.length >= limit) return;
    if (JSON.stringify(a) === JSON.stringify(b)) return;
    const objects =
      a !== null &&
      b !== null &&
      typeof a === 'object' &&
      typeof b === 'object' &&
      Array.isArray(a) === Array.isArray(b);
    if (objects) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const k of [...keys].sort()) {
        walk(
          (a as Record<string, unknown>)[k],
          (b as Record<string, unknown>)[k],
          at ? `${at}.${k}` : k,
        );
      }
      return;
    }
    out.push(`${at || '(row)'}: ${show(a)} → ${show(b)}`);
  };
  walk(live, rebuilt, path);
  return out;
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function rowsThat(n: number, mode: 'verify' | 'rebuild'): string {
  if (mode === 'rebuild') return `${n} ${n === 1 ? 'row' : 'rows'} replaced`;
  return `${n} ${n === 1 ? 'row differs' : 'rows differ'}`;
}

function keyText(key: Row): string {
  const parts = Object.entries(key).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  return parts.length ? parts.join(' ') : '(no primary key)';
}

/**
 * The comparison as an operator reads it: one line per table, then each differing row (`~`
 * changed, with the columns and document paths that differ; `+` only in the live table, which no
 * event produces; `-` missing from the live table, which the log produces).
 */
export function formatComparison(
  comparison: Comparison,
  mode: 'verify' | 'rebuild' = 'verify',
): string {
  const lines: string[] = [];
  const width = Math.max(...comparison.tables.map((t) => t.table.length), 5);
  for (const t of comparison.tables) {
    const n = t.onlyLive + t.onlyRebuilt + t.changed;
    const rows = `${t.liveRows} rows`.padStart(12);
    lines.push(`  ${t.table.padEnd(width)} ${rows}  ${n === 0 ? 'ok' : rowsThat(n, mode)}`);
    for (const d of t.examples) {
      if (d.kind === 'changed') {
        lines.push(`    ~ ${keyText(d.key)}`);
        for (const line of jsonDifferences(d.live, d.rebuilt)) lines.push(`        ${line}`);
      } else if (d.kind === 'onlyLive') {
        lines.push(`    + ${keyText(d.key)}  only in the live table (no event produces it)`);
      } else {
        lines.push(`    - ${keyText(d.key)}  missing from the live table (the log produces it)`);
      }
    }
    if (n > t.examples.length) lines.push(`    … and ${n - t.examples.length} more`);
  }
  if (comparison.differences > 0)
    lines.push('  (~ differs, as live → rebuilt; + only live; - only rebuilt)');
  return lines.join('\n');
}
