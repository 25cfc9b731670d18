import type { Db, Queryable } from './db';

/** An event as a command handler produces it, before the store gives it a place in the log. */
export interface NewEvent<T extends string = string, D = unknown> {
  id: string;
  type: T;
  data: D;
  corporateId?: string | null;
  actorId?: string | null;
  occurredAt: Date;
}

/** An event as stored: `{ id, type, streamId, version, corporateId, actorId, occurredAt, data }`. */
export interface StoredEvent<D = unknown> {
  id: string;
  type: string;
  streamId: string;
  version: number;
  corporateId: string | null;
  actorId: string | null;
  occurredAt: string;
  data: D;
  globalPosition: string;
}

/** A stream's version before an append: 0 means the stream must not exist yet; 'any' skips the check. */
export type ExpectedVersion = number | 'any';

export interface AppendResult {
  streamId: string;
  /** The stream's version after the append. */
  version: number;
  /** How many events were written: 0 when the same event ids were already stored (a retry). */
  written: number;
}

export class ConcurrencyError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Stream ${streamId} is at version ${actual}, expected ${String(expected)}`);
    this.name = 'ConcurrencyError';
  }
}

/** A retry that carries some ids already stored and some new ones is not a retry: refuse it. */
export class DuplicateEventError extends Error {
  constructor(readonly ids: string[]) {
    super(`Events already stored with other companions: ${ids.join(', ')}`);
    this.name = 'DuplicateEventError';
  }
}

/** An inline projection: updates its read-model tables in the transaction of the append. */
export interface Projection {
  readonly name: string;
  /** Tables this projection owns; emptied before a rebuild. */
  readonly tables: readonly string[];
  readonly handles: readonly string[];
  apply(tx: Queryable, event: StoredEvent): Promise<void>;
}

/** Where a global reader stopped: the transaction id and position of the last event it saw. */
export interface Checkpoint {
  transactionId: string;
  position: string;
}

export interface AppendRequest {
  streamId: string;
  expectedVersion: ExpectedVersion;
  events: readonly NewEvent[];
}

/** What {@link EventStore.transact} hands its work: one transaction's reads, locks and appends. */
export interface StoreTransaction extends Queryable {
  lockStreams(streamIds: readonly string[]): Promise<Map<string, number>>;
  readStream(streamId: string): Promise<StoredEvent[]>;
  append(request: AppendRequest): Promise<AppendResult>;
}

/** The transaction an append committed in: what a NOTIFY announces and listeners read back. */
export interface CommitInfo {
  /** The transaction's xid8, as text. */
  transactionId: string;
}

export type AppendListener = (events: readonly StoredEvent[], commit: CommitInfo) => void;

export const NOTIFY_CHANNEL = 'vitrina_events';

/**
 * What a commit announces on {@link NOTIFY_CHANNEL}: where its events are, not the events (a
 * NOTIFY payload is limited to 8000 bytes). Listeners read them with
 * {@link EventStore.readTransaction}, so a commit of any size and any number of events is heard.
 */
export interface CommitAnnouncement {
  transactionId: string;
  /** How many events the transaction wrote. */
  events: number;
  /** The global position of its last event. */
  lastPosition: string;
}

/** An `events` row as `eventColumns` selects it. */
export interface EventRow {
  id: string;
  type: string;
  stream_id: string;
  version: number;
  corporate_id: string | null;
  actor_id: string | null;
  occurred_at: Date | string;
  data: unknown;
  global_position: string | number;
  /** The row's xid8 as text: only for checkpoints, never for ordering (text sorts 10000 < 5851). */
  txid: string;
}

/** The columns `toStored` reads, of the `events` table under the alias `t` (none: unqualified). */
export const eventColumns = (t?: string) => {
  const c = t ? `${t}.` : '';
  return `${c}id::text AS id, ${c}type, ${c}stream_id, ${c}version, ${c}corporate_id, ${c}actor_id, ${c}occurred_at, ${c}data, ${c}global_position::text AS global_position, ${c}transaction_id::text AS txid`;
};

const selectColumns = eventColumns();

export function toStored(row: EventRow): StoredEvent {
  return {
    id: row.id,
    type: row.type,
    streamId: row.stream_id,
    version: row.version,
    corporateId: row.corporate_id,
    actorId: row.actor_id,
    occurredAt: new Date(row.occurred_at).toISOString(),
    data: row.data,
    globalPosition: String(row.global_position),
  };
}

export class EventStore {
  private readonly projections: Projection[] = [];
  private readonly listeners = new Set<AppendListener>();

  constructor(readonly db: Db) {}

  registerProjection(projection: Projection): void {
    this.projections.push(projection);
  }

  /** Called after each committed append with the events it wrote (never for a no-op retry). */
  onAppended(listener: AppendListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  append(
    streamId: string,
    expectedVersion: ExpectedVersion,
    events: readonly NewEvent[],
  ): Promise<AppendResult> {
    return this.appendMany([{ streamId, expectedVersion, events }]).then((r) => r[0]!);
  }

  /**
   * Appends to one or more streams atomically: every stream's expected version must hold, or
   * nothing is written. Projections run in the same transaction.
   */
  async appendMany(requests: readonly AppendRequest[]): Promise<AppendResult[]> {
    return this.transact(async (tx) => {
      const out: AppendResult[] = [];
      for (const request of requests) out.push(await tx.append(request));
      return out;
    });
  }

  /**
   * Runs `work` in one transaction that may lock streams, read them and the read models, and
   * append: everything it appends commits together (projections inline) or not at all. The
   * command handler decides inside it, under the locks of the streams it reads, so writers of one
   * stream queue instead of failing on each other's versions.
   */
  async transact<T>(work: (tx: StoreTransaction) => Promise<T>): Promise<T> {
    const written: StoredEvent[] = [];
    const commit: CommitInfo = { transactionId: '' };
    const result = await this.db.transaction(async (q) => {
      const value = await work({
        query: (sql, params) => q.query(sql, params),
        lockStreams: (streamIds) => this.lockStreams(q, streamIds),
        readStream: (streamId) => this.readStreamWith(q, streamId, 1),
        append: (request) => this.appendInTx(q, request, written, commit),
      });
      await this.announce(q, written, commit);
      return value;
    });
    if (written.length > 0) {
      for (const listener of this.listeners) {
        try {
          listener(written, commit);
        } catch {
          // A listener's failure is its own; the append is committed.
        }
      }
    }
    return result;
  }

  /**
   * Tells every server process about the commit (PostgreSQL delivers a NOTIFY on commit, and
   * only then): one small announcement per transaction, whatever its size (see LiveFeed).
   */
  private async announce(
    tx: Queryable,
    written: readonly StoredEvent[],
    commit: CommitInfo,
  ): Promise<void> {
    if (this.db.kind !== 'postgres' || written.length === 0) return;
    const announcement: CommitAnnouncement = {
      transactionId: commit.transactionId,
      events: written.length,
      lastPosition: written.at(-1)!.globalPosition,
    };
    await tx.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, JSON.stringify(announcement)]);
  }

  /**
   * Locks the streams' rows (creating the missing ones at version 0) in one order, so two
   * transactions locking overlapping sets cannot deadlock. Answers each stream's version.
   */
  private async lockStreams(
    tx: Queryable,
    streamIds: readonly string[],
  ): Promise<Map<string, number>> {
    const ids = [...new Set(streamIds)].sort();
    const versions = new Map<string, number>();
    if (ids.length === 0) return versions;
    await tx.query(
      'INSERT INTO streams (stream_id, version) SELECT unnest($1::text[]), 0 ON CONFLICT DO NOTHING',
      [ids],
    );
    const { rows } = await tx.query<{ stream_id: string; version: number }>(
      'SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id COLLATE "C" FOR UPDATE',
      [ids],
    );
    for (const row of rows) versions.set(row.stream_id, row.version);
    return versions;
  }

  private async appendInTx(
    tx: Queryable,
    { streamId, expectedVersion, events }: AppendRequest,
    written: StoredEvent[],
    commit: CommitInfo,
  ): Promise<AppendResult> {
    await tx.query(
      'INSERT INTO streams (stream_id, version) VALUES ($1, 0) ON CONFLICT DO NOTHING',
      [streamId],
    );
    // The row lock serialises writers of one stream; the loser re-reads the winner's version.
    const locked = await tx.query<{ version: number }>(
      'SELECT version FROM streams WHERE stream_id = $1 FOR UPDATE',
      [streamId],
    );
    const current = locked.rows[0]?.version ?? 0;

    const ids = events.map((e) => e.id);
    if (ids.length > 0) {
      const existing = await tx.query<{ id: string }>(
        'SELECT id::text AS id FROM events WHERE id = ANY($1::uuid[])',
        [ids],
      );
      if (existing.rows.length === ids.length) return { streamId, version: current, written: 0 };
      if (existing.rows.length > 0) throw new DuplicateEventError(existing.rows.map((r) => r.id));
    }
    if (expectedVersion !== 'any' && expectedVersion !== current) {
      throw new ConcurrencyError(streamId, expectedVersion, current);
    }
    let version = current;
    for (const event of events) {
      version += 1;
      const inserted = await tx.query<EventRow>(
        `INSERT INTO events (id, stream_id, version, type, corporate_id, actor_id, occurred_at, data)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         RETURNING ${selectColumns}`,
        [
          event.id,
          streamId,
          version,
          event.type,
          event.corporateId ?? null,
          event.actorId ?? null,
          event.occurredAt.toISOString(),
          JSON.stringify(event.data ?? {}),
        ],
      );
      const row = inserted.rows[0]!;
      commit.transactionId = row.txid;
      const stored = toStored(row);
      await this.project(tx, stored);
      written.push(stored);
    }
    if (events.length > 0) {
      await tx.query('UPDATE streams SET version = $2 WHERE stream_id = $1', [streamId, version]);
    }
    return { streamId, version, written: events.length };
  }

  private async project(tx: Queryable, event: StoredEvent): Promise<void> {
    for (const projection of this.projections) {
      if (projection.handles.includes(event.type)) await projection.apply(tx, event);
    }
  }

  async readStream(streamId: string, fromVersion = 1): Promise<StoredEvent[]> {
    return this.readStreamWith(this.db, streamId, fromVersion);
  }

  private async readStreamWith(
    q: Queryable,
    streamId: string,
    fromVersion: number,
  ): Promise<StoredEvent[]> {
    const { rows } = await q.query<EventRow>(
      `SELECT ${selectColumns} FROM events WHERE stream_id = $1 AND version >= $2 ORDER BY version`,
      [streamId, fromVersion],
    );
    return rows.map(toStored);
  }

  async streamVersion(streamId: string): Promise<number> {
    const { rows } = await this.db.query<{ version: number }>(
      'SELECT version FROM streams WHERE stream_id = $1',
      [streamId],
    );
    return rows[0]?.version ?? 0;
  }

  /** The events one committed transaction wrote, in order (what a commit announcement names). */
  async readTransaction(transactionId: string): Promise<StoredEvent[]> {
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${selectColumns} FROM events WHERE transaction_id = $1::xid8
       ORDER BY events.global_position`,
      [transactionId],
    );
    return rows.map(toStored);
  }

  /**
   * Reads the global log after `after`, in commit-safe order: only events of transactions older
   * than every transaction still in flight, ordered by (transaction id, position). A sequence
   * value taken by a transaction that commits late can therefore never be skipped, and a
   * rolled-back one leaves a gap that nothing waits for.
   */
  async readAll(
    after: Checkpoint | null,
    limit = 1000,
  ): Promise<{ events: StoredEvent[]; checkpoint: Checkpoint | null }> {
    const from = after ?? { transactionId: '0', position: '0' };
    const { rows } = await this.db.query<EventRow>(
      `SELECT ${selectColumns} FROM events
       WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
         AND transaction_id < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY events.transaction_id, events.global_position
       LIMIT $3`,
      [from.transactionId, from.position, limit],
    );
    const last = rows.at(-1);
    return {
      events: rows.map(toStored),
      checkpoint: last
        ? { transactionId: last.txid, position: String(last.global_position) }
        : after,
    };
  }

  /** The read-model tables of the registered projections (what a rebuild empties and refills). */
  projectionTables(): string[] {
    return this.projections.flatMap((p) => [...p.tables]);
  }

  /**
   * Replays the whole log through every projection inside `tx`, in (transaction id, position)
   * order, and answers how many events it replayed. Where the projections write is the caller's
   * choice: the live tables a rebuild has emptied, or a scratch schema put first in the search
   * path (store:verify).
   */
  async replayAll(tx: Queryable): Promise<number> {
    let count = 0;
    let cursor = { transactionId: '0', position: '0' };
    for (;;) {
      const { rows } = await tx.query<EventRow>(
        `SELECT ${selectColumns} FROM events
         WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
         ORDER BY events.transaction_id, events.global_position LIMIT 5000`,
        [cursor.transactionId, cursor.position],
      );
      for (const row of rows) await this.project(tx, toStored(row));
      count += rows.length;
      const last = rows.at(-1);
      if (!last) return count;
      cursor = { transactionId: last.txid, position: String(last.global_position) };
    }
  }

  /**
   * Empties every projection's tables and replays the whole log through them, in one
   * transaction: readers see the old read models until it commits, then the new ones. No append
   * commits meanwhile (they wait for the lock), so the replay and the swap see one log.
   */
  async rebuildProjections(): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query('LOCK TABLE events IN EXCLUSIVE MODE');
      for (const table of this.projectionTables()) await tx.query(`DELETE FROM ${table}`);
      return this.replayAll(tx);
    });
  }
}
