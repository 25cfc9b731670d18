import type { Db, Queryable } from '../store/db';

/**
 * The two counters a request checks before answering from memory (issue 21), read together and
 * shared by every request that arrives while a read is pending:
 *
 * - `auth_revision` (migration 028): moves with every change of a user, a corporate or an ended
 *   session, in that change's transaction; the auth cache drops everything when it moved;
 * - the catalogue revisions (`rm_catalogue_revisions`, migration 023) of the corporates this
 *   process reads the catalogue of: the catalogue reads' ETags and ready bodies hang on them.
 *
 * The guarantee a per-request read gave: a change committed before the request arrived is seen.
 * A read that STARTED after the request arrived keeps it; one already in flight when it arrived
 * may not (it may predate the change the caller saw committed). So a request joins the queued
 * read when there is one, else queues one behind the read in flight, else starts one: at most
 * one read in flight plus one queued, whatever the number of requests, and each costs one query.
 */
export interface Revisions {
  /** `auth_revision.n`; null where the table has no row. */
  auth: bigint | null;
  /** Catalogue revision ("<count>.<last position>", "0.0" before any event) by corporate id. */
  catalogue: ReadonlyMap<string, string>;
}

/** Corporates whose catalogue revision every read carries (the least recently asked go first). */
export const WATCHED_CORPORATES = 256;

const READ = `SELECT (SELECT n::text FROM auth_revision) AS auth,
  (SELECT coalesce(json_object_agg(corporate_id, revision || '.' || last_position), '{}')::text
     FROM rm_catalogue_revisions
    WHERE corporate_id IN (SELECT jsonb_array_elements_text($1::jsonb))) AS catalogue`;

export class RevisionReader {
  private inFlight: Promise<Revisions> | null = null;
  private queued: Promise<Revisions> | null = null;
  /** Insertion order is use order (a Map as an LRU of ids). */
  private readonly watched = new Map<string, true>();
  /** The last answer's catalogue text and map, so an unchanged answer is not parsed again. */
  private lastText = '';
  private lastMap: ReadonlyMap<string, string> = new Map();
  private reads = 0;

  constructor(private readonly db: Queryable) {}

  /** Revisions as read by a query that started after this call. */
  read(): Promise<Revisions> {
    if (this.queued) return this.queued;
    if (!this.inFlight) return this.start();
    const behind = this.inFlight;
    const queued = behind.then(settle, settle).then(() => {
      // From here on, new callers queue behind this read, not join it.
      this.queued = null;
      return this.start();
    });
    this.queued = queued;
    return queued;
  }

  /**
   * The corporate's catalogue revision as read after this call. The corporate is watched from now
   * on, so the shared reads carry it (`WATCHED_CORPORATES` at most, else one query of its own).
   */
  async catalogue(corporateId: string): Promise<string> {
    this.watch(corporateId);
    const revisions = await this.read();
    return revisions.catalogue.get(corporateId) ?? (await this.readOne(corporateId));
  }

  /** Queries made so far (tests: many requests, few reads). */
  get queries(): number {
    return this.reads;
  }

  private start(): Promise<Revisions> {
    const read = this.query();
    this.inFlight = read;
    const done = () => {
      if (this.inFlight === read) this.inFlight = null;
    };
    read.then(done, done);
    return read;
  }

  private async query(): Promise<Revisions> {
    this.reads += 1;
    const ids = [...this.watched.keys()];
    const { rows } = await this.db.query<{ auth: string | null; catalogue: string }>(READ, [
      JSON.stringify(ids),
    ]);
    const row = rows[0];
    return {
      auth: row?.auth != null ? BigInt(row.auth) : null,
      catalogue: this.catalogueMap(ids, row?.catalogue ?? '{}'),
    };
  }

  /** The watched corporates' revisions, "0.0" for one with no catalogue event yet. */
  private catalogueMap(ids: readonly string[], text: string): ReadonlyMap<string, string> {
    const key = `${ids.join('\n')}\n${text}`;
    if (key === this.lastText) return this.lastMap;
    const found = JSON.parse(text) as Record<string, string>;
    const map = new Map<string, string>();
    for (const id of ids) map.set(id, found[id] ?? '0.0');
    this.lastText = key;
    this.lastMap = map;
    return map;
  }

  private watch(corporateId: string): void {
    if (this.watched.has(corporateId)) {
      this.watched.delete(corporateId);
    } else if (this.watched.size >= WATCHED_CORPORATES) {
      this.watched.delete(this.watched.keys().next().value as string);
    }
    this.watched.set(corporateId, true);
  }

  private async readOne(corporateId: string): Promise<string> {
    this.reads += 1;
    const { rows } = await this.db.query<{ r: string }>(
      "SELECT revision || '.' || last_position AS r FROM rm_catalogue_revisions WHERE corporate_id = $1",
      [corporateId],
    );
    return rows[0]?.r ?? '0.0';
  }
}

const settle = () => undefined;

// One reader per database: two apps in one process (tests) never share a read.
const readers = new WeakMap<object, RevisionReader>();

/** The database's shared reader. */
export function revisionReader(db: Queryable): RevisionReader {
  let reader = readers.get(db);
  if (!reader) {
    reader = new RevisionReader(db);
    readers.set(db, reader);
  }
  return reader;
}

/** Corporates whose catalogue revision a process on PGlite holds in memory (least recently asked out). */
export const HELD_CORPORATES = 1_000;

const CATALOGUE_REVISION =
  "SELECT revision || '.' || last_position AS r FROM rm_catalogue_revisions WHERE corporate_id = $1";

/**
 * PGlite: the catalogue revisions held in memory. The process is the store's only writer, so a
 * revision it read stays true until one of its own writes names `rm_catalogue_revisions`
 * (`Db.writesTo`, counted in store/db.ts when that transaction ends, before its caller answers):
 * then everything held is dropped and the next catalogue read reads its row again. A read that
 * overlapped such a write is answered but not held (the count moved while it ran), so a value
 * read before a commit is never believed after it.
 */
export class HeldCatalogueRevisions {
  /** Insertion order is use order (a Map as an LRU). */
  private readonly held = new Map<string, string>();
  /** The write count `held` is true for. */
  private heldAt: number;
  private reads = 0;

  constructor(
    private readonly db: Queryable,
    private readonly writes: () => number,
  ) {
    this.heldAt = writes();
  }

  /** The corporate's catalogue revision ("0.0" before any catalogue event). */
  async catalogue(corporateId: string): Promise<string> {
    const at = this.writes();
    if (at !== this.heldAt) {
      this.held.clear();
      this.heldAt = at;
    }
    const known = this.held.get(corporateId);
    if (known !== undefined) {
      this.held.delete(corporateId);
      this.held.set(corporateId, known);
      return known;
    }
    this.reads += 1;
    const { rows } = await this.db.query<{ r: string }>(CATALOGUE_REVISION, [corporateId]);
    const revision = rows[0]?.r ?? '0.0';
    if (this.writes() === at && this.heldAt === at) {
      if (this.held.size >= HELD_CORPORATES) {
        this.held.delete(this.held.keys().next().value as string);
      }
      this.held.set(corporateId, revision);
    }
    return revision;
  }

  /** Queries made so far (tests: a repeated read costs none). */
  get queries(): number {
    return this.reads;
  }
}

const held = new WeakMap<object, HeldCatalogueRevisions | null>();

/**
 * The database's held catalogue revisions where this process is its only writer (PGlite, whose
 * `Db.writesTo` says when they may have moved); null elsewhere (PostgreSQL: other processes write).
 */
export function heldCatalogueRevisions(db: Db): HeldCatalogueRevisions | null {
  let revisions = held.get(db);
  if (revisions === undefined) {
    const writes = db.kind === 'pglite' ? db.writesTo?.('rm_catalogue_revisions') : undefined;
    revisions = writes ? new HeldCatalogueRevisions(db, writes) : null;
    held.set(db, revisions);
  }
  return revisions;
}
