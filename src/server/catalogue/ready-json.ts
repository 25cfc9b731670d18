/**
 * Catalogue reads answered as ready JSON text with an ETag (issue 21).
 *
 * The ETag is derived from the corporate's catalogue revision (catalogue/figures.ts, one row)
 * and from everything else the body depends on (the route and its query, the corporate, the
 * caller's role, the language): `If-None-Match` with it answers 304 without building anything.
 * A 200 sends the body's text as it was serialised once for that revision and visibility: each
 * process keeps the texts of the latest revisions (bounded by bytes, least recently used first
 * out), so a read after a change builds the body once and every read after it sends the same
 * string, never parsing or re-serialising documents. A client that takes brotli or gzip gets the
 * bytes compressed once per body, not per answer.
 */
import { hash as digestOf } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, gzip } from 'node:zlib';
import type { Context } from 'hono';
import type { Queryable } from '../store/db';
import { heldCatalogueRevisions, revisionReader } from '../auth/revisions';
import { catalogueRevision } from './figures';
import type { Ctx, Env } from '../http/context';
import { securityHeaderRecord } from '../http/security';
import {
  BROTLI_OPTIONS,
  COMPRESS_THRESHOLD,
  chooseEncoding,
  type Encoding,
} from '../http/compression';

/** Bytes (UTF-8 and compressed) of ready bodies kept per database (x100 clusters: 10 M). */
export const READY_JSON_BUDGET = 32 * 1024 * 1024;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * A body's JSON as UTF-8 bytes, encoded once: an answer writes them as they are, where a string
 * would be measured and encoded to UTF-8 again on every answer (in `writev`, for a 7 KB list with
 * accents about as long as the rest of the answer). Its compressed bytes once a client asked.
 */
interface ReadyBody {
  bytes: Uint8Array<ArrayBuffer>;
  encoded: Partial<Record<Encoding, Promise<Uint8Array<ArrayBuffer>>>>;
  /** What it counts against the budget: its bytes and the bytes compressed so far. */
  size: number;
}

const utf8 = new TextEncoder();

class ReadyBodies {
  private readonly bodies = new Map<string, ReadyBody>();
  private bytes = 0;
  constructor(private readonly budget: number) {}

  get(key: string): ReadyBody | undefined {
    const body = this.bodies.get(key);
    if (body === undefined) return undefined;
    // Most recently used last.
    this.bodies.delete(key);
    this.bodies.set(key, body);
    return body;
  }

  set(key: string, text: string): ReadyBody {
    const bytes = utf8.encode(text);
    const body: ReadyBody = { bytes, encoded: {}, size: bytes.byteLength };
    if (body.size > this.budget) return body;
    const old = this.bodies.get(key);
    if (old !== undefined) {
      this.bytes -= old.size;
      this.bodies.delete(key);
    }
    this.bodies.set(key, body);
    this.bytes += body.size;
    this.evict();
    return body;
  }

  /**
   * The body compressed with `encoding`, compressed once per body (not per answer: brotli of a
   * 7 KB list costs more CPU than the rest of the answer); concurrent first askers share it.
   */
  encoded(body: ReadyBody, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
    let bytes = body.encoded[encoding];
    if (!bytes) {
      const compressed =
        encoding === 'br' ? brotli(body.bytes, BROTLI_OPTIONS) : gzipped(body.bytes);
      // A copy of its own (the web body type wants a plain ArrayBuffer behind it).
      bytes = compressed.then((b) => new Uint8Array(b));
      body.encoded[encoding] = bytes;
      void bytes.then(
        (b) => this.grow(body, b.byteLength),
        () => {},
      );
    }
    return bytes;
  }

  private grow(body: ReadyBody, by: number): void {
    body.size += by;
    // Counted only while the body is kept (it may have gone out meanwhile).
    for (const kept of this.bodies.values()) {
      if (kept !== body) continue;
      this.bytes += by;
      this.evict();
      return;
    }
  }

  private evict(): void {
    for (const [k, v] of this.bodies) {
      if (this.bytes <= this.budget) break;
      this.bodies.delete(k);
      this.bytes -= v.size;
    }
  }
}

// One store of texts per database: two apps in one process (tests) never share a body.
const perDb = new WeakMap<object, ReadyBodies>();
function bodiesOf(db: Queryable): ReadyBodies {
  let bodies = perDb.get(db);
  if (!bodies) {
    bodies = new ReadyBodies(READY_JSON_BUDGET);
    perDb.set(db, bodies);
  }
  return bodies;
}

/** Hashes of the parts' JSON texts already computed (a read repeats the same few variants). */
const hashes = new Map<string, string>();
const HASHES_KEPT = 10_000;

function hash(parts: readonly unknown[]): string {
  const text = JSON.stringify(parts);
  let digest = hashes.get(text);
  if (digest === undefined) {
    digest = digestOf('sha256', text, 'base64url').slice(0, 22);
    if (hashes.size >= HASHES_KEPT) hashes.clear();
    hashes.set(text, digest);
  }
  return digest;
}

/** Does `If-None-Match` name this ETag (weak comparison, `*` included)? */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = bare(etag);
  return header.split(',').some((tag) => tag.trim() === '*' || bare(tag) === wanted);
}

export interface ReadyRead {
  /** The corporate's catalogue revision (`catalogueRevision`). */
  revision: string;
  /** Everything besides the revision the body depends on: differs ⇒ a different ETag. */
  variant: readonly unknown[];
  /**
   * What the body's text is kept under, when callers whose ETags differ get the same bytes (the
   * roles that see the same prices); defaults to `variant`.
   */
  shared?: readonly unknown[];
  /** `private, no-cache` for signed-in reads (revalidate every time). */
  cacheControl: string;
  /** Builds the body on a miss; its JSON text is kept for the revision. */
  build: () => Promise<unknown>;
}

/**
 * The corporate's catalogue revision as read after the request arrived: from the revisions read
 * before its handler when they carry it, else (PostgreSQL) from a read shared with the requests
 * arriving meanwhile (auth/revisions.ts). PGlite's process is the store's only writer: it holds
 * the revisions in memory until one of its own writes may have moved them (no query on a hit).
 */
export async function catalogueRevisionFor(c: Ctx, corporateId: string): Promise<string> {
  const known = c.get('revisions')?.catalogue.get(corporateId);
  if (known !== undefined) return known;
  const db = c.get('deps').db;
  if (db.kind === 'postgres') return revisionReader(db).catalogue(corporateId);
  const held = heldCatalogueRevisions(db);
  return held ? held.catalogue(corporateId) : catalogueRevision(db, corporateId);
}

/** The ETag a ready read answers with (exported for tests and benches). */
export function readyEtag(revision: string, variant: readonly unknown[]): string {
  return etagOf(revision, hash(variant));
}

const JSON_TYPE = 'application/json; charset=UTF-8';

/**
 * A Response with its headers as a plain record. `c.body` would copy any record of two or more
 * headers into a web `Headers` object; the node adapter writes a plain record as it is.
 */
const answer = (
  body: Uint8Array<ArrayBuffer> | null,
  status: 200 | 304,
  headers: Record<string, string>,
): Response => new Response(body, { status, headers });

const etagOf = (revision: string, variantHash: string) => `W/"${revision}-${variantHash}"`;

/** Answers a catalogue read: 304 when the caller holds this ETag, else the ready JSON text. */
export async function respondReady(
  c: Context<Env>,
  db: Queryable,
  read: ReadyRead,
): Promise<Response> {
  const variant = hash(read.variant);
  const etag = etagOf(read.revision, variant);
  // Every header the middlewares would add is here, as one plain record the node adapter writes
  // as it is (http/context.ts `headersComplete`).
  const headers: Record<string, string> = Object.assign({}, securityHeaderRecord(c));
  headers['ETag'] = etag;
  headers['Cache-Control'] = read.cacheControl;
  c.set('headersComplete', true);
  if (matchesEtag(c.req.header('if-none-match'), etag)) return answer(null, 304, headers);
  const bodies = bodiesOf(db);
  const key = `${read.revision}|${read.shared ? hash(read.shared) : variant}`;
  const body = bodies.get(key) ?? bodies.set(key, JSON.stringify(await read.build()));
  const compressible = body.bytes.byteLength >= COMPRESS_THRESHOLD;
  const encoding = compressible ? chooseEncoding(c.req.header('accept-encoding')) : null;
  // Compressed here, once per body (the compression middleware leaves these answers alone); a
  // body that could be compressed varies with Accept-Encoding whether or not this one was.
  headers['Content-Type'] = JSON_TYPE;
  if (compressible) headers['Vary'] = 'Accept-Encoding';
  if (!encoding) return answer(body.bytes, 200, headers);
  headers['Content-Encoding'] = encoding;
  return answer(await bodies.encoded(body, encoding), 200, headers);
}
