/**
 * A Zoho CRM fake (docs/crm.md "Vendor shapes"): accounts OAuth at `/oauth/v2/*` (the redirect
 * carries `location` and `accounts-server`; token refusals with HTTP 200 `{error}`; refresh
 * answers without `refresh_token`), the API at `/crm/v8` (Leads upsert with
 * `duplicate_check_fields`, list pages with `info.more_records`, search answering 204 when
 * nothing matches, delete, the current user), per-record `status: 'error'` with HTTP 200, 401
 * INVALID_TOKEN, 429 TOO_MANY_REQUESTS.
 */
import type { Context } from 'hono';
import { type FakeRecord, fakeVendor, formOf, matches, type OAuthClient, sleep } from './common';

const API = '/crm/v8';

export function zohoFake(baseUrl: () => string, client: OAuthClient) {
  const { app, oauth, switches, records, calls } = fakeVendor(
    'Zoho',
    client,
    '/oauth/v2/auth',
    () => ({ location: 'us', 'accounts-server': baseUrl() }),
  );
  let seq = 0;
  const user = {
    id: '5725767000000411001',
    email: 'asesor@vitrina.demo',
    full_name: 'Asesor Demo',
  };

  app.post('/oauth/v2/token', async (c) => {
    const form = await formOf(c);
    const result = oauth.grant(form);
    // Zoho answers refusals with HTTP 200: the body tells.
    if (!result.ok)
      return c.json({
        error: result.error === 'invalid_client' ? 'invalid_client' : 'invalid_code',
      });
    return c.json({
      access_token: result.access,
      ...(result.refresh ? { refresh_token: result.refresh } : {}),
      api_domain: baseUrl(),
      token_type: 'Bearer',
      expires_in: 3600,
    });
  });

  app.use(`${API}/*`, async (c, next) => {
    const auth = oauth.check(c.req.header('authorization'), 'Zoho-oauthtoken');
    if (auth !== 'ok')
      return c.json(
        { code: 'INVALID_TOKEN', details: {}, message: 'invalid oauth token', status: 'error' },
        401,
      );
    const injected = switches.nextErrors.shift();
    if (injected) return c.json(injected.body as object, injected.status as 400, injected.headers);
    if (switches.rateLimit > 0) {
      switches.rateLimit--;
      return c.json(
        {
          code: 'TOO_MANY_REQUESTS',
          details: { duration: '1 minute' },
          message: 'too many requests',
          status: 'error',
        },
        429,
      );
    }
    await next();
    return undefined;
  });

  app.get(`${API}/users`, (c) => c.json({ users: [{ ...user, role: { name: 'CEO' } }] }));

  const view = (r: FakeRecord) => ({ id: r.id, ...r.fields, Created_Time: r.createdAt });

  app.post(`${API}/Leads/upsert`, async (c) => {
    const body = await c.req.json<{
      data?: Record<string, unknown>[];
      duplicate_check_fields?: string[];
    }>();
    const checks = body.duplicate_check_fields ?? ['Email'];
    const stall = switches.stallNextWriteMs;
    switches.stallNextWriteMs = 0;
    const out = (body.data ?? []).map((row) => {
      const existing = [...records.values()].find((r) =>
        checks.some((f) => row[f] !== undefined && r.fields[f] === row[f]),
      );
      const merged = { ...(existing?.fields ?? {}), ...row };
      if (!merged.Last_Name)
        return {
          code: 'MANDATORY_NOT_FOUND',
          details: { api_name: 'Last_Name', json_path: '$.data[0].Last_Name' },
          message: 'required field not found',
          status: 'error',
        };
      if (existing) {
        existing.fields = merged;
        return {
          code: 'SUCCESS',
          duplicate_field: checks[0],
          action: 'update',
          details: { id: existing.id, Modified_Time: new Date().toISOString() },
          message: 'record updated',
          status: 'success',
        };
      }
      const id = String(5725767000001000000n + BigInt(++seq));
      records.set(id, { id, fields: merged, createdAt: new Date().toISOString() });
      return {
        code: 'SUCCESS',
        duplicate_field: null,
        action: 'insert',
        details: { id, Created_Time: new Date().toISOString() },
        message: 'record added',
        status: 'success',
      };
    });
    if (stall > 0) await sleep(stall);
    return c.json({ data: out });
  });

  const pageOf = (c: Context, list: FakeRecord[]) => {
    const page = Number(c.req.query('page') ?? 1);
    const perPage = Math.min(Number(c.req.query('per_page') ?? 200), switches.pageSize);
    const slice = list.slice((page - 1) * perPage, page * perPage);
    if (slice.length === 0 && c.req.path.endsWith('/search')) return c.body(null, 204);
    return c.json({
      data: slice.map(view),
      info: {
        per_page: perPage,
        count: slice.length,
        page,
        more_records: page * perPage < list.length,
      },
    });
  };
  app.get(`${API}/Leads`, (c) => {
    if (!c.req.query('fields'))
      return c.json(
        {
          code: 'REQUIRED_PARAM_MISSING',
          details: { param_name: 'fields' },
          message: 'One of the expected parameter is missing',
          status: 'error',
        },
        400,
      );
    return pageOf(c, [...records.values()]);
  });
  app.get(`${API}/Leads/search`, (c) => {
    const word = c.req.query('word') ?? c.req.query('email') ?? '';
    return pageOf(
      c,
      [...records.values()].filter((r) =>
        matches(word, r.fields.First_Name, r.fields.Last_Name, r.fields.Email),
      ),
    );
  });
  app.get(`${API}/Leads/:id`, (c) => {
    const r = records.get(c.req.param('id'));
    return r
      ? c.json({ data: [view(r)] })
      : c.json({
          data: [
            {
              code: 'INVALID_DATA',
              details: {},
              message: 'the related id given seems to be invalid',
              status: 'error',
            },
          ],
        });
  });
  app.delete(`${API}/Leads/:id`, (c) => {
    const id = c.req.param('id');
    if (!records.delete(id))
      return c.json({
        data: [
          {
            code: 'INVALID_DATA',
            details: { id },
            message: 'the related id given seems to be invalid',
            status: 'error',
          },
        ],
      });
    return c.json({
      data: [{ code: 'SUCCESS', details: { id }, message: 'record deleted', status: 'success' }],
    });
  });

  return { app, oauth, switches, records, calls, user };
}
