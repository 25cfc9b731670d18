/**
 * Many leads for a test, written straight into the read model (`rm_leads`) in one INSERT through
 * the projection's own row mapping, as the large seed's bulk writer does: hundreds of creates
 * through the API would only slow the test. Nothing goes through the event store, so a caller
 * that reads the counters recounts them (`recountLeadCounts`).
 */
import type { Lead } from '../../src/core/lead';
import { LEAD_COLUMNS, leadRow } from '../../src/server/leads/projection';
import type { Queryable } from '../../src/server/store/db';

export async function insertLeadRows(db: Queryable, leads: readonly Lead[]): Promise<void> {
  const params: unknown[] = [];
  const tuples: string[] = [];
  for (const lead of leads) {
    const row = leadRow(lead);
    tuples.push(`(${row.map((_, c) => `$${params.length + c + 1}`).join(', ')})`);
    params.push(...row);
  }
  await db.query(
    `INSERT INTO rm_leads (${LEAD_COLUMNS.join(', ')}) VALUES ${tuples.join(', ')}`,
    params,
  );
}
