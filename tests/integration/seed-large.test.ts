/**
 * seed:large's scale mode (issue 21, "a large developer's data"): the leads are written in bulk,
 * events and read-model rows side by side, so a rebuild from the log must give exactly the rows
 * the bulk wrote (store:verify's comparison), on both stores, at a small size.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedScale, type ScaleSummary } from '../../src/server/seed/large-scale';
import { formatComparison, verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded } from './support/backends';

describeBackends('seed:large --corporates (bulk leads)', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let summary: ScaleSummary;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    summary = await seedScale(rt.deps.db, rt.deps.store, {
      corporates: 2,
      advisers: 3,
      developments: 3,
      units: 90,
      leads: 40,
      events: 170,
      seed: 1,
      // Several bulk transactions, so batches interleave in the log.
      leadBatch: 7,
    });
  }, 300_000);

  afterAll(async () => {
    await rt?.dispose();
  });

  it('writes the sizes asked for', async () => {
    expect(summary).toMatchObject({ corporates: 2, developments: 3, units: 90, leads: 40 });
    expect(summary.leadEvents).toBe(170);
    const { rows } = await rt.deps.db.query<{ corporates: number; units: number; leads: number }>(
      `SELECT (SELECT count(*)::int FROM rm_corporates WHERE slug LIKE 'carga-01-%') AS corporates,
              (SELECT count(*)::int FROM rm_units u JOIN rm_corporates c ON c.id = u.corporate_id
                WHERE c.slug LIKE 'carga-01-%') AS units,
              (SELECT count(*)::int FROM rm_leads l JOIN rm_corporates c ON c.id = l.corporate_id
                WHERE c.slug LIKE 'carga-01-%') AS leads`,
    );
    expect(rows[0]).toEqual({ corporates: 2, units: 90, leads: 40 });
    const versions = await rt.deps.db.query<{ total: number }>(
      `SELECT sum(version)::int AS total FROM streams WHERE stream_id LIKE 'lead:%'`,
    );
    expect(versions.rows[0]!.total).toBe(170);
  });

  it('leaves read models equal to what the projections rebuild from the log', async () => {
    const comparison = await verifyProjections(rt.deps.store);
    expect(comparison.differences, formatComparison(comparison)).toBe(0);
    const leads = comparison.tables.find((t) => t.table === 'rm_leads')!;
    expect(leads.liveRows).toBeGreaterThanOrEqual(40);
    const notes = comparison.tables.find((t) => t.table === 'rm_lead_notes')!;
    expect(notes.liveRows).toBeGreaterThan(0);
  });

  it('refuses to run twice with one seed', async () => {
    await expect(
      seedScale(rt.deps.db, rt.deps.store, {
        corporates: 1,
        advisers: 1,
        developments: 1,
        units: 1,
        leads: 1,
        events: 1,
        seed: 1,
      }),
    ).rejects.toThrow(/already ran with --seed 1/);
  });
});
