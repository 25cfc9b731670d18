/**
 * The tenant and role matrix (issue 13): every route of the route table × every demo account ×
 * signed out, aimed at ids of the caller's own corporate, of the other corporate, and at another
 * adviser's lead, quotation and hold. For each request:
 * - never a 5xx;
 * - no 2xx where the table's rule says the caller may not reach what the request names (a read
 *   that answers an empty list for another corporate's ids passes only when it carries none of
 *   that corporate's ids);
 * - no 2xx body carrying an id the caller must not see (the other corporate's developments,
 *   units, documents, leads, quotations and people; another adviser's leads and quotations for a
 *   'Propios' role; anything of a lead, a quotation or a person on a public route);
 * - no event written after an error answer, nor by a caller out of reach;
 * - a read the caller may make answers 2xx, and each write succeeds for someone (so every
 *   refusal above is of a request that would otherwise have worked).
 * The table is checked first against what the app serves: a route missing from it fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mayOperate, seesAllLeads } from '../../src/core/permissions';
import { createApp } from '../../src/server/app';
import { describeBackends, type Backend } from './support/backends';
import { openFixtures, OWNERS, type Fixtures } from './support/route-fixtures';
import {
  mayReach,
  routeKey,
  ROUTES,
  type Person,
  type Req,
  type RouteSpec,
  type Target,
} from './support/route-table';
import { login } from './support/http';

/** What Hono lists that is not a route: middleware (`ALL`) of the API and the 404 catch-all. */
const servedRoutes = (app: ReturnType<typeof createApp>) =>
  [...new Set(app.routes.filter((r) => r.method !== 'ALL').map((r) => routeKey(r)))].sort();

describe('route table', () => {
  it('declares every route the app serves, once, and nothing it does not serve', () => {
    // Routes are listed at construction; no store is needed to read them.
    const app = createApp({} as Parameters<typeof createApp>[0]);
    const declared = ROUTES.map(routeKey);
    expect(new Set(declared).size, 'a route declared twice').toBe(declared.length);
    const served = servedRoutes(app);
    expect(
      served.filter((k) => !declared.includes(k)),
      'served but not in tests/integration/support/route-table.ts',
    ).toEqual([]);
    expect(
      declared.filter((k) => !served.includes(k)),
      'declared but not served',
    ).toEqual([]);
  });
});

const ANY = 'asesor@vitrina.demo';

describeBackends('tenant and role matrix', (backend: Backend) => {
  let fx: Fixtures;
  let started = 0;
  let requests = 0;

  beforeAll(async () => {
    fx = await openFixtures(backend);
    started = Date.now();
  });
  afterAll(async () => {
    console.info(
      `[matrix ${backend.name}] ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    await fx?.rt.dispose();
  });

  /** The callers: every demo account, then signed out. */
  const callers = (): (Person | null)[] => [
    ...[...fx.accounts.values()].map(({ id, email }) => ({ id, email })),
    null,
  ];

  /** The targets a route is aimed at for one caller, from the slots it declares. */
  function targetsFor(route: RouteSpec, caller: Person | null): Target[] {
    const s = new Set(route.slots);
    const pairs: ['H' | 'P', 'H' | 'P'][] =
      s.has('corp') && s.has('resource')
        ? [
            ['H', 'H'],
            ['H', 'P'],
            ['P', 'P'],
            ['P', 'H'],
          ]
        : s.has('corp') || s.has('resource') || s.has('owner')
          ? [
              ['H', 'H'],
              ['P', 'P'],
            ]
          : [['H', 'H']];
    const users = s.has('user')
      ? [...new Set([caller?.email ?? ANY, ANY, 'asesor.pacifico@vitrina.demo'])]
      : [caller?.email ?? ANY];
    const out: Target[] = [];
    for (const user of users) {
      for (const [corp, res] of pairs) {
        // Another corporate's things: one owner is enough (the path's corporate refuses them all).
        const owners = s.has('owner') && corp === res ? OWNERS[res] : [OWNERS[res][0]];
        for (const owner of owners) out.push(fx.target(caller, corp, res, owner, user));
      }
    }
    return out;
  }

  /** Ids `caller` must not find in a 2xx of `route`. */
  function forbiddenIds(route: RouteSpec, caller: Person | null): Set<string> {
    const out = new Set<string>();
    const people = [...fx.accounts.values()];
    if (route.access === 'public' || !caller) {
      for (const id of fx.leadOwners.keys()) out.add(id);
      for (const id of fx.quotationOwners.keys()) out.add(id);
      // A calendar feed is its owner's (the token is the credential): their appointments show.
      if (route.path !== '/api/calendario/:file')
        for (const id of fx.citaOwners.keys()) out.add(id);
      // The buyer's quotation names its adviser's contact (issue 19: a document the buyer can
      // file carries the adviser's phone and e-mail): the quotations' advisers' e-mails show there.
      const contacts =
        route.path === '/api/public/cotizaciones/:token'
          ? new Set([...fx.quotationOwners.values()].map((o) => o.owner))
          : new Set<string>();
      for (const p of people) {
        out.add(p.id);
        if (!contacts.has(p.id)) out.add(p.email);
      }
      return out;
    }
    const me = fx.account(caller.email).user;
    for (const t of Object.values(fx.tenants)) {
      const role = fx.roleOf(caller, t.id);
      if (!role) {
        if (!me.corporativosRegistro.includes(t.id)) out.add(t.id);
        for (const id of [
          t.devId,
          t.clusterId,
          t.unitId,
          t.holdUnitId,
          t.quoteUnitId,
          t.documentId,
          t.documentMediaId,
        ])
          out.add(id);
      }
      const seesAll = route.scopeOf ?? seesAllLeads;
      const hides = (owner: string) => !role || (!seesAll(role) && owner !== caller.id);
      for (const owners of [fx.leadOwners, fx.quotationOwners, fx.citaOwners])
        for (const [id, o] of owners) if (o.tenant === t.key && hides(o.owner)) out.add(id);
    }
    for (const p of people) {
      const theirs = [...p.user.corporativos, ...p.user.corporativosRegistro];
      if (!me.corporativos.some((c) => theirs.includes(c))) {
        out.add(p.id);
        out.add(p.email);
      }
    }
    return out;
  }

  async function send(route: RouteSpec, req: Req, cookie: string | undefined) {
    const headers: Record<string, string> = cookie ? { cookie } : {};
    let body: string | undefined;
    if (req.body !== undefined) {
      const raw = typeof req.body === 'string';
      headers['content-type'] = raw ? (req.type ?? 'text/csv') : 'application/json';
      body = raw ? (req.body as string) : JSON.stringify(req.body);
    }
    const res = await fx.app.request(req.path, { method: route.method, headers, body });
    requests += 1;
    if (route.kind === 'stream') {
      await res.body?.cancel();
      return { status: res.status, text: '' };
    }
    return { status: res.status, text: await res.text() };
  }

  const isEmpty = (text: string) => {
    try {
      const v = JSON.parse(text) as unknown;
      return v === null || (Array.isArray(v) && v.length === 0);
    } catch {
      return false;
    }
  };

  for (const route of ROUTES) {
    it(`${routeKey(route)} (${route.access}${route.role ? ', role' : ''}, ${route.kind})`, async () => {
      const failures: string[] = [];
      let allowedWrites = 0;
      let succeededWrites = 0;
      for (const caller of callers()) {
        const who = caller?.email ?? 'signed out';
        const forbidden = forbiddenIds(route, caller);
        for (const t of targetsFor(route, caller)) {
          const req = await route.fill(t);
          const cookie = caller
            ? route.freshSession
              ? await login(fx.app, caller.email)
              : fx.account(caller.email).cookie
            : undefined;
          const before = await fx.eventCount();
          const { status, text } = await send(route, req, cookie);
          const written = (await fx.eventCount()) - before;
          const reach = mayReach(route, {
            caller,
            role: fx.roleOf(caller, t.corp.id),
            t,
            managesUser: fx.managesUser,
            operates: caller ? mayOperate(fx.account(caller.email).user) : false,
          });
          const where = `${who} → ${route.method} ${req.path} [${t.corp.key}/${t.res.key}, owner ${t.owner.email}, user ${t.user.email}]`;
          const ok = status >= 200 && status < 300;
          if (status >= 500) failures.push(`${where}: ${status} ${text.slice(0, 200)}`);
          if (!reach && ok && !(route.foreignIsEmpty && isEmpty(text)))
            failures.push(`${where}: ${status} out of reach (${text.slice(0, 160)})`);
          if (written > 0 && (status >= 400 || !reach))
            failures.push(`${where}: ${status} yet ${written} event(s) written`);
          if (ok) {
            const seen = [...forbidden].filter((id) => text.includes(id));
            if (seen.length > 0) failures.push(`${where}: ${status} carries ${seen.join(', ')}`);
          }
          if (reach && route.kind !== 'write' && !route.refusedFill && !ok)
            failures.push(
              `${where}: ${status} refused a read the caller may make (${text.slice(0, 160)})`,
            );
          if (reach && route.kind === 'write') {
            allowedWrites += 1;
            if (ok) succeededWrites += 1;
          }
        }
      }
      expect(failures).toEqual([]);
      if (route.kind === 'write' && !route.refusedFill) {
        expect(allowedWrites, 'nobody may make this write?').toBeGreaterThan(0);
        expect(succeededWrites, 'the fill never makes a write that works').toBeGreaterThan(0);
      }
    });
  }
});
