/**
 * Catalogue revisions held in memory where the process is the store's only writer (PGlite,
 * auth/revisions.ts `HeldCatalogueRevisions`, counted by store/db.ts `writesTo`): a repeated
 * catalogue read costs no revision query there, and what a write changed is seen by the very next
 * read, whether the write came through a command, a transaction by hand or a statement outside
 * one; a rolled-back change is never seen; a read that overlapped a commit is not believed after
 * it. The same reads on PostgreSQL (nothing held there: other processes write) behave the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { heldCatalogueRevisions } from '../../src/server/auth/revisions';
import { catalogueRevision } from '../../src/server/catalogue/figures';
import {
  describeBackends,
  openSeeded,
  pgliteBackend,
  postgresBackend,
  type Backend,
} from './support/backends';
import { client, login } from './support/http';

interface DevelopmentBody {
  id: string;
  slug: string;
  unidadesDisponibles: number;
}
interface ClusterBody {
  unidades: Unit[];
}

class RolledBack extends Error {}

async function signedIn(backend: Backend) {
  const rt = await openSeeded(backend);
  const app = createApp(rt.deps);
  const admin = client(app, await login(app, 'admin@vitrina.demo'));
  const asesor = client(app, await login(app, 'asesor@vitrina.demo'));
  const corpId = (await admin.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json
    .id as string;
  const listUrl = `/api/wsObtenerDesarrollos?idCorporativo=${corpId}`;
  return { rt, admin, asesor, corpId, listUrl };
}

describeBackends('catalogue revision: a write is seen by the next read (issue 21)', (backend) => {
  let s: Awaited<ReturnType<typeof signedIn>>;
  const bumpRow =
    'UPDATE rm_catalogue_revisions SET revision = revision + 1 WHERE corporate_id = $1';
  const etagOf = async () => {
    const res = await s.asesor.get(s.listUrl);
    expect(res.status).toBe(200);
    return res.headers.get('etag')!;
  };

  beforeAll(async () => {
    s = await signedIn(backend);
  });
  afterAll(async () => {
    await s.rt.dispose();
  });

  it('answers a unit status change on the very next list read', async () => {
    const first = await s.asesor.get(s.listUrl);
    const etag = first.headers.get('etag')!;
    expect((await s.asesor.get(s.listUrl, { 'if-none-match': etag })).status).toBe(304);
    const alameda = (first.json as DevelopmentBody[]).find((d) => d.slug === 'torre-alameda')!;
    const clusters = await s.admin.get(
      `/api/wsObtenerClusters?idCorporativo=${s.corpId}&idDesarrollo=${alameda.id}`,
    );
    const unit = (clusters.json as ClusterBody[])
      .flatMap((c) => c.unidades)
      .find((u) => u.status === 'Disponible')!;
    const put = await s.admin.put(`/api/corporativos/${s.corpId}/unidades/${unit.id}/status`, {
      status: 'Vendido',
      statusAnterior: 'Disponible',
    });
    expect(put.status).toBe(200);

    const next = await s.asesor.get(s.listUrl, { 'if-none-match': etag });
    expect(next.status).toBe(200);
    expect(next.headers.get('etag')).not.toBe(etag);
    const after = (next.json as DevelopmentBody[]).find((d) => d.id === alameda.id)!;
    expect(after.unidadesDisponibles).toBe(alameda.unidadesDisponibles - 1);
  });

  it('sees a revision moved by a transaction by hand, and one moved by a statement outside a transaction', async () => {
    const before = await etagOf();
    await s.rt.deps.db.transaction((tx) => tx.query(bumpRow, [s.corpId]));
    const byTransaction = await etagOf();
    expect(byTransaction).not.toBe(before);
    await s.rt.deps.db.query(bumpRow, [s.corpId]);
    const byStatement = await etagOf();
    expect(byStatement).not.toBe(byTransaction);
    expect(await etagOf()).toBe(byStatement);
  });

  it('never answers a rolled-back change, neither during the transaction nor after it', async () => {
    const before = await etagOf();
    const revision = await catalogueRevision(s.rt.deps.db, s.corpId);
    const during: Promise<string>[] = [];
    await expect(
      s.rt.deps.db.transaction(async (tx) => {
        await tx.query(bumpRow, [s.corpId]);
        // Reads arriving while the change is uncommitted.
        for (let i = 0; i < 4; i++) during.push(etagOf());
        throw new RolledBack();
      }),
    ).rejects.toBeInstanceOf(RolledBack);
    expect(await Promise.all(during)).toEqual([before, before, before, before]);
    expect(await etagOf()).toBe(before);
    expect(await catalogueRevision(s.rt.deps.db, s.corpId)).toBe(revision);
  });

  it('after reads that overlapped a commit, the next read answers the committed revision', async () => {
    for (let round = 0; round < 5; round++) {
      const before = await etagOf();
      const overlapping = Array.from({ length: 6 }, () => etagOf());
      const commit = s.rt.deps.db.transaction((tx) => tx.query(bumpRow, [s.corpId]));
      overlapping.push(etagOf(), etagOf());
      await commit;
      const seen = await Promise.all(overlapping);
      const after = await etagOf();
      expect(after).not.toBe(before);
      // Each overlapping read answered one of the two states, nothing else.
      for (const etag of seen) expect([before, after]).toContain(etag);
      expect(await etagOf()).toBe(after);
    }
  });
});

describe('catalogue revision held in memory [pglite]', () => {
  let s: Awaited<ReturnType<typeof signedIn>>;

  beforeAll(async () => {
    s = await signedIn(pgliteBackend);
  });
  afterAll(async () => {
    await s.rt.dispose();
  });

  it('answers repeated list reads without a revision query until a write names the table', async () => {
    const held = heldCatalogueRevisions(s.rt.deps.db)!;
    expect(held).not.toBeNull();
    await s.asesor.get(s.listUrl);
    const queries = held.queries;
    for (let i = 0; i < 5; i++) expect((await s.asesor.get(s.listUrl)).status).toBe(200);
    expect(held.queries).toBe(queries);

    // A write that does not name the revisions leaves them held.
    await s.rt.deps.db.transaction((tx) => tx.query('SELECT 1'));
    await s.asesor.get(s.listUrl);
    expect(held.queries).toBe(queries);

    await s.rt.deps.db.transaction((tx) =>
      tx.query(
        'UPDATE rm_catalogue_revisions SET revision = revision + 1 WHERE corporate_id = $1',
        [s.corpId],
      ),
    );
    await s.asesor.get(s.listUrl);
    await s.asesor.get(s.listUrl);
    expect(held.queries).toBe(queries + 1);
  });

  it('does not hold a revision read before a commit that landed while it was answered', async () => {
    const db = s.rt.deps.db;
    const held = heldCatalogueRevisions(db)!;
    // A write outside a transaction: nothing is held after it.
    await db.query(
      'UPDATE rm_catalogue_revisions SET revision = revision + 1 WHERE corporate_id = $1',
      [s.corpId],
    );
    const old = await catalogueRevision(db, s.corpId);
    const queries = held.queries;
    // PGlite runs these in order: the first read, the commit, the second read.
    const first = held.catalogue(s.corpId);
    const commit = db.transaction((tx) =>
      tx.query(
        'UPDATE rm_catalogue_revisions SET revision = revision + 1 WHERE corporate_id = $1',
        [s.corpId],
      ),
    );
    const second = held.catalogue(s.corpId);
    await commit;
    const committed = await catalogueRevision(db, s.corpId);
    expect(committed).not.toBe(old);
    expect([await first, await second]).toEqual([old, committed]);
    expect(held.queries).toBe(queries + 2);
    // Neither read is held (each overlapped the commit): the next one reads the row again.
    expect(await held.catalogue(s.corpId)).toBe(committed);
    expect(held.queries).toBe(queries + 3);
    expect(await held.catalogue(s.corpId)).toBe(committed);
    expect(held.queries).toBe(queries + 3);
  });
});

describe.skipIf(!process.env.VITRINA_TEST_PG)('catalogue revision [postgres]', () => {
  it('holds nothing in memory: other processes write', async () => {
    const rt = await postgresBackend.open();
    try {
      expect(heldCatalogueRevisions(rt.deps.db)).toBeNull();
    } finally {
      await rt.dispose();
    }
  });
});
