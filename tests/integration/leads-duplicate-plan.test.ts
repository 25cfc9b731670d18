/**
 * The duplicate-lead check reads a few index entries, however many leads the corporate has
 * (issue 21). It runs as a prepared statement, and PostgreSQL soon plans a prepared statement
 * once for any parameters (its generic plan). As one WHERE of ORs with ORDER BY … LIMIT 1, that
 * plan walked the corporate's leads newest-first and filtered every one: 6 ms at 5,000 leads on
 * every registration, measured under the 90/10 mix. Here the generic plan is forced and its
 * `EXPLAIN ANALYZE` must read no more rows than match, over 2,000 leads of one corporate.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Lead } from '../../src/core/lead';
import { leadContactKeys } from '../../src/core/lead';
import { findDuplicate } from '../../src/server/leads/duplicates';
import type { Queryable } from '../../src/server/store/db';
import { insertLeadRows } from '../support/lead-rows';
import { describeBackends, type Backend } from './support/backends';

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

/** Rows every scan of the plan produced or filtered out. */
function rowsRead(node: PlanNode): number {
  const own = /Scan/.test(node['Node Type'])
    ? ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) *
      (node['Actual Loops'] ?? 1)
    : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child), 0);
}

describeBackends('the duplicate-lead check’s plan', (backend: Backend) => {
  let rt: Awaited<ReturnType<Backend['open']>>;
  let corp: string;
  const LEADS = 2000;

  beforeAll(async () => {
    rt = await backend.open({ seeded: true });
    const { rows } = await rt.deps.db.query<{ id: string }>(
      'SELECT id FROM rm_corporates ORDER BY id LIMIT 1',
    );
    corp = rows[0]!.id;
    await insertLeadRows(
      rt.deps.db,
      Array.from({ length: LEADS }, (_, i): Lead => ({
        id: `plan-${String(i).padStart(5, '0')}`,
        idCorporativo: corp,
        idVendedor: null,
        fechaAlta: 1_700_000_000 + i,
        eliminado: false,
        nombre: `Plan ${i}`,
        apellidos: '',
        email: `plan${i}@example.com`,
        telefono: `55${String(10_000_000 + i)}`,
        celular: '',
        notas: '',
        medioContacto: null,
        tipo: null,
        status: null,
        desarrollo: null,
      })),
    );
    await rt.deps.db.query('ANALYZE rm_leads');
  }, 120_000);

  afterAll(() => rt?.dispose());

  /** The check's statement for `contact`, explained under its generic plan. */
  async function explainGeneric(contact: Pick<Lead, 'email' | 'telefono' | 'celular'>) {
    let statement: { sql: string; params: unknown[] } | null = null;
    const recorder: Queryable = {
      query: (sql: string, params?: unknown[]) => {
        statement = { sql, params: params ?? [] };
        return Promise.resolve({ rows: [] });
      },
    };
    await findDuplicate(recorder, corp, leadContactKeys(contact));
    const { sql, params } = statement!;
    return rt.deps.db.transaction(async (q) => {
      await q.query('SET LOCAL plan_cache_mode = force_generic_plan');
      const { rows } = await q.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] | string }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`,
        params,
      );
      const cell = rows[0]!['QUERY PLAN'];
      return (typeof cell === 'string' ? JSON.parse(cell) : cell)[0].Plan as PlanNode;
    });
  }

  it('reads only the matching rows for a new e-mail and phone', async () => {
    const plan = await explainGeneric({
      email: 'nobody@example.com',
      telefono: '5599999999',
      celular: '',
    });
    expect(rowsRead(plan)).toBe(0);
  });

  it('reads only the matching rows for an e-mail alone and for a phone alone', async () => {
    for (const contact of [
      { email: 'plan10@example.com', telefono: '', celular: '' },
      { email: '', telefono: `55${String(10_000_000 + 10)}`, celular: '' },
    ]) {
      expect(rowsRead(await explainGeneric(contact))).toBe(1);
      expect((await findDuplicate(rt.deps.db, corp, contact))?.id).toBe('plan-00010');
    }
  });

  it('finds the oldest match reading only the matches', async () => {
    const plan = await explainGeneric({
      email: 'plan1500@example.com',
      telefono: `55${String(10_000_000 + 7)}`,
      celular: '',
    });
    expect(rowsRead(plan)).toBe(2);
    const found = await findDuplicate(rt.deps.db, corp, {
      email: 'plan1500@example.com',
      telefono: `55${String(10_000_000 + 7)}`,
      celular: '',
    });
    expect(found?.id).toBe('plan-00007');
  });
});
