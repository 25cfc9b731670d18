/**
 * The public capture under load (issue 13, defect 2), on both backends in one process (the
 * two-process version is hardening.concurrency.test.ts): the per-address limit is atomic, and the
 * round robin is a counter that simultaneous captures never conflict on, recorded in the log so a
 * rebuild reproduces it (older logs' rotation stream included).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Corporate } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { findCorporate } from '../../src/server/http/context';
import { PUBLIC_CAPTURE_LIMIT_PER_HOUR } from '../../src/server/leads/capture';
import { activeAdvisers } from '../../src/server/leads/round-robin';
import { verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, type Backend } from './support/backends';

describeBackends('hardening: public capture', (backend) => {
  let rt: Awaited<ReturnType<Backend['open']>>;
  let app: ReturnType<typeof createApp>;
  let corporate: Corporate;
  let advisers: string[];
  let seq = 0;

  beforeAll(async () => {
    rt = await openSeeded(backend, { clock: () => new Date('2026-11-22T10:00:00Z') });
    app = createApp({ ...rt.deps, trustProxy: 1 });
    corporate = (await findCorporate(rt.deps.db, { slug: 'grupo-horizonte' }))!;
    advisers = await activeAdvisers(rt.deps.db, corporate);
  });
  afterAll(async () => {
    await rt.dispose();
  });

  /** A new visitor's capture from `address`. */
  const capture = async (address = `198.51.100.${(seq % 200) + 1}`): Promise<Response> => {
    seq += 1;
    return app.request('/api/public/registro?medio=Sitio%20web&corp=grupo-horizonte', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ nombre: `Visita ${seq}`, email: `visita-${seq}@example.com` }),
    });
  };

  /** The capture assignments in the log, by turn: [turno, adviser]. */
  const turns = async () =>
    (
      await rt.deps.db.query<{ turno: number; to: string }>(
        `SELECT (data->>'turno')::int AS turno, data->>'to' AS to FROM events
          WHERE type = 'LeadAssigned' AND data ? 'turno' AND corporate_id = $1
          ORDER BY 1`,
        [corporate.id],
      )
    ).rows.map((r) => [r.turno, r.to] as const);

  it(`100 simultaneous captures from one address: exactly ${PUBLIC_CAPTURE_LIMIT_PER_HOUR} accepted`, async () => {
    const responses = await Promise.all(Array.from({ length: 100 }, () => capture('203.0.113.50')));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(PUBLIC_CAPTURE_LIMIT_PER_HOUR);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100 - PUBLIC_CAPTURE_LIMIT_PER_HOUR);
    const attempts = await rt.deps.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM lead_capture_attempts WHERE address = $1',
      ['203.0.113.50'],
    );
    expect(attempts.rows[0]!.n).toBe(PUBLIC_CAPTURE_LIMIT_PER_HOUR);
  });

  it('simultaneous captures take consecutive turns, each adviser in rotation, none conflicting', async () => {
    expect(advisers.length).toBeGreaterThan(1);
    const before = await turns();
    const responses = await Promise.all(Array.from({ length: 30 }, () => capture()));
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 202));
    const all = await turns();
    expect(all.map(([t]) => t)).toEqual(all.map((_, i) => i + 1));
    // Turn after turn, the rotation goes round the roster (sorted by id), one adviser after the next.
    const sorted = [...advisers].sort();
    for (let i = 1; i < all.length; i++) {
      const previous = sorted.indexOf(all[i - 1]![1]);
      expect(all[i]![1]).toBe(sorted[(previous + 1) % sorted.length]);
    }
    expect(all.length - before.length).toBe(30);
  });

  it('the rotation is rebuilt from the log: store:verify finds no difference, and after a rebuild the next capture takes the next turn', async () => {
    const comparison = await verifyProjections(rt.deps.store);
    expect(comparison.differences).toBe(0);
    expect(comparison.tables.map((t) => t.table)).toContain('rm_lead_rotation');
    const last = (await turns()).at(-1)!;
    await rt.deps.store.rebuildProjections();
    expect((await capture()).status).toBe(202);
    const next = (await turns()).at(-1)!;
    const sorted = [...advisers].sort();
    expect(next).toEqual([last[0] + 1, sorted[(sorted.indexOf(last[1]) + 1) % sorted.length]]);
  });

  it("an older log's rotation stream (LeadRoundRobinAdvanced) is where the rotation goes on from", async () => {
    const other = (await findCorporate(rt.deps.db, { slug: 'desarrollos-pacifico' }))!;
    const roster = await activeAdvisers(rt.deps.db, other);
    expect(roster.length).toBeGreaterThan(0);
    const at = new Date('2026-11-22T09:00:00Z');
    await rt.deps.store.append(
      `lead-roundrobin:${other.id}`,
      0,
      [1, 2, 3].map(() => ({
        id: randomUUID(),
        type: 'LeadRoundRobinAdvanced',
        data: { idVendedor: roster[0]!, idLead: randomUUID() },
        corporateId: other.id,
        occurredAt: at,
      })),
    );
    await rt.deps.store.rebuildProjections();
    const { rows } = await rt.deps.db.query<{ turns: number; last_adviser: string }>(
      'SELECT turns, last_adviser FROM rm_lead_rotation WHERE corporate_id = $1',
      [other.id],
    );
    expect(rows[0]).toEqual({ turns: 3, last_adviser: roster[0] });
    const res = await app.request(
      '/api/public/registro?medio=Sitio%20web&corp=desarrollos-pacifico',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.250' },
        body: JSON.stringify({ nombre: 'Pacífico', email: 'pacifico-web@example.com' }),
      },
    );
    expect(res.status, await res.text()).toBe(202);
    const assigned = await rt.deps.db.query<{ turno: number }>(
      `SELECT (data->>'turno')::int AS turno FROM events
        WHERE type = 'LeadAssigned' AND corporate_id = $1 AND data ? 'turno'`,
      [other.id],
    );
    expect(assigned.rows.map((r) => r.turno)).toEqual([4]);
  });
});
