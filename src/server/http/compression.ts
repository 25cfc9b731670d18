import { Readable, pipeline } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX } from 'hono/utils/compress';

/** The encodings this server writes, best first: brotli when the client takes it, else gzip. */
export type Encoding = 'br' | 'gzip';

/**
 * The encoding for an `Accept-Encoding` header: the one with the highest quality among br and
 * gzip, br on a tie; `identity` only (or nothing the server writes) gives none.
 */
export function chooseEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: Encoding) => q.get(name) ?? q.get('*') ?? 0;
  const br = of('br');
  const gzip = of('gzip');
  if (br > 0 && br >= gzip) return 'br';
  if (gzip > 0) return 'gzip';
  return null;
}

/** Answers under this many bytes go out as they are. */
export const COMPRESS_THRESHOLD = 1024;
const THRESHOLD = COMPRESS_THRESHOLD;

/** Brotli as this server writes it: quality 5, text mode (close to gzip's speed, smaller). */
export const BROTLI_OPTIONS = {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 5,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
};
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;
const VARY_ACCEPT_ENCODING = /(?:^|,)\s*accept-encoding\s*(?:,|$)/i;

/**
 * Compresses JSON, HTML and the other text answers with brotli (preferred) or gzip as the client
 * accepts (issue 19). What is left alone: the live stream (text/event-stream, whose events must
 * not wait in a compressor's buffer; Hono's filter excludes it), images and other binary types,
 * answers under 1 KB, answers already encoded (the static assets pre-compressed at build,
 * served by main.ts with their own Content-Encoding), partial content and HEAD.
 * Brotli runs at quality 5: close to gzip's speed on a 100 KB JSON answer, a fifth smaller.
 */
export function compressResponses(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.get('headersComplete')) return;
    const res = c.res;
    const type = res.headers.get('Content-Type');
    const length = res.headers.get('Content-Length');
    if (
      res.status === 206 ||
      res.status === 204 ||
      res.status === 304 ||
      c.req.method === 'HEAD' ||
      res.headers.has('Content-Encoding') ||
      res.headers.has('Transfer-Encoding') ||
      (length !== null && Number(length) < THRESHOLD) ||
      !type ||
      !COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) ||
      NO_TRANSFORM.test(res.headers.get('Cache-Control') ?? '')
    ) {
      return;
    }
    const vary = res.headers.get('Vary');
    if (vary !== '*' && !(vary && VARY_ACCEPT_ENCODING.test(vary))) {
      res.headers.set('Vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    }
    const encoding = chooseEncoding(c.req.header('Accept-Encoding'));
    if (!encoding) return;
    // Asked last: reading `body` turns the node adapter's light answer (a string) into a web
    // stream, which then costs a stream read per answer (~15 % of a ready JSON read's CPU).
    const body = res.body;
    if (!body) return;
    const compressor = encoding === 'br' ? createBrotliCompress(BROTLI_OPTIONS) : createGzip();
    const source = Readable.fromWeb(body as unknown as NodeReadableStream<Uint8Array>);
    // pipeline() ends the compressed stream with the source's error, and the source with the
    // client's going away.
    const compressed = pipeline(source, compressor, () => {});
    c.res = new Response(Readable.toWeb(compressed), c.res);
    // Hono's setter copies the old answer's headers: the length is the uncompressed one.
    c.res.headers.delete('Content-Length');
    c.res.headers.set('Content-Encoding', encoding);
    const etag = c.res.headers.get('ETag');
    if (etag && !etag.startsWith('W/')) c.res.headers.set('ETag', `W/${etag}`);
  };
}
