/**
 * The shared revision read (src/server/auth/revisions.ts): every caller gets a read that started
 * after its call, never one already in flight; concurrent callers share at most one read in
 * flight plus one queued. A fake database whose reads finish when the test says so.
 */
import { describe, expect, it } from 'vitest';
import {
  HELD_CORPORATES,
  HeldCatalogueRevisions,
  RevisionReader,
  WATCHED_CORPORATES,
} from '../../../src/server/auth/revisions';
import type { Queryable } from '../../../src/server/store/db';

interface PendingRead {
  sql: string;
  params: unknown[];
  /** The counter's value when the read started (what a real query would see). */
  n: number;
  finish: () => void;
}

/** A database holding one counter and some catalogue revisions; reads end on `finish()`. */
function fakeDb() {
  const state = { n: 1, catalogue: new Map<string, string>() };
  const pending: PendingRead[] = [];
  const db: Queryable = {
    query<T>(sql: string, params: unknown[] = []) {
      const n = state.n;
      const catalogue = Object.fromEntries(state.catalogue);
      return new Promise<{ rows: T[] }>((resolve) => {
        const finish = () => {
          if (sql.includes('auth_revision')) {
            const ids = JSON.parse(params[0] as string) as string[];
            const seen = Object.fromEntries(
              ids.filter((id) => id in catalogue).map((id) => [id, catalogue[id]]),
            );
            resolve({ rows: [{ auth: String(n), catalogue: JSON.stringify(seen) } as T] });
          } else {
            const r = catalogue[params[0] as string];
            resolve({ rows: (r === undefined ? [] : [{ r }]) as T[] });
          }
        };
        pending.push({ sql, params, n, finish });
      });
    },
  };
  /** Finishes the oldest pending read and lets its callers run. */
  const finishNext = async () => {
    const read = pending.shift();
    if (!read) throw new Error('no read pending');
    read.finish();
    for (let i = 0; i < 10; i++) await Promise.resolve();
  };
  return { db, state, pending, finishNext };
}

describe('RevisionReader', () => {
  it('a caller never gets a read that was in flight when it called', async () => {
    const { db, state, pending, finishNext } = fakeDb();
    const reader = new RevisionReader(db);
    const first = reader.read();
    expect(pending).toHaveLength(1);
    // A change commits while the first read is in flight; a caller then arrives.
    state.n = 2;
    const second = reader.read();
    // It waits for a read of its own, started after the first one ends.
    expect(pending).toHaveLength(1);
    await finishNext();
    expect((await first).auth).toBe(1n);
    expect(pending).toHaveLength(1);
    await finishNext();
    expect((await second).auth).toBe(2n);
  });

  it('many concurrent callers share one read in flight and one queued', async () => {
    const { db, state, pending, finishNext } = fakeDb();
    const reader = new RevisionReader(db);
    const early = [reader.read(), reader.read(), reader.read()];
    // The first started a read; the other two arrived while it was in flight: they queue.
    expect(pending).toHaveLength(1);
    state.n = 5;
    const late = Array.from({ length: 20 }, () => reader.read());
    // Still one read in flight: everyone after the first waits for the same queued read.
    expect(pending).toHaveLength(1);
    await finishNext();
    expect(await early[0]).toMatchObject({ auth: 1n });
    expect(pending).toHaveLength(1);
    // A caller arriving while the queued read is in flight waits for yet another one.
    state.n = 6;
    const latest = reader.read();
    await finishNext();
    for (const r of [...early.slice(1), ...late]) expect((await r).auth).toBe(5n);
    await finishNext();
    expect((await latest).auth).toBe(6n);
    expect(reader.queries).toBe(3);
    expect(pending).toHaveLength(0);
  });

  it('carries the catalogue revisions of the corporates asked about, "0.0" before any event', async () => {
    const { db, state, pending, finishNext } = fakeDb();
    const reader = new RevisionReader(db);
    state.catalogue.set('corp-a', '3.40');
    const a = reader.catalogue('corp-a');
    const b = reader.catalogue('corp-b');
    expect(pending).toHaveLength(1);
    await finishNext();
    expect(await a).toBe('3.40');
    // corp-b was asked about while the first read (without it) was in flight: a read of its own.
    await finishNext();
    expect(await b).toBe('0.0');
    // From now on every shared read carries both.
    state.catalogue.set('corp-b', '1.41');
    const both = reader.read();
    await finishNext();
    expect(Object.fromEntries((await both).catalogue)).toEqual({
      'corp-a': '3.40',
      'corp-b': '1.41',
    });
  });

  it('a corporate pushed out of the watched set is read on its own', async () => {
    const { db, state, pending, finishNext } = fakeDb();
    const reader = new RevisionReader(db);
    state.catalogue.set('corp-0', '7.7');
    void reader.read();
    const firstAsked = reader.catalogue('corp-0');
    // More corporates than are watched are asked about before the queued read starts.
    for (let i = 1; i <= WATCHED_CORPORATES; i++) void reader.catalogue(`corp-${i}`);
    await finishNext();
    expect(pending[0]?.params).toEqual([
      JSON.stringify(Array.from({ length: WATCHED_CORPORATES }, (_, i) => `corp-${i + 1}`)),
    ]);
    await finishNext();
    // The shared read did not carry corp-0 (pushed out), so it asked for it alone.
    const own = pending.find((p) => p.sql.includes('WHERE corporate_id = $1'));
    expect(own?.params).toEqual(['corp-0']);
    while (pending.length) await finishNext();
    expect(await firstAsked).toBe('7.7');
  });
});

describe('HeldCatalogueRevisions (one writer: PGlite)', () => {
  /** The fake database with a write count that the test moves as store/db.ts would. */
  function held() {
    const fake = fakeDb();
    const writes = { n: 0 };
    const revisions = new HeldCatalogueRevisions(fake.db, () => writes.n);
    return { ...fake, writes, revisions };
  }

  it('reads a revision once and answers it from memory until the write count moves', async () => {
    const { state, pending, finishNext, writes, revisions } = held();
    state.catalogue.set('corp-a', '3.40');
    const first = revisions.catalogue('corp-a');
    await finishNext();
    expect(await first).toBe('3.40');
    expect(await revisions.catalogue('corp-a')).toBe('3.40');
    expect(pending).toHaveLength(0);
    // A write commits: the next read asks the database again, and answers what it committed.
    state.catalogue.set('corp-a', '4.41');
    writes.n += 1;
    const next = revisions.catalogue('corp-a');
    expect(pending).toHaveLength(1);
    await finishNext();
    expect(await next).toBe('4.41');
    expect(await revisions.catalogue('corp-a')).toBe('4.41');
    expect(revisions.queries).toBe(2);
  });

  it('answers but does not hold a read the write count moved under', async () => {
    const { state, pending, finishNext, writes, revisions } = held();
    state.catalogue.set('corp-a', '3.40');
    const read = revisions.catalogue('corp-a');
    // The read saw the row before a commit that ends while the read is answered.
    state.catalogue.set('corp-a', '4.41');
    writes.n += 1;
    await finishNext();
    expect(await read).toBe('3.40');
    const again = revisions.catalogue('corp-a');
    expect(pending).toHaveLength(1);
    await finishNext();
    expect(await again).toBe('4.41');
  });

  it('holds at most HELD_CORPORATES corporates, the least recently asked out', async () => {
    const { state, pending, finishNext, revisions } = held();
    const ask = async (id: string) => {
      const r = revisions.catalogue(id);
      while (pending.length) await finishNext();
      return r;
    };
    state.catalogue.set('corp-0', '1.1');
    for (let i = 0; i < HELD_CORPORATES; i++) await ask(`corp-${i}`);
    // corp-0 asked again: now the most recent; corp-1 is the oldest.
    await ask('corp-0');
    await ask('corp-new');
    const queries = revisions.queries;
    expect(await ask('corp-0')).toBe('1.1');
    expect(revisions.queries).toBe(queries);
    await ask('corp-1');
    expect(revisions.queries).toBe(queries + 1);
  });
});
