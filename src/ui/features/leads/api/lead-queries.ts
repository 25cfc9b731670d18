/**
 * The leads' data on the client: query keys, reads, writes and live updates, all through the
 * corporate's {@link LeadSource} (lists, a lead, create/update/delete) or Vitrina's own calls
 * (notes, change history, quotations, assign, merge, statuses, advisers).
 *
 * Cache rules (spec §4 "Lead list"):
 * - every key starts `['leads', corporateId]`, so one call clears a corporate's leads;
 * - the list is an infinite query of pages of {@link LEADS_PAGE_SIZE}, newest first; TanStack
 *   Query shares one request per key, and {@link useLeadList}'s `loadMore` does nothing while a
 *   page is already loading, so loading is never started twice;
 * - a cached list is shown at once when the page comes back and is kept current by the live
 *   stream: a `Lead…` change reads that one lead and patches it into every cached list (insert,
 *   replace or remove, by the list's own filters), never refetching 100,000 rows;
 * - the total of a list (how many leads match, beyond the loaded pages) comes with its first
 *   page and is asked again, alone, after any change to a lead: a patched list cannot tell
 *   whether a lead beyond its loaded pages entered or left it;
 * - after the stream reconnects, changes may have been missed: the corporate's leads are read
 *   again;
 * - deleting removes the row only after the server confirmed it.
 */

import {
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  compareLeadsNewestFirst,
  leadMatchesQuery,
  type Lead,
  type LeadNote,
} from '../../../../core/lead';
import type { TipoCita } from '../../../../core/appointment';
import type { Quotation } from '../../../../core/quotation';
import type { Corporate, LeadStatus } from '../../../../core/types';
import { ApiRequestError, api, apiQuery, queryClient as appQueryClient } from '../../../lib/api';
import { registerSessionCleanup } from '../../../lib/session-cleanup';
import {
  onLiveChange,
  onLiveReconnect,
  useLiveStream,
  type LiveChange,
} from '../../../lib/live-stream';
import {
  LeadGoneError,
  leadSourceFor,
  type LeadChanges,
  type LeadDraft,
  type LeadListFilters,
  type LeadPage,
  type LeadSource,
} from './lead-source';
import { forgetPinnedLead } from '../../../lib/pinned-lead';

/** Rows per page of the list (the server allows up to 500). */
export const LEADS_PAGE_SIZE = 100;

export const leadKeys = {
  all: (corporateId: string) => ['leads', corporateId] as const,
  lists: (corporateId: string) => ['leads', corporateId, 'list'] as const,
  list: (corporateId: string, sourceId: string, filters: LeadListFilters) =>
    ['leads', corporateId, 'list', sourceId, normalizeFilters(filters)] as const,
  totals: (corporateId: string) => ['leads', corporateId, 'total'] as const,
  total: (corporateId: string, sourceId: string, filters: LeadListFilters) =>
    ['leads', corporateId, 'total', sourceId, normalizeFilters(filters)] as const,
  lead: (corporateId: string, leadId: string) => ['leads', corporateId, 'lead', leadId] as const,
  notes: (corporateId: string, leadId: string) => ['leads', corporateId, 'notes', leadId] as const,
  history: (corporateId: string, leadId: string) =>
    ['leads', corporateId, 'history', leadId] as const,
  quotations: (corporateId: string, leadId: string) =>
    ['leads', corporateId, 'quotations', leadId] as const,
};

/** Filters as part of a key: empty values left out, so `{}` and `{ q: '' }` share a cache. */
export function normalizeFilters(filters: LeadListFilters): LeadListFilters {
  const out: LeadListFilters = {};
  const q = filters.q?.trim();
  if (q) out.q = q;
  if (filters.status) out.status = filters.status;
  if (filters.desarrollo) out.desarrollo = filters.desarrollo;
  if (filters.idVendedor) out.idVendedor = filters.idVendedor;
  return out;
}

/** The rule the server applies to a list, for patching a changed lead into a cached one. */
export function leadMatchesFilters(lead: Lead, filters: LeadListFilters): boolean {
  if (lead.eliminado) return false;
  if (filters.status && lead.status !== filters.status) return false;
  if (filters.desarrollo && lead.desarrollo !== filters.desarrollo) return false;
  if (filters.idVendedor && lead.idVendedor !== filters.idVendedor) return false;
  return leadMatchesQuery(lead, filters.q ?? '');
}

type ListData = InfiniteData<LeadPage, string | null>;

/**
 * A cached list with `lead` put where it belongs: replaced in place, removed when it no longer
 * matches (or is `null`, i.e. gone), inserted in date order when new and within the loaded range.
 */
export function patchLeadPages(
  data: ListData,
  filters: LeadListFilters,
  leadId: string,
  lead: Lead | null,
): ListData {
  const matches = lead !== null && leadMatchesFilters(lead, filters);
  let found = false;
  let pages = data.pages.map((page) => {
    const i = page.leads.findIndex((l) => l.id === leadId);
    if (i < 0 || found) return page;
    found = true;
    const leads = page.leads.slice();
    if (matches) leads[i] = lead;
    else leads.splice(i, 1);
    return { ...page, leads };
  });
  if (!found && matches) {
    const lastPage = pages[pages.length - 1];
    const all = pages.flatMap((p) => p.leads);
    const oldest = all[all.length - 1];
    const withinLoaded =
      !lastPage?.nextCursor || (oldest !== undefined && compareLeadsNewestFirst(lead, oldest) < 0);
    if (withinLoaded) {
      // Put it in the page whose range holds it (the first page whose last row is older).
      let placed = false;
      pages = pages.map((page, index) => {
        if (placed) return page;
        const last = page.leads[page.leads.length - 1];
        const fits =
          index === pages.length - 1 ||
          (last !== undefined && compareLeadsNewestFirst(lead, last) < 0);
        if (!fits) return page;
        placed = true;
        return { ...page, leads: [...page.leads, lead].sort(compareLeadsNewestFirst) };
      });
      if (pages.length === 0) pages = [{ leads: [lead], nextCursor: null, total: null }];
    }
  }
  return found || pages.length !== data.pages.length || pages.some((p, i) => p !== data.pages[i])
    ? { ...data, pages }
    : data;
}

/**
 * Puts the lead (or its absence: `null`, deleted, merged away or out of scope) into every cached
 * list and the lead's own query, and asks the lists' totals again.
 */
export function applyLeadToCache(
  client: QueryClient,
  corporateId: string,
  leadId: string,
  lead: Lead | null,
) {
  for (const [key, data] of client.getQueriesData<ListData>({
    queryKey: leadKeys.lists(corporateId),
  })) {
    if (!data) continue;
    const filters = (key[4] ?? {}) as LeadListFilters;
    const next = patchLeadPages(data, filters, leadId, lead);
    if (next !== data) client.setQueryData(key, next);
  }
  const key = leadKeys.lead(corporateId, leadId);
  if (lead && !lead.eliminado) client.setQueryData(key, lead);
  else {
    // Nobody showing it: forget it. A page showing it reads it again: the 404 puts its query in
    // error while keeping what it showed, and the page tells the user it is gone (removing the
    // query instead would leave that page showing a live-looking lead).
    client.removeQueries({ queryKey: key, type: 'inactive' });
    void client.invalidateQueries({ queryKey: key });
    // A deleted client is no longer the pinned one (issue 19, defect 7).
    forgetPinnedLead(leadId);
  }
  void client.invalidateQueries({ queryKey: leadKeys.totals(corporateId) });
}

/**
 * One page after another of the corporate's leads with these filters, and `total`: how many
 * leads match (undefined until known, null when the source cannot tell).
 */
export function useLeadList(corporate: Corporate, filters: LeadListFilters) {
  const client = useQueryClient();
  const source = leadSourceFor(corporate);
  const totalKey = leadKeys.total(corporate.id, source.id, filters);
  const query = useInfiniteQuery({
    queryKey: leadKeys.list(corporate.id, source.id, filters),
    queryFn: async ({ pageParam, signal }) => {
      const page = await source.list(
        corporate.id,
        normalizeFilters(filters),
        { cursor: pageParam, limit: LEADS_PAGE_SIZE },
        signal,
      );
      // The first page brings the total along: the total's own query starts from it.
      if (pageParam === null) client.setQueryData(totalKey, page.total);
      return page;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    // Live changes keep it current; a reload is the way to resynchronise after a long absence.
    staleTime: Infinity,
  });
  // Asked on its own (a one-row page) only when a change to a lead made it stale; enabled once
  // the list's first page has seeded it, so a list is never loaded with two requests.
  const total = useQuery({
    queryKey: totalKey,
    queryFn: async ({ signal }) =>
      (
        await source.list(
          corporate.id,
          normalizeFilters(filters),
          { cursor: null, limit: 1 },
          signal,
        )
      ).total,
    enabled: query.isSuccess,
    staleTime: Infinity,
  });
  const leads = query.data?.pages.flatMap((p) => p.leads) ?? [];
  const loadMore = () => {
    if (query.hasNextPage && !query.isFetchingNextPage && !query.isFetching)
      void query.fetchNextPage({ cancelRefetch: false });
  };
  return { ...query, leads, loadMore, total: total.data };
}

export function leadQuery(source: LeadSource, corporateId: string, leadId: string) {
  return {
    queryKey: leadKeys.lead(corporateId, leadId),
    queryFn: ({ signal }: { signal: AbortSignal }) => source.get(corporateId, leadId, signal),
  };
}

export function useLead(corporate: Corporate, leadId: string) {
  return useQuery(leadQuery(leadSourceFor(corporate), corporate.id, leadId));
}

const notesPath = (corporateId: string, leadId: string) =>
  `/api/corporativos/${encodeURIComponent(corporateId)}/leads/${encodeURIComponent(leadId)}/notas`;

/** A note as the notes call lists it: with its author's name (null for the website form). */
export type LeadNoteItem = LeadNote & { nombreUsuario?: string | null };

/** Follow-up notes: deleted hidden, newest first (the server's order). */
export function useLeadNotes(corporateId: string, leadId: string) {
  return useQuery({
    queryKey: leadKeys.notes(corporateId, leadId),
    queryFn: ({ signal }) => api<LeadNoteItem[]>(notesPath(corporateId, leadId), { signal }),
  });
}

/** One line of `wsObtenerHistorialCambios`. */
export interface LeadHistoryItem {
  fecha: number;
  actor: string | null;
  nombreActor: string | null;
  campo: string;
  anterior: string | boolean | null;
  nuevo: string | boolean | null;
  evento: string;
  nombreAnterior?: string | null;
  nombreNuevo?: string | null;
  /** An appointment's entry (`campo: 'cita'`): which one, and its title then. */
  idCita?: string;
  titulo?: string;
  tituloAutomatico?: boolean;
  tipo?: TipoCita;
  nombreLead?: string;
}

export function useLeadHistory(corporateId: string, leadId: string) {
  return useQuery({
    queryKey: leadKeys.history(corporateId, leadId),
    queryFn: ({ signal }) =>
      api<LeadHistoryItem[]>('wsObtenerHistorialCambios', {
        query: { idCorporativo: corporateId, idLead: leadId },
        signal,
      }),
  });
}

/** The lead's quotations, newest first (`wsObtenerCotizacionesLocales`). */
export function useLeadQuotations(corporateId: string, leadId: string) {
  return useQuery({
    queryKey: leadKeys.quotations(corporateId, leadId),
    queryFn: ({ signal }) =>
      api<Quotation[]>('wsObtenerCotizacionesLocales', {
        query: { idCorporativo: corporateId, idLead: leadId },
        signal,
      }),
  });
}

export const leadStatusesQuery = (idCorporativo: string) => ({
  ...apiQuery<LeadStatus[]>('wsObtenerStatusLeads', { idCorporativo }),
  staleTime: 60 * 60_000,
});

/** One entry of `wsObtenerAsesores` (Todos / activarAdminUsuarios only). */
export interface Adviser {
  id: string;
  nombre: string;
  apellidos: string;
}

export const advisersQuery = (idCorporativo: string) => ({
  ...apiQuery<Adviser[]>('wsObtenerAsesores', { idCorporativo }),
  staleTime: 10 * 60_000,
});

export const adviserName = (a: Pick<Adviser, 'nombre' | 'apellidos'>) =>
  `${a.nombre} ${a.apellidos}`.trim();

// ---------------------------------------------------------------------------------------------
// Writes

/** Registers a lead; the new lead goes into the cached lists at once (the server answered). */
export function useCreateLead(corporate: Corporate) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (draft: LeadDraft) => leadSourceFor(corporate).create(corporate.id, draft),
    onSuccess: (lead) => applyLeadToCache(client, corporate.id, lead.id, lead),
    // The forms show duplicates and field errors next to the fields, not as toasts.
    meta: { silent: true },
  });
}

export function useUpdateLead(corporate: Corporate, leadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ changes, leadAnterior }: { changes: LeadChanges; leadAnterior: Lead }) =>
      leadSourceFor(corporate).update(corporate.id, leadId, changes, leadAnterior),
    onSuccess: (lead) => {
      applyLeadToCache(client, corporate.id, leadId, lead);
      void client.invalidateQueries({ queryKey: leadKeys.history(corporate.id, leadId) });
    },
    // Deleted meanwhile (another tab, another user): it leaves the lists, and the lead page,
    // reading it again, finds it gone.
    onError: (error) => {
      if (error instanceof LeadGoneError) applyLeadToCache(client, corporate.id, leadId, null);
    },
    meta: { silent: true },
  });
}

/** Deletes softly; the row leaves the lists only once the server confirmed (no optimism). */
export function useDeleteLead(corporate: Corporate) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (leadId: string) => leadSourceFor(corporate).delete(corporate.id, leadId),
    onSuccess: (_ok, leadId) => applyLeadToCache(client, corporate.id, leadId, null),
  });
}

export function useAddNote(corporateId: string, leadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (nota: string) =>
      api<LeadNote>(notesPath(corporateId, leadId), { method: 'POST', body: { nota } }),
    onSuccess: (note) => {
      client.setQueryData<LeadNoteItem[]>(leadKeys.notes(corporateId, leadId), (old) =>
        old ? [note, ...old.filter((n) => n.key !== note.key)] : [note],
      );
    },
  });
}

export function useDeleteNote(corporateId: string, leadId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (key: string) =>
      api(`${notesPath(corporateId, leadId)}/${encodeURIComponent(key)}`, { method: 'DELETE' }),
    onSuccess: (_ok, key) => {
      client.setQueryData<LeadNoteItem[]>(leadKeys.notes(corporateId, leadId), (old) =>
        old?.filter((n) => n.key !== key),
      );
    },
  });
}

const leadActionPath = (corporateId: string, leadId: string, action: 'asignar' | 'merge') =>
  `/api/corporativos/${encodeURIComponent(corporateId)}/leads/${encodeURIComponent(leadId)}/${action}`;

/** Reassigns a lead to another adviser (managers). */
export function useAssignLead(corporateId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, idVendedor }: { leadId: string; idVendedor: string }) =>
      api<Lead>(leadActionPath(corporateId, leadId, 'asignar'), {
        method: 'POST',
        body: { idVendedor },
      }),
    onSuccess: (lead) => {
      applyLeadToCache(client, corporateId, lead.id, lead);
      void client.invalidateQueries({ queryKey: leadKeys.history(corporateId, lead.id) });
    },
  });
}

/** Merges `idLeadDuplicado` into `leadId` (managers); the duplicate is deleted. */
export function useMergeLeads(corporateId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ leadId, idLeadDuplicado }: { leadId: string; idLeadDuplicado: string }) =>
      api<Lead>(leadActionPath(corporateId, leadId, 'merge'), {
        method: 'POST',
        body: { idLeadDuplicado },
      }),
    onSuccess: (lead, { idLeadDuplicado }) => {
      applyLeadToCache(client, corporateId, lead.id, lead);
      applyLeadToCache(client, corporateId, idLeadDuplicado, null);
      void client.invalidateQueries({ queryKey: leadKeys.notes(corporateId, lead.id) });
      void client.invalidateQueries({ queryKey: leadKeys.history(corporateId, lead.id) });
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Live

/** Reads the changed lead and patches every cached view of it. */
async function refreshLead(client: QueryClient, corporate: Corporate, change: LiveChange) {
  const leadId = change.idLead;
  if (!leadId) return;
  let lead: Lead | null;
  try {
    lead = await leadSourceFor(corporate).get(corporate.id, leadId);
  } catch (error) {
    // Deleted, merged away or out of scope now (reassigned): it leaves the lists.
    if (!(error instanceof ApiRequestError) || error.status !== 404) return;
    lead = null;
  }
  applyLeadToCache(client, corporate.id, leadId, lead);
  if (
    change.type === 'LeadNoteAdded' ||
    change.type === 'LeadNoteDeleted' ||
    change.type === 'LeadMerged'
  )
    void client.invalidateQueries({ queryKey: leadKeys.notes(corporate.id, leadId) });
  void client.invalidateQueries({ queryKey: leadKeys.history(corporate.id, leadId) });
}

/**
 * Follows the corporate's lead changes on the shared stream (which someone must hold open, see
 * {@link useLeadsLive}) until the returned function is called: each change patches the cached
 * views of its lead; a reconnection reads every cached view of the corporate's leads again.
 */
export function followLeadChanges(corporate: Corporate): () => void {
  const stopChanges = onLiveChange((change, client) => {
    if (change.corporateId !== corporate.id || !change.type.startsWith('Lead')) return;
    void refreshLead(client, corporate, change);
  });
  const stopReconnects = onLiveReconnect((client) => {
    void client.invalidateQueries({ queryKey: leadKeys.all(corporate.id) });
  });
  return () => {
    stopChanges();
    stopReconnects();
  };
}

/** Keeps the corporate's cached leads current from `/api/stream` while the page is mounted. */
export function useLeadsLive(corporate: Corporate) {
  useLiveStream();
  useEffect(() => followLeadChanges(corporate), [corporate]);
}

// A logout forgets every lead (spec §4); the shell clears the whole cache too, this makes the
// leads' part explicit and independent of that.
registerSessionCleanup('leads', () => {
  appQueryClient.removeQueries({ queryKey: ['leads'] });
});
