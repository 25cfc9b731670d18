/**
 * The CRM as a lead source (spec §4 lead list, issue 17 point 4): while the adviser's CRM
 * connection is the source (the machine's `crmSource` tag), the clients list is the CRM's leads
 * (`GET /api/corporativos/:id/crm/leads`, paged by the CRM's cursor, searched with `q`). Records
 * mapped to one of our leads carry its id, so notes, history and quotations attach; the others
 * are listed as `crm:<crmId>` rows that open nothing. Reading, creating, editing and deleting a
 * lead stay Vitrina's calls: the outbox syncs every change to the CRM.
 *
 * A list call answered 409 `CRM_REAUTORIZAR` gets one refresh and one retry (single-flight, the
 * machine's {@link retryOnceAfterRefresh}); when the CRM needs the user again the list is empty
 * and the status strip shows the reconnect prompt (spec §4: "other CRMs reopen the authorisation
 * window and return an empty list").
 */

import type { Lead } from '../../../../core/lead';
import {
  CrmReconnectError,
  retryOnceAfterRefresh,
  type CrmTokenActor,
} from '../../../../machines/crm-token.machine';
import { fetchCrmLeads, isCrmDisconnected, isCrmUnauthorised, type CrmLeadItem } from './crm';
import { existingCrmActor } from './crm-connection';

function fechaAltaSeconds(value: string | number | null | undefined): number {
  if (typeof value === 'number') return value > 1e12 ? Math.floor(value / 1000) : value;
  if (!value) return 0;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** A CRM record as a row of the clients list. */
export function crmItemAsLead(corporateId: string, item: CrmLeadItem): Lead {
  return {
    id: item.leadId ?? `crm:${item.crmId}`,
    idCorporativo: corporateId,
    nombre: item.nombre ?? '',
    apellidos: item.apellidos ?? '',
    email: item.email ?? null,
    telefono: item.telefono ?? null,
    celular: null,
    notas: '',
    medioContacto: null,
    tipo: null,
    status: null,
    desarrollo: null,
    idVendedor: null,
    fechaAlta: fechaAltaSeconds(item.fechaAlta),
    eliminado: false,
  };
}

/** One page of the clients list, as the leads feature's `LeadSource.list` answers it. */
export interface CrmLeadPageAsLeads {
  leads: Lead[];
  nextCursor: string | null;
  total: number | null;
}

/** The part of a lead source the CRM provides (the leads feature's `CrmListSource`). */
export interface CrmListSource {
  id: string;
  list(
    corporateId: string,
    filters: { q?: string },
    page: { cursor: string | null; limit: number },
    signal?: AbortSignal,
  ): Promise<CrmLeadPageAsLeads>;
}

const EMPTY: CrmLeadPageAsLeads = { leads: [], nextCursor: null, total: 0 };

function crmLeadSource(actor: CrmTokenActor, id: string): CrmListSource {
  return {
    id,
    async list(corporateId, filters, page, signal) {
      if (actor.getSnapshot().hasTag('reconnectPrompt')) return EMPTY;
      try {
        const answer = await retryOnceAfterRefresh(
          actor,
          () => fetchCrmLeads(corporateId, filters.q ?? '', page.cursor, signal),
          isCrmUnauthorised,
        );
        return {
          leads: answer.items.map((item) => crmItemAsLead(corporateId, item)),
          nextCursor: answer.next,
          // The CRMs page by cursor and do not count.
          total: answer.next === null && page.cursor === null ? answer.items.length : null,
        };
      } catch (error) {
        if (error instanceof CrmReconnectError) return EMPTY;
        if (isCrmDisconnected(error)) {
          actor.send({ type: 'crm.changed' });
          return EMPTY;
        }
        throw error;
      }
    },
  };
}

const sources = new Map<string, CrmListSource>();

/** The CRM's list for the corporate while the connection is the lead source, else null. */
export function crmListSourceFor(corporateId: string): CrmListSource | null {
  const actor = existingCrmActor(corporateId);
  if (!actor) return null;
  const snapshot = actor.getSnapshot();
  if (!snapshot.hasTag('crmSource')) return null;
  // A new connection (or the reconnect prompt) is a new list: the id is in the list's cache key.
  const { tipo, info } = snapshot.context;
  const id = `crm-${tipo ?? ''}-${info?.user_id ?? ''}-${snapshot.hasTag('reconnectPrompt') ? 'prompt' : 'on'}`;
  const key = `${corporateId}/${id}`;
  let source = sources.get(key);
  if (!source) {
    source = crmLeadSource(actor, id);
    sources.set(key, source);
  }
  return source;
}
