/**
 * A Salesforce fake (docs/crm.md "Vendor shapes"): OAuth at `/services/oauth2/*` (PKCE, no
 * `expires_in`, a refresh answer without `refresh_token`), the REST API at
 * `/services/data/v60.0` (Lead upsert by the external id `Vitrina_Id__c`, read, delete, the
 * query with `nextRecordsUrl` pages), userinfo, error arrays, 401 INVALID_SESSION_ID, 403
 * REQUEST_LIMIT_EXCEEDED and the `Sforce-Limit-Info` header.
 */
import type { Context } from 'hono';
import { type FakeRecord, fakeVendor, formOf, matches, type OAuthClient, sleep } from './common';

const API = '/services/data/v60.0';

export function salesforceFake(baseUrl: () => string, client: OAuthClient) {
  const { app, oauth, switches, records, calls } = fakeVendor(
    'Salesforce',
    client,
    '/services/oauth2/authorize',
  );
  let seq = 0;
  let usage = 0;
  const user = { user_id: '005000000000001AAA', email: 'asesor@vitrina.demo', name: 'Asesor Demo' };
  const cursors = new Map<string, { ids: string[]; offset: number }>();

  const err = (c: Context, status: number, errorCode: string, message: string, fields?: string[]) =>
    c.json([{ message, errorCode, ...(fields ? { fields } : {}) }], status as 400);

  app.post('/services/oauth2/token', async (c) => {
    const result = oauth.grant(await formOf(c));
    if (!result.ok)
      return c.json(
        {
          error: result.error,
          error_description:
            result.error === 'invalid_grant' ? 'expired access/refresh token' : result.error,
        },
        400,
      );
    return c.json({
      access_token: result.access,
      ...(result.refresh ? { refresh_token: result.refresh } : {}),
      signature: 'c2lnbmF0dXJh',
      scope: 'api refresh_token',
      instance_url: baseUrl(),
      id: `${baseUrl()}/id/00D000000000001/${user.user_id}`,
      token_type: 'Bearer',
      issued_at: String(Date.now()),
    });
  });

  // Every API call: the bearer, the injected errors, the limit.
  app.use(`${API}/*`, async (c, next) => {
    const auth = oauth.check(c.req.header('authorization'), 'Bearer');
    if (auth !== 'ok') return err(c, 401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    const injected = switches.nextErrors.shift();
    if (injected) return c.json(injected.body as object, injected.status as 400, injected.headers);
    if (switches.rateLimit > 0) {
      switches.rateLimit--;
      return err(c, 403, 'REQUEST_LIMIT_EXCEEDED', 'TotalRequests Limit exceeded.');
    }
    usage++;
    await next();
    c.header('Sforce-Limit-Info', `api-usage=${usage}/100000`);
    return undefined;
  });
  app.get('/services/oauth2/userinfo', (c) => {
    if (oauth.check(c.req.header('authorization'), 'Bearer') !== 'ok')
      return err(c, 401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    return c.json({ ...user, preferred_username: user.email });
  });

  const byExternal = (ext: string) =>
    [...records.values()].find((r) => r.fields.Vitrina_Id__c === ext) ?? null;
  const view = (r: FakeRecord) => ({
    attributes: { type: 'Lead', url: `${API}/sobjects/Lead/${r.id}` },
    Id: r.id,
    ...r.fields,
    CreatedDate: r.createdAt,
  });

  app.patch(`${API}/sobjects/Lead/Vitrina_Id__c/:ext`, async (c) => {
    const ext = c.req.param('ext');
    const body = await c.req.json<Record<string, unknown>>();
    const existing = byExternal(ext);
    const merged: Record<string, unknown> = {
      ...(existing?.fields ?? {}),
      ...body,
      Vitrina_Id__c: ext,
    };
    const missing = ['LastName', 'Company'].filter((f) => !merged[f]);
    if (missing.length > 0)
      return err(
        c,
        400,
        'REQUIRED_FIELD_MISSING',
        `Required fields are missing: [${missing.join(', ')}]`,
        missing,
      );
    const stall = switches.stallNextWriteMs;
    switches.stallNextWriteMs = 0;
    let answer: Response;
    if (existing) {
      existing.fields = merged;
      answer = c.body(null, 204);
    } else {
      const id = `00Q${String(++seq).padStart(15, '0')}`;
      records.set(id, { id, fields: merged, createdAt: new Date().toISOString() });
      answer = c.json({ id, success: true, errors: [], created: true }, 201);
    }
    if (stall > 0) await sleep(stall);
    return answer;
  });
  app.get(`${API}/sobjects/Lead/Vitrina_Id__c/:ext`, (c) => {
    const r = byExternal(c.req.param('ext'));
    return r ? c.json(view(r)) : err(c, 404, 'NOT_FOUND', 'The requested resource does not exist');
  });
  app.get(`${API}/sobjects/Lead/:id`, (c) => {
    const r = records.get(c.req.param('id'));
    return r ? c.json(view(r)) : err(c, 404, 'NOT_FOUND', 'The requested resource does not exist');
  });
  app.delete(`${API}/sobjects/Lead/:id`, (c) => {
    if (!records.delete(c.req.param('id')))
      return err(c, 404, 'NOT_FOUND', 'The requested resource does not exist');
    return c.body(null, 204);
  });

  const page = (c: Context, ids: string[], offset: number) => {
    const slice = ids.slice(offset, offset + switches.pageSize);
    const done = offset + switches.pageSize >= ids.length;
    let nextRecordsUrl: string | undefined;
    if (!done) {
      const cursor = `01g${String(cursors.size + 1).padStart(15, '0')}-${offset + switches.pageSize}`;
      cursors.set(cursor, { ids, offset: offset + switches.pageSize });
      nextRecordsUrl = `${API}/query/${cursor}`;
    }
    return c.json({
      totalSize: ids.length,
      done,
      ...(nextRecordsUrl ? { nextRecordsUrl } : {}),
      records: slice.map((id) => view(records.get(id)!)).filter(Boolean),
    });
  };
  app.get(`${API}/query`, (c) => {
    const q = c.req.query('q') ?? '';
    if (!/^SELECT\s.+\sFROM\s+Lead\b/i.test(q))
      return err(c, 400, 'MALFORMED_QUERY', 'unexpected token');
    const like = /LIKE\s+'%((?:[^'\\]|\\.)*)%'/i.exec(q);
    const needle = like ? like[1]!.replace(/\\(.)/g, '$1') : null;
    const ids = [...records.values()]
      .filter(
        (r) =>
          !needle ||
          matches(
            needle,
            [r.fields.FirstName, r.fields.LastName].filter((v) => typeof v === 'string').join(' '),
            r.fields.Email,
          ),
      )
      .map((r) => r.id);
    return page(c, ids, 0);
  });
  app.get(`${API}/query/:cursor`, (c) => {
    const cursor = cursors.get(c.req.param('cursor'));
    if (!cursor) return err(c, 400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
    return page(c, cursor.ids, cursor.offset);
  });

  return { app, oauth, switches, records, calls, user };
}
