/**
 * Picking a lead where a lead is only a means (the quotation's client, a unit's hold): the
 * server searches every lead in the caller's scope as the user types (`wsObtenerLeads` with `q`,
 * issue 21), so a developer with thousands of leads can pick any of them, not only those of one
 * capped page. An adviser is answered only their own leads: the server applies the scope.
 *
 * The request's parameters are a function of their own ({@link leadPickerParams}), so the
 * integration test sends exactly the call the pickers make.
 */

import { queryOptions } from '@tanstack/react-query';
import type { Lead } from '../../core/lead';
import { api, apiQuery } from './api';

/** A lead as a picker lists and shows it. */
export type PickableLead = Pick<Lead, 'id' | 'nombre' | 'apellidos' | 'email'>;

/** The leads one search shows: enough to pick from, small enough to read at a glance. */
export const LEAD_PICKER_LIMIT = 20;

/** A search waits this long after the last keystroke (no request per key). */
export const LEAD_SEARCH_DEBOUNCE_MS = 250;

/** The query of a picker's search: the newest leads when `text` is blank. */
export function leadPickerParams(idCorporativo: string, text: string) {
  const q = text.trim();
  return { idCorporativo, limit: LEAD_PICKER_LIMIT, ...(q ? { q } : {}) };
}

/**
 * A picker's search. The key changes with the text: TanStack Query cancels the request of a
 * text no longer shown (the fetch reads the query's abort signal), so a slow answer to an old
 * prefix never replaces the newer one.
 */
export const leadPickerQuery = (idCorporativo: string, text: string) =>
  apiQuery<Lead[]>('wsObtenerLeads', leadPickerParams(idCorporativo, text));

/** One lead by id (the pinned client, a preselected lead), whatever page it would be on. */
export const leadByIdQuery = (idCorporativo: string, idLead: string) =>
  queryOptions({
    queryKey: ['api', 'lead', { idCorporativo, idLead }] as const,
    queryFn: ({ signal }) =>
      api<Lead>(
        `/api/corporativos/${encodeURIComponent(idCorporativo)}/leads/${encodeURIComponent(idLead)}`,
        { signal },
      ),
    retry: false,
  });
