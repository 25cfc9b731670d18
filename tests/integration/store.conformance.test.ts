import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ConcurrencyError,
  DuplicateEventError,
  type NewEvent,
} from '../../src/server/store/event-store';
import { openDb } from '../../src/server/store/db';
import { seedDemoIfEmpty, type Runtime } from '../../src/server/runtime';
import { describeBackends } from './support/backends';

const ev = (type = 'Tested', data: unknown = {}): NewEvent => ({
  id: randomUUID(),
  type,
  data,
  occurredAt: new Date('2026-11-22T10:00:00Z'),
});

describeBackends('event store conformance', (backend) => {
  let rt: Runtime & { databaseUrl?: string; dispose(): Promise<void> };
  beforeAll(async () => {
    rt = await backend.open();
  });
  afterAll(async () => {
    await rt.dispose();
  });

  it('appends with optimistic concurrency: a stale expected version is a typed conflict', async () => {
    const s = `test:${randomUUID()}`;
    expect(await rt.deps.store.append(s, 0, [ev(), ev()])).toEqual({
      streamId: s,
      version: 2,
      written: 2,
    });
    await expect(rt.deps.store.append(s, 1, [ev()])).rejects.toBeInstanceOf(ConcurrencyError);
    expect((await rt.deps.store.readStream(s)).map((e) => e.version)).toEqual([1, 2]);
  });

  it('concurrent writers on one stream: exactly one wins per version, every acknowledged append is present', async () => {
    const s = `test:${randomUUID()}`;
    const writers = 12;
    const first = await Promise.allSettled(
      Array.from({ length: writers }, () => rt.deps.store.append(s, 0, [ev('First')])),
    );
    expect(first.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(
      first.filter((r) => r.status === 'rejected' && r.reason instanceof ConcurrencyError),
    ).toHaveLength(writers - 1);

    // Every writer retries on conflict until its event is in: all acknowledged, none lost, none doubled.
    const acknowledged: string[] = [];
    await Promise.all(
      Array.from({ length: writers }, async () => {
        const event = ev('Retry');
        for (;;) {
          const version = await rt.deps.store.streamVersion(s);
          try {
            await rt.deps.store.append(s, version, [event]);
            acknowledged.push(event.id);
            return;
          } catch (error) {
            if (!(error instanceof ConcurrencyError)) throw error;
          }
        }
      }),
    );
    const stored = await rt.deps.store.readStream(s);
    expect(stored.map((e) => e.version)).toEqual(
      Array.from({ length: writers + 1 }, (_, i) => i + 1),
    );
    expect(
      stored
        .filter((e) => e.type === 'Retry')
        .map((e) => e.id)
        .sort(),
    ).toEqual(acknowledged.sort());
  });

  it('is idempotent by event id: the same append retried is stored once', async () => {
    const s = `test:${randomUUID()}`;
    const events = [ev(), ev()];
    await rt.deps.store.append(s, 0, events);
    expect(await rt.deps.store.append(s, 0, events)).toEqual({
      streamId: s,
      version: 2,
      written: 0,
    });
    expect(await rt.deps.store.readStream(s)).toHaveLength(2);
  });

  it('in one batch (one insert): a retried request writes nothing, the others are written; a mix is refused', async () => {
    const a = `test:${randomUUID()}`;
    const b = `test:${randomUUID()}`;
    const first = [ev(), ev()];
    await rt.deps.store.append(a, 0, first);
    // The retry of `a` with any version and with its original one (now stale), beside new events.
    const fresh = [ev(), ev(), ev()];
    expect(
      await rt.deps.store.appendMany([
        { streamId: a, expectedVersion: 'any', events: first },
        { streamId: b, expectedVersion: 0, events: fresh },
        { streamId: a, expectedVersion: 0, events: first },
        { streamId: a, expectedVersion: 2, events: [ev()] },
      ]),
    ).toEqual([
      { streamId: a, version: 2, written: 0 },
      { streamId: b, version: 3, written: 3 },
      { streamId: a, version: 2, written: 0 },
      { streamId: a, version: 3, written: 1 },
    ]);
    expect((await rt.deps.store.readStream(a)).map((e) => e.version)).toEqual([1, 2, 3]);
    expect((await rt.deps.store.readStream(b)).map((e) => e.id)).toEqual(fresh.map((e) => e.id));
    expect(await rt.deps.store.streamVersion(b)).toBe(3);
    // Some ids stored, some new: not a retry; nothing of the batch is written.
    const c = `test:${randomUUID()}`;
    await expect(
      rt.deps.store.appendMany([
        { streamId: c, expectedVersion: 0, events: [ev()] },
        { streamId: a, expectedVersion: 'any', events: [first[0]!, ev()] },
      ]),
    ).rejects.toBeInstanceOf(DuplicateEventError);
    expect(await rt.deps.store.readStream(c)).toHaveLength(0);
    expect(await rt.deps.store.streamVersion(a)).toBe(3);
  });

  it('is atomic for a batch across streams: one failing expectation writes nothing', async () => {
    const a = `test:${randomUUID()}`;
    const b = `test:${randomUUID()}`;
    await rt.deps.store.append(b, 0, [ev()]);
    await expect(
      rt.deps.store.appendMany([
        { streamId: a, expectedVersion: 0, events: [ev()] },
        { streamId: b, expectedVersion: 0, events: [ev()] },
      ]),
    ).rejects.toBeInstanceOf(ConcurrencyError);
    expect(await rt.deps.store.readStream(a)).toHaveLength(0);
    expect(await rt.deps.store.readStream(b)).toHaveLength(1);
  });

  it('reads the global log in order and resumes from a checkpoint', async () => {
    const s = `test:${randomUUID()}`;
    const { checkpoint: start } = await readToEnd(rt, null);
    await rt.deps.store.append(s, 0, [ev('A'), ev('B')]);
    await rt.deps.store.append(s, 2, [ev('C')]);
    // PostgreSQL's snapshot horizon is cluster-wide: another database's open transaction (other
    // test files) holds readers back for a moment; they must catch up, in order.
    const events = await eventually(
      rt,
      start,
      (all) => all.filter((e) => e.streamId === s).length === 3,
    );
    expect(events.filter((e) => e.streamId === s).map((e) => e.type)).toEqual(['A', 'B', 'C']);
  });

  it('projections equal a rebuild from the log', async () => {
    await seedDemoIfEmpty(rt.deps.store);
    const snapshot = async () => {
      const out: Record<string, unknown[]> = {};
      for (const t of [
        'rm_corporates',
        'rm_users',
        'rm_developments',
        'rm_clusters',
        'rm_prototypes',
        'rm_units',
        'rm_media',
      ]) {
        out[t] = (await rt.deps.db.query(`SELECT * FROM ${t} ORDER BY id`)).rows;
      }
      return out;
    };
    // A change after the seed, so the rebuild has to fold more than one event per unit.
    const { rows } = await rt.deps.db.query<{ id: string; corporate_id: string }>(
      'SELECT id, corporate_id FROM rm_units LIMIT 1',
    );
    const unit = rows[0]!;
    const stream = `unit:${unit.corporate_id}:${unit.id}`;
    await rt.deps.store.append(stream, 'any', [
      {
        ...ev('UnitStatusChanged', { idUnidad: unit.id, from: null, to: 'Vendido' }),
        corporateId: unit.corporate_id,
      },
    ]);
    const before = await snapshot();
    expect(before.rm_units!.length).toBeGreaterThan(500);
    await rt.deps.store.rebuildProjections();
    expect(await snapshot()).toEqual(before);
  });

  if (backend.name === 'postgres') {
    it('a transaction held open keeps global readers behind it, then they catch up', async () => {
      const client = new pg.Client({ connectionString: rt.databaseUrl });
      await client.connect();
      try {
        const { checkpoint: start } = await readToEnd(rt, null);
        const held = `test:${randomUUID()}`;
        await client.query('BEGIN');
        await client.query('SELECT pg_current_xact_id()');
        await client.query(
          `INSERT INTO events (id, stream_id, version, type, occurred_at, data) VALUES ($1, $2, 1, 'Held', now(), '{}')`,
          [randomUUID(), held],
        );
        const later = `test:${randomUUID()}`;
        await rt.deps.store.append(later, 0, [ev('Later')]);
        const during = await readToEnd(rt, start);
        expect(during.events.some((e) => e.streamId === later)).toBe(false);
        await client.query('COMMIT');
        const after = {
          events: await eventually(rt, during.checkpoint, (all) =>
            all.some((e) => e.type === 'Later'),
          ),
        };
        expect(
          after.events.map((e) => e.type).filter((t) => t === 'Held' || t === 'Later'),
        ).toEqual(['Held', 'Later']);
      } finally {
        await client.end();
      }
    });

    it('a rolled-back transaction leaves a gap that nothing waits for', async () => {
      const client = new pg.Client({ connectionString: rt.databaseUrl });
      await client.connect();
      try {
        const { checkpoint: start } = await readToEnd(rt, null);
        await client.query('BEGIN');
        await client.query(
          `INSERT INTO events (id, stream_id, version, type, occurred_at, data) VALUES ($1, $2, 1, 'RolledBack', now(), '{}')`,
          [randomUUID(), `test:${randomUUID()}`],
        );
        await client.query('ROLLBACK');
        const s = `test:${randomUUID()}`;
        await rt.deps.store.append(s, 0, [ev('AfterGap')]);
        const events = await eventually(rt, start, (all) => all.some((e) => e.type === 'AfterGap'));
        expect(events.map((e) => e.type)).toContain('AfterGap');
        expect(events.map((e) => e.type)).not.toContain('RolledBack');
      } finally {
        await client.end();
      }
    });
  }
});

async function readToEnd(rt: Runtime, from: Parameters<Runtime['deps']['store']['readAll']>[0]) {
  let checkpoint = from;
  const all = [];
  for (;;) {
    const page = await rt.deps.store.readAll(checkpoint, 500);
    all.push(...page.events);
    checkpoint = page.checkpoint;
    if (page.events.length < 500) return { events: all, checkpoint };
  }
}

/** Reads from `from` until `done` holds for what was read (or 30 s pass), as a polling consumer would. */
async function eventually(
  rt: Runtime,
  from: Parameters<Runtime['deps']['store']['readAll']>[0],
  done: (events: Awaited<ReturnType<typeof readToEnd>>['events']) => boolean,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { events } = await readToEnd(rt, from);
    if (done(events) || Date.now() > deadline) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('embedded store directory lock', () => {
  it('a second process opening the same data directory fails with a clear message', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrina-lock-'));
    const db = await openDb({ dataDir: dir });
    try {
      const child = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          `import('./src/server/store/db.ts').then(m => m.openDb({ dataDir: ${JSON.stringify(dir)} })).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(3); })`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(child.status).toBe(3);
      expect(child.stderr).toMatch(/already in use by another Vitrina process \(pid \d+\)/);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a lock left by a killed process is taken over', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrina-lock-'));
    try {
      const { writeFileSync } = await import('node:fs');
      writeFileSync(join(dir, 'vitrina.lock'), '999999');
      const db = await openDb({ dataDir: dir });
      await db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
