/**
 * The fuzz suite (issue 13): every route of the route table, in process (`app.request`), fed
 * what a client should never send: wrong types, huge strings, NUL characters and unpaired
 * surrogates, deep nesting, `__proto__` / `constructor` keys, NaN and huge numbers, malformed
 * JSON, wrong content types, and weird path and query values. Each answer must be:
 * - never a 5xx;
 * - an error (4xx) in the spec's shape `[{ errorCode, message, … }]`, as JSON;
 * - without a stack trace or a source path;
 * - with nothing written (the event log's length) after a 4xx.
 *
 * `VITRINA_FUZZ_RUNS` is the number of cases per backend, spread over the routes (default 2,000;
 * `npm run fuzz` runs 50,000). fast-check prints the seed of a failure; `VITRINA_FUZZ_SEED`
 * replays it.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends, type Backend } from './support/backends';
import { openFixtures, type Fixtures } from './support/route-fixtures';
import { login } from './support/http';
import { routeKey, ROUTES, type Req, type RouteSpec } from './support/route-table';

const TOTAL_RUNS = Number(process.env.VITRINA_FUZZ_RUNS ?? 2000);
const SEED = process.env.VITRINA_FUZZ_SEED ? Number(process.env.VITRINA_FUZZ_SEED) : undefined;
const FUZZED = ROUTES.filter((r) => r.kind !== 'stream');
const RUNS_PER_ROUTE = Math.max(10, Math.ceil(TOTAL_RUNS / FUZZED.length));

// ------------------------------------------------------------------------------ generators

/** A token spliced into the JSON text as is (NaN, 1e400, …): JSON.stringify cannot write it. */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold {@link Raw} tokens. */
function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_k, v: unknown) => {
    if (v instanceof Raw) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? 'null').replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));

const nastyString = fc.oneof(
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00y',
    '\udfff\ud800',
    '😀',
    '\u202eevil',
    '\ufeff',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    '%00',
    '../../etc/passwd',
    '',
    ' ',
    '\n\r\t',
    '\\',
    '{}',
    'null',
    'NaN',
    '-1',
    '1e400',
    '0x10',
  ),
  fc.string({ unit: codeUnit, maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ maxLength: 30 }),
);

const hugeString = fc
  .tuple(fc.constantFrom(1_000, 20_000, 300_000), fc.constantFrom('', '\u0000', '\ud800'))
  .map(([n, tail]) => 'x'.repeat(n) + tail);

const weirdNumber = fc.oneof(
  fc.constantFrom(0, -0, -1, 1e308, -1e308, 2 ** 53 + 1, 0.1, 5e-324, Number.MAX_SAFE_INTEGER),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc
    .constantFrom('NaN', 'Infinity', '-Infinity', '1e400', '-1e400', '1e-400', '00', '-', '1.')
    .map((t) => new Raw(t)),
);

/** Nested arrays or objects `depth` deep. */
const deep = fc
  .tuple(fc.integer({ min: 20, max: 3000 }), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new Raw(
        arrays
          ? '['.repeat(depth) + ']'.repeat(depth)
          : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth),
      ),
  );

const protoKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
);

const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: nastyString },
  { weight: 1, arbitrary: hugeString },
  { weight: 3, arbitrary: weirdNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[]]) },
  { weight: 1, arbitrary: deep },
  {
    weight: 1,
    arbitrary: fc
      .tuple(protoKey, nastyString)
      .map(([k, v]) => new Raw(`{"${k}":${JSON.stringify(v)}}`)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

type BodyMutation =
  | { kind: 'set'; path: number; value: unknown }
  | { kind: 'add'; key: string; value: unknown }
  | { kind: 'drop'; path: number }
  | { kind: 'whole'; value: unknown }
  | { kind: 'text'; how: number; at: number; garbage: string };

const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('set' as const), path: fc.nat(), value: weirdValue }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      key: fc.oneof(protoKey, nastyString),
      value: weirdValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), path: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: weirdValue }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('text' as const),
      how: fc.nat(6),
      at: fc.nat(),
      garbage: fc.string({ unit: codeUnit, maxLength: 8 }),
    }),
  },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'text/csv',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=zz',
  'application/xml',
  'application/octet-stream',
  '',
];

/** Every path to a value inside a body (`a`, `a.b`, `a.0`), up to two levels. */
function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (value === null || typeof value !== 'object') return [];
  const out: (string | number)[][] = [];
  for (const [k, v] of Object.entries(value)) {
    const key = Array.isArray(value) ? Number(k) : k;
    out.push([...prefix, key]);
    if (prefix.length < 2) out.push(...paths(v, [...prefix, key]));
  }
  return out;
}

function setIn(root: unknown, path: (string | number)[], value: unknown, drop = false): unknown {
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (drop) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/** The body text after a mutation of the route's valid sample. */
function mutateBody(sample: unknown, m: BodyMutation): string {
  const all = paths(sample);
  switch (m.kind) {
    case 'set':
      return all.length
        ? toJsonText(setIn(sample, all[m.path % all.length]!, m.value))
        : toJsonText(m.value);
    case 'drop':
      return all.length
        ? toJsonText(setIn(sample, all[m.path % all.length]!, undefined, true))
        : '{}';
    case 'add': {
      const text = toJsonText(sample);
      const extra = `${JSON.stringify(m.key)}:${toJsonText(m.value)}`;
      return text.startsWith('{') && text !== '{}' ? `{${extra},${text.slice(1)}` : `{${extra}}`;
    }
    case 'whole':
      return toJsonText(m.value);
    case 'text': {
      const text = toJsonText(sample);
      const at = m.at % (text.length + 1);
      switch (m.how) {
        case 0:
          return text.slice(0, at);
        case 1:
          return text.slice(0, at) + m.garbage + text.slice(at);
        case 2:
          return text.replace(/}$/, ',}');
        case 3:
          return `\ufeff${text}`;
        case 4:
          return text.replace(/"/g, "'");
        case 5:
          return `${text}${text}`;
        default:
          return m.garbage;
      }
    }
  }
}

/** A value for a path segment or a query value, already percent-encoded (or deliberately not). */
const urlValue = fc.oneof(
  fc.constantFrom(
    '%00',
    'a%00',
    '%ED%A0%80',
    '%C0%80',
    '%FF',
    '%',
    '%zz',
    '%2F',
    '..',
    '%2e%2e',
    '%0A',
    '+',
    '%20',
  ),
  nastyString.map((s) => encodeURIComponent(s.replace(/[\ud800-\udfff]/g, ''))),
  fc.constantFrom(200, 5000).map((n) => 'x'.repeat(n)),
);

type UrlMutation =
  | { kind: 'none' }
  | { kind: 'segment'; which: number; value: string }
  | { kind: 'query'; which: number; value: string }
  | { kind: 'extraQuery'; key: string; value: string }
  | { kind: 'dupQuery'; which: number; value: string }
  | { kind: 'dropQuery'; which: number };

const urlMutation: fc.Arbitrary<UrlMutation> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'none' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('segment' as const),
      which: fc.nat(),
      value: urlValue,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ kind: fc.constant('query' as const), which: fc.nat(), value: urlValue }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('extraQuery' as const),
      key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'a%00', 'limit'), urlValue),
      value: urlValue,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('dupQuery' as const),
      which: fc.nat(),
      value: urlValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropQuery' as const), which: fc.nat() }) },
);

/** The request path after a mutation: a `:param` segment or a query parameter replaced. */
function mutateUrl(route: RouteSpec, path: string, m: UrlMutation): string {
  const [pathname, search = ''] = path.split('?') as [string, string?];
  const segments = pathname.split('/');
  const params = route.path
    .split('/')
    .map((s, i) => (s.startsWith(':') ? i : -1))
    .filter((i) => i >= 0);
  const query = search ? search.split('&') : [];
  const withQuery = (p: string, q: string[]) => (q.length ? `${p}?${q.join('&')}` : p);
  switch (m.kind) {
    case 'none':
      return path;
    case 'segment': {
      if (!params.length) return withQuery(pathname, [...query, `x=${m.value}`]);
      segments[params[m.which % params.length]!] = m.value;
      return withQuery(segments.join('/'), query);
    }
    case 'query': {
      if (!query.length) return withQuery(pathname, [`q=${m.value}`]);
      const i = m.which % query.length;
      query[i] = `${query[i]!.split('=')[0]}=${m.value}`;
      return withQuery(pathname, query);
    }
    case 'extraQuery':
      return withQuery(pathname, [...query, `${m.key}=${m.value}`]);
    case 'dupQuery': {
      if (!query.length) return path;
      const key = query[m.which % query.length]!.split('=')[0];
      return withQuery(pathname, [...query, `${key}=${m.value}`]);
    }
    case 'dropQuery': {
      if (!query.length) return path;
      query.splice(m.which % query.length, 1);
      return withQuery(pathname, query);
    }
  }
}

const CALLERS = ['admin@vitrina.demo', 'asesor@vitrina.demo', 'broker@vitrina.demo', null] as const;

const fuzzCase = fc.record({
  caller: fc.oneof(
    { weight: 6, arbitrary: fc.constant(CALLERS[0]) },
    { weight: 1, arbitrary: fc.constantFrom(...CALLERS.slice(1)) },
  ),
  url: urlMutation,
  body: fc.option(bodyMutation, { nil: undefined, freq: 5 }),
  type: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 3 }),
});

// ------------------------------------------------------------------------------ the suite

const STACK = /\n\s+at |node_modules|\/src\/|\.tsx?:\d+/;

describe('fuzz generators', () => {
  it('write NaN, huge numbers and deep nesting into the JSON text as raw tokens', () => {
    expect(toJsonText({ a: new Raw('NaN'), b: [new Raw('1e400')] })).toBe('{"a":NaN,"b":[1e400]}');
    expect(mutateBody({ a: 1 }, { kind: 'add', key: '__proto__', value: 1 })).toBe(
      '{"__proto__":1,"a":1}',
    );
  });
});

describeBackends('fuzz', (backend: Backend) => {
  let fx: Fixtures;
  const samples = new Map<string, Req>();
  /** Sessions of their own for the routes that end the session they are sent with (logout). */
  const spareCookies = new Map<string, string>();
  let cases = 0;
  let started = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    fx = await openFixtures(backend);
    // The valid request of every route, for the administrator on their own corporate.
    for (const route of FUZZED) {
      const admin = fx.account('admin@vitrina.demo');
      const t = fx.target(admin, 'H', 'H', 'asesor@vitrina.demo', admin.email);
      samples.set(routeKey(route), await route.fill(t));
    }
    for (const email of CALLERS) if (email) spareCookies.set(email, await login(fx.app, email));
    started = Date.now();
  });
  afterAll(async () => {
    const spread = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
    console.info(
      `[fuzz ${backend.name}] ${cases} cases in ${((Date.now() - started) / 1000).toFixed(1)} s: ${spread.join(' ')}`,
    );
    await fx?.rt.dispose();
  });

  for (const route of FUZZED) {
    const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
    it(
      `${routeKey(route)}: ${RUNS_PER_ROUTE} cases, never a 5xx, errors in the spec's shape, nothing written`,
      async () => {
        const sample = samples.get(routeKey(route))!;
        await fc.assert(
          fc.asyncProperty(fuzzCase, async (c) => {
            const path = mutateUrl(route, sample.path, c.url);
            const headers: Record<string, string> = {};
            if (c.caller)
              headers.cookie = route.freshSession
                ? spareCookies.get(c.caller)!
                : fx.account(c.caller).cookie;
            let body: string | undefined;
            if (hasBody) {
              const raw = typeof sample.body === 'string';
              body = c.body
                ? mutateBody(raw ? {} : sample.body, c.body)
                : raw
                  ? (sample.body as string)
                  : toJsonText(sample.body ?? {});
              const type = c.type ?? (raw ? (sample.type ?? 'text/csv') : 'application/json');
              if (type) headers['content-type'] = type;
            }
            if (route.path === '/api/public/registro') {
              // The capture's per-address limit would answer 429 before the body is read.
              await fx.db.query('DELETE FROM lead_capture_attempts').catch(() => undefined);
            }
            const before = await fx.eventCount();
            const res = await fx.app.request(path, { method: route.method, headers, body });
            const text = await res.text();
            const written = (await fx.eventCount()) - before;
            cases += 1;
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
            const what = `${c.caller ?? 'signed out'} ${route.method} ${path.slice(0, 300)} [${headers['content-type'] ?? ''}] ${(body ?? '').slice(0, 300)}`;
            expect(res.status, `${what} → ${text.slice(0, 300)}`).toBeLessThan(500);
            if (res.status >= 400) {
              expect(STACK.test(text), `${what}: a stack trace or a source path in ${text}`).toBe(
                false,
              );
              expect(res.headers.get('content-type') ?? '', what).toMatch(/^application\/json/);
              const errors = JSON.parse(text) as { errorCode?: unknown; message?: unknown }[];
              expect(Array.isArray(errors) && errors.length > 0, `${what}: ${text}`).toBe(true);
              for (const e of errors) {
                expect(typeof e.errorCode, `${what}: ${text}`).toBe('string');
                expect(typeof e.message, `${what}: ${text}`).toBe('string');
              }
              expect(written, `${what}: ${res.status} yet ${written} event(s) written`).toBe(0);
            }
          }),
          { numRuns: RUNS_PER_ROUTE, seed: SEED, endOnFailure: true },
        );
      },
      60_000 + RUNS_PER_ROUTE * 250,
    );
  }
});
