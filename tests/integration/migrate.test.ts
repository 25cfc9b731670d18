/**
 * Migrations on start (store/migrate.ts): a store with nothing pending is recognised by reads
 * alone (no DDL, no transaction per file: issue 21, the start on an existing data directory);
 * a fresh store still gets every file, each in its transaction.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../src/server/store/db';
import { migrate } from '../../src/server/store/migrate';
import { describeBackends, type Backend } from './support/backends';

const files = readdirSync('src/server/store/migrations').filter((f) => /^\d{3}_.+\.sql$/.test(f));

/** `db` with its transactions and execs counted (the queries pass through). */
function counting(db: Db) {
  const calls = { transaction: 0, exec: 0 };
  const spy: Db = {
    ...db,
    kind: db.kind,
    query: (sql, params) => db.query(sql, params),
    transaction: (fn) => {
      calls.transaction += 1;
      return db.transaction(fn);
    },
    exec: (sql) => {
      calls.exec += 1;
      return db.exec(sql);
    },
  };
  return { spy, calls };
}

describeBackends('migrations on an existing store', (backend: Backend) => {
  let dispose: (() => Promise<void>) | undefined;
  afterEach(async () => {
    await dispose?.();
    dispose = undefined;
  });

  it('apply nothing and write nothing when every file is applied', async () => {
    const runtime = await backend.open();
    dispose = () => runtime.dispose();
    const { spy, calls } = counting(runtime.deps.db);
    expect(await migrate(spy)).toEqual([]);
    expect(calls).toEqual({ transaction: 0, exec: 0 });
  });
});

describe('migrations on a fresh store', () => {
  it('apply every file in order, then nothing on the next start', async () => {
    const db = await openDb({ dataDir: 'memory://' });
    try {
      const { spy, calls } = counting(db);
      expect(await migrate(spy)).toEqual([...files].sort());
      expect(calls.transaction).toBe(files.length);
      const again = counting(db);
      expect(await migrate(again.spy)).toEqual([]);
      expect(again.calls).toEqual({ transaction: 0, exec: 0 });
    } finally {
      await db.close();
    }
  });
});
