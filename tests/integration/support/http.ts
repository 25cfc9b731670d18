import type { Hono } from 'hono';
import { DEMO_PASSWORD } from '../../../src/server/seed/demo';

type App = Pick<Hono, 'request'>;

/** Signs a demo account in and returns its session cookie (`name=value`). */
export async function login(app: App, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200)
    throw new Error(`login ${email} failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}

/** A small client bound to one session cookie. */
export function client(app: App, cookie?: string) {
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.request(path, {
      method,
      headers: {
        ...(cookie ? { cookie } : {}),
        ...(body !== undefined
          ? { 'content-type': typeof body === 'string' ? 'text/csv' : 'application/json' }
          : {}),
        ...headers,
      },
      ...(body !== undefined
        ? { body: typeof body === 'string' ? body : JSON.stringify(body) }
        : {}),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json: json as any, headers: res.headers };
  };
  return {
    get: (path: string, headers?: Record<string, string>) => call('GET', path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call('POST', path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) =>
      call('PUT', path, body ?? {}, headers),
    del: (path: string, headers?: Record<string, string>) =>
      call('DELETE', path, undefined, headers),
  };
}

/** A demo account signed in: its client; its user id is recorded in `ids` under its email. */
export async function signedIn(app: App, email: string, ids: Record<string, string>) {
  const c = client(app, await login(app, email));
  ids[email] = (await c.get('/api/auth/session')).json.id as string;
  return c;
}

/**
 * The demo adviser signed in, with a new client of their own in grupo-horizonte named `nombre`:
 * the cookie, the client, the corporate's id and its leads' URL, and the new lead.
 */
export async function adviserWithNewLead(app: App, nombre: string) {
  const cookie = await login(app, 'asesor@vitrina.demo');
  const asesor = client(app, cookie);
  const corp = (await asesor.get('/api/wsObtenerCorporativo?slug=grupo-horizonte')).json
    .id as string;
  const leadsUrl = `/api/corporativos/${corp}/leads`;
  const created = await asesor.post(leadsUrl, {
    nombre,
    email: `${nombre.toLowerCase().replace(/\W+/g, '-')}-${crypto.randomUUID()}@example.com`,
  });
  if (created.status !== 201)
    throw new Error(`lead: ${created.status} ${JSON.stringify(created.json)}`);
  return { cookie, asesor, corp, leadsUrl, lead: created.json as { id: string } };
}
