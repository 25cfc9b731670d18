import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit as honoBodyLimit } from 'hono/body-limit';
import { ApiError, errorResponse, isUnstorableText, unstorableText } from './errors';
import type { Env } from './context';
import { isHttps } from './proxy';
import { authProviderOf, firebaseCspSources, type AuthProviderOptions } from '../auth/firebase';

const MAX_BODY_BYTES = 1024 * 1024;

/** The media upload route (catalogue/uploads.ts): the one body the JSON cap does not cover. */
export const UPLOAD_PATH = /^\/api\/corporativos\/[^/]+\/desarrollos\/[^/]+\/medios$/;

/** The policy of each sign-in provider's settings, [framed by no one, embeddable]. */
const policies = new WeakMap<AuthProviderOptions, readonly [string, string]>();

/** The Content-Security-Policy values, built once per provider settings (not per response). */
function contentSecurityPolicy(provider: AuthProviderOptions): readonly [string, string] {
  const known = policies.get(provider);
  if (known) return known;
  // Firebase's client under the `firebase` provider (issue 22); nothing more under `builtin`.
  const hosted = firebaseCspSources(provider);
  const plus = (list: string[]) => (list.length ? ` ${list.join(' ')}` : '');
  const policy = (embeddable: boolean) =>
    [
      "default-src 'self'",
      `script-src 'self'${plus(hosted.script)}`,
      ...(hosted.frame.length ? [`frame-src 'self'${plus(hosted.frame)}`] : []),
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob: https:",
      `connect-src 'self'${plus(hosted.connect)}`,
      "worker-src 'self' blob:",
      "object-src 'none'",
      "base-uri 'none'",
      embeddable ? 'frame-ancestors *' : "frame-ancestors 'none'",
    ].join('; ');
  const both = [policy(false), policy(true)] as const;
  policies.set(provider, both);
  return both;
}

/** The security header records of each sign-in provider's settings (securityHeaderRecord). */
const records = new WeakMap<AuthProviderOptions, Readonly<Record<string, string>>[]>();

/**
 * The security headers of an answer to this request (ASVS V3/V14): the same for every answer but
 * for the embeddable public pages (`/public/…`, framed by the developers' sites) and HTTPS.
 */
export function securityHeaderRecord(c: Context<Env>): Readonly<Record<string, string>> {
  const embeddable = c.req.path.startsWith('/public/');
  const https = isHttps(c);
  const provider = authProviderOf(c.get('deps'));
  let kinds = records.get(provider);
  if (!kinds) {
    kinds = [];
    records.set(provider, kinds);
  }
  // Four records per provider settings, built once each: [framed by no one, embeddable] × https.
  const kind = (embeddable ? 1 : 0) + (https ? 2 : 0);
  let record = kinds[kind];
  if (!record) {
    const built: Record<string, string> = {
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'Content-Security-Policy': contentSecurityPolicy(provider)[embeddable ? 1 : 0],
    };
    if (!embeddable) built['X-Frame-Options'] = 'DENY';
    if (https) built['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
    record = Object.freeze(built);
    kinds[kind] = record;
  }
  return record;
}

/**
 * Security headers on every response (ASVS V3/V14), and a charset on JSON and text. An answer
 * built with every header already (`headersComplete`: catalogue/ready-json.ts, the hot catalogue
 * reads) is left as it is: reading and writing a web `Headers` object costs more than the rest
 * of such an answer's middlewares.
 */
export const securityHeaders: MiddlewareHandler<Env> = async (c, next) => {
  await next();
  if (c.get('headersComplete')) return;
  const h = c.res.headers;
  const type = h.get('content-type');
  if (type && /^(application\/json|text\/)/.test(type) && !type.includes('charset')) {
    h.set('content-type', `${type}; charset=UTF-8`);
  }
  for (const [name, value] of Object.entries(securityHeaderRecord(c))) h.set(name, value);
};

const jsonBodyLimit: MiddlewareHandler<Env> = honoBodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => errorResponse(c, new ApiError(413, 'BODY_TOO_LARGE', 'body_too_large')),
});

/**
 * Refuses bodies over 1 MiB, whether announced by Content-Length or streamed in chunks. The one
 * exception is the media upload (`POST …/desarrollos/:d/medios`, catalogue/uploads.ts), which
 * streams its body to disk under its own per-kind limits.
 */
export const bodyLimit: MiddlewareHandler<Env> = (c, next) => {
  const method = c.req.method;
  // A GET or HEAD has no body here (the server drops one); asking would build the whole Request.
  if (method === 'GET' || method === 'HEAD') return next();
  return method === 'POST' && UPLOAD_PATH.test(c.req.path) ? next() : jsonBodyLimit(c, next);
};

/** Upload bodies are files; a browser sends them cross-site only after a preflight never granted. */
const UPLOAD_TYPES =
  /^(application\/octet-stream|application\/pdf|image\/(jpeg|png|webp)|video\/(mp4|webm))\b/;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Cross-site request protection for state-changing calls: a browser always sends Origin (or
 * Sec-Fetch-Site) on them, so a request from another site is refused; JSON bodies cannot be sent
 * cross-site without a CORS preflight, which this server never grants. The public endpoints meant
 * for corporate websites are exempt.
 */
export const csrfGuard: MiddlewareHandler<Env> = async (c, next) => {
  if (!UNSAFE.has(c.req.method) || c.req.path.startsWith('/api/public/')) return next();
  const origin = c.req.header('origin');
  const site = c.req.header('sec-fetch-site');
  const host = c.req.header('host');
  const sameOrigin = origin ? safeHost(origin) === host : true;
  const crossSite = site === 'cross-site' || site === 'same-site';
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  const hasBody =
    Number(c.req.header('content-length') ?? '0') > 0 || c.req.header('transfer-encoding');
  const upload = UPLOAD_PATH.test(c.req.path) && UPLOAD_TYPES.test(type);
  const formLike =
    hasBody &&
    !upload &&
    !type.startsWith('application/json') &&
    !type.startsWith('text/csv') &&
    !type.startsWith('multipart/form-data');
  if (!sameOrigin || crossSite || formLike)
    return errorResponse(c, new ApiError(403, 'CSRF', 'csrf'));
  return next();
};

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * Refuses a path or a query (keys and values, as decoded) holding a NUL character or an unpaired
 * surrogate, which no route can store or look up: 400 in the spec's shape before any handler
 * runs. JSON bodies get the same check as they are parsed (`jsonBody`), forms in their reader.
 */
export const inputGuard: MiddlewareHandler<Env> = async (c, next) => {
  if (isUnstorableText(c.req.path)) return errorResponse(c, unstorableText('path'));
  for (const [key, values] of Object.entries(c.req.queries())) {
    if (isUnstorableText(key) || values.some(isUnstorableText))
      return errorResponse(c, unstorableText(`query.${isUnstorableText(key) ? '' : key}`));
  }
  return next();
};
