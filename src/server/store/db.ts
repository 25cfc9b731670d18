import { hash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { copyColumn, type CopyControl, type CopyRows } from './copy-column';
import { acquireDirectoryLock, type DirectoryLock } from './lock';
import { checkout } from './pool-checkout';

/** The few things the store needs from a SQL connection; PGlite and node-postgres both fit. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** How many statements it runs at once: PGlite 1, PostgreSQL its pool's size. */
  readonly connections: number;
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: a dedicated connection that LISTENs on `channel` (fan-out across server
   * processes). `lost` is called once if that connection fails (terminated, network, no answer to
   * a ping); the caller reconnects. Resolves when the LISTEN is in place.
   */
  listen?(channel: string, handlers: ListenHandlers): Promise<Listening>;
  /**
   * PGlite only (its process is the store's only writer: the directory is locked): a count of
   * this process's writes that may have changed `table`, so a copy of its rows in memory can be
   * believed while the count stays put. It moves once a transaction whose statements named the
   * table has ended, and once a statement outside a transaction that names it and is not a
   * `SELECT` has run; `exec` (migrations) moves every count. Statements that ran before the first
   * call for a table are not counted: ask before the first read of it.
   */
  writesTo?(table: string): () => number;
  /**
   * PostgreSQL only: the one column of `sql`'s rows as raw bytes, by a binary COPY on a pooled
   * connection held until the last row (store/copy-column.ts). `sql` takes no parameters.
   */
  copyColumn?(sql: string, rows: CopyRows): Promise<CopyControl>;
  /**
   * PGlite only: the whole data directory as an uncompressed tarball, which
   * {@link OpenOptions.snapshot} opens again as a new store (the test suites open each store
   * from one migrated copy instead of creating and migrating a database every time).
   */
  dump?(): Promise<Blob>;
}

export interface ListenHandlers {
  notify(payload: string): void;
  lost(error: Error): void;
}

export interface Listening {
  /** The listening connection's backend process id (pg_stat_activity.pid). */
  readonly pid: number;
  /** Stops listening and closes the connection (`lost` is not called for it). */
  close(): Promise<void>;
}

/** How often the listening connection is pinged, and how long an answer may take. */
const LISTEN_PING_MS = 15_000;
const LISTEN_PING_TIMEOUT_MS = 5_000;

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite store is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or 'memory://' for a throw-away store. */
  dataDir?: string | undefined;
  /** Size of the PostgreSQL pool. */
  poolSize?: number | undefined;
  /** PGlite only, with 'memory://': start from this dumped data directory ({@link Db.dump}). */
  snapshot?: Blob | undefined;
}

export async function openDb(options: OpenOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? 'memory://', options.snapshot);
}

async function openPglite(dataDir: string, snapshot: Blob | undefined): Promise<Db> {
  if (snapshot && !dataDir.startsWith('memory://')) {
    throw new Error('a snapshot opens only as a memory:// store');
  }
  let lock: DirectoryLock | undefined;
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite does not lock its directory; two processes would corrupt it.
    lock = acquireDirectoryLock(dataDir);
  }
  let db: PGlite;
  try {
    // Imported here, not at the top: a server on PostgreSQL never loads the embedded database.
    const { PGlite } = await import('@electric-sql/pglite');
    db = new PGlite(dataDir, snapshot ? { loadDataDir: snapshot } : {});
    await db.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  const writes = new WriteCounts();
  return {
    kind: 'pglite',
    connections: 1,
    query: async <T>(sql: string, params?: unknown[]) => {
      // PGlite runs a statement outside a transaction only between transactions (one mutex), so
      // it never sees another transaction's uncommitted rows; one that may write counts once run.
      const written = writes.namedBy(sql, { writesOnly: true });
      try {
        const r = await db.query<T>(sql, params);
        return { rows: r.rows };
      } finally {
        writes.count(written);
      }
    },
    transaction: async (fn) => {
      const touched = new Set<WriteCount>();
      try {
        return await db.transaction(async (tx) =>
          fn({
            query: async <T>(sql: string, params?: unknown[]) => {
              for (const w of writes.namedBy(sql, { writesOnly: false })) touched.add(w);
              const r = await tx.query<T>(sql, params);
              return { rows: r.rows };
            },
          }),
        );
      } finally {
        // Counted when the transaction ended, before its caller goes on (so before any answer
        // that depends on it). A rollback counts too: a copy read again finds the same rows,
        // whereas a failure after COMMIT reached the database (its file sync) would otherwise
        // leave a committed change unseen.
        writes.count(touched);
      }
    },
    exec: async (sql) => {
      try {
        await db.exec(sql);
      } finally {
        writes.countAll();
      }
    },
    writesTo: (table) => writes.counter(table),
    dump: () => db.dumpDataDir('none'),
    close: async () => {
      await db.close();
      lock?.release();
    },
  };
}

interface WriteCount {
  named: RegExp;
  n: number;
}

const READ_ONLY = /^\s*select\b/i;
const TABLE_NAME = /^[a-z_][a-z0-9_]*$/;

/** The counts behind PGlite's `Db.writesTo`, one per table asked about. */
class WriteCounts {
  private readonly tables = new Map<string, WriteCount>();

  counter(table: string): () => number {
    if (!TABLE_NAME.test(table)) throw new Error(`not a plain table name: ${table}`);
    let count = this.tables.get(table);
    if (!count) {
      count = { named: new RegExp(`\\b${table}\\b`, 'i'), n: 0 };
      this.tables.set(table, count);
    }
    const counted = count;
    return () => counted.n;
  }

  /** The counts of the tables `sql` names (`writesOnly`: none for a plain `SELECT`). */
  namedBy(sql: string, { writesOnly }: { writesOnly: boolean }): WriteCount[] {
    if (this.tables.size === 0 || (writesOnly && READ_ONLY.test(sql))) return NONE;
    const named: WriteCount[] = [];
    for (const count of this.tables.values()) if (count.named.test(sql)) named.push(count);
    return named;
  }

  count(counts: Iterable<WriteCount>): void {
    for (const count of counts) count.n += 1;
  }

  countAll(): void {
    this.count(this.tables.values());
  }
}

const NONE: WriteCount[] = [];

/** Statements prepared by name per process, at most (see {@link PreparedNames}). */
export const PREPARED_STATEMENTS = 500;
/** Longer statement texts are never prepared by name (generated ones, large batches). */
const PREPARED_TEXT_MAX = 4_096;

/**
 * Names for the parameterised statements sent to PostgreSQL, so each connection parses and plans
 * a statement once and then only binds and executes it (a named prepared statement; node-postgres
 * keeps the names its connection has parsed). An unnamed statement is parsed and planned by the
 * server on every execution: on the development list's revision read that was about 40 % of the
 * round trip (288 → 171 µs, measured with node-postgres on this machine), and the server's CPU
 * is shared with the app's. The name is the text's hash; at most {@link PREPARED_STATEMENTS}
 * texts get one (the first seen), so statements whose text varies cannot grow the server's
 * memory without bound. Statements without parameters keep the simple protocol (one message,
 * and the multi-statement scripts of migrations need it).
 */
class PreparedNames {
  private readonly names = new Map<string, string>();

  statement(sql: string, params: unknown[] | undefined): pg.QueryConfig {
    if (!params || params.length === 0 || sql.length > PREPARED_TEXT_MAX) {
      return { text: sql, values: params };
    }
    let name = this.names.get(sql);
    if (name === undefined) {
      if (this.names.size >= PREPARED_STATEMENTS) return { text: sql, values: params };
      name = `v_${hash('sha1', sql, 'base64url')}`;
      this.names.set(sql, name);
    }
    return { name, text: sql, values: params };
  }
}

/** SQLSTATEs of a connection PostgreSQL ended or could not give (classes 08 and 57P). */
const CONNECTION_STATES = /^(08\d{3}|57P0[1-3])$/;
/** The socket's codes for a connection that went away or could not be made. */
const SOCKET_CODES = /^(ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)$/;
/** node-postgres's own words for a connection that went away. */
const CONNECTION_MESSAGES = /Connection terminated|not queryable|socket hang up/;

/** Whether `error` says the database connection was lost (not that the statement was refused). */
export function isConnectionLost(error: unknown): boolean {
  if (error instanceof ConnectionLostError) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (CONNECTION_STATES.test(code) || SOCKET_CODES.test(code)))
    return true;
  return CONNECTION_MESSAGES.test(error.message);
}

/**
 * The database connection was lost under a statement (PostgreSQL restarted, an operator or a
 * failover ended the backend, the network dropped). `beforeCommit`: the transaction never
 * reached COMMIT, so PostgreSQL rolled it back and running it again is safe; when the COMMIT
 * itself lost its answer, whether it took effect is unknown. The HTTP layer answers it 503.
 */
export class ConnectionLostError extends Error {
  constructor(
    readonly beforeCommit: boolean,
    cause: unknown,
  ) {
    super(`database connection lost: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'ConnectionLostError';
  }
}

/** A read-only statement: it may simply be sent again on another connection. */
const READ_AGAIN = /^\s*(SELECT|WITH(?![\s\S]*\b(INSERT|UPDATE|DELETE)\b)|SHOW|VALUES)\b/i;

async function openPostgres(url: string, max: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  const prepared = new PreparedNames();
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  let broken: Error | undefined;
  const onError = (error: Error) => {
    broken = error;
  };
  const client = await checkout(pool, onError);
  client.off('error', onError);
  client.release(broken);
  return {
    kind: 'postgres',
    connections: max,
    query: async <T>(sql: string, params?: unknown[]) => {
      const statement = prepared.statement(sql, params);
      try {
        return { rows: (await pool.query(statement)).rows as T[] };
      } catch (error) {
        if (!isConnectionLost(error)) throw error;
        // A read is sent once more, on another connection (the pool replaced the lost one);
        // a write outside a transaction may have taken effect, so it is not.
        if (!READ_AGAIN.test(sql)) throw new ConnectionLostError(false, error);
        try {
          return { rows: (await pool.query(statement)).rows as T[] };
        } catch (again) {
          throw isConnectionLost(again) ? new ConnectionLostError(true, again) : again;
        }
      }
    },
    transaction: async (fn) => {
      // The failing query rejects anyway; the broken client is destroyed on release.
      let broken: Error | undefined;
      const onError = (error: Error) => {
        broken = error;
      };
      let c: pg.PoolClient;
      try {
        c = await checkout(pool, onError);
      } catch (error) {
        throw isConnectionLost(error) ? new ConnectionLostError(true, error) : error;
      }
      let committing = false;
      try {
        await c.query('BEGIN');
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => {
            const r = await c.query(prepared.statement(sql, params));
            return { rows: r.rows as T[] };
          },
        });
        committing = true;
        await c.query('COMMIT');
        return result;
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        // Lost before COMMIT: PostgreSQL rolled the transaction back (runCommand runs it again).
        if (!(error instanceof ConnectionLostError) && (broken || isConnectionLost(error)))
          throw new ConnectionLostError(!committing, error);
        throw error;
      } finally {
        c.off('error', onError);
        c.release(broken);
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
    listen: (channel, handlers) => listenOn(url, channel, handlers),
    copyColumn: (sql, rows) => copyColumn(pool, sql, rows),
  };
}

async function listenOn(
  url: string,
  channel: string,
  handlers: ListenHandlers,
): Promise<Listening> {
  // Named, so operators (and tests) find it in pg_stat_activity; keep-alive and a ping notice a
  // connection that died without a word (a dropped network, a frozen server).
  const client = new pg.Client({
    connectionString: url,
    application_name: 'vitrina-listener',
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  let done = false;
  const pinging: { timer?: ReturnType<typeof setInterval> } = {};
  const lose = (error: Error) => {
    if (done) return;
    done = true;
    clearInterval(pinging.timer);
    void client.end().catch(() => undefined);
    handlers.lost(error);
  };
  client.on('error', lose);
  client.on('end', () => lose(new Error('the listening connection ended')));
  client.on('notification', (n) => {
    if (n.channel === channel && n.payload !== undefined) handlers.notify(n.payload);
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${channel}`);
  } catch (error) {
    done = true;
    await client.end().catch(() => undefined);
    throw error;
  }
  const ping = setInterval(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error('the listening connection stopped answering')),
        LISTEN_PING_TIMEOUT_MS,
      );
    });
    Promise.race([client.query('SELECT 1'), timeout])
      .catch((error: unknown) => lose(error instanceof Error ? error : new Error(String(error))))
      .finally(() => clearTimeout(timer));
  }, LISTEN_PING_MS);
  ping.unref();
  pinging.timer = ping;
  if (done) clearInterval(ping);
  return {
    pid: (client as unknown as { processID: number }).processID,
    close: async () => {
      if (done) return;
      done = true;
      clearInterval(ping);
      await client.end().catch(() => undefined);
    },
  };
}
