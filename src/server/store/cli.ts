/**
 * Store tools, run with tsx (`npm run store:verify`, `npm run store:rebuild`). They open the
 * store the server would: PostgreSQL when DATABASE_URL is set, else the embedded PGlite store in
 * VITRINA_DATA_DIR (default ./data).
 *
 * - verify: rebuilds every projection from the log into temporary tables inside a transaction
 *   that is rolled back, and prints the rows that differ per table. Exit 0 when every read model
 *   equals its rebuild, 1 when some row differs.
 * - rebuild: the same rebuild, then swaps the rebuilt rows into the read models in the same
 *   transaction, and prints what changed. Appends wait meanwhile. An embedded store held by a
 *   running server is refused (PGlite is single-process).
 *
 * Exit 2 when the command could not run (a server holds the embedded store, no store there,
 * pending migrations for verify, bad arguments).
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { registerProjections } from '../runtime';
import { openDb, type Db } from './db';
import { EventStore } from './event-store';
import { DataDirectoryInUseError } from './lock';
import { migrate, pendingMigrations } from './migrate';
import { formatComparison, rebuildAndSwap, verifyProjections } from './verify';

const USAGE = 'usage: tsx src/server/store/cli.ts <verify|rebuild> [--examples N]';

class Refused extends Error {}

interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** Where the store is, as the server finds it (DATABASE_URL, else VITRINA_DATA_DIR or ./data). */
function storeFromEnv(env: NodeJS.ProcessEnv) {
  const databaseUrl = env.DATABASE_URL || undefined;
  const dataDir = resolve(env.VITRINA_DATA_DIR ?? './data');
  return { databaseUrl, dataDir };
}

/** The store named for a human, without credentials. */
function describeStore({ databaseUrl, dataDir }: ReturnType<typeof storeFromEnv>): string {
  if (!databaseUrl) return `PGlite in ${dataDir}`;
  try {
    const u = new URL(databaseUrl);
    return `PostgreSQL ${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname} (DATABASE_URL)`;
  } catch {
    return 'PostgreSQL (DATABASE_URL)';
  }
}

async function open(
  command: 'verify' | 'rebuild',
  where: ReturnType<typeof storeFromEnv>,
): Promise<Db> {
  if (!where.databaseUrl && !existsSync(join(where.dataDir, 'PG_VERSION'))) {
    throw new Refused(
      `There is no embedded store in ${where.dataDir}. Set VITRINA_DATA_DIR to the server's data directory, or DATABASE_URL for PostgreSQL.`,
    );
  }
  try {
    return await openDb({ databaseUrl: where.databaseUrl, dataDir: where.dataDir, poolSize: 2 });
  } catch (error) {
    if (error instanceof DataDirectoryInUseError) {
      throw new Refused(
        `store:${command} refused: the embedded store in ${error.dir} is held by a running Vitrina server (pid ${error.pid}). ` +
          `PGlite is single-process, so ${command === 'rebuild' ? 'a rebuild' : 'a verification'} needs the store to itself: stop the server, then run it again. ` +
          `(Against PostgreSQL through DATABASE_URL both run beside the servers.)`,
      );
    }
    throw error;
  }
}

function parseArgs(argv: readonly string[]) {
  const [command, ...rest] = argv;
  if (command !== 'verify' && command !== 'rebuild') throw new Refused(USAGE);
  let examples = 20;
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--examples' && /^\d+$/.test(rest[i + 1] ?? '')) examples = Number(rest[++i]);
    else throw new Refused(USAGE);
  }
  return { command, examples } as const;
}

/** Runs one store command; answers the process's exit code. */
export async function runStoreCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: Output,
): Promise<number> {
  let db: Db | undefined;
  try {
    const { command, examples } = parseArgs(argv);
    const where = storeFromEnv(env);
    db = await open(command, where);
    io.out(`store:${command} on ${describeStore(where)}`);
    const store = new EventStore(db);
    registerProjections(store);
    const started = Date.now();
    if (command === 'verify') {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) {
        throw new Refused(
          `The store has ${pending.length} pending migration(s) (${pending.join(', ')}): start the server once, or run store:rebuild, which applies them.`,
        );
      }
      const result = await verifyProjections(store, { examples });
      io.out(
        `Rebuilt ${result.tables.length} read-model tables from ${result.events} events into temporary tables (rolled back) in ${Date.now() - started} ms:`,
      );
      io.out(formatComparison(result));
      if (result.differences > 0) {
        const tables = result.tables.filter((t) => t.onlyLive + t.onlyRebuilt + t.changed > 0);
        io.out(
          `\n✖ ${result.differences} ${result.differences === 1 ? 'row differs' : 'rows differ'} from the log in ${tables.length} ${tables.length === 1 ? 'table' : 'tables'} (${tables.map((t) => t.table).join(', ')}). npm run store:rebuild replaces them.`,
        );
        return 1;
      }
      io.out('\n✔ Every read model equals a rebuild from the log.');
      return 0;
    }
    const applied = await migrate(db);
    if (applied.length > 0) io.out(`Applied migrations: ${applied.join(', ')}`);
    if (db.kind === 'postgres') io.out('Appends wait until the rebuild commits.');
    const result = await rebuildAndSwap(store, { examples });
    io.out(
      `Rebuilt ${result.tables.length} read-model tables from ${result.events} events and swapped them in, in one transaction, in ${Date.now() - started} ms:`,
    );
    io.out(formatComparison(result, 'rebuild'));
    io.out(
      result.differences === 0
        ? '\n✔ Rebuilt; nothing differed from the log.'
        : `\n✔ Rebuilt; ${result.differences} ${result.differences === 1 ? 'row' : 'rows'} replaced by what the log produces.`,
    );
    return 0;
  } catch (error) {
    if (error instanceof Refused) {
      io.err(`✖ ${error.message}`);
      return 2;
    }
    io.err(`✖ ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  } finally {
    await db?.close();
  }
}

const invokedDirectly =
  process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  runStoreCommand(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error);
      process.exit(2);
    },
  );
}
