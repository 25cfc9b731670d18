/**
 * A HubSpot fake (docs/crm.md "Vendor shapes"): OAuth at `/oauth/authorize` and
 * `/oauth/v1/token` (`expires_in` 1800, refresh answers with a new refresh token,
 * BAD_REFRESH_TOKEN / BAD_AUTH_CODE), owners by e-mail, contacts (batch upsert by `idProperty`,
 * search by owner and text, list, delete), errors `{status: 'error', message, category}`, 401
 * EXPIRED_AUTHENTICATION, 429 TEN_SECONDLY_ROLLING with the rate-limit headers.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { type FakeRecord, fakeVendor, formOf, matches, type OAuthClient, sleep } from './common';

export function hubspotFake(_baseUrl: () => string, client: OAuthClient) {
  const { app, oauth, switches, records, calls } = fakeVendor(
    'HubSpot',
    client,
    '/oauth/authorize',
  );
  let seq = 1000;
  const owners = [
    {
      id: '7001',
      email: 'asesor@vitrina.demo',
      firstName: 'Asesor',
      lastName: 'Demo',
      userId: 9001,
    },
    {
      id: '7002',
      email: 'gerente@vitrina.demo',
      firstName: 'Gerente',
      lastName: 'Demo',
      userId: 9002,
    },
    { id: '7003', email: 'admin@vitrina.demo', firstName: 'Admin', lastName: 'Demo', userId: 9003 },
  ];

  const error = (c: Context, status: number, category: string, message: string) =>
    c.json({ status: 'error', message, correlationId: randomUUID(), category }, status as 400);

  const token = async (c: Context) => {
    const form = await formOf(c);
    const result = oauth.grant(form);
    if (!result.ok) {
      const status =
        form.grant_type === 'refresh_token'
          ? 'BAD_REFRESH_TOKEN'
          : result.error === 'invalid_client'
            ? 'BAD_CLIENT_ID'
            : 'BAD_AUTH_CODE';
      return c.json(
        {
          status,
          message:
            status === 'BAD_REFRESH_TOKEN' ? 'missing or invalid refresh token' : 'invalid code',
          correlationId: randomUUID(),
        },
        400,
      );
    }
    return c.json({
      token_type: 'bearer',
      refresh_token: result.refresh ?? oauth.newRefresh(),
      hub_id: 4_242_424,
      scopes: ['crm.objects.contacts.read', 'crm.objects.contacts.write', 'oauth'],
      access_token: result.access,
      expires_in: 1800,
    });
  };
  app.post('/oauth/v1/token', token);
  app.post('/oauth/v3/token', token);

  app.use('/crm/*', async (c, next) => {
    const auth = oauth.check(c.req.header('authorization'), 'Bearer');
    if (auth === 'expired')
      return error(
        c,
        401,
        'EXPIRED_AUTHENTICATION',
        'The OAuth token used to make this call expired 12 second(s) ago.',
      );
    if (auth !== 'ok')
      return error(c, 401, 'INVALID_AUTHENTICATION', 'Authentication credentials not found.');
    const injected = switches.nextErrors.shift();
    if (injected) return c.json(injected.body as object, injected.status as 400, injected.headers);
    if (switches.rateLimit > 0) {
      switches.rateLimit--;
      return c.json(
        {
          status: 'error',
          message: 'You have reached your secondly limit.',
          errorType: 'RATE_LIMIT',
          correlationId: randomUUID(),
          policyName: 'TEN_SECONDLY_ROLLING',
        },
        429,
        {
          'X-HubSpot-RateLimit-Interval-Milliseconds': '10000',
          'X-HubSpot-RateLimit-Max': '100',
          'X-HubSpot-RateLimit-Remaining': '0',
        },
      );
    }
    await next();
    return undefined;
  });

  app.get('/crm/v3/owners/', (c) => {
    const email = c.req.query('email');
    const results = owners
      .filter((o) => !email || o.email.toLowerCase() === email.toLowerCase())
      .map((o) => ({
        ...o,
        type: 'PERSON',
        createdAt: '2024-01-01T00:00:00Z',
        updatedAt: '2024-01-01T00:00:00Z',
        archived: false,
      }));
    return c.json({ results });
  });

  const view = (r: FakeRecord) => ({
    id: r.id,
    properties: { ...r.fields, createdate: r.createdAt, hs_object_id: r.id },
    createdAt: r.createdAt,
    updatedAt: new Date().toISOString(),
    archived: false,
  });

  app.post('/crm/v3/objects/contacts/batch/upsert', async (c) => {
    const body = await c.req.json<{
      inputs?: { idProperty?: string; id?: string; properties?: Record<string, unknown> }[];
    }>();
    const results: ReturnType<typeof view>[] = [];
    const stall = switches.stallNextWriteMs;
    switches.stallNextWriteMs = 0;
    for (const input of body.inputs ?? []) {
      if (!input.idProperty || !input.id)
        return error(c, 400, 'VALIDATION_ERROR', 'idProperty and id are required');
      const props = input.properties ?? {};
      const email = props.email;
      if (typeof email === 'string' && email !== '' && !email.includes('@'))
        return error(
          c,
          400,
          'VALIDATION_ERROR',
          `Property values were not valid: [{"isValid":false,"message":"Email address ${email} is invalid","error":"INVALID_EMAIL","name":"email"}]`,
        );
      const key = input.idProperty;
      const existing = [...records.values()].find((r) => r.fields[key] === input.id);
      if (existing) {
        existing.fields = { ...existing.fields, ...props, [key]: input.id };
        results.push(view(existing));
      } else {
        const id = String(++seq);
        const r = {
          id,
          fields: { ...props, [key]: input.id },
          createdAt: new Date().toISOString(),
        };
        records.set(id, r);
        results.push({ ...view(r), new: true } as ReturnType<typeof view>);
      }
    }
    if (stall > 0) await sleep(stall);
    return c.json({
      status: 'COMPLETE',
      results,
      startedAt: new Date().toISOString(),
      completedAt: new Date().toISOString(),
    });
  });
  app.post('/crm/v3/objects/contacts/search', async (c) => {
    const body = await c.req.json<{
      filterGroups?: { filters?: { propertyName: string; operator: string; value: string }[] }[];
      query?: string;
      limit?: number;
      after?: string;
    }>();
    const filters = body.filterGroups?.[0]?.filters ?? [];
    const all = [...records.values()].filter(
      (r) =>
        filters.every((f) => f.operator !== 'EQ' || String(r.fields[f.propertyName]) === f.value) &&
        (!body.query || matches(body.query, r.fields.firstname, r.fields.lastname, r.fields.email)),
    );
    const limit = Math.min(body.limit ?? 10, switches.pageSize);
    const offset = Number(body.after ?? 0);
    const slice = all.slice(offset, offset + limit);
    const next = offset + limit < all.length ? String(offset + limit) : null;
    return c.json({
      total: all.length,
      results: slice.map(view),
      ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}),
    });
  });
  app.get('/crm/v3/objects/contacts', (c) => {
    const offset = Number(c.req.query('after') ?? 0);
    const all = [...records.values()];
    const slice = all.slice(offset, offset + switches.pageSize);
    const next =
      offset + switches.pageSize < all.length ? String(offset + switches.pageSize) : null;
    return c.json({
      results: slice.map(view),
      ...(next ? { paging: { next: { after: next, link: `?after=${next}` } } } : {}),
    });
  });
  app.get('/crm/v3/objects/contacts/:id', (c) => {
    const r = records.get(c.req.param('id'));
    return r ? c.json(view(r)) : error(c, 404, 'OBJECT_NOT_FOUND', 'Object not found.');
  });
  app.delete('/crm/v3/objects/contacts/:id', (c) => {
    records.delete(c.req.param('id'));
    return c.body(null, 204);
  });

  return { app, oauth, switches, records, calls, owners };
}
