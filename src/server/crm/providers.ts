/**
 * The three CRMs' HTTP calls (shapes in docs/crm.md, "Vendor shapes"): the OAuth token
 * endpoints, who the connected user is, lead upserts keyed by our lead id, deletes, and the lead
 * lists. Every call goes through {@link crmFetch}: https only (http on loopback only where the
 * deployment allows it: tests and the e2e server), to public addresses only (public-address.ts),
 * no redirects followed, a timeout, a capped body. Errors keep the CRM's own words ({@link CrmCallError.crmError}, e.g.
 * `REQUIRED_FIELD_MISSING: Company`), never a token.
 */
import type { CrmConfig, CrmPayload, CrmTipo } from '../../core/crm';
import { Agent, fetch, type Headers, type Response } from 'undici';
import { parseRetryAfter } from '../store/outbox';
import { guardedLookup, InternalAddressError, literalHostAllowed } from './public-address';

export interface CrmHttpOptions {
  /** http:// to 127.0.0.1 / localhost / ::1 is allowed (tests' fakes); otherwise https only. */
  allowHttpLoopback: boolean;
  /** A call longer than this is aborted (ms). */
  timeoutMs: number;
}

/** What kind of failure a CRM call was: it decides refresh, wait, retry or dead letter. */
export type CrmFailure = 'auth' | 'rate' | 'permanent' | 'transient';

export class CrmCallError extends Error {
  constructor(
    readonly failure: CrmFailure,
    /** The CRM's exact error, as the sync health shows it. */
    readonly crmError: string,
    readonly status: number,
    readonly retryAfterMs?: number,
  ) {
    super(crmError);
    this.name = 'CrmCallError';
  }
}

/** A token endpoint's refusal (`invalid_grant`, `BAD_REFRESH_TOKEN`, `invalid_code`, …). */
export class CrmTokenError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
  ) {
    super(`token endpoint: ${code}`);
    this.name = 'CrmTokenError';
  }
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * Whether the deployment may call this URL (see {@link CrmHttpOptions}): https, no credentials,
 * and not an internal address written as such (names are checked when they resolve:
 * public-address.ts).
 */
export function urlAllowed(url: string, options: Pick<CrmHttpOptions, 'allowHttpLoopback'>) {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (!literalHostAllowed(u.hostname, options.allowHttpLoopback)) return false;
  if (u.protocol === 'https:') return true;
  return u.protocol === 'http:' && options.allowHttpLoopback && LOOPBACK.has(u.hostname);
}

/** The connection pools: each connects only to public addresses (loopback too in tests). */
const agents = new Map<boolean, Agent>();
function agentFor(allowLoopback: boolean): Agent {
  let agent = agents.get(allowLoopback);
  if (!agent) {
    agent = new Agent({ connect: { lookup: guardedLookup(allowLoopback) } });
    agents.set(allowLoopback, agent);
  }
  return agent;
}

const NOT_ALLOWED = 'URL_NOT_ALLOWED: the CRM address is not https on the public internet';

export interface CrmResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

const MAX_BODY = 4 * 1024 * 1024;

/** One call to a CRM: JSON (or form) in, JSON out (null for an empty or unreadable body). */
export async function crmFetch(
  options: CrmHttpOptions,
  url: string,
  init: {
    method?: string;
    headers?: Record<string, string>;
    json?: unknown;
    form?: Record<string, string>;
    signal?: AbortSignal;
  } = {},
): Promise<CrmResponse> {
  if (!urlAllowed(url, options)) throw new CrmCallError('permanent', NOT_ALLOWED, 0);
  const signals = [AbortSignal.timeout(options.timeoutMs)];
  if (init.signal) signals.push(init.signal);
  const headers: Record<string, string> = { accept: 'application/json', ...init.headers };
  let body: string | undefined;
  if (init.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  } else if (init.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(init.json);
  }
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.any(signals),
      dispatcher: agentFor(options.allowHttpLoopback),
    });
  } catch (error) {
    if (error instanceof Error && error.cause instanceof InternalAddressError)
      throw new CrmCallError('permanent', NOT_ALLOWED, 0);
    const reason =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? 'TIMEOUT: the CRM did not answer in time'
        : 'UNREACHABLE: the CRM could not be reached';
    throw new CrmCallError('transient', reason, 0);
  }
  const text = await readCapped(res);
  let parsed: unknown = null;
  if (text.trim() !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = null;
    }
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  // undici types its body's chunks as `any`; a fetch body's chunks are bytes.
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY) {
      await reader.cancel();
      throw new CrmCallError('transient', 'TOO_LARGE: the CRM answer is too large', res.status);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

// ---------------------------------------------------------------------------------------------
// Errors per provider

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function clip(text: string): string {
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}

/** A failed answer of the CRM as a {@link CrmCallError} in the CRM's own words. */
export function crmErrorOf(tipo: CrmTipo, res: CrmResponse, now = new Date()): CrmCallError {
  const { status, body } = res;
  const retryHeader = parseRetryAfter(res.headers.get('retry-after'), now);
  switch (tipo) {
    case 'Salesforce': {
      const first = Array.isArray(body) && isObj(body[0]) ? body[0] : null;
      const code = str(first?.errorCode) ?? `HTTP_${status}`;
      const fields = Array.isArray(first?.fields)
        ? (first.fields as unknown[]).filter((f) => typeof f === 'string')
        : [];
      const text = clip(
        `${code}: ${fields.length > 0 ? fields.join(', ') : (str(first?.message) ?? 'error')}`,
      );
      if (status === 401) return new CrmCallError('auth', text, status);
      if (code === 'REQUEST_LIMIT_EXCEEDED')
        return new CrmCallError('rate', text, status, retryHeader ?? 15 * 60_000);
      if (status === 429 || status === 503)
        return new CrmCallError('rate', text, status, retryHeader ?? 60_000);
      if (status >= 400 && status < 500) return new CrmCallError('permanent', text, status);
      return new CrmCallError('transient', text, status);
    }
    case 'Hubspot': {
      const o = isObj(body) ? body : {};
      const category = str(o.category) ?? str(o.errorType) ?? `HTTP_${status}`;
      const text = clip(`${category}: ${str(o.message) ?? 'error'}`);
      if (status === 401) return new CrmCallError('auth', text, status);
      if (status === 429) {
        // The official client waits 10 s for the ten-secondly limit.
        const wait = o.policyName === 'TEN_SECONDLY_ROLLING' ? 10_000 : (retryHeader ?? 10_000);
        return new CrmCallError('rate', text, status, wait);
      }
      if (status >= 400 && status < 500) return new CrmCallError('permanent', text, status);
      return new CrmCallError('transient', text, status);
    }
    case 'Zoho': {
      const o = isObj(body) ? body : {};
      const record = Array.isArray(o.data) && isObj(o.data[0]) ? o.data[0] : o;
      const code = str(record.code) ?? `HTTP_${status}`;
      const details = isObj(record.details) ? record.details : {};
      const text = clip(`${code}: ${str(details.api_name) ?? str(record.message) ?? 'error'}`);
      if (status === 401 || code === 'INVALID_TOKEN' || code === 'AUTHENTICATION_FAILURE')
        return new CrmCallError('auth', text, status);
      if (status === 429 || code === 'TOO_MANY_REQUESTS')
        return new CrmCallError('rate', text, status, retryHeader ?? 60_000);
      if (status >= 500) return new CrmCallError('transient', text, status);
      return new CrmCallError('permanent', text, status);
    }
    default: {
      const unknownTipo: never = tipo;
      throw new Error(`unknown CRM ${String(unknownTipo)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// OAuth token endpoints

export interface TokenAnswer {
  access_token: string;
  refresh_token?: string;
  expires_in?: unknown;
  expires_in_sec?: unknown;
  /** Salesforce: where the org's API lives. */
  instance_url?: string;
  /** Zoho: where the API lives. */
  api_domain?: string;
}

/**
 * A token call (`authorization_code` or `refresh_token`). Zoho answers refusals with HTTP 200
 * and `{ error }`, HubSpot with `{ status: 'BAD_REFRESH_TOKEN' }`: the body decides, not only
 * the status.
 */
export async function tokenCall(
  options: CrmHttpOptions,
  tokenUrl: string,
  form: Record<string, string>,
): Promise<TokenAnswer> {
  const res = await crmFetch(options, tokenUrl, { method: 'POST', form });
  const o = isObj(res.body) ? res.body : {};
  const access = str(o.access_token);
  if (res.status >= 200 && res.status < 300 && access && !o.error) {
    return o as unknown as TokenAnswer;
  }
  const code =
    str(o.error) ?? (o.status !== 'error' ? str(o.status) : null) ?? `HTTP_${res.status}`;
  throw new CrmTokenError(code.slice(0, 80), res.status);
}

// ---------------------------------------------------------------------------------------------
// A connection's API calls

export interface CrmApi {
  tipo: CrmTipo;
  /** The API base: Salesforce `…/services/data/vNN.N`, HubSpot `https://api.hubapi.com`, Zoho `…/crm/v8`. */
  base: string;
  /** Salesforce's instance URL / Zoho's api domain (paths of `infoSeller` are resolved on it). */
  domain: string | null;
  token: string;
}

/** The API base of a connection: the configured one, else from the token answer. */
export function apiBaseOf(tipo: CrmTipo, config: CrmConfig, domain: string | null): string {
  const configured = config.apiBase.trim().replace(/\/+$/, '');
  if (configured) return configured;
  switch (tipo) {
    case 'Salesforce':
      return `${(domain ?? '').replace(/\/+$/, '')}/services/data/v60.0`;
    case 'Hubspot':
      return 'https://api.hubapi.com';
    case 'Zoho':
      return `${(domain ?? 'https://www.zohoapis.com').replace(/\/+$/, '')}/crm/v8`;
    default: {
      const unknownTipo: never = tipo;
      throw new Error(`unknown CRM ${String(unknownTipo)}`);
    }
  }
}

function authHeader(api: CrmApi): Record<string, string> {
  return {
    authorization: api.tipo === 'Zoho' ? `Zoho-oauthtoken ${api.token}` : `Bearer ${api.token}`,
  };
}

async function apiCall(
  options: CrmHttpOptions,
  api: CrmApi,
  url: string,
  init: { method?: string; json?: unknown; signal?: AbortSignal } = {},
): Promise<CrmResponse> {
  const res = await crmFetch(options, url, { ...init, headers: authHeader(api) });
  if (res.status < 200 || res.status >= 300) throw crmErrorOf(api.tipo, res);
  return res;
}

/** Resolves `infoSeller` (a URL, or a path on the instance / api domain). */
function resolveOn(api: CrmApi, pathOrUrl: string): string {
  if (/^https?:\/\//i.test(pathOrUrl)) return pathOrUrl;
  const root = (api.domain ?? api.base).replace(/\/+$/, '');
  return `${root}${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}

export interface CrmUserInfo {
  user_id: string;
  email: string;
  name: string;
}

/** HubSpot: the owner with this e-mail (`GET /crm/v3/owners/?email=`), or null. */
export async function hubspotOwnerByEmail(
  options: CrmHttpOptions,
  api: CrmApi,
  email: string,
  signal?: AbortSignal,
): Promise<{ id: string; email: string; name: string } | null> {
  const res = await apiCall(
    options,
    api,
    `${api.base}/crm/v3/owners/?${new URLSearchParams({ email })}`,
    {
      signal,
    },
  );
  const o = isObj(res.body) ? res.body : {};
  const first = Array.isArray(o.results) && isObj(o.results[0]) ? o.results[0] : null;
  if (!first) return null;
  const id = first.id;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  return {
    id: String(id),
    email: str(first.email) ?? email,
    name: `${str(first.firstName) ?? ''} ${str(first.lastName) ?? ''}`.trim(),
  };
}

/**
 * Who the connection is: Salesforce's userinfo (`infoSeller`), Zoho's current user (`infoSeller`,
 * `{ users: [{ id, email, full_name }] }`), HubSpot's owner with the adviser's e-mail.
 */
export async function fetchUserInfo(
  options: CrmHttpOptions,
  api: CrmApi,
  config: CrmConfig,
  fallback: { email: string; name: string },
): Promise<CrmUserInfo> {
  if (api.tipo === 'Hubspot') {
    const owner = await hubspotOwnerByEmail(options, api, fallback.email);
    return owner
      ? { user_id: owner.id, email: owner.email, name: owner.name || fallback.name }
      : { user_id: '', email: fallback.email, name: fallback.name };
  }
  if (config.infoSeller.trim() === '') return { user_id: '', ...fallback };
  const res = await apiCall(options, api, resolveOn(api, config.infoSeller.trim()));
  const o = isObj(res.body) ? res.body : {};
  const user = Array.isArray(o.users) && isObj(o.users[0]) ? o.users[0] : o;
  const id = user.user_id ?? user.id ?? user.user_id;
  return {
    user_id: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
    email: str(user.email) ?? fallback.email,
    name: str(user.name) ?? str(user.full_name) ?? str(user.display_name) ?? fallback.name,
  };
}

/** The external id our lead id is stored in, per CRM. */
export const EXTERNAL_ID = {
  Salesforce: 'Vitrina_Id__c',
  Hubspot: 'vitrina_id',
  Zoho: 'Vitrina_Id',
} as const satisfies Record<CrmTipo, string>;

function salesforceLeadPath(api: CrmApi, config: CrmConfig): string {
  const path = config.insertLead.trim() || '/sobjects/Lead';
  if (/^https?:\/\//i.test(path)) return path.replace(/\/+$/, '');
  return `${api.base}${path.startsWith('/') ? '' : '/'}${path.replace(/\/+$/, '')}`;
}

/**
 * Creates or updates the lead's CRM record keyed by our lead id, so a retry after a timeout
 * finds the record the first try created: Salesforce PATCH by the external id field, HubSpot
 * batch upsert with `idProperty`, Zoho upsert with `duplicate_check_fields`. Answers the CRM id.
 */
export async function upsertLead(
  options: CrmHttpOptions,
  api: CrmApi,
  config: CrmConfig,
  leadId: string,
  payload: CrmPayload,
  signal?: AbortSignal,
): Promise<string | null> {
  switch (api.tipo) {
    case 'Salesforce': {
      const url = `${salesforceLeadPath(api, config)}/${EXTERNAL_ID.Salesforce}/${encodeURIComponent(leadId)}`;
      const res = await apiCall(options, api, url, { method: 'PATCH', json: payload, signal });
      const o = isObj(res.body) ? res.body : {};
      if (str(o.id)) return str(o.id);
      // 204 (an update): read the record by its external id for its Salesforce id.
      const read = await apiCall(options, api, url, { signal });
      const r = isObj(read.body) ? read.body : {};
      return str(r.Id) ?? str(r.id);
    }
    case 'Hubspot': {
      const res = await apiCall(options, api, `${api.base}/crm/v3/objects/contacts/batch/upsert`, {
        method: 'POST',
        json: {
          inputs: [
            {
              idProperty: EXTERNAL_ID.Hubspot,
              id: leadId,
              properties: { ...payload, [EXTERNAL_ID.Hubspot]: leadId },
            },
          ],
        },
        signal,
      });
      const o = isObj(res.body) ? res.body : {};
      const first = Array.isArray(o.results) && isObj(o.results[0]) ? o.results[0] : null;
      if (Array.isArray(o.errors) && o.errors.length > 0 && !first) {
        throw crmErrorOf('Hubspot', {
          status: 400,
          headers: res.headers,
          body: o.errors[0],
        });
      }
      const id = first?.id;
      return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
    }
    case 'Zoho': {
      const res = await apiCall(options, api, `${api.base}/Leads/upsert`, {
        method: 'POST',
        json: {
          data: [{ ...payload, [EXTERNAL_ID.Zoho]: leadId }],
          duplicate_check_fields: [EXTERNAL_ID.Zoho],
        },
        signal,
      });
      return zohoRecordId(res);
    }
    default: {
      const unknownTipo: never = api.tipo;
      throw new Error(`unknown CRM ${String(unknownTipo)}`);
    }
  }
}

/** Zoho answers per record inside `data`, errors included with HTTP 200. */
function zohoRecordId(res: CrmResponse): string | null {
  const o = isObj(res.body) ? res.body : {};
  const first = Array.isArray(o.data) && isObj(o.data[0]) ? o.data[0] : null;
  if (!first || first.status !== 'success') throw crmErrorOf('Zoho', res);
  const details = isObj(first.details) ? first.details : {};
  const id = details.id;
  return typeof id === 'string' || typeof id === 'number' ? String(id) : null;
}

/** Deletes the CRM record (already gone counts as done). */
export async function deleteLead(
  options: CrmHttpOptions,
  api: CrmApi,
  config: CrmConfig,
  crmId: string,
  signal?: AbortSignal,
): Promise<void> {
  const id = encodeURIComponent(crmId);
  try {
    switch (api.tipo) {
      case 'Salesforce':
        await apiCall(options, api, `${salesforceLeadPath(api, config)}/${id}`, {
          method: 'DELETE',
          signal,
        });
        return;
      case 'Hubspot':
        await apiCall(options, api, `${api.base}/crm/v3/objects/contacts/${id}`, {
          method: 'DELETE',
          signal,
        });
        return;
      case 'Zoho': {
        const res = await apiCall(options, api, `${api.base}/Leads/${id}`, {
          method: 'DELETE',
          signal,
        });
        zohoRecordId(res);
        return;
      }
      default: {
        const unknownTipo: never = api.tipo;
        throw new Error(`unknown CRM ${String(unknownTipo)}`);
      }
    }
  } catch (error) {
    // Already gone: Salesforce and HubSpot answer 404, Zoho INVALID_DATA (with HTTP 200).
    if (error instanceof CrmCallError && error.status === 404) return;
    if (
      api.tipo === 'Zoho' &&
      error instanceof CrmCallError &&
      error.crmError.startsWith('INVALID_DATA')
    )
      return;
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Lead lists

export interface CrmLeadItem {
  crmId: string;
  nombre: string;
  apellidos: string;
  email: string | null;
  telefono: string | null;
  status?: string;
  fechaAlta?: string;
  /** Our lead id when the record carries it (its external id field). */
  vitrinaId: string | null;
}

export interface CrmLeadPage {
  items: CrmLeadItem[];
  next: string | null;
}

export const DEFAULT_SALESFORCE_QUERY =
  'SELECT Id, FirstName, LastName, Email, Phone, Status, CreatedDate, Vitrina_Id__c FROM Lead';
export const DEFAULT_SALESFORCE_SEARCH = "Name LIKE '%{q}%' OR Email LIKE '%{q}%'";
const HUBSPOT_PROPERTIES = [
  'firstname',
  'lastname',
  'email',
  'phone',
  'hs_lead_status',
  'createdate',
  EXTERNAL_ID.Hubspot,
];
const ZOHO_FIELDS = [
  'First_Name',
  'Last_Name',
  'Email',
  'Phone',
  'Lead_Status',
  'Created_Time',
  EXTERNAL_ID.Zoho,
];
export const CRM_PAGE_SIZE = 50;

/** SOQL string literal content: quotes and backslashes escaped, LIKE wildcards taken literally. */
export function soqlEscape(text: string): string {
  return text.replace(/[\\'"]/g, (c) => `\\${c}`).replace(/[%_]/g, (c) => `\\${c}`);
}

const text = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : null;

/**
 * One page of the CRM's leads: Salesforce's query (following `nextRecordsUrl`, which must stay on
 * the API's host), HubSpot's contacts of the adviser's owner (search), Zoho's Leads pages
 * (`/Leads/search?word=` when searching; 204 is no match). `cursor` is what `next` said.
 */
export async function listLeads(
  options: CrmHttpOptions,
  api: CrmApi,
  config: CrmConfig,
  query: { q: string; cursor: string | null; ownerId: string | null },
): Promise<CrmLeadPage> {
  switch (api.tipo) {
    case 'Salesforce': {
      let url: string;
      if (query.cursor) {
        if (!/^\/services\/data\/[\w./-]+$/.test(query.cursor))
          throw new CrmCallError('permanent', 'INVALID_CURSOR: not a Salesforce page', 400);
        url = `${new URL(api.base).origin}${query.cursor}`;
      } else {
        let soql = config.queryLead.trim() || DEFAULT_SALESFORCE_QUERY;
        if (query.q) {
          const where = (config.queryLeadSecondary.trim() || DEFAULT_SALESFORCE_SEARCH).replaceAll(
            '{q}',
            soqlEscape(query.q),
          );
          soql += /\bwhere\b/i.test(soql) ? ` AND (${where})` : ` WHERE ${where}`;
        }
        url = `${api.base}/query?${new URLSearchParams({ q: soql })}`;
      }
      const res = await apiCall(options, api, url);
      const o = isObj(res.body) ? res.body : {};
      const records = Array.isArray(o.records) ? o.records.filter(isObj) : [];
      return {
        items: records.map((r) => ({
          crmId: text(r.Id) ?? '',
          nombre: text(r.FirstName) ?? '',
          apellidos: text(r.LastName) ?? '',
          email: text(r.Email),
          telefono: text(r.Phone),
          ...(text(r.Status) ? { status: text(r.Status)! } : {}),
          ...(text(r.CreatedDate) ? { fechaAlta: text(r.CreatedDate)! } : {}),
          vitrinaId: text(r[EXTERNAL_ID.Salesforce]),
        })),
        next: o.done === false && str(o.nextRecordsUrl) ? str(o.nextRecordsUrl) : null,
      };
    }
    case 'Hubspot': {
      const filters: Obj[] = [];
      if (query.ownerId)
        filters.push({ propertyName: 'hubspot_owner_id', operator: 'EQ', value: query.ownerId });
      const res = await apiCall(options, api, `${api.base}/crm/v3/objects/contacts/search`, {
        method: 'POST',
        json: {
          ...(filters.length > 0 ? { filterGroups: [{ filters }] } : {}),
          ...(query.q ? { query: query.q } : {}),
          properties: HUBSPOT_PROPERTIES,
          limit: CRM_PAGE_SIZE,
          ...(query.cursor ? { after: query.cursor } : {}),
        },
      });
      const o = isObj(res.body) ? res.body : {};
      const results = Array.isArray(o.results) ? o.results.filter(isObj) : [];
      const paging = isObj(o.paging) && isObj(o.paging.next) ? o.paging.next : null;
      return {
        items: results.map((r) => {
          const p = isObj(r.properties) ? r.properties : {};
          return {
            crmId: text(r.id) ?? '',
            nombre: text(p.firstname) ?? '',
            apellidos: text(p.lastname) ?? '',
            email: text(p.email),
            telefono: text(p.phone),
            ...(text(p.hs_lead_status) ? { status: text(p.hs_lead_status)! } : {}),
            ...(text(p.createdate) ? { fechaAlta: text(p.createdate)! } : {}),
            vitrinaId: text(p[EXTERNAL_ID.Hubspot]),
          };
        }),
        next: paging ? text(paging.after) : null,
      };
    }
    case 'Zoho': {
      const page = query.cursor ? Number(query.cursor) : 1;
      if (!Number.isInteger(page) || page < 1 || page > 10_000)
        throw new CrmCallError('permanent', 'INVALID_CURSOR: not a Zoho page', 400);
      const params = new URLSearchParams({
        fields: ZOHO_FIELDS.join(','),
        page: String(page),
        per_page: String(CRM_PAGE_SIZE),
      });
      if (query.q) params.set('word', query.q);
      const res = await apiCall(
        options,
        api,
        `${api.base}/Leads${query.q ? '/search' : ''}?${params}`,
      );
      if (res.status === 204) return { items: [], next: null };
      const o = isObj(res.body) ? res.body : {};
      const data = Array.isArray(o.data) ? o.data.filter(isObj) : [];
      const info = isObj(o.info) ? o.info : {};
      return {
        items: data.map((r) => ({
          crmId: text(r.id) ?? '',
          nombre: text(r.First_Name) ?? '',
          apellidos: text(r.Last_Name) ?? '',
          email: text(r.Email),
          telefono: text(r.Phone),
          ...(text(r.Lead_Status) ? { status: text(r.Lead_Status)! } : {}),
          ...(text(r.Created_Time) ? { fechaAlta: text(r.Created_Time)! } : {}),
          vitrinaId: text(r[EXTERNAL_ID.Zoho]),
        })),
        next: info.more_records === true ? String(page + 1) : null,
      };
    }
    default: {
      const unknownTipo: never = api.tipo;
      throw new Error(`unknown CRM ${String(unknownTipo)}`);
    }
  }
}
