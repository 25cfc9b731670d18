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

/**
 * An append to a stream whose last event a transaction with a later id wrote: in the log's order
 * (transaction id, then position) it would come before that event. A conflict like any other: the
 * command runs again, in a transaction with a later id.
 */
export class OutOfOrderError extends ConcurrencyError {
  constructor(streamId: string, version: number) {
    super(streamId, version, version);
    this.message = `Stream ${streamId} was written at version ${version} by a later transaction`;
    this.name = 'OutOfOrderError';
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
  /**
   * How a replay of the whole log (store:verify, rebuilds) may apply this projection's events
   * many at a time instead of one by one; without it, {@link apply} gets every event.
   */
  readonly bulk?: BulkReplay;
}

/**
 * A projection's batch replay. The replay hands it runs of its events in log order (the same
 * order {@link Projection.apply} would get them), and the rows it leaves after each run must be
 * exactly those `apply` would leave after each event in turn, except the tables `finish` fills.
 */
export interface BulkReplay {
  /** Applies a run of events (at most a page of the log) in a few statements. */
  replay(tx: Queryable, events: readonly StoredEvent[]): Promise<void>;
  /**
   * After the last run: fills what the runs leave out because it depends on the whole log's
   * order across streams (counters, recounted from the rows the runs wrote).
   */
  finish(tx: Queryable): Promise<void>;
  /**
   * Event types of OTHER projections whose `apply` reads this projection's tables (e.g. a name
   * copied at the time of the event): before such an event is applied, the replay writes every
   * event of this projection that precedes it, so the read sees what it saw live.
   */
  readonly readBy: readonly string[];
}

/** How {@link EventStore.replayAll} goes through the log. */
export interface ReplayOptions {
  /** Events read (and, for bulk projections, written) per page; default 10,000. */
  page?: number;
  /** false: every projection gets every event one by one (the reference the bulk is tested by). */
  bulk?: boolean;
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
  /**
   * Locks the streams (a stream is locked once per transaction: asking again costs nothing) and
   * answers their versions as this transaction sees them.
   */
  lockStreams(streamIds: readonly string[]): Promise<Map<string, number>>;
  readStream(streamId: string): Promise<StoredEvent[]>;
  append(request: AppendRequest): Promise<AppendResult>;
  /** Appends to several streams at once: one statement for all their events (see appendAll). */
  appendAll(requests: readonly AppendRequest[]): Promise<AppendResult[]>;
}

/** The transaction an append committed in: what a NOTIFY announces and listeners read back. */
export interface CommitInfo {
  /** The transaction's xid8, as text. */
  transactionId: string;
  /** How many of the transaction's events an announcement already covers (see announce). */
  announced?: number;
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
    return this.transact((tx) => tx.appendAll(requests));
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
      // The streams this transaction holds the row lock of, at their current version.
      const locked = new Map<string, number>();
      const appendAll = (requests: readonly AppendRequest[]) =>
        this.appendAll(q, requests, locked, written, commit);
      const value = await work({
        query: (sql, params) => q.query(sql, params),
        lockStreams: (streamIds) => this.lockStreams(q, streamIds, locked),
        readStream: (streamId) => this.readStreamWith(q, streamId, 1),
        append: (request) => appendAll([request]).then((r) => r[0]!),
        appendAll,
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
   * only then): one small announcement per transaction, whatever its size (see LiveFeed). The
   * insert of the events announces them itself (one statement fewer); this is for whatever it
   * did not cover. A transaction that appends twice announces twice, and a listener reads the
   * transaction once (by its id) after its commit, with all its events.
   */
  private async announce(
    tx: Queryable,
    written: readonly StoredEvent[],
    commit: CommitInfo,
  ): Promise<void> {
    if (this.db.kind !== 'postgres' || written.length === (commit.announced ?? 0)) return;
    const announcement: CommitAnnouncement = {
      transactionId: commit.transactionId,
      events: written.length,
      lastPosition: written.at(-1)!.globalPosition,
    };
    await tx.query('SELECT pg_notify($1, $2)', [NOTIFY_CHANNEL, JSON.stringify(announcement)]);
  }

  /**
   * Locks the streams' rows (creating the missing ones at version 0) in one order, so two
   * transactions locking overlapping sets cannot deadlock, and answers each stream's version. A
   * stream already locked by this transaction (`locked`) is not asked for again. One statement:
   * the missing rows are inserted (and so held) and the existing ones selected FOR UPDATE; a row
   * another transaction created and committed while this one waited on it is in neither (the
   * statement's snapshot predates it), so it is locked by a second statement.
   */
  private async lockStreams(
    tx: Queryable,
    streamIds: readonly string[],
    locked: Map<string, number>,
  ): Promise<Map<string, number>> {
    const ids = [...new Set(streamIds)].filter((id) => !locked.has(id)).sort();
    if (ids.length > 0) {
      const { rows } = await tx.query<{ stream_id: string; version: number }>(
        `WITH created AS (
           INSERT INTO streams (stream_id, version) SELECT unnest($1::text[]), 0
           ON CONFLICT DO NOTHING RETURNING stream_id, version),
         existing AS (
           SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::text[])
           ORDER BY stream_id COLLATE "C" FOR UPDATE)
         SELECT stream_id, version FROM created UNION ALL SELECT stream_id, version FROM existing`,
        [ids],
      );
      for (const row of rows) locked.set(row.stream_id, row.version);
      const raced = ids.filter((id) => !locked.has(id));
      if (raced.length > 0) {
        const again = await tx.query<{ stream_id: string; version: number }>(
          'SELECT stream_id, version FROM streams WHERE stream_id = ANY($1::text[]) ORDER BY stream_id COLLATE "C" FOR UPDATE',
          [raced],
        );
        for (const row of again.rows) locked.set(row.stream_id, row.version);
      }
    }
    const versions = new Map<string, number>();
    for (const id of streamIds) versions.set(id, locked.get(id) ?? 0);
    return versions;
  }

  /**
   * Appends each request's events under its stream's lock (taken here if the transaction does
   * not hold it yet), checking its expected version, in request order. Every event of every
   * request is written by one statement, which also moves the streams' versions; the projections
   * then run on each event in order. A request whose event ids are all stored already is a retry:
   * it writes nothing and answers `written: 0`; one with some stored and some new is refused.
   */
  private async appendAll(
    tx: Queryable,
    requests: readonly AppendRequest[],
    locked: Map<string, number>,
    written: StoredEvent[],
    commit: CommitInfo,
  ): Promise<AppendResult[]> {
    await this.lockStreams(
      tx,
      requests.map((r) => r.streamId),
      locked,
    );
    const retried = new Set<AppendRequest>();
    const checked = new Set<AppendRequest>();
    for (;;) {
      const plan = planAppends(requests, locked, retried);
      // A stale request may be a retry (its stream moved on since), and so may a request before
      // it that moved its stream: every request's ids are looked at before a conflict is raised.
      if (plan.stale.some((r) => !checked.has(r))) {
        const unchecked = requests.filter((r) => !checked.has(r));
        for (const r of unchecked) checked.add(r);
        const ids = unchecked.flatMap((r) => r.events.map((e) => e.id));
        if (ids.length === 0) continue;
        const stored = await tx.query<{ id: string }>(
          'SELECT id::text AS id FROM events WHERE id = ANY($1::uuid[])',
          [ids],
        );
        for (const r of retriesAmong(
          unchecked,
          stored.rows.map((row) => row.id),
        ))
          retried.add(r);
        continue;
      }
      const first = plan.stale[0];
      if (first) {
        const current = plan.before.get(first)!;
        throw new ConcurrencyError(first.streamId, first.expectedVersion, current);
      }
      if (this.db.kind === 'postgres') await this.refuseOutOfOrder(tx, plan, retried);
      const inserted = await this.insertEvents(tx, plan, retried, written.length);
      if ('stored' in inserted) {
        for (const r of retriesAmong(requests, inserted.stored)) retried.add(r);
        continue;
      }
      for (const row of inserted.rows) {
        commit.transactionId = row.txid;
        const event = toStored(row);
        await this.project(tx, event);
        written.push(event);
      }
      if (this.db.kind === 'postgres') commit.announced = written.length;
      for (const [streamId, version] of plan.after) locked.set(streamId, version);
      return requests.map((r) =>
        retried.has(r)
          ? { streamId: r.streamId, version: plan.before.get(r)!, written: 0 }
          : {
              streamId: r.streamId,
              version: plan.before.get(r)! + r.events.length,
              written: r.events.length,
            },
      );
    }
  }

  /**
   * Every reader of the log (consumers, the live feed, replays and rebuilds) meets a stream's
   * events in (transaction id, position) order, and PostgreSQL gives a transaction its id at its
   * first lock or write. A command that locked another stream first (an appointment, then its
   * client) may reach a stream after a later transaction wrote to it: its events would be read
   * before that one's, against the stream's versions. {@link OutOfOrderError} then.
   */
  private async refuseOutOfOrder(
    tx: Queryable,
    plan: AppendPlan,
    retried: ReadonlySet<AppendRequest>,
  ): Promise<void> {
    const streams: string[] = [];
    const versions: number[] = [];
    for (const [request, before] of plan.before) {
      if (retried.has(request) || before === 0) continue;
      streams.push(request.streamId);
      versions.push(before);
    }
    if (streams.length === 0) return;
    const { rows } = await tx.query<{ stream_id: string; version: number }>(
      `SELECT e.stream_id, e.version FROM events e
         JOIN unnest($1::text[], $2::int[]) AS last(stream_id, version)
           ON e.stream_id = last.stream_id AND e.version = last.version
        WHERE e.transaction_id > pg_current_xact_id() LIMIT 1`,
      [streams, versions],
    );
    const later = rows[0];
    if (later) throw new OutOfOrderError(later.stream_id, later.version);
  }

  /**
   * Inserts the planned events (numbered from each stream's locked version) and moves the
   * streams' versions, in one statement, answering the rows in log order; or, if any of the ids
   * is stored already, inserts nothing and answers those ids. On PostgreSQL the statement also
   * announces the transaction (its `earlier` events and these) on {@link NOTIFY_CHANNEL}.
   */
  private async insertEvents(
    tx: Queryable,
    plan: AppendPlan,
    retried: ReadonlySet<AppendRequest>,
    earlier: number,
  ): Promise<{ rows: EventRow[] } | { stored: string[] }> {
    const columns: unknown[][] = [[], [], [], [], [], [], [], []];
    for (const [request, before] of plan.before) {
      if (retried.has(request)) continue;
      request.events.forEach((event, i) => {
        const values = [
          event.id,
          request.streamId,
          before + i + 1,
          event.type,
          event.corporateId ?? null,
          event.actorId ?? null,
          event.occurredAt.toISOString(),
          JSON.stringify(event.data ?? {}),
        ];
        values.forEach((v, c) => columns[c]!.push(v));
      });
    }
    if (columns[0]!.length === 0) return { rows: [] };
    const { rows } = await tx.query<EventRow & { stored: boolean }>(
      `WITH input AS (
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[],
                              $7::timestamptz[], $8::jsonb[]) WITH ORDINALITY
                AS i(id, stream_id, version, type, corporate_id, actor_id, occurred_at, data, n)),
       stored AS (SELECT e.id FROM events e JOIN input ON input.id = e.id),
       inserted AS (
         INSERT INTO events (id, stream_id, version, type, corporate_id, actor_id, occurred_at, data)
         SELECT id, stream_id, version, type, corporate_id, actor_id, occurred_at, data FROM input
          WHERE NOT EXISTS (SELECT 1 FROM stored) ORDER BY n
         RETURNING ${selectColumns}),
       moved AS (
         UPDATE streams s SET version = last.version
           FROM (SELECT stream_id, max(version) AS version FROM inserted GROUP BY stream_id) last
          WHERE s.stream_id = last.stream_id),
       announced AS (
         SELECT pg_notify($9::text, json_build_object(
                  'transactionId', pg_current_xact_id()::text,
                  'events', $10::int + count(*),
                  'lastPosition', max(global_position::bigint)::text)::text)
           FROM inserted HAVING $9::text IS NOT NULL AND count(*) > 0)
       SELECT inserted.*, false AS stored FROM inserted LEFT JOIN announced ON true
       UNION ALL
       SELECT id::text, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, true FROM stored`,
      [...columns, this.db.kind === 'postgres' ? NOTIFY_CHANNEL : null, earlier],
    );
    const stored = rows.filter((r) => r.stored).map((r) => r.id);
    if (stored.length > 0) return { stored };
    return {
      rows: rows.sort((a, b) => Number(BigInt(a.global_position) - BigInt(b.global_position))),
    };
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
   *
   * The log is read in pages. A projection with a {@link BulkReplay} gets each page's events as
   * one run (a few multi-row statements instead of several statements per event), the others get
   * them one by one, in log order. A run is cut short before an event whose projection reads a
   * bulk projection's tables (`readBy`), so that read sees the rows as they were at that event.
   * Memory holds one page.
   */
  async replayAll(tx: Queryable, options: ReplayOptions = {}): Promise<number> {
    const page = Math.max(1, Math.floor(options.page ?? 10_000));
    const bulk = new Map<Projection, StoredEvent[]>();
    if (options.bulk !== false) {
      for (const p of this.projections) if (p.bulk) bulk.set(p, []);
    }
    const flush = async (only?: (p: Projection) => boolean) => {
      for (const [projection, pending] of bulk) {
        if (pending.length === 0 || (only && !only(projection))) continue;
        await projection.bulk!.replay(tx, pending);
        pending.length = 0;
      }
    };
    let count = 0;
    let cursor = { transactionId: '0', position: '0' };
    for (;;) {
      const { rows } = await tx.query<EventRow>(
        `SELECT ${selectColumns} FROM events
         WHERE (transaction_id, global_position) > ($1::xid8, $2::bigint)
         ORDER BY events.transaction_id, events.global_position LIMIT $3`,
        [cursor.transactionId, cursor.position, page],
      );
      for (const row of rows) {
        const event = toStored(row);
        // In registration order, as live: a projection registered after a bulk one and reading
        // its tables sees this event's rows; one registered before it does not.
        for (const projection of this.projections) {
          if (!projection.handles.includes(event.type)) continue;
          const pending = bulk.get(projection);
          if (pending) {
            pending.push(event);
            continue;
          }
          await flush((p) => p.bulk!.readBy.includes(event.type));
          await projection.apply(tx, event);
        }
      }
      await flush();
      count += rows.length;
      const last = rows.at(-1);
      if (!last) break;
      cursor = { transactionId: last.txid, position: String(last.global_position) };
    }
    for (const projection of bulk.keys()) await projection.bulk!.finish(tx);
    return count;
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

/** Each request's stream version before it, in request order (retries write nothing). */
interface AppendPlan {
  before: Map<AppendRequest, number>;
  /** Each stream's version after the writing requests. */
  after: Map<string, number>;
  /** Requests whose expected version does not hold. */
  stale: AppendRequest[];
}

function planAppends(
  requests: readonly AppendRequest[],
  locked: ReadonlyMap<string, number>,
  retried: ReadonlySet<AppendRequest>,
): AppendPlan {
  const plan: AppendPlan = { before: new Map(), after: new Map(), stale: [] };
  for (const request of requests) {
    const current = plan.after.get(request.streamId) ?? locked.get(request.streamId) ?? 0;
    plan.before.set(request, current);
    if (retried.has(request)) continue;
    if (request.expectedVersion !== 'any' && request.expectedVersion !== current) {
      plan.stale.push(request);
    }
    plan.after.set(request.streamId, current + request.events.length);
  }
  return plan;
}

/**
 * Of `requests`, those whose events are all among the `stored` ids (retries); a request with
 * some of its events stored and some not is refused with {@link DuplicateEventError}.
 */
function retriesAmong(requests: readonly AppendRequest[], stored: readonly string[]) {
  const ids = new Set(stored.map((id) => id.toLowerCase()));
  const out: AppendRequest[] = [];
  for (const request of requests) {
    const found = request.events.filter((e) => ids.has(e.id.toLowerCase())).map((e) => e.id);
    if (found.length === 0) continue;
    if (found.length < request.events.length) throw new DuplicateEventError(found);
    out.push(request);
  }
  return out;
}
