import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError, type ZodType, type z } from 'zod';
import { isConnectionLost } from '../store/db';
import { ConcurrencyError } from '../store/event-store';
import { langFrom, message, type Lang, type MessageKey } from './messages';

/** An error a client may see: the spec's shape is `[{ errorCode, message }]`. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly errorCode: string,
    readonly key: MessageKey | null,
    readonly params: Record<string, string | number> = {},
    readonly extra: Record<string, unknown> = {},
    /** A literal message, the same in every language (a text that has no translation). */
    readonly literal?: string,
  ) {
    super(literal ?? key ?? errorCode);
    this.name = 'ApiError';
  }
  render(lang: Lang) {
    return {
      errorCode: this.errorCode,
      message: this.literal ?? (this.key ? message(this.key, lang, this.params) : this.errorCode),
      ...this.extra,
    };
  }
}

export const badRequest = (details?: unknown) =>
  new ApiError(400, 'VALIDATION', 'validation', {}, details ? { details } : {});
export const notFound = (key: MessageKey = 'not_found') => new ApiError(404, 'NOT_FOUND', key);
export const forbidden = (key: MessageKey = 'forbidden') => new ApiError(403, 'FORBIDDEN', key);
export const unauthenticated = () => new ApiError(401, 'UNAUTHENTICATED', 'unauthenticated');

export function lang(c: Context): Lang {
  return langFrom(c.req.header('accept-language'));
}

export function errorResponse(c: Context, error: ApiError) {
  return c.json([error.render(lang(c))], error.status);
}

/** Maps anything thrown in a handler to the spec's error shape; nothing else reaches the client. */
export function handleError(error: unknown, c: Context) {
  if (error instanceof ApiError) return errorResponse(c, error);
  if (error instanceof ZodError) return errorResponse(c, validationError(error));
  if (error instanceof ConcurrencyError)
    return errorResponse(c, new ApiError(409, 'CONFLICT', 'conflict'));
  // The database connection went away under the request (a restart, a failover): a moment's
  // unavailability, not the caller's fault nor a defect; a write that lost its COMMIT's answer
  // may have been saved, which the client finds by reading again.
  if (isConnectionLost(error)) {
    console.error(
      '[vitrina] database connection lost',
      error instanceof Error ? error.message : error,
    );
    c.header('Retry-After', '1');
    return errorResponse(c, new ApiError(503, 'SERVICE_UNAVAILABLE', 'database_unavailable'));
  }
  if (
    error instanceof Error &&
    'status' in error &&
    (error as { status: unknown }).status === 413
  ) {
    return errorResponse(c, new ApiError(413, 'BODY_TOO_LARGE', 'body_too_large'));
  }
  console.error('[vitrina] unhandled error', error instanceof Error ? error.message : error);
  return errorResponse(c, new ApiError(500, 'INTERNAL', 'generic'));
}

function validationError(error: ZodError) {
  return badRequest(
    error.issues.slice(0, 20).map((i) => ({ path: i.path.join('.'), code: i.code })),
  );
}

/** Parses a query or body with a strict zod schema; a failure is a 400 in the spec's shape. */
export function parse<S extends ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error);
  return result.data;
}

/**
 * A NUL character or an unpaired UTF-16 surrogate: text PostgreSQL cannot store (in `text` or
 * `jsonb`), so it is refused at the edge as a 400 instead of failing in the database.
 */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isUnstorableText(text: string): boolean {
  return UNSTORABLE.test(text);
}

/** The 400 for text that cannot be stored; `path` names where it was (a field, `query.x`, …). */
export const unstorableText = (path: string) =>
  badRequest([{ path: path.slice(0, 120), code: 'invalid_text' }]);

const MAX_DEPTH = 32;

function depthOf(value: unknown, depth = 0): number {
  if (depth > MAX_DEPTH) return depth;
  if (value === null || typeof value !== 'object') return depth;
  let max = depth;
  for (const v of Object.values(value)) max = Math.max(max, depthOf(v, depth + 1));
  return max;
}

/**
 * Reads a JSON body: invalid JSON, a `__proto__` key, excessive nesting, or a string (value or
 * key) holding a NUL or an unpaired surrogate is a 400.
 */
export async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text, (key, v: unknown) => {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') {
        throw new ApiError(
          400,
          'VALIDATION',
          'validation',
          {},
          { details: [{ path: key, code: 'forbidden_key' }] },
        );
      }
      if (isUnstorableText(key) || (typeof v === 'string' && isUnstorableText(v))) {
        throw unstorableText(isUnstorableText(key) ? '' : key);
      }
      return v;
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw new ApiError(400, 'INVALID_JSON', 'invalid_json');
  }
  if (depthOf(value) > MAX_DEPTH) throw badRequest([{ path: '', code: 'too_deep' }]);
  return value;
}
