import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { acquireDirectoryLock, type DirectoryLock } from './lock';

/** The few things the store needs from a SQL connection; PGlite and node-postgres both fit. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Runs several statements separated by semicolons, no parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL only: a dedicated connection that LISTENs on `channel` (fan-out across server
   * processes). Returns the function that stops listening.
   */
  listen?(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite store is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory, or 'memory://' for a throw-away store. */
  dataDir?: string | undefined;
  /** Size of the PostgreSQL pool. */
  poolSize?: number | undefined;
}

export async function openDb(options: OpenOptions): Promise<Db> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.dataDir ?? 'memory://');
}

async function openPglite(dataDir: string): Promise<Db> {
  let lock: DirectoryLock | undefined;
  if (!dataDir.startsWith('memory://')) {
    mkdirSync(dataDir, { recursive: true });
    // PGlite does not lock its directory; two processes would corrupt it.
    lock = acquireDirectoryLock(dataDir);
  }
  let db: PGlite;
  try {
    db = new PGlite(dataDir);
    await db.waitReady;
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    kind: 'pglite',
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await db.query<T>(sql, params);
      return { rows: r.rows };
    },
    transaction: (fn) =>
      db.transaction(async (tx) =>
        fn({
          query: async <T>(sql: string, params?: unknown[]) => {
            const r = await tx.query<T>(sql, params);
            return { rows: r.rows };
          },
        }),
      ),
    exec: async (sql) => {
      await db.exec(sql);
    },
    close: async () => {
      await db.close();
      lock?.release();
    },
  };
}

async function openPostgres(url: string, max: number): Promise<Db> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle client that loses its connection must not take the process down.
  pool.on('error', () => undefined);
  const client = await pool.connect();
  client.release();
  return {
    kind: 'postgres',
    query: async <T>(sql: string, params?: unknown[]) => {
      const r = await pool.query(sql, params);
      return { rows: r.rows as T[] };
    },
    transaction: async (fn) => {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const result = await fn({
          query: async <T>(sql: string, params?: unknown[]) => {
            const r = await c.query(sql, params);
            return { rows: r.rows as T[] };
          },
        });
        await c.query('COMMIT');
        return result;
      } catch (error) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        c.release();
      }
    },
    exec: async (sql) => {
      await pool.query(sql);
    },
    close: () => pool.end(),
    listen: async (channel, onPayload) => {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => undefined);
      await client.connect();
      client.on('notification', (n) => {
        if (n.channel === channel && n.payload) onPayload(n.payload);
      });
      await client.query(`LISTEN ${channel}`);
      return async () => {
        await client.end().catch(() => undefined);
      };
    },
  };
}
