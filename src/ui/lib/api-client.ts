/**
 * The one way the client talks to the server: `api(path, options)` — fetch with same-origin
 * credentials, JSON in and out, and the current interface language as `Accept-Language` (the
 * server translates its messages with it). A response that is not ok is read as JSON and thrown
 * as an {@link ApiRequestError} carrying the first item's `errorCode` and `message` (spec §8:
 * "Response not ok: read the JSON; throw the first item's errorCode if present, else the body").
 * A 2xx answer whose first data item has `status: 'error'` is thrown as well.
 *
 * Kept apart from the query layer (api.ts: TanStack Query, toasts) so the light sign-in page
 * (src/ui/entries/sign-in.tsx) calls the server without loading any of it.
 */

import i18n from 'i18next';

/** An error answer of the API, in the spec's shape `[{ errorCode, message }]`. */
export class ApiRequestError extends Error {
  constructor(
    /** HTTP status (0 when the network failed). */
    readonly status: number,
    /** The first item's errorCode, or null when the body had none. */
    readonly errorCode: string | null,
    message: string,
    /** The parsed body, for callers that need more than the first item (e.g. `retryAfter`). */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export interface ApiOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Appended as a query string; null and undefined values are left out. */
  query?: QueryParams;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Sees the successful response before its body is returned (headers such as `X-Next-Cursor`). */
  onResponse?: (res: Response) => void;
}

/** `/api/<name>?<params>` for a call name (`wsObtenerDesarrollos`) or a path (`/api/users/1`). */
export function apiUrl(path: string, query?: QueryParams): string {
  const base = path.startsWith('/') ? path : `/api/${path}`;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== null && value !== undefined) search.set(key, String(value));
  }
  const qs = search.toString();
  return qs ? `${base}?${qs}` : base;
}

type UnauthorizedListener = (error: ApiRequestError) => void;
const unauthorizedListeners = new Set<UnauthorizedListener>();

/** Called on every 401 answer (other than the sign-in itself); returns the unsubscribe. */
export function onUnauthorized(listener: UnauthorizedListener): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromBody(status: number, body: unknown): ApiRequestError {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  if (first && typeof first === 'object') {
    const item = first as { errorCode?: unknown; message?: unknown; msg?: unknown };
    const code = typeof item.errorCode === 'string' ? item.errorCode : null;
    const message =
      typeof item.message === 'string'
        ? item.message
        : typeof item.msg === 'string'
          ? item.msg
          : '';
    return new ApiRequestError(status, code, message, body);
  }
  return new ApiRequestError(status, null, typeof body === 'string' ? body : '', body);
}

/** Calls the API; resolves with the parsed JSON, rejects with an {@link ApiRequestError}. */
export async function api<T>(path: string, options: ApiOptions = {}): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': i18n.language || 'es',
    ...options.headers,
  };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(apiUrl(path, options.query), {
      method: options.method ?? 'GET',
      credentials: 'same-origin',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'NETWORK', '', null);
  }
  let body: unknown;
  try {
    body = await readBody(res);
  } catch (error) {
    // The answer was cut off while its body was read (the connection dropped, or the page is
    // unloading): as unanswered as a request that never got headers.
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiRequestError(0, 'NETWORK', '', null);
  }
  if (!res.ok) {
    const error = errorFromBody(res.status, body);
    if (res.status === 401 && !path.includes('auth/login'))
      unauthorizedListeners.forEach((l) => l(error));
    throw error;
  }
  if (
    Array.isArray(body) &&
    body[0] &&
    typeof body[0] === 'object' &&
    (body[0] as { status?: unknown }).status === 'error'
  ) {
    throw errorFromBody(res.status, body);
  }
  options.onResponse?.(res);
  return body as T;
}
