/**
 * The CRM consumer reads a corporate's configuration once per batch (src/server/crm/sync.ts
 * `batchConfig`): a batch is one transaction, and under load it holds dozens of lead events of the
 * same corporate. Another transaction (the next batch, or a retry of this one) reads again.
 */
import { describe, expect, it } from 'vitest';
import { batchConfig } from '../../../src/server/crm/sync';
import type { Queryable } from '../../../src/server/store/db';

/** A transaction that answers `rm_crm_config` rows and counts the statements it was sent. */
function fakeTx(docs: Record<string, unknown>) {
  const asked: string[] = [];
  const tx = {
    query: (sql: string, params?: unknown[]) => {
      expect(sql).toContain('rm_crm_config');
      const corporateId = String(params?.[0]);
      asked.push(corporateId);
      const doc = docs[corporateId];
      return Promise.resolve({ rows: doc === undefined ? [] : [{ doc }] });
    },
  } as unknown as Queryable;
  return { tx, asked };
}

describe('the CRM consumer’s configuration per batch', () => {
  it('reads each corporate once per transaction, and again in the next one', async () => {
    const docs = { a: { tipo: 'hubspot' }, b: { tipo: null } };
    const first = fakeTx(docs);
    const answers = await Promise.all(
      ['a', 'b', 'a', 'a', 'b', 'c', 'c'].map((id) => batchConfig(first.tx, id)),
    );
    expect(answers).toEqual([
      { tipo: 'hubspot' },
      { tipo: null },
      { tipo: 'hubspot' },
      { tipo: 'hubspot' },
      { tipo: null },
      null,
      null,
    ]);
    expect(first.asked).toEqual(['a', 'b', 'c']);

    const second = fakeTx({ a: { tipo: 'zoho' } });
    expect(await batchConfig(second.tx, 'a')).toEqual({ tipo: 'zoho' });
    expect(await batchConfig(second.tx, 'a')).toEqual({ tipo: 'zoho' });
    expect(second.asked).toEqual(['a']);
  });
});
