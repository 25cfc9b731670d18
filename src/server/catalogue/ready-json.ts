/**
 * Catalogue reads answered as ready JSON text with an ETag (issue 21).
 *
 * The ETag is derived from the corporate's catalogue revision (catalogue/figures.ts, one row)
 * and from everything else the body depends on (the route and its query, the corporate, the
 * caller's role, the language): `If-None-Match` with it answers 304 without building anything.
 * A 200 sends the body's text as it was serialised once for that revision and visibility: each
 * process keeps the texts of the latest revisions (bounded by bytes, least recently used first
 * out), so a read after a change builds the body once and every read after it sends the same
 * string, never parsing or re-serialising documents.
 */
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { Queryable } from '../store/db';

/** Characters of ready bodies kept per database (a development's x100 clusters: 10 M). */
export const READY_JSON_BUDGET = 32 * 1024 * 1024;

class ReadyBodies {
  private readonly texts = new Map<string, string>();
  private bytes = 0;
  constructor(private readonly budget: number) {}

  get(key: string): string | undefined {
    const text = this.texts.get(key);
    if (text === undefined) return undefined;
    // Most recently used last.
    this.texts.delete(key);
    this.texts.set(key, text);
    return text;
  }

  set(key: string, text: string): void {
    if (text.length > this.budget) return;
    const old = this.texts.get(key);
    if (old !== undefined) {
      this.bytes -= old.length;
      this.texts.delete(key);
    }
    this.texts.set(key, text);
    this.bytes += text.length;
    for (const [k, v] of this.texts) {
      if (this.bytes <= this.budget) break;
      this.texts.delete(k);
      this.bytes -= v.length;
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

const hash = (parts: readonly unknown[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);

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

/** The ETag a ready read answers with (exported for tests and benches). */
export function readyEtag(revision: string, variant: readonly unknown[]): string {
  return `W/"${revision}-${hash(variant)}"`;
}

/** Answers a catalogue read: 304 when the caller holds this ETag, else the ready JSON text. */
export async function respondReady(c: Context, db: Queryable, read: ReadyRead): Promise<Response> {
  const etag = readyEtag(read.revision, read.variant);
  const headers = { ETag: etag, 'Cache-Control': read.cacheControl };
  if (matchesEtag(c.req.header('if-none-match'), etag)) return c.body(null, 304, headers);
  const bodies = bodiesOf(db);
  const key = `${read.revision}|${hash(read.shared ?? read.variant)}`;
  let text = bodies.get(key);
  if (text === undefined) {
    text = JSON.stringify(await read.build());
    bodies.set(key, text);
  }
  return c.body(text, 200, { ...headers, 'Content-Type': 'application/json' });
}
