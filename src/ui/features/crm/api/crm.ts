/**
 * The CRM calls of the client (issue 17; the contract is `docs/crm.md`): the corporate's CRM
 * configuration and its preview (administrators), the CRM's leads, a lead's sync state, retry and
 * the classifieds export, and the corporate's sync summary. Secrets never come back: the
 * configuration says only whether a client secret is set (`clientSecretSet`).
 *
 * The connection itself (who is connected, the authorisation window) is the CRM-token machine's,
 * see `crm-connection.ts`.
 */

import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CrmType } from '../../../../machines/crm-token.machine';
import i18next, { type i18n as I18n } from 'i18next';
import { ApiRequestError, api } from '../../../lib/api';

export const CRM_TYPES: readonly CrmType[] = ['Salesforce', 'Hubspot', 'Zoho'];

export interface LeadMapEntry {
  campo: string;
  predeterminado?: string;
}

export type LeadMap = Record<string, LeadMapEntry>;

/** `GET /api/corporativos/:id/crm/config`. */
export interface CrmConfigView {
  tipo: CrmType | null;
  clientId: string;
  clientSecretSet: boolean;
  authorizeUri: string;
  tokenUri: string;
  scope: string;
  queryLead: string;
  queryLeadSecondary: string;
  insertLead: string;
  infoSeller: string;
  apiBase: string;
  mapaLeads: LeadMap;
  exportacion: { url: string | null };
}

/** The body of `PUT …/crm/config`: `clientSecret` absent keeps it, '' clears it. */
export type CrmConfigInput = Omit<CrmConfigView, 'clientSecretSet'> & { clientSecret?: string };

/** A lead as the CRM lists it; `leadId` is ours when the record is mapped to one of our leads. */
export interface CrmLeadItem {
  crmId: string;
  nombre: string;
  apellidos: string;
  email: string | null;
  telefono: string | null;
  status?: string | null;
  fechaAlta?: string | null;
  leadId: string | null;
}

export interface CrmLeadPage {
  items: CrmLeadItem[];
  next: string | null;
}

export type SyncState = 'pendiente' | 'sincronizado' | 'reintentando' | 'fallido';

/** `GET /api/corporativos/:id/leads/:leadId/crm`. */
export interface LeadCrmState {
  sync: {
    estado: SyncState;
    crmId?: string | null;
    error?: string | null;
    intentos: number;
    ultimoIntento?: string | null;
  } | null;
  exportacion?: { estado: string; error?: string | null; fecha?: string | null } | null;
}

/** `GET /api/corporativos/:id/crm/sincronizacion`. */
export interface CrmSyncSummary {
  pendientes: number;
  reintentando: number;
  fallidos: number;
  recientes: {
    leadId: string;
    nombre: string;
    estado: SyncState;
    error: string | null;
    intentos: number;
    ultimoIntento: string | null;
  }[];
}

const corp = (id: string) => `/api/corporativos/${encodeURIComponent(id)}`;

export const crmKeys = {
  all: ['crm'] as const,
  corporate: (corporateId: string) => ['crm', corporateId] as const,
  config: (corporateId: string) => ['crm', corporateId, 'config'] as const,
  summary: (corporateId: string) => ['crm', corporateId, 'sync'] as const,
  lead: (corporateId: string, leadId: string) => ['crm', corporateId, 'lead', leadId] as const,
};

/** The CRM refused the call until the user authorises again / there are no credentials. */
export function isCrmUnauthorised(error: unknown): boolean {
  return (
    error instanceof ApiRequestError &&
    (error.status === 401 || error.status === 409) &&
    error.errorCode === 'CRM_REAUTORIZAR'
  );
}

export function isCrmDisconnected(error: unknown): boolean {
  return (
    error instanceof ApiRequestError &&
    error.status === 409 &&
    error.errorCode === 'CRM_DESCONECTADO'
  );
}

export function fetchCrmLeads(
  corporateId: string,
  q: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<CrmLeadPage> {
  return api<CrmLeadPage>(`${corp(corporateId)}/crm/leads`, {
    query: { q: q.trim() || undefined, cursor: cursor ?? undefined },
    signal,
  });
}

export const crmConfigQuery = (corporateId: string) =>
  queryOptions({
    queryKey: crmKeys.config(corporateId),
    queryFn: ({ signal }) => api<CrmConfigView>(`${corp(corporateId)}/crm/config`, { signal }),
  });

export function useSaveCrmConfig(corporateId: string) {
  const client = useQueryClient();
  return useMutation({
    // Field errors are shown at the fields, not as a toast.
    meta: { silent: true },
    mutationFn: (input: CrmConfigInput) =>
      api<CrmConfigView>(`${corp(corporateId)}/crm/config`, { method: 'PUT', body: input }),
    onSuccess: (saved) => {
      if (saved && typeof saved === 'object' && 'clientSecretSet' in saved)
        client.setQueryData(crmKeys.config(corporateId), saved);
      else void client.invalidateQueries({ queryKey: crmKeys.config(corporateId) });
    },
  });
}

export function previewLeadMap(
  corporateId: string,
  mapaLeads: LeadMap,
  signal?: AbortSignal,
): Promise<{ payload: unknown }> {
  return api<{ payload: unknown }>(`${corp(corporateId)}/crm/config/vista-previa`, {
    method: 'POST',
    body: { mapaLeads },
    signal,
  });
}

export const crmSyncSummaryQuery = (corporateId: string) =>
  queryOptions({
    queryKey: crmKeys.summary(corporateId),
    queryFn: ({ signal }) =>
      api<CrmSyncSummary>(`${corp(corporateId)}/crm/sincronizacion`, { signal }),
    refetchInterval: 5000,
  });

/** The lead's sync and export state; polled while something is still on its way. */
export function useLeadCrmState(corporateId: string, leadId: string) {
  return useQuery({
    queryKey: crmKeys.lead(corporateId, leadId),
    queryFn: ({ signal }) =>
      api<LeadCrmState>(`${corp(corporateId)}/leads/${encodeURIComponent(leadId)}/crm`, {
        signal,
      }),
    retry: false,
    refetchInterval: (query) => {
      const data = query.state.data;
      const busy = (s: string | undefined) => s === 'pendiente' || s === 'reintentando';
      return data && (busy(data.sync?.estado) || busy(data.exportacion?.estado ?? undefined))
        ? 2000
        : false;
    },
  });
}

export function useRetryLeadSync(corporateId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (leadId: string) =>
      api(`${corp(corporateId)}/leads/${encodeURIComponent(leadId)}/crm/reintentar`, {
        method: 'POST',
      }),
    onSuccess: (_data, leadId) => {
      void client.invalidateQueries({ queryKey: crmKeys.lead(corporateId, leadId) });
      void client.invalidateQueries({ queryKey: crmKeys.summary(corporateId) });
    },
  });
}

export function useExportLead(corporateId: string, leadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mensaje: string) =>
      api(`${corp(corporateId)}/leads/${encodeURIComponent(leadId)}/exportar`, {
        method: 'POST',
        body: mensaje ? { mensaje } : {},
      }),
    onSuccess: () => void client.invalidateQueries({ queryKey: crmKeys.lead(corporateId, leadId) }),
  });
}

/** The configuration fields the spec's missing-piece messages name ('No hay authorizeUri' …). */
const MESSAGE_FIELDS: readonly (readonly [RegExp, keyof CrmConfigInput])[] = [
  [/authorizeUri/i, 'authorizeUri'],
  [/tokenUri/i, 'tokenUri'],
  [/insertLead/i, 'insertLead'],
  [/infoSeller/i, 'infoSeller'],
  [/\bscope\b/i, 'scope'],
  [/clientId|client id/i, 'clientId'],
  [/clientSecret|client secret/i, 'clientSecret'],
  [/exportaci|export/i, 'exportacion'],
  [/config CRM|tipo/i, 'tipo'],
];

/**
 * The field errors of a refused save: every item of the error answer, placed at the field it
 * names (`campo` / `field` / `path`, or the field its message names), the rest under `_form`.
 */
/** A CRM configuration problem's code (core `CrmConfigIssue`) as the spec's translated text. */
const ISSUE_TEXTS: Record<string, string> = {
  crm_no_authorize_uri: 'errors:crm.noAuthorizeUri',
  crm_no_scope: 'errors:crm.noScope',
  crm_no_token_uri: 'errors:crm.noTokenUri',
  crm_no_insert_lead: 'errors:crm.noInsertLead',
  crm_no_info_seller: 'errors:crm.noInfoSeller',
};

function codeText(code: unknown, i18n: I18n): string | null {
  const key = typeof code === 'string' ? ISSUE_TEXTS[code] : undefined;
  return key && i18n.exists(key) ? i18n.t(key) : null;
}

export function crmFieldErrors(error: unknown, i18n: I18n = i18next): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiRequestError))
    return { _form: error instanceof Error ? error.message : '' };
  const items: unknown[] = Array.isArray(error.body) ? error.body : [error.body];
  const add = (field: string | undefined, message: string) => {
    const key = field?.split('.')[0] || 'form';
    const at = key === 'form' ? '_form' : key;
    out[at] = out[at] ? `${out[at]} · ${message}` : message;
  };
  for (const raw of items) {
    if (!raw || typeof raw !== 'object') continue;
    const item = raw as Record<string, unknown>;
    const message = typeof item.message === 'string' ? item.message : error.message;
    const named = [item.campo, item.field, item.path].find(
      (v): v is string => typeof v === 'string' && v !== '',
    );
    const details = Array.isArray(item.details)
      ? item.details
      : Array.isArray(item.campos)
        ? item.campos
        : null;
    if (details && details.length > 0) {
      for (const d of details) {
        if (!d || typeof d !== 'object') continue;
        const detail = d as Record<string, unknown>;
        // A detail without its own message says its code: each field its own text (the
        // answer's message is the first problem's, which every field showed).
        const text =
          typeof detail.message === 'string'
            ? detail.message
            : (codeText(detail.code, i18n) ?? message);
        const field = [detail.campo, detail.field, detail.path].find(
          (v): v is string => typeof v === 'string',
        );
        add(field ?? MESSAGE_FIELDS.find(([re]) => re.test(text))?.[1], text);
      }
      continue;
    }
    add(named ?? MESSAGE_FIELDS.find(([re]) => re.test(message))?.[1], message);
  }
  if (Object.keys(out).length === 0) out._form = error.message;
  return out;
}
