/**
 * The hardening audit's concurrency suite (issue 13): two real server processes on one PostgreSQL
 * database, as production runs them, hit at once.
 *
 * - Public captures from many visitors at once are all stored, once each, and assigned by the
 *   round robin fairly; none answers 409 (the rotation is a counter, not a stream every capture
 *   locks and conflicts on), and the read models rebuilt from the log are the same.
 * - The per-address capture limit is exact: of 100 simultaneous captures from one address,
 *   spread over both processes, exactly PUBLIC_CAPTURE_LIMIT_PER_HOUR are accepted.
 *
 * The processes run with TRUST_PROXY=1, as behind a proxy: each visitor's address is the one the
 * proxy puts in X-Forwarded-For.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_CAPTURE_LIMIT_PER_HOUR } from '../../src/server/leads/capture';
import { verifyProjections } from '../../src/server/store/verify';
import { openSeeded, postgresBackend } from './support/backends';
import {
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

const pgAvailable = Boolean(process.env.VITRINA_TEST_PG);

describe.skipIf(!pgAvailable)('hardening: concurrency, two server processes [postgres]', () => {
  let runtime: Awaited<ReturnType<typeof openSeeded>>;
  let servers: ServerProcess[] = [];
  let corporateId: string;

  beforeAll(async () => {
    runtime = await openSeeded(postgresBackend);
    servers = await Promise.all(
      [0, 1].map(() => startServerProcess(runtime.databaseUrl!, { TRUST_PROXY: '1' })),
    );
    const { rows } = await runtime.deps.db.query<{ id: string }>(
      "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
    );
    corporateId = rows[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await Promise.all(servers.map(stopServerProcess));
    await runtime?.dispose();
  });

  /** One visitor's capture, through process `i % 2`, from `address` (as the proxy forwards it). */
  const capture = (i: number, address: string, body: Record<string, string>) =>
    servers[i % 2]!.fetch('/api/public/registro?medio=Sitio%20web&corp=grupo-horizonte', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify(body),
    });

  const leadsByEmail = async (pattern: string) =>
    (
      await runtime.deps.db.query<{ email: string; id_vendedor: string | null }>(
        `SELECT doc->>'email' AS email, id_vendedor FROM rm_leads
         WHERE corporate_id = $1 AND doc->>'email' LIKE $2 ORDER BY 1`,
        [corporateId, pattern],
      )
    ).rows;

  async function visitorsAtOnce(count: number, tag: string) {
    const responses = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        capture(i, `203.0.${tag === 'a' ? 113 : 114}.${i + 1}`, {
          nombre: `Visitante ${tag}${i}`,
          email: `visitante-${tag}-${i}@example.com`,
          mensaje: `Hola desde el sitio (${i})`,
        }),
      ),
    );
    const statuses = responses.map((r) => r.status);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    return { statuses, bodies };
  }

  it.each([
    [20, 'a'],
    [100, 'b'],
  ])(
    '%i concurrent visitors on both processes: every capture accepted, each stored once, assigned fairly',
    async (count, tag) => {
      const { statuses, bodies } = await visitorsAtOnce(count, tag);
      expect(
        statuses.filter((s) => s !== 202),
        bodies.find((_, i) => statuses[i] !== 202),
      ).toEqual([]);

      const leads = await leadsByEmail(`visitante-${tag}-%`);
      expect(leads).toHaveLength(count);
      expect(new Set(leads.map((l) => l.email)).size).toBe(count);
      const registered = await runtime.deps.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM events
         WHERE type = 'LeadRegistered' AND data->'lead'->>'email' LIKE $1`,
        [`visitante-${tag}-%`],
      );
      expect(registered.rows[0]!.n).toBe(count);

      // The rotation is fair: every lead has an adviser, and no adviser got two more than another.
      const perAdviser = new Map<string, number>();
      for (const l of leads) {
        expect(l.id_vendedor).not.toBeNull();
        perAdviser.set(l.id_vendedor!, (perAdviser.get(l.id_vendedor!) ?? 0) + 1);
      }
      expect(perAdviser.size).toBeGreaterThan(1);
      const counts = [...perAdviser.values()];
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    },
  );

  it('the read models rebuilt from the log match the live ones (assignments included)', async () => {
    const comparison = await verifyProjections(runtime.deps.store);
    expect(comparison.tables.filter((t) => t.onlyLive + t.onlyRebuilt + t.changed > 0)).toEqual([]);
  });

  it(`100 simultaneous captures from one address: exactly ${PUBLIC_CAPTURE_LIMIT_PER_HOUR} accepted, the rest 429 with Retry-After`, async () => {
    const address = '198.51.100.77';
    const responses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        capture(i, address, { nombre: `Rafaga ${i}`, email: `rafaga-${i}@example.com` }),
      ),
    );
    const accepted = responses.filter((r) => r.status === 202);
    const limited = responses.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(PUBLIC_CAPTURE_LIMIT_PER_HOUR);
    expect(limited).toHaveLength(100 - PUBLIC_CAPTURE_LIMIT_PER_HOUR);
    for (const r of limited) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      const body = (await r.json()) as { errorCode: string; message: string }[];
      expect(body[0]!.errorCode).toBe('RATE_LIMITED');
      expect(body[0]!.message).toMatch(/\S/);
    }
    expect(await leadsByEmail('rafaga-%')).toHaveLength(PUBLIC_CAPTURE_LIMIT_PER_HOUR);
    // Another visitor is not affected.
    const other = await capture(1, '198.51.100.78', {
      nombre: 'Otra persona',
      email: 'otra-persona@example.com',
    });
    expect(other.status).toBe(202);
  });
});
