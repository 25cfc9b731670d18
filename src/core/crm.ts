/**
 * CRM sync (issue 17; spec §3 configCRM / configCRMWeb, §5 configuration requirements, §7 CRM
 * calls and the lead export, §8 missing-configuration messages, §9 CRM types): pure rules.
 *
 * - {@link CrmConfig}: a corporate's CRM configuration (the spec's `configCRM` and
 *   `configCRMWeb` in one), and {@link crmConfigIssues}: the spec's messages for what is missing.
 * - {@link mapLead}: the lead map. Each of our fields names a CRM field (`campo`, dotted for a
 *   nested one: `Owner.id` → `{ Owner: { id } }`) and may carry a `predeterminado` used when
 *   the lead has no value (or when the field is not one of ours: a constant such as `Company`).
 * - {@link crmExpiry}: when a connection's access token expires: the provider's `expires_in`
 *   (Zoho's legacy `expires_in_sec` means `expires_in` is in ms), else the spec's 36e5/700 s.
 * - The `corporate-crm` aggregate: {@link crmConfigDecider} (one `CrmConfigured` per change).
 */
import { accept, reject, type Decider } from './decider';
import type { Lead } from './lead';

export const CRM_TIPOS = ['Salesforce', 'Hubspot', 'Zoho'] as const;
export type CrmTipo = (typeof CRM_TIPOS)[number];

/** One entry of the lead map: the CRM field (dotted for nesting) and an optional default. */
export interface LeadMapEntry {
  campo: string;
  predeterminado?: string;
}

export type LeadMap = Record<string, LeadMapEntry>;

/** A corporate's CRM configuration as stored (the client secret only encrypted, server-side). */
export interface CrmConfig {
  tipo: CrmTipo | null;
  clientId: string;
  authorizeUri: string;
  tokenUri: string;
  scope: string;
  /** Salesforce: the SOQL that lists leads; others: unused. */
  queryLead: string;
  /** Salesforce: the WHERE clause of a search, `{q}` standing for the (escaped) text. */
  queryLeadSecondary: string;
  /** Salesforce: the Lead sObject path under the API base (`/sobjects/Lead`). */
  insertLead: string;
  /** The URL (or a path under the instance / API domain) that tells who the connected user is. */
  infoSeller: string;
  /** The API base (Salesforce `{instance_url}/services/data/vNN.N`, HubSpot `https://api.hubapi.com`, Zoho `{api_domain}/crm/v8`); empty: from the token answer. */
  apiBase: string;
  mapaLeads: LeadMap;
  exportacion: { url: string | null };
}

export const EMPTY_CRM_CONFIG: CrmConfig = {
  tipo: null,
  clientId: '',
  authorizeUri: '',
  tokenUri: '',
  scope: '',
  queryLead: '',
  queryLeadSecondary: '',
  insertLead: '',
  infoSeller: '',
  apiBase: '',
  mapaLeads: {},
  exportacion: { url: null },
};

/** The spec's missing-configuration messages (spec §8), as message keys. */
export type CrmConfigIssueCode =
  | 'crm_no_config'
  | 'crm_no_authorize_uri'
  | 'crm_no_scope'
  | 'crm_no_token_uri'
  | 'crm_no_insert_lead'
  | 'crm_no_info_seller';

export interface CrmConfigIssue {
  campo: keyof CrmConfig | 'tipo';
  code: CrmConfigIssueCode;
}

const blank = (s: string | null | undefined) => !s || s.trim() === '';

/**
 * What a configuration lacks (spec §5): authorizeUri always; scope for Zoho and Hubspot; tokenUri
 * always (the code is exchanged on the server for all three); insertLead and infoSeller for
 * Salesforce. A configuration without a type has nothing to check (the CRM is off).
 */
export function crmConfigIssues(config: CrmConfig): CrmConfigIssue[] {
  if (config.tipo === null) return [];
  const issues: CrmConfigIssue[] = [];
  if (blank(config.authorizeUri))
    issues.push({ campo: 'authorizeUri', code: 'crm_no_authorize_uri' });
  if (config.tipo !== 'Salesforce' && blank(config.scope))
    issues.push({ campo: 'scope', code: 'crm_no_scope' });
  if (blank(config.tokenUri)) issues.push({ campo: 'tokenUri', code: 'crm_no_token_uri' });
  if (config.tipo === 'Salesforce') {
    if (blank(config.insertLead)) issues.push({ campo: 'insertLead', code: 'crm_no_insert_lead' });
    if (blank(config.infoSeller)) issues.push({ campo: 'infoSeller', code: 'crm_no_info_seller' });
  }
  return issues;
}

/** What starting an authorisation needs (spec §8 order): a type, authorizeUri, scope. */
export function authorizeIssue(config: CrmConfig | null): CrmConfigIssueCode | null {
  if (!config || config.tipo === null) return 'crm_no_config';
  if (blank(config.authorizeUri)) return 'crm_no_authorize_uri';
  if (config.tipo !== 'Salesforce' && blank(config.scope)) return 'crm_no_scope';
  if (blank(config.tokenUri)) return 'crm_no_token_uri';
  return null;
}

// ---------------------------------------------------------------------------------------------
// The lead map

/** A dotted CRM field name: segments of letters, digits, `_` and `-`, at most 6 deep. */
export const CAMPO_RE = /^[A-Za-z_][\w-]{0,79}(\.[A-Za-z_][\w-]{0,79}){0,5}$/;

const RESERVED_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/** A valid CRM field name: {@link CAMPO_RE}, and no segment that names a prototype. */
export function isValidCampo(campo: string): boolean {
  return CAMPO_RE.test(campo) && !campo.split('.').some((s) => RESERVED_SEGMENTS.has(s));
}

/** The map used when a corporate set none: the usual fields of each CRM. */
export function defaultLeadMap(tipo: CrmTipo): LeadMap {
  switch (tipo) {
    case 'Salesforce':
      return {
        nombre: { campo: 'FirstName' },
        apellidos: { campo: 'LastName', predeterminado: 'Sin apellido' },
        email: { campo: 'Email' },
        telefono: { campo: 'Phone' },
        celular: { campo: 'MobilePhone' },
        notas: { campo: 'Description' },
        medioContacto: { campo: 'LeadSource' },
        empresa: { campo: 'Company', predeterminado: 'Particular' },
      };
    case 'Hubspot':
      return {
        nombre: { campo: 'firstname' },
        apellidos: { campo: 'lastname' },
        email: { campo: 'email' },
        telefono: { campo: 'phone' },
        celular: { campo: 'mobilephone' },
      };
    case 'Zoho':
      return {
        nombre: { campo: 'First_Name' },
        apellidos: { campo: 'Last_Name', predeterminado: 'Sin apellido' },
        email: { campo: 'Email' },
        telefono: { campo: 'Phone' },
        celular: { campo: 'Mobile' },
        notas: { campo: 'Description' },
        medioContacto: { campo: 'Lead_Source' },
      };
    default: {
      const unknownTipo: never = tipo;
      throw new Error(`unknown CRM type ${String(unknownTipo)}`);
    }
  }
}

/** The lead's value of one of our fields as text (null when empty or not a lead field). */
function leadValue(lead: Partial<Lead>, field: string): string | null {
  if (!Object.prototype.hasOwnProperty.call(lead, field)) return null;
  const value = (lead as Record<string, unknown>)[field];
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

export type CrmPayload = { [key: string]: string | CrmPayload };

/**
 * The CRM body the map produces for a lead: every entry whose value (the lead's, else the
 * `predeterminado`) is present, at its dotted path. Entries are applied in key order, so the
 * result does not depend on the map's insertion order; a path that collides with a value already
 * set (`Owner` and `Owner.id`) keeps the first and skips the other.
 */
export function mapLead(lead: Partial<Lead>, mapa: LeadMap): CrmPayload {
  const out: CrmPayload = {};
  for (const field of Object.keys(mapa).sort()) {
    const entry = mapa[field]!;
    if (!isValidCampo(entry.campo)) continue;
    const value = leadValue(lead, field) ?? (entry.predeterminado || null);
    if (value === null) continue;
    const path = entry.campo.split('.');
    let node: CrmPayload = out;
    let ok = true;
    for (const segment of path.slice(0, -1)) {
      const next = Object.prototype.hasOwnProperty.call(node, segment) ? node[segment] : undefined;
      if (next === undefined) node = node[segment] = {};
      else if (typeof next === 'string') {
        ok = false;
        break;
      } else node = next;
    }
    const last = path[path.length - 1]!;
    if (ok && !Object.prototype.hasOwnProperty.call(node, last)) node[last] = value;
  }
  return out;
}

/** A sample lead for the map's preview. */
export const SAMPLE_LEAD: Lead = {
  id: 'lead-ejemplo',
  idCorporativo: 'corporativo',
  idVendedor: null,
  nombre: 'María',
  apellidos: 'González Pérez',
  email: 'maria.gonzalez@example.com',
  telefono: '+52 55 1234 5678',
  celular: '+52 55 8765 4321',
  notas: 'Interesada en un departamento de 2 recámaras',
  medioContacto: 'Showroom',
  tipo: null,
  status: null,
  desarrollo: null,
  fechaAlta: 1_767_225_600,
  eliminado: false,
};

// ---------------------------------------------------------------------------------------------
// Expiry

/** Spec §7: a connection without `expires_in` lasts 36e5/700 seconds (700 ms per unit). */
export const SPEC_EXPIRY_SECONDS = 36e5 / 700;

/**
 * When a token given at `now` expires: `expires_in` seconds later (milliseconds when the legacy
 * `expires_in_sec` is present, as Zoho's old answers), else {@link SPEC_EXPIRY_SECONDS}.
 */
export function crmExpiry(
  now: Date,
  answer: { expires_in?: unknown; expires_in_sec?: unknown },
): Date {
  const raw = Number(answer.expires_in);
  if (Number.isFinite(raw) && raw > 0) {
    const ms = answer.expires_in_sec !== undefined ? raw : raw * 1000;
    return new Date(now.getTime() + ms);
  }
  return new Date(now.getTime() + SPEC_EXPIRY_SECONDS * 1000);
}

export type CrmConnectionState = 'desconectado' | 'conectado' | 'expirado' | 'reautorizar';

/** What `GET /api/crm/user` says about a stored connection at `now`. */
export function connectionState(
  stored: { estado: 'conectado' | 'reautorizar'; expira: Date } | null,
  now: Date,
): CrmConnectionState {
  if (!stored) return 'desconectado';
  if (stored.estado === 'reautorizar') return 'reautorizar';
  return stored.expira.getTime() <= now.getTime() ? 'expirado' : 'conectado';
}

// ---------------------------------------------------------------------------------------------
// Sync health

export type CrmSyncState = 'pendiente' | 'sincronizado' | 'reintentando' | 'fallido';

/** A failed write's next state: 'fallido' (dead letter) when permanent or out of attempts. */
export function failedSyncState(
  attempt: number,
  maxAttempts: number,
  permanent: boolean,
): CrmSyncState {
  return permanent || attempt >= maxAttempts ? 'fallido' : 'reintentando';
}

/**
 * The classifieds export body (spec §7 Lead export): our lead id, the listing's URL, the adviser
 * and the contact.
 */
export function exportPayload(
  lead: Pick<Lead, 'id' | 'nombre' | 'apellidos' | 'email' | 'telefono' | 'celular'>,
  classifiedUrl: string,
  asesor: string,
  mensaje: string,
) {
  return {
    externalId: lead.id,
    classifiedUrl,
    asesor,
    contact: {
      Name: lead.nombre,
      LastName: lead.apellidos,
      Email: lead.email ?? '',
      Phone: lead.telefono ?? lead.celular ?? '',
      Message: mensaje,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The corporate-crm aggregate

/** The stored configuration: the settings and the client secret encrypted (never plain). */
export interface StoredCrmConfig extends CrmConfig {
  /** AES-256-GCM of the client secret with the deployment's key; null: none set. */
  clientSecretCifrado: string | null;
}

export interface CrmConfigState {
  config: StoredCrmConfig | null;
}

export type CrmConfigEvent = {
  type: 'CrmConfigured';
  data: { idCorporativo: string; config: StoredCrmConfig };
};

export type CrmConfigCommand = {
  type: 'ConfigureCrm';
  idCorporativo: string;
  config: CrmConfig;
  /** `keep` the stored secret, `set` a new one (already encrypted), or `clear` it. */
  secret: { keep: true } | { set: string } | { clear: true };
};

export type CrmConfigError = { code: 'CRM_CONFIG_INVALID'; issues: CrmConfigIssue[] };

/** JSON with object keys sorted (a stored event's keys come back in the database's order). */
function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

function sameJson(a: unknown, b: unknown) {
  return canonical(a) === canonical(b);
}

export const crmConfigDecider: Decider<
  CrmConfigCommand,
  CrmConfigState,
  CrmConfigEvent,
  CrmConfigError
> = {
  initialState: { config: null },
  decide(command, state) {
    switch (command.type) {
      case 'ConfigureCrm': {
        const issues = crmConfigIssues(command.config);
        if (issues.length > 0) return reject({ code: 'CRM_CONFIG_INVALID', issues });
        const previous = state.config?.clientSecretCifrado ?? null;
        const secret =
          'set' in command.secret
            ? command.secret.set
            : 'clear' in command.secret
              ? null
              : previous;
        // A new encryption of the same secret differs: only a change of the settings or of
        // "is there a secret" is compared when the secret is kept.
        const config: StoredCrmConfig = { ...command.config, clientSecretCifrado: secret };
        if (
          state.config &&
          !('set' in command.secret) &&
          sameJson({ ...state.config, clientSecretCifrado: previous }, config)
        )
          return accept();
        return accept({
          type: 'CrmConfigured',
          data: { idCorporativo: command.idCorporativo, config },
        });
      }
      default: {
        const unknownCommand: never = command.type;
        throw new Error(`unknown command ${String(unknownCommand)}`);
      }
    }
  },
  evolve(_state, event) {
    switch (event.type) {
      case 'CrmConfigured':
        return { config: event.data.config };
      default: {
        const unknownEvent: never = event.type;
        throw new Error(`unknown event ${String(unknownEvent)}`);
      }
    }
  },
};
