/**
 * CRM connections: the deployment's CRM service (key, http rules, the public base URL), the
 * corporate's configuration as read, and each adviser's credentials (tokens encrypted with the
 * deployment's key, never sent to a browser).
 *
 * {@link withConnection} runs a CRM call with a valid token: an expired one is refreshed first;
 * a call answered 401 (each provider's shape) triggers one refresh and one retry; a refresh that
 * fails marks the connection 'reautorizar'. Refreshes are single-flight per connection in a
 * process, and a refresh re-reads the stored credentials first, so one another process made is
 * used instead of refreshing again. A refresh merges: a missing `refresh_token` (Salesforce,
 * Zoho) keeps the stored one.
 */
import { crmExpiry, type CrmConfig, type CrmTipo, type StoredCrmConfig } from '../../core/crm';
import type { Queryable } from '../store/db';
import type { RetryPolicy } from '../store/work-support';
import { decryptSecret, encryptSecret } from './crypto';
import {
  apiBaseOf,
  CrmCallError,
  CrmTokenError,
  tokenCall,
  type CrmApi,
  type CrmHttpOptions,
  type CrmUserInfo,
} from './providers';

export interface CrmService {
  key: Buffer;
  http: CrmHttpOptions;
  /** Where people open the app (`PUBLIC_BASE_URL`): the OAuth redirect goes back there. */
  publicBaseUrl: string;
  /** The sync's retry policy (outbox): attempts before the dead letter, backoff. */
  retry: RetryPolicy;
}

export interface CrmOptions {
  /** The key (32 bytes); default: VITRINA_CRM_KEY, the data directory's crm.key, or the database's. */
  key?: Buffer;
  allowHttpLoopback?: boolean;
  timeoutMs?: number;
  publicBaseUrl?: string;
  retry?: Partial<RetryPolicy>;
}

export const DEFAULT_CRM_RETRY: RetryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 30_000,
  maxDelayMs: 3_600_000,
};

/** No credentials for this corporate (409 CRM_DESCONECTADO). */
export class CrmDisconnected extends Error {
  constructor() {
    super('CRM_DESCONECTADO');
    this.name = 'CrmDisconnected';
  }
}

/** The token expired and cannot be refreshed (409 CRM_REAUTORIZAR). */
export class CrmReauthorize extends Error {
  constructor(readonly reason: string) {
    super(`CRM_REAUTORIZAR: ${reason}`);
    this.name = 'CrmReauthorize';
  }
}

/** The corporate has no CRM configuration (type). */
export class CrmNotConfigured extends Error {
  constructor() {
    super('CRM_SIN_CONFIG');
    this.name = 'CrmNotConfigured';
  }
}

export async function readCrmConfig(
  q: Queryable,
  corporateId: string,
): Promise<StoredCrmConfig | null> {
  const { rows } = await q.query<{ doc: StoredCrmConfig }>(
    'SELECT doc FROM rm_crm_config WHERE corporate_id = $1',
    [corporateId],
  );
  return rows[0]?.doc ?? null;
}

export function clientSecretOf(crm: CrmService, config: StoredCrmConfig): string {
  return config.clientSecretCifrado ? decryptSecret(crm.key, config.clientSecretCifrado) : '';
}

export interface Credential {
  tipo: CrmTipo;
  access: string;
  refresh: string | null;
  expira: Date;
  info: CrmUserInfo;
  apiDomain: string | null;
  tokenUrl: string;
  estado: 'conectado' | 'reautorizar';
}

interface CredentialRow {
  tipo: CrmTipo;
  access_token: string;
  refresh_token: string | null;
  expira: Date | string;
  info: CrmUserInfo;
  api_domain: string | null;
  token_url: string;
  estado: 'conectado' | 'reautorizar';
}

export async function readCredential(
  q: Queryable,
  crm: CrmService,
  userId: string,
  corporateId: string,
): Promise<Credential | null> {
  const { rows } = await q.query<CredentialRow>(
    `SELECT tipo, access_token, refresh_token, expira, info, api_domain, token_url, estado
       FROM crm_credentials WHERE user_id = $1 AND corporate_id = $2`,
    [userId, corporateId],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    tipo: row.tipo,
    access: decryptSecret(crm.key, row.access_token),
    refresh: row.refresh_token ? decryptSecret(crm.key, row.refresh_token) : null,
    expira: new Date(row.expira),
    info: row.info,
    apiDomain: row.api_domain,
    tokenUrl: row.token_url,
    estado: row.estado,
  };
}

export async function saveCredential(
  q: Queryable,
  crm: CrmService,
  userId: string,
  corporateId: string,
  cred: Omit<Credential, 'estado'>,
): Promise<void> {
  await q.query(
    `INSERT INTO crm_credentials (user_id, corporate_id, tipo, access_token, refresh_token, expira,
                                  info, api_domain, token_url, estado, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 'conectado', now())
     ON CONFLICT (user_id, corporate_id) DO UPDATE SET tipo = EXCLUDED.tipo,
       access_token = EXCLUDED.access_token, refresh_token = EXCLUDED.refresh_token,
       expira = EXCLUDED.expira, info = EXCLUDED.info, api_domain = EXCLUDED.api_domain,
       token_url = EXCLUDED.token_url, estado = 'conectado', updated_at = now()`,
    [
      userId,
      corporateId,
      cred.tipo,
      encryptSecret(crm.key, cred.access),
      cred.refresh ? encryptSecret(crm.key, cred.refresh) : null,
      cred.expira.toISOString(),
      JSON.stringify(cred.info),
      cred.apiDomain,
      cred.tokenUrl,
    ],
  );
}

async function markReauthorize(q: Queryable, userId: string, corporateId: string) {
  await q.query(
    `UPDATE crm_credentials SET estado = 'reautorizar', updated_at = now()
      WHERE user_id = $1 AND corporate_id = $2`,
    [userId, corporateId],
  );
}

export async function deleteCredential(q: Queryable, userId: string, corporateId: string) {
  await q.query('DELETE FROM crm_credentials WHERE user_id = $1 AND corporate_id = $2', [
    userId,
    corporateId,
  ]);
  await q.query('DELETE FROM crm_oauth_states WHERE user_id = $1 AND corporate_id = $2', [
    userId,
    corporateId,
  ]);
}

export function apiOf(config: CrmConfig, cred: Credential): CrmApi {
  return {
    tipo: cred.tipo,
    base: apiBaseOf(cred.tipo, config, cred.apiDomain),
    domain: cred.apiDomain,
    token: cred.access,
  };
}

export interface ConnectionDeps {
  db: Queryable;
  crm: CrmService;
  clock: () => Date;
}

const inflight = new Map<string, Promise<Credential>>();

/**
 * Refreshes the connection's access token with its refresh token (single-flight per connection
 * in this process). `stale`: the access token that failed; if the stored one differs and is
 * still valid, another refresh already happened and it is used.
 */
export function refreshConnection(
  deps: ConnectionDeps,
  config: StoredCrmConfig,
  userId: string,
  corporateId: string,
  stale: string | null,
): Promise<Credential> {
  const key = `${userId}\u0000${corporateId}`;
  const running = inflight.get(key);
  if (running) return running;
  const work = (async () => {
    const current = await readCredential(deps.db, deps.crm, userId, corporateId);
    if (!current) throw new CrmDisconnected();
    if (current.estado === 'reautorizar') throw new CrmReauthorize('marked');
    const now = deps.clock();
    if (current.access !== stale && current.expira.getTime() > now.getTime()) return current;
    if (!current.refresh) {
      await markReauthorize(deps.db, userId, corporateId);
      throw new CrmReauthorize('no refresh token');
    }
    let answer;
    try {
      answer = await tokenCall(deps.crm.http, current.tokenUrl, {
        grant_type: 'refresh_token',
        refresh_token: current.refresh,
        client_id: config.clientId,
        client_secret: clientSecretOf(deps.crm, config),
      });
    } catch (error) {
      if (error instanceof CrmTokenError) {
        await markReauthorize(deps.db, userId, corporateId);
        throw new CrmReauthorize(error.code);
      }
      throw error;
    }
    const merged: Credential = {
      ...current,
      access: answer.access_token,
      refresh: answer.refresh_token ?? current.refresh,
      expira: crmExpiry(deps.clock(), answer),
      apiDomain: answer.instance_url ?? answer.api_domain ?? current.apiDomain,
      estado: 'conectado',
    };
    await saveCredential(deps.db, deps.crm, userId, corporateId, merged);
    return merged;
  })();
  inflight.set(key, work);
  const clear = () => {
    if (inflight.get(key) === work) inflight.delete(key);
  };
  work.then(clear, clear);
  return work;
}

/**
 * Runs `call` on the user's connection to the corporate's CRM: refreshes an expired token first;
 * on a 401, one refresh and one retry; a second 401 (or a failed refresh) marks it 'reautorizar'.
 */
export async function withConnection<T>(
  deps: ConnectionDeps,
  userId: string,
  corporateId: string,
  call: (api: CrmApi, cred: Credential, config: StoredCrmConfig) => Promise<T>,
): Promise<T> {
  const config = await readCrmConfig(deps.db, corporateId);
  if (!config || config.tipo === null) throw new CrmNotConfigured();
  let cred = await readCredential(deps.db, deps.crm, userId, corporateId);
  if (!cred || cred.tipo !== config.tipo) throw new CrmDisconnected();
  if (cred.estado === 'reautorizar') throw new CrmReauthorize('marked');
  if (cred.expira.getTime() <= deps.clock().getTime()) {
    cred = await refreshConnection(deps, config, userId, corporateId, cred.access);
  }
  try {
    return await call(apiOf(config, cred), cred, config);
  } catch (error) {
    if (!(error instanceof CrmCallError) || error.failure !== 'auth') throw error;
  }
  const fresh = await refreshConnection(deps, config, userId, corporateId, cred.access);
  try {
    return await call(apiOf(config, fresh), fresh, config);
  } catch (error) {
    if (error instanceof CrmCallError && error.failure === 'auth') {
      await markReauthorize(deps.db, userId, corporateId);
      throw new CrmReauthorize('unauthorized after refresh');
    }
    throw error;
  }
}
