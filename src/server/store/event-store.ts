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

export type AppendListener = (events: readonly StoredEvent[]) => void;

export const NOTIFY_CHANNEL = 'vitrina_events';

/** NOTIFY payloads are limited to 8000 bytes: large event data is left out (listeners refetch). */
function notifyPayload(event: StoredEvent): string {
  const full = JSON.stringify(event);
  if (full.length < 7000) return full;
  return JSON.stringify({ ...event, data: null });
}

interface EventRow {
  id: string;
  type: string;
  stream_id: string;
  version: number;
  corporate_id: string | null;
  actor_id: string | null;
  occurred_at: Date | string;
  data: unknown;
  global_position: string | number;
  transaction_id: string;
}

const selectColumns =
  'id::text AS id, type, stream_id, version, corporate_id, actor_id, occurred_at, data, global_position::text AS global_position, transaction_id::text AS transaction_id';

function toStored(row: EventRow): StoredEvent {
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
    const written: StoredEvent[] = [];
    const results = await this.db.transaction(async (tx) => {
      const out: AppendResult[] = [];
      for (const request of requests) {
        const result = await this.appendInTx(tx, request, written);
        out.push(result);
      }
      if (this.db.kind === 'postgres' && written.length > 0 && written.length <= 200) {
        // Delivered to every server process on commit, and only then (see LiveFeed).
        for (const event of written) {
          await tx.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, notifyPayload(event)]);
        }
      }
      return out;
    });
    if (written.length > 0) {
      for (const listener of this.listeners) {
        try {
          listener(written);
        } catch {
          // A listener's failure is its own; the append is committed.
        }
      }
    }
    return results;
  }

  private async appendInTx(
    tx: Queryable,
    { streamId, expectedVersion, events }: AppendRequest,
    written: StoredEvent[],
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
      const stored = toStored(inserted.rows[0]!);
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
    const { rows } = await this.db.query<EventRow>(
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
       ORDER BY transaction_id, global_position
       LIMIT $3`,
      [from.transactionId, from.position, limit],
    );
    const last = rows.at(-1);
    return {
      events: rows.map(toStored),
      checkpoint: last
        ? { transactionId: last.transaction_id, position: String(last.global_position) }
        : after,
    };
  }

  /** Empties every projection's tables and replays the whole log through them, in one transaction. */
  async rebuildProjections(): Promise<number> {
    return this.db.transaction(async (tx) => {
      for (const projection of this.projections) {
        for (const table of projection.tables) await tx.query(`DELETE FROM ${table}`);
      }
      let count = 0;
      let cursor = { transactionId: '0', position: '0' };
      for (;;) {
        const { rows } = await tx.query<EventRow>(
          `SELECT ${selectColumns} FROM events
           WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
           ORDER BY transaction_id, global_position LIMIT 5000`,
          [cursor.transactionId, cursor.position],
        );
        for (const row of rows) await this.project(tx, toStored(row));
        count += rows.length;
        const last = rows.at(-1);
        if (!last) return count;
        cursor = { transactionId: last.transaction_id, position: String(last.global_position) };
      }
    });
  }
}
