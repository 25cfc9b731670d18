/**
 * One column of a query's rows as raw bytes, streamed by `COPY (query) TO STDOUT (FORMAT binary)`
 * on a pooled PostgreSQL connection (issue 21: the weekly report). Against reading the same rows
 * in pages of `SELECT`s, nothing is decoded to a JavaScript string and encoded back (a text
 * column's binary form is its UTF-8 bytes), there is one query instead of two per page, and the
 * rows come from one snapshot as fast as the database makes them. The connection is held until
 * the last row; pausing the consumer pauses the socket, and the database waits on it.
 *
 * COPY takes no parameters: the query holds literals only, quoted with {@link sqlLiteral}. Its
 * rows stream in the query's order from an index ({@link INDEX_ORDER}): the first comes at once.
 */
import type { Socket } from 'node:net';
import type pg from 'pg';
import { checkout } from './pool-checkout';

/** Where the rows go. */
export interface CopyRows {
  /**
   * One row's value (a NULL is skipped): `bytes[start, end)`. The bytes are the connection's
   * receive buffer, valid only during the call: copy what is kept. No view is made per row (a
   * report has hundreds of thousands).
   */
  row(bytes: Buffer, start: number, end: number): void;
  /** Every row was given, or the COPY failed (error). Not called after `cancel`. */
  end(error: Error | null): void;
}

/** The running COPY. */
export interface CopyControl {
  /** Stop reading the socket (the database waits once the socket's buffers are full). */
  pause(): void;
  resume(): void;
  /** Abandon it: the connection is closed (the database's backend ends with it). */
  cancel(): void;
}

/**
 * Sent with the COPY, in the same simple query (one implicit transaction, so it ends with it):
 * the rows in the order an index gives them, never a sort of the whole result first. Asked for
 * every row, the planner prefers reading the table and sorting it (cheaper in all), which holds
 * the first row back until the last is read: with 100,000 rows of the week, 1.5 s before the
 * first byte instead of a few milliseconds.
 */
export const INDEX_ORDER = 'SET LOCAL enable_sort = off';

/** A string as an SQL literal (standard-conforming strings: only quotes are doubled). */
export function sqlLiteral(value: string): string {
  if (value.includes('\0')) throw new Error('an SQL literal cannot hold NUL');
  return `'${value.replaceAll("'", "''")}'`;
}

/** PGCOPY\n\377\r\n\0: the binary COPY signature, then flags (int32) and extension length. */
const SIGNATURE = Buffer.from([0x50, 0x47, 0x43, 0x4f, 0x50, 0x59, 0x0a, 0xff, 0x0d, 0x0a, 0x00]);
const HEADER = SIGNATURE.length + 8;

/**
 * Splits a binary COPY stream of one-column rows into the rows' values, across chunks of any
 * size: header, then per row a field count (int16, 1), a length (int32, −1 for NULL) and the
 * bytes; a field count of −1 ends it.
 */
export class CopyColumnReader {
  private pending: Buffer | null = null;
  private header = false;
  /** The end marker was read. */
  complete = false;

  constructor(private readonly onRow: (bytes: Buffer, start: number, end: number) => void) {}

  push(chunk: Buffer): void {
    if (this.complete) throw new Error('binary COPY: data after the end marker');
    const buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = null;
    let at = 0;
    if (!this.header) {
      if (buf.length < HEADER) return this.keep(buf, 0);
      if (!buf.subarray(0, SIGNATURE.length).equals(SIGNATURE)) {
        throw new Error('binary COPY: no signature');
      }
      const extension = buf.readUInt32BE(SIGNATURE.length + 4);
      if (buf.length < HEADER + extension) return this.keep(buf, 0);
      at = HEADER + extension;
      this.header = true;
    }
    while (at + 2 <= buf.length) {
      const fields = buf.readInt16BE(at);
      if (fields === -1) {
        this.complete = true;
        if (at + 2 !== buf.length) throw new Error('binary COPY: data after the end marker');
        return;
      }
      if (fields !== 1) throw new Error(`binary COPY: ${fields} columns, one expected`);
      if (at + 6 > buf.length) break;
      const length = buf.readInt32BE(at + 2);
      if (length === -1) {
        at += 6;
        continue;
      }
      if (at + 6 + length > buf.length) break;
      this.onRow(buf, at + 6, at + 6 + length);
      at += 6 + length;
    }
    this.keep(buf, at);
  }

  /** What is left of a chunk after its last whole row, copied (the chunk's memory is reused). */
  private keep(buf: Buffer, at: number): void {
    if (at < buf.length) this.pending = Buffer.from(buf.subarray(at));
  }
}

interface ProtocolConnection {
  stream: Socket;
  query(text: string): void;
  sendCopyFail(message: string): void;
}

/**
 * Runs `COPY (sql) TO STDOUT (FORMAT binary)` on a connection of `pool` (taken here, given back
 * at the end, closed on cancel) and hands each row's value to `rows`, in `sql`'s order as an
 * index gives it ({@link INDEX_ORDER}).
 */
export async function copyColumn(pool: pg.Pool, sql: string, rows: CopyRows): Promise<CopyControl> {
  // Listening from the hand-over (db.ts, checkout): a dropped connection's 'error' must not take
  // the process down. The COPY's own failure comes through its callbacks.
  const ignore = () => undefined;
  const client = await checkout(pool, ignore);
  const connection = (client as unknown as { connection: ProtocolConnection }).connection;
  let done = false;
  let failure: Error | null = null;
  const reader = new CopyColumnReader((bytes, start, end) => rows.row(bytes, start, end));
  const finish = (error: Error | null, broken: boolean) => {
    if (done) return;
    done = true;
    connection.stream.resume();
    // A client given back whole leaves without this listener (the pool listens to its idle
    // clients); a broken one keeps it until it is destroyed.
    if (!broken) client.off('error', ignore);
    client.release(broken ? (error ?? true) : undefined);
    rows.end(error);
  };
  const copy = {
    submit(con: ProtocolConnection) {
      con.query(`${INDEX_ORDER}; COPY (${sql}) TO STDOUT (FORMAT binary)`);
    },
    handleCopyData(message: { chunk: Buffer }) {
      if (done || failure) return;
      try {
        reader.push(message.chunk);
      } catch (error) {
        failure = error instanceof Error ? error : new Error(String(error));
      }
    },
    handleReadyForQuery() {
      if (!failure && !reader.complete) failure = new Error('binary COPY: ended without its end');
      finish(failure, failure !== null);
    },
    handleError(error: Error) {
      // A database error is followed by ReadyForQuery (the connection stays usable); a dropped
      // connection is not.
      finish(error, !(client as unknown as { _queryable: boolean })._queryable);
    },
    handleCommandComplete() {},
    handleRowDescription() {},
    handleDataRow() {},
    handleEmptyQuery() {},
    handlePortalSuspended() {},
    handleCopyInResponse(con: ProtocolConnection) {
      con.sendCopyFail('not a COPY FROM');
    },
  };
  client.query(copy as unknown as pg.Submittable);
  return {
    pause: () => {
      if (!done) connection.stream.pause();
    },
    resume: () => {
      if (!done) connection.stream.resume();
    },
    cancel: () => {
      if (done) return;
      done = true;
      // Released as broken (the pool ends the client), then the socket closed at once: the
      // backend's next write fails and it stops, rather than making every row nobody reads.
      client.release(new Error('COPY cancelled'));
      connection.stream.destroy();
    },
  };
}
