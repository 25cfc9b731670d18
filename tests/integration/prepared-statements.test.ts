import { afterAll, beforeAll, expect, it } from 'vitest';
import { PREPARED_STATEMENTS } from '../../src/server/store/db';
import { describeBackends, type Backend } from './support/backends';

/**
 * On PostgreSQL every parameterised statement is sent as a named prepared statement: each
 * connection parses and plans it once, then only binds and executes it (store/db.ts). The text
 * names it, so a repeated statement reuses the connection's plan; at most PREPARED_STATEMENTS
 * texts are named per process; statements without parameters stay on the simple protocol.
 */
describeBackends('prepared statements', (backend: Backend) => {
  let rt: Awaited<ReturnType<Backend['open']>>;
  beforeAll(async () => {
    rt = await backend.open();
  });
  afterAll(async () => {
    await rt.dispose();
  });

  /** The statements this connection holds prepared, by text (PostgreSQL's session view). */
  const preparedIn = async (q: { query: typeof rt.deps.db.query }) =>
    (
      await q.query<{ statement: string }>(
        'SELECT statement FROM pg_prepared_statements WHERE statement NOT LIKE $1',
        ['%pg_prepared_statements%'],
      )
    ).rows.map((r) => r.statement);

  it('a parameterised statement is prepared once per connection and answers the same', async () => {
    const db = rt.deps.db;
    const text = 'SELECT $1::int + 1 AS n';
    await db.transaction(async (tx) => {
      const first = await tx.query<{ n: number }>(text, [1]);
      const second = await tx.query<{ n: number }>(text, [41]);
      expect(first.rows[0]!.n).toBe(2);
      expect(second.rows[0]!.n).toBe(42);
      const held = await preparedIn(tx);
      if (backend.name === 'postgres') {
        expect(held.filter((s) => s === text)).toHaveLength(1);
      } else {
        // PGlite runs its own protocol: nothing named here.
        expect(held).not.toContain(text);
      }
    });
  });

  it('a statement without parameters is not prepared; a failing one leaves the connection usable', async () => {
    const db = rt.deps.db;
    await db.transaction(async (tx) => {
      await tx.query('SELECT 7 AS seven');
      expect(await preparedIn(tx)).not.toContain('SELECT 7 AS seven');
    });
    const broken = 'SELECT $1::int FROM no_such_table';
    for (let i = 0; i < 3; i++)
      await expect(db.query(broken, [1])).rejects.toThrow(/no_such_table/);
    // The same text parses again on each try (never recorded as prepared): still refused for
    // its own reason, and the pool's connections still answer.
    const ok = await Promise.all(
      Array.from({ length: 12 }, (_, i) => db.query<{ n: number }>('SELECT $1::int AS n', [i])),
    );
    expect(ok.map((r) => r.rows[0]!.n)).toEqual(Array.from({ length: 12 }, (_, i) => i));
  });

  it.runIf(backend.name === 'postgres')(
    `at most ${PREPARED_STATEMENTS} texts are named per process: the rest still run, unnamed`,
    async () => {
      const db = rt.deps.db;
      const texts = Array.from(
        { length: PREPARED_STATEMENTS + 20 },
        (_, i) => `SELECT $1::int + ${i} AS n`,
      );
      await db.transaction(async (tx) => {
        for (const [i, text] of texts.entries()) {
          const { rows } = await tx.query<{ n: number }>(text, [1]);
          expect(rows[0]!.n).toBe(1 + i);
        }
        const held = new Set(await preparedIn(tx));
        // Those named before (the tests above) count too: none past the cap.
        expect(held.size).toBeLessThanOrEqual(PREPARED_STATEMENTS + 1);
        expect(held.has(texts.at(-1)!)).toBe(false);
      });
    },
  );
});
