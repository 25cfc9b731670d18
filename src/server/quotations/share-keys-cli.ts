/**
 * The share links' keys from the command line (`npm run share-keys -- <list|rotate|retire KID>`),
 * on the store the server uses (DATABASE_URL, else VITRINA_DATA_DIR or ./data; an embedded store
 * only while no server holds it):
 *
 * - list: the keys, newest first (ids and creation times, never secrets);
 * - rotate: adds a key, which signs new links from now on (running servers pick it up within a
 *   minute); links signed by the previous keys keep working;
 * - retire KID: removes a key; every link it signed stops opening (not the last key).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDb } from '../store/db';
import { migrate } from '../store/migrate';
import { ensureShareKey, listShareKeys, retireShareKey, rotateShareKey } from './share-keys';

const USAGE = 'usage: npm run share-keys -- <list|rotate|retire KID>';

export async function runShareKeysCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  io: { out(line: string): void; err(line: string): void },
): Promise<number> {
  const [command, kid, ...rest] = argv;
  const valid =
    rest.length === 0 &&
    (((command === 'list' || command === 'rotate') && kid === undefined) ||
      (command === 'retire' && kid !== undefined));
  if (!valid) {
    io.err(USAGE);
    return 2;
  }
  const db = await openDb({
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.VITRINA_DATA_DIR ?? './data'),
    poolSize: 1,
  });
  try {
    await migrate(db);
    await ensureShareKey(db);
    if (command === 'rotate') io.out(`New signing key ${await rotateShareKey(db)}`);
    if (command === 'retire') {
      if (!(await retireShareKey(db, kid!))) {
        io.err(`No key ${kid} to retire (or it is the only one: rotate first).`);
        return 1;
      }
      io.out(`Retired ${kid}: links it signed no longer open.`);
    }
    for (const key of await listShareKeys(db)) io.out(`${key.kid}\t${key.creadoEn}`);
    return 0;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runShareKeysCommand(process.argv.slice(2), process.env, {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(2);
    },
  );
}
