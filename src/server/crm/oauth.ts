/**
 * The OAuth authorization-code flow on the server, for the three CRMs (issue 17 point 2):
 *
 * - {@link startAuthorization}: the provider's authorize URL with `client_id`, `redirect_uri`
 *   (`{PUBLIC_BASE_URL}/corporativos/{slug}/clientes`), a random `state` (32 bytes) stored only
 *   as a hash, single-use, bound to the session (its hash), the user, the corporate and the CRM
 *   type, valid 10 minutes; Salesforce a PKCE `code_challenge` (S256; the verifier stored
 *   encrypted); HubSpot and Zoho the `scope`; Zoho `access_type=offline&prompt=consent`.
 * - {@link completeAuthorization}: the state is consumed (wrong, reused, expired, another
 *   session's or user's or corporate's, or for another CRM type: 400 'crm_state_invalid'), the
 *   code exchanged at the token URI (Zoho: at the `accounts-server` the redirect carried, when it
 *   is a Zoho accounts host or the configured token URI's origin), the user's CRM identity read,
 *   and the tokens stored encrypted. The answer carries no token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { authorizeIssue, crmExpiry, type StoredCrmConfig } from '../../core/crm';
import type { Membership } from '../../core/permissions';
import { ApiError } from '../http/errors';
import type { Queryable } from '../store/db';
import {
  clientSecretOf,
  readCrmConfig,
  saveCredential,
  type CrmService,
  type Credential,
} from './connections';
import { decryptSecret, digest, encryptSecret } from './crypto';
import {
  apiBaseOf,
  CrmCallError,
  CrmTokenError,
  fetchUserInfo,
  tokenCall,
  urlAllowed,
  type CrmUserInfo,
} from './providers';

export const STATE_TTL_MS = 10 * 60_000;

const stateInvalid = () => new ApiError(400, 'CRM_STATE_INVALID', 'crm_state_invalid');
const tokenFailed = () => new ApiError(400, 'CRM_TOKEN_FAILED', 'crm_token_failed');

export function redirectUriOf(crm: CrmService, corporateSlug: string): string {
  return `${crm.publicBaseUrl.replace(/\/+$/, '')}/corporativos/${encodeURIComponent(corporateSlug)}/clientes`;
}

/** The configuration an authorisation needs, or the spec's 400 for what is missing. */
export async function requireAuthorizable(
  q: Queryable,
  corporateId: string,
): Promise<StoredCrmConfig> {
  const config = await readCrmConfig(q, corporateId);
  const issue = authorizeIssue(config);
  if (issue) throw new ApiError(400, 'CRM_CONFIG_INVALID', issue);
  return config!;
}

interface FlowDeps {
  db: Queryable;
  crm: CrmService;
  clock: () => Date;
}

export async function startAuthorization(
  deps: FlowDeps,
  m: Membership,
  sessionToken: string,
): Promise<string> {
  const config = await requireAuthorizable(deps.db, m.corporate.id);
  const tipo = config.tipo!;
  const state = randomBytes(32).toString('base64url');
  const verifier = tipo === 'Salesforce' ? randomBytes(48).toString('base64url') : null;
  const redirectUri = redirectUriOf(deps.crm, m.corporate.slug);
  const now = deps.clock();
  await deps.db.query('DELETE FROM crm_oauth_states WHERE expires_at < $1', [now.toISOString()]);
  await deps.db.query(
    `INSERT INTO crm_oauth_states (state_hash, session_hash, user_id, corporate_id, tipo,
                                   code_verifier, redirect_uri, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      digest(state),
      digest(sessionToken),
      m.user.id,
      m.corporate.id,
      tipo,
      verifier ? encryptSecret(deps.crm.key, verifier) : null,
      redirectUri,
      new Date(now.getTime() + STATE_TTL_MS).toISOString(),
    ],
  );
  const url = new URL(config.authorizeUri.trim());
  const params = url.searchParams;
  params.set('response_type', 'code');
  params.set('client_id', config.clientId);
  params.set('redirect_uri', redirectUri);
  params.set('state', state);
  if (config.scope.trim() !== '') params.set('scope', config.scope.trim());
  if (tipo === 'Zoho') {
    params.set('access_type', 'offline');
    params.set('prompt', 'consent');
  }
  if (verifier) {
    params.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
    params.set('code_challenge_method', 'S256');
  }
  return url.toString();
}

const ZOHO_ACCOUNTS = /^accounts\.zoho\.(com|eu|in|com\.au|com\.cn|jp|sa)$/;

/** Zoho's token URL at the accounts server the redirect named (checked), else the configured one. */
export function zohoTokenUrl(
  crm: CrmService,
  config: StoredCrmConfig,
  accountsServer: string | undefined,
): string {
  if (!accountsServer) return config.tokenUri.trim();
  let u: URL;
  try {
    u = new URL(accountsServer);
  } catch {
    throw stateInvalid();
  }
  const configured = new URL(config.tokenUri.trim());
  const trusted =
    (u.protocol === 'https:' && ZOHO_ACCOUNTS.test(u.hostname) && !u.username && !u.port) ||
    (u.origin === configured.origin && urlAllowed(u.origin, crm.http));
  if (!trusted) throw stateInvalid();
  return `${u.origin}/oauth/v2/token`;
}

export interface TokenResult {
  conectado: true;
  info: CrmUserInfo;
  expira: string;
}

export async function completeAuthorization(
  deps: FlowDeps,
  m: Membership,
  sessionToken: string,
  body: { code: string; state: string; accountsServer?: string },
): Promise<TokenResult> {
  const now = deps.clock();
  const { rows } = await deps.db.query<{
    tipo: string;
    code_verifier: string | null;
    redirect_uri: string;
  }>(
    `UPDATE crm_oauth_states SET used_at = $6
      WHERE state_hash = $1 AND used_at IS NULL AND expires_at > $6
        AND session_hash = $2 AND user_id = $3 AND corporate_id = $4 AND tipo = $5
      RETURNING tipo, code_verifier, redirect_uri`,
    [
      digest(body.state),
      digest(sessionToken),
      m.user.id,
      m.corporate.id,
      (await readCrmConfig(deps.db, m.corporate.id))?.tipo ?? '',
      now.toISOString(),
    ],
  );
  const row = rows[0];
  if (!row) throw stateInvalid();
  const config = await requireAuthorizable(deps.db, m.corporate.id);
  const tipo = config.tipo!;
  const tokenUrl =
    tipo === 'Zoho' ? zohoTokenUrl(deps.crm, config, body.accountsServer) : config.tokenUri.trim();
  const form: Record<string, string> = {
    grant_type: 'authorization_code',
    code: body.code,
    client_id: config.clientId,
    client_secret: clientSecretOf(deps.crm, config),
    redirect_uri: row.redirect_uri,
  };
  if (row.code_verifier) form.code_verifier = decryptSecret(deps.crm.key, row.code_verifier);
  let answer;
  try {
    answer = await tokenCall(deps.crm.http, tokenUrl, form);
  } catch (error) {
    if (error instanceof CrmTokenError || error instanceof CrmCallError) {
      console.error(
        `[vitrina] crm: code exchange refused (${error instanceof CrmTokenError ? error.code : error.crmError}) for corporate ${m.corporate.id}`,
      );
      throw tokenFailed();
    }
    throw error;
  }
  const apiDomain = answer.instance_url ?? answer.api_domain ?? null;
  const access = answer.access_token;
  const fallback = {
    email: m.user.email,
    name: `${m.user.nombre} ${m.user.apellidos ?? ''}`.trim(),
  };
  let info: CrmUserInfo;
  try {
    info = await fetchUserInfo(
      deps.crm.http,
      { tipo, base: apiBaseOf(tipo, config, apiDomain), domain: apiDomain, token: access },
      config,
      fallback,
    );
  } catch (error) {
    if (!(error instanceof CrmCallError)) throw error;
    console.error(`[vitrina] crm: user info failed (${error.crmError})`);
    info = { user_id: '', ...fallback };
  }
  const cred: Omit<Credential, 'estado'> = {
    tipo,
    access,
    refresh: answer.refresh_token ?? null,
    expira: crmExpiry(deps.clock(), answer),
    info,
    apiDomain,
    tokenUrl,
  };
  await saveCredential(deps.db, deps.crm, m.user.id, m.corporate.id, cred);
  return { conectado: true, info, expira: cred.expira.toISOString() };
}
