/**
 * What the three CRM fakes share: the OAuth side (an authorize page with an "Autorizar" button
 * that redirects back with `code` and `state`, a token endpoint with codes, PKCE, refresh tokens),
 * bearer checks, the switches (expire tokens, revoke refresh tokens, one-shot errors, rate
 * limits, a write that stores and then stalls) and a request log.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Hono, type Context } from 'hono';

export type CrmKind = 'salesforce' | 'hubspot' | 'zoho';

export interface FakeRecord {
  id: string;
  fields: Record<string, unknown>;
  createdAt: string;
}

export interface InjectedError {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface Switches {
  /** Every access token issued so far answers 401 (each CRM's expired shape). */
  expireTokens(): void;
  /** Refresh tokens are refused (invalid_grant / BAD_REFRESH_TOKEN / invalid_code). */
  revokeRefresh: boolean;
  /** One-shot: the next API calls (not OAuth) answer these, in order. */
  nextErrors: InjectedError[];
  /** The next n API calls answer the CRM's rate-limit shape. */
  rateLimit: number;
  /** One-shot: the next write stores the record, then answers after this many ms. */
  stallNextWriteMs: number;
  /** Records per page of lists (small, so paging is exercised). */
  pageSize: number;
}

export interface FakeCall {
  method: string;
  path: string;
  status: number;
}

export interface OAuthClient {
  clientId: string;
  clientSecret: string;
}

export const FAKE_CLIENT: OAuthClient = {
  clientId: 'vitrina-cliente',
  clientSecret: 'secreto-del-cliente-crm-7f3a9c',
};

interface IssuedCode {
  redirectUri: string;
  challenge: string | null;
  scope: string | null;
  used: boolean;
}

/** The OAuth server of a fake: codes, tokens, refresh tokens. */
export class FakeOAuth {
  readonly codes = new Map<string, IssuedCode>();
  /** access token → expired? */
  readonly access = new Map<string, boolean>();
  readonly refresh = new Set<string>();
  revokeRefresh = false;
  tokenCalls: { grant: string; form: Record<string, string> }[] = [];

  constructor(readonly client: OAuthClient) {}

  issueCode(redirectUri: string, challenge: string | null, scope: string | null): string {
    const code = `code-${randomBytes(12).toString('hex')}`;
    this.codes.set(code, { redirectUri, challenge, scope, used: false });
    return code;
  }

  newAccess(): string {
    const token = `at-${randomBytes(16).toString('hex')}`;
    this.access.set(token, false);
    return token;
  }

  newRefresh(): string {
    const token = `rt-${randomBytes(16).toString('hex')}`;
    this.refresh.add(token);
    return token;
  }

  expireAll() {
    for (const key of this.access.keys()) this.access.set(key, true);
  }

  /** 'ok', 'expired' or 'invalid' for an Authorization header. */
  check(
    header: string | undefined,
    scheme: 'Bearer' | 'Zoho-oauthtoken',
  ): 'ok' | 'expired' | 'invalid' {
    if (!header?.startsWith(`${scheme} `)) return 'invalid';
    const token = header.slice(scheme.length + 1);
    const expired = this.access.get(token);
    if (expired === undefined) return 'invalid';
    return expired ? 'expired' : 'ok';
  }

  /**
   * Runs a token request: the grant's checks, then `issue` for the answer. Answers the error
   * code (the vendor's shape is the caller's) or the issued tokens.
   */
  grant(
    form: Record<string, string>,
  ):
    | { ok: true; access: string; refresh: string | null; kind: 'code' | 'refresh' }
    | { ok: false; error: 'invalid_client' | 'invalid_grant' | 'unsupported_grant_type' } {
    this.tokenCalls.push({ grant: form.grant_type ?? '', form });
    if (form.client_id !== this.client.clientId || form.client_secret !== this.client.clientSecret)
      return { ok: false, error: 'invalid_client' };
    if (form.grant_type === 'authorization_code') {
      const issued = this.codes.get(form.code ?? '');
      if (!issued || issued.used || issued.redirectUri !== form.redirect_uri)
        return { ok: false, error: 'invalid_grant' };
      if (issued.challenge) {
        const verifier = form.code_verifier ?? '';
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (challenge !== issued.challenge) return { ok: false, error: 'invalid_grant' };
      }
      issued.used = true;
      return { ok: true, access: this.newAccess(), refresh: this.newRefresh(), kind: 'code' };
    }
    if (form.grant_type === 'refresh_token') {
      if (this.revokeRefresh || !this.refresh.has(form.refresh_token ?? ''))
        return { ok: false, error: 'invalid_grant' };
      return { ok: true, access: this.newAccess(), refresh: null, kind: 'refresh' };
    }
    return { ok: false, error: 'unsupported_grant_type' };
  }
}

export async function formOf(c: Context): Promise<Record<string, string>> {
  const text = await c.req.text();
  return Object.fromEntries(new URLSearchParams(text));
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The authorize page: the vendor's name, what is asked, and an "Autorizar" button that posts
 * back to the same path; the POST issues a code and redirects to `redirect_uri` with `code`,
 * `state` (and the extra parameters, e.g. Zoho's `accounts-server`).
 */
export function authorizePage(vendor: string, query: Record<string, string>): string {
  const hidden = Object.entries(query)
    .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
    .join('');
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${vendor}: autorizar</title></head>
<body><main><h1>${vendor}</h1><p>Vitrina solicita acceso a tu cuenta.</p>
<form method="post">${hidden}<button type="submit">Autorizar</button></form></main></body></html>`;
}

/** Where the POST of the authorize page sends the browser. */
export function redirectBack(
  oauth: FakeOAuth,
  form: Record<string, string>,
  extra: Record<string, string> = {},
): string | null {
  const redirectUri = form.redirect_uri;
  if (!redirectUri || form.client_id !== oauth.client.clientId) return null;
  const code = oauth.issueCode(redirectUri, form.code_challenge ?? null, form.scope ?? null);
  const url = new URL(redirectUri);
  url.searchParams.set('code', code);
  if (form.state) url.searchParams.set('state', form.state);
  for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
  return url.toString();
}

export function newSwitches(oauth: FakeOAuth): Switches {
  return {
    expireTokens: () => oauth.expireAll(),
    get revokeRefresh() {
      return oauth.revokeRefresh;
    },
    set revokeRefresh(v: boolean) {
      oauth.revokeRefresh = v;
    },
    nextErrors: [],
    rateLimit: 0,
    stallNextWriteMs: 0,
    pageSize: 2,
  };
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Case-insensitive "contains" of a search over some text fields. */
export function matches(q: string, ...values: unknown[]): boolean {
  const needle = q.toLowerCase();
  return values.some((v) => typeof v === 'string' && v.toLowerCase().includes(needle));
}

/**
 * What every fake starts with: its OAuth server and switches, its records, and an app that
 * records each call and serves `vendor`'s authorize page at `authorizePath` (its POST sends the
 * browser back with a code and the `extra()` parameters). The fake adds its own routes after.
 */
export function fakeVendor(
  vendor: string,
  client: OAuthClient,
  authorizePath: string,
  extra: () => Record<string, string> = () => ({}),
) {
  const oauth = new FakeOAuth(client);
  const switches = newSwitches(oauth);
  const records = new Map<string, FakeRecord>();
  const calls: FakeCall[] = [];
  const app = new Hono();
  app.use('*', async (c, next) => {
    await next();
    calls.push({ method: c.req.method, path: new URL(c.req.url).pathname, status: c.res.status });
  });
  app.get(authorizePath, (c) => c.html(authorizePage(vendor, c.req.query())));
  app.post(authorizePath, async (c) => {
    const to = redirectBack(oauth, await formOf(c), extra());
    return to ? c.redirect(to, 302) : c.text('bad request', 400);
  });
  return { app, oauth, switches, records, calls };
}
