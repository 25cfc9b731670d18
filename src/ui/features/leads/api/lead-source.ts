/**
 * Where leads come from. The clients page, the lead detail and the showroom registration talk to
 * a {@link LeadSource}, never to a URL: the source is Vitrina's own API, or — while the adviser
 * is connected to the corporate's CRM (issue 17) — a CRM source implementing the same five calls
 * (its list is the CRM's leads; the lead records themselves stay Vitrina's, synced to the CRM
 * through the outbox), returned by {@link leadSourceFor} — the one place that chooses.
 *
 * Sources speak in the spec's `Lead` shape and report the answers the pages act on as typed
 * errors: {@link LeadConflictError} (the lead changed since it was loaded; carries the current
 * version), {@link LeadDuplicateError} (the email or phone already belongs to a lead; carries
 * the owner's name, and the lead when the user may open it) and {@link LeadGoneError} (the lead
 * being saved was deleted meanwhile). Anything else is an {@link ApiRequestError} for the usual
 * toast.
 *
 * Follow-up notes, the change history and quotations are Vitrina's own records whatever the
 * source (see `lead-queries.ts`).
 */

import type { Lead, LeadFields } from '../../../../core/lead';
import type { Corporate } from '../../../../core/types';
import { ApiRequestError, api } from '../../../lib/api';

/** Server-side filters of the list (all optional; `q` is search-as-you-type). */
export interface LeadListFilters {
  q?: string;
  status?: string;
  desarrollo?: string;
  idVendedor?: string;
}

export interface LeadPage {
  leads: Lead[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
  /**
   * How many leads match the filters in the viewer's scope, all pages together. Sent with the
   * first page (no cursor); null on later pages or when the source cannot tell.
   */
  total: number | null;
}

/** The fields sent on create (`idVendedor` only when assigning to someone else). */
export type LeadDraft = Partial<LeadFields> & { nombre: string; idVendedor?: string };

/** The fields of a lead an update may carry (a subset; unchanged fields may be left out). */
export type LeadChanges = Partial<LeadFields> & { idVendedor?: string | null };

export interface LeadSource {
  /** A stable name for cache keys (`vitrina`, later `zoho`, `hubspot`, …). */
  readonly id: string;
  /** One page of the list, newest first by `fechaAlta`. */
  list(
    corporateId: string,
    filters: LeadListFilters,
    page: { cursor: string | null; limit: number },
    signal?: AbortSignal,
  ): Promise<LeadPage>;
  get(corporateId: string, leadId: string, signal?: AbortSignal): Promise<Lead>;
  /** Rejects with {@link LeadDuplicateError} when the email or phone is already a lead's. */
  create(corporateId: string, draft: LeadDraft): Promise<Lead>;
  /**
   * Saves `changes` over `leadAnterior` (the lead as the editor loaded it). Rejects with
   * {@link LeadConflictError} when the stored lead no longer matches it, and with
   * {@link LeadGoneError} when it no longer exists: nothing is written.
   */
  update(
    corporateId: string,
    leadId: string,
    changes: LeadChanges,
    leadAnterior: Lead,
  ): Promise<Lead>;
  delete(corporateId: string, leadId: string): Promise<void>;
}

/** The lead changed since the editor loaded it; `current` is the version stored now. */
export class LeadConflictError extends Error {
  constructor(
    readonly current: Lead,
    message: string,
  ) {
    super(message);
    this.name = 'LeadConflictError';
  }
}

/**
 * A live lead of the corporate already has this email or phone; `ownerName` is its adviser.
 * When the user may see that lead, `leadId` names it and `own` says whether it is the user's own;
 * otherwise `leadId` is null.
 */
export class LeadDuplicateError extends Error {
  constructor(
    readonly ownerName: string,
    message: string,
    readonly leadId: string | null = null,
    readonly own = false,
  ) {
    super(message);
    this.name = 'LeadDuplicateError';
  }
}

/**
 * The lead being saved no longer exists for this user: deleted (or merged away) in another tab or
 * by someone else, or no longer in the user's scope. Nothing was written.
 */
export class LeadGoneError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LeadGoneError';
  }
}

function firstItem(body: unknown): Record<string, unknown> | null {
  const first: unknown = Array.isArray(body) ? body[0] : body;
  return first && typeof first === 'object' ? (first as Record<string, unknown>) : null;
}

/** Reads the API's 409 answers into the typed errors; other errors pass through. */
function typed(error: unknown): unknown {
  if (!(error instanceof ApiRequestError) || error.status !== 409) return error;
  const item = firstItem(error.body);
  if (error.errorCode === 'LEAD_DUPLICATE') {
    const owner = item?.propietario as { nombre?: unknown } | undefined;
    const leadId = typeof item?.idLead === 'string' ? item.idLead : null;
    return new LeadDuplicateError(
      typeof owner?.nombre === 'string' ? owner.nombre : '',
      error.message,
      leadId,
      leadId !== null && item?.propio === true,
    );
  }
  if (error.errorCode === 'CONFLICT' && item?.lead && typeof item.lead === 'object') {
    return new LeadConflictError(item.lead as Lead, error.message);
  }
  return error;
}

async function rethrowTyped<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw typed(error);
  }
}

const leadsPath = (corporateId: string) =>
  `/api/corporativos/${encodeURIComponent(corporateId)}/leads`;
const leadPath = (corporateId: string, leadId: string) =>
  `${leadsPath(corporateId)}/${encodeURIComponent(leadId)}`;

/** Vitrina's own API (`wsObtenerLeads`, `/corporativos/{id}/leads`). */
export const vitrinaLeadSource: LeadSource = {
  id: 'vitrina',
  async list(corporateId, filters, page, signal) {
    // The next page's cursor and the first page's total travel in the `X-Next-Cursor` and
    // `X-Total-Count` headers (the body stays the spec's `Lead[]`).
    const query = {
      idCorporativo: corporateId,
      q: filters.q?.trim() || undefined,
      status: filters.status || undefined,
      desarrollo: filters.desarrollo || undefined,
      idVendedor: filters.idVendedor || undefined,
      limit: page.limit,
      cursor: page.cursor ?? undefined,
    };
    let nextCursor: string | null = null;
    let total: number | null = null;
    const leads = await api<Lead[]>('wsObtenerLeads', {
      query,
      signal,
      onResponse: (res) => {
        nextCursor = res.headers.get('X-Next-Cursor');
        const count = res.headers.get('X-Total-Count');
        total = count !== null && /^\d+$/.test(count) ? Number(count) : null;
      },
    });
    return { leads, nextCursor, total };
  },
  get: (corporateId, leadId, signal) => api<Lead>(leadPath(corporateId, leadId), { signal }),
  create: (corporateId, draft) =>
    rethrowTyped(api<Lead>(leadsPath(corporateId), { method: 'POST', body: draft })),
  async update(corporateId, leadId, changes, leadAnterior) {
    try {
      return await rethrowTyped(
        api<Lead>(leadPath(corporateId, leadId), {
          method: 'PUT',
          body: { ...changes, leadAnterior },
        }),
      );
    } catch (error) {
      // A lead the editor had open answers 404 only once it is gone (deleted, merged, or out of
      // the user's scope since).
      if (error instanceof ApiRequestError && error.status === 404)
        throw new LeadGoneError(error.message);
      throw error;
    }
  },
  async delete(corporateId, leadId) {
    await api(leadPath(corporateId, leadId), { method: 'DELETE' });
  },
};

/**
 * The CRM's source for a corporate while the adviser's CRM connection is the lead source, else
 * null: `features/crm/api/crm-lead-source.ts` (issue 17), which knows the connection, set by the
 * clients route; the leads feature does not depend on the CRM feature.
 */
let crmSourceOf: (corporateId: string) => CrmListSource | null = () => null;

/** What the CRM provides: its list (and a cache name); the lead records stay Vitrina's. */
export type CrmListSource = Pick<LeadSource, 'id' | 'list'>;

/** Set by the route that composes the clients page with the CRM feature. */
export function setCrmLeadSourceResolver(resolver: (corporateId: string) => CrmListSource | null) {
  crmSourceOf = resolver;
}

/**
 * A row of a CRM list that is not (yet) one of our leads: it has no notes, history or quotations
 * to open. Mapped CRM records carry our lead's id instead.
 */
export function isCrmOnlyLead(lead: Pick<Lead, 'id'>): boolean {
  return lead.id.startsWith('crm:');
}

/**
 * The lead source of a corporate: the one place that chooses. With a CRM connection (spec §4:
 * "with a CRM connection, leads come from the CRM") the CRM's; without credentials, Vitrina's.
 */
export function leadSourceFor(corporate: Pick<Corporate, 'id'>): LeadSource {
  const crm = crmSourceOf(corporate.id);
  return crm ? { ...vitrinaLeadSource, id: crm.id, list: crm.list } : vitrinaLeadSource;
}
