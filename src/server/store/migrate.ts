import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from './db';

const migrationsDir = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

function migrationFiles(): string[] {
  return readdirSync(migrationsDir)
    .filter((f) => /^\d{3}_.+\.sql$/.test(f))
    .sort();
}

/** The migration files not applied to `db` yet, without applying them (store tools check first). */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const table = await db.query<{ t: string | null }>(
    "SELECT to_regclass('schema_migrations')::text AS t",
  );
  const applied = new Set<string>();
  if (table.rows[0]?.t) {
    const { rows } = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
    for (const row of rows) applied.add(row.version);
  }
  return migrationFiles().filter((f) => !applied.has(f.slice(0, 3)));
}

/** Applies the numbered SQL files of ./migrations that are not yet applied, each in its own transaction. */
export async function migrate(db: Db): Promise<string[]> {
  // Every start runs this, and on an existing store nothing is pending: two reads say so. The
  // checks below (a DDL, then a transaction per file) cost about 0.3-0.5 s on PGlite at start,
  // against 30-90 ms for the reads (issue 21, start). An applied migration stays applied, so
  // a concurrent starter on PostgreSQL that finds none pending has nothing to wait for.
  if ((await pendingMigrations(db)).length === 0) return [];
  await db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
  );
  const files = migrationFiles();
  const applied: string[] = [];
  for (const file of files) {
    const version = file.slice(0, 3);
    const done = await db.transaction(async (tx) => {
      // Several processes starting at once against PostgreSQL: one migrates, the others wait.
      if (db.kind === 'postgres') await tx.query('SELECT pg_advisory_xact_lock(727274)');
      const { rows } = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [
        version,
      ]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(readFileSync(join(migrationsDir, file), 'utf8'))) {
        await tx.query(statement);
      }
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      return true;
    });
    if (done) applied.push(file);
  }
  return applied;
}

function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) =>
      s
        .split('\n')
        .filter((line) => !line.trim().startsWith('--'))
        .join('\n')
        .trim(),
    )
    .filter((s) => s.length > 0);
}
