/**
 * Once per integration run: a migrated store and a store with the demo tenant, on PGlite (dumped
 * data directories in a temporary folder) and on PostgreSQL (template databases). Each test's
 * store starts as a copy of one of them (support/backends.ts): creating and migrating a PGlite
 * database costs about 4 s of CPU and seeding the demo 2 s more, a copy under 1 s; on PostgreSQL a
 * template copy saves the migrations and the seed. The copies are the stores a fresh open would
 * give: migrations are a function of their files and the demo seed is deterministic, and the
 * rows a runtime writes when it opens (its deployment's keys) are taken out of the seeded copy, so
 * every runtime still makes its own.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../../src/server/runtime';
import { openDb, type Queryable } from '../../../src/server/store/db';
import { migrate } from '../../../src/server/store/migrate';
import { adminQuery, withDatabase } from './pg-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Files holding the dumped PGlite stores: migrated, and with the demo tenant. */
    pgliteTemplates: { migrated: string; seeded: string };
    /** PostgreSQL template databases (null without VITRINA_TEST_PG). */
    postgresTemplates: { migrated: string; seeded: string } | null;
  }
}

async function nonEmptyTables(q: Queryable): Promise<Set<string>> {
  const { rows } = await q.query<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
  );
  const found = new Set<string>();
  for (const { name } of rows) {
    const r = await q.query<{ any: boolean }>(`SELECT EXISTS (SELECT 1 FROM "${name}") AS any`);
    if (r.rows[0]?.any) found.add(name);
  }
  return found;
}

/**
 * Seeds the demo into a migrated store through its runtime, then deletes what the runtime itself
 * wrote when it opened (tables empty after the migrations, filled by the open, untouched by the
 * seed), so each runtime opened on a copy makes its own keys.
 */
async function seedWithoutDeploymentRows(rt: Runtime, migratedTables: Set<string>): Promise<void> {
  const { db } = rt.deps;
  const count = async (table: string) =>
    (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`)).rows[0]!.n;
  const ownRows = [...(await nonEmptyTables(db))].filter((t) => !migratedTables.has(t));
  const before = new Map<string, number>();
  for (const t of ownRows) before.set(t, await count(t));
  await seedDemoIfEmpty(rt.deps.store);
  for (const t of ownRows) {
    if ((await count(t)) !== before.get(t)) {
      throw new Error(`the demo seed wrote to ${t}, which the runtime fills when it opens`);
    }
    await db.query(`DELETE FROM "${t}"`);
  }
}

export default async function setup(project: TestProject) {
  const cleanups: (() => Promise<void>)[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    await makeTemplates(project, cleanups);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

async function makeTemplates(project: TestProject, cleanups: (() => Promise<void>)[]) {
  const dir = mkdtempSync(join(tmpdir(), 'vitrina-templates-'));
  cleanups.push(() => Promise.resolve(rmSync(dir, { recursive: true, force: true })));

  // PGlite
  const migratedDb = await openDb({ dataDir: 'memory://' });
  await migrate(migratedDb);
  const migratedTables = await nonEmptyTables(migratedDb);
  const migrated = await migratedDb.dump!();
  await migratedDb.close();
  const seededRt = await openRuntime({ dataDir: 'memory://', snapshot: migrated });
  await seedWithoutDeploymentRows(seededRt, migratedTables);
  const seeded = await seededRt.deps.db.dump!();
  await seededRt.close();
  const files = { migrated: join(dir, 'migrated.tar'), seeded: join(dir, 'seeded.tar') };
  writeFileSync(files.migrated, Buffer.from(await migrated.arrayBuffer()));
  writeFileSync(files.seeded, Buffer.from(await seeded.arrayBuffer()));
  project.provide('pgliteTemplates', files);

  // PostgreSQL
  const adminUrl = process.env.VITRINA_TEST_PG;
  let templates: { migrated: string; seeded: string } | null = null;
  if (adminUrl) {
    const suffix = randomBytes(6).toString('hex');
    templates = {
      migrated: `vitrina_tpl_${suffix}_migrated`,
      seeded: `vitrina_tpl_${suffix}_seeded`,
    };
    const admin = (sql: string) => adminQuery(adminUrl, sql);
    const urlOf = (name: string) => withDatabase(adminUrl, name);
    const names = templates;
    cleanups.push(async () => {
      for (const name of [names.seeded, names.migrated])
        await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
    await admin(`CREATE DATABASE ${names.migrated}`);
    const db = await openDb({ databaseUrl: urlOf(names.migrated), poolSize: 2 });
    await migrate(db);
    const pgMigratedTables = await nonEmptyTables(db);
    await db.close();
    await admin(`CREATE DATABASE ${names.seeded} TEMPLATE ${names.migrated}`);
    const seededPg = await openRuntime({ databaseUrl: urlOf(names.seeded), poolSize: 4 });
    await seedWithoutDeploymentRows(seededPg, pgMigratedTables);
    await seededPg.close();
  }
  project.provide('postgresTemplates', templates);
}
