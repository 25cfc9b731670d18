/**
 * The signed-in live stream: one shared `EventSource('/api/stream')`, reference counted across
 * the pages that use it, whatever their feature.
 *
 * - It keeps the cached catalogue current, so every open availability grid, table and list
 *   repaints without a reload: a `UnitStatusChanged`/`UnitPriceChanged` patches the unit in
 *   every cached `wsObtenerClusters` answer at once, other unit events refetch (and so do a
 *   price change without its price and a status change of a unit whose price was hidden: the
 *   server omits a hidden price, core/visibility.ts).
 * - Other features follow their own changes with {@link onLiveChange} (the leads' `Lead…`).
 * - Changes sent while the stream was down are lost, so after a reconnection every feature that
 *   reads the stream refetches what it shows ({@link onLiveReconnect}): the units here, the
 *   leads in theirs.
 */

import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import type { Unit } from '../../core/types';
import type { ClusterWithUnits } from './catalogue';

/** A message of `/api/stream` (event `change`). */
export interface LiveChange {
  type: string;
  corporateId: string;
  idUnidad?: string;
  status?: string;
  precio?: number;
  idLead?: string;
}

function patchUnits(client: QueryClient, idUnidad: string, patch: (unit: Unit) => Unit): boolean {
  let found = false;
  client.setQueriesData<ClusterWithUnits[]>({ queryKey: ['api', 'wsObtenerClusters'] }, (old) => {
    if (!old) return old;
    let changed = false;
    const next = old.map((cluster) => {
      const i = cluster.unidades.findIndex((u) => u.id === idUnidad);
      if (i < 0) return cluster;
      changed = true;
      const unidades = cluster.unidades.slice();
      unidades[i] = patch(unidades[i]!);
      return { ...cluster, unidades };
    });
    if (changed) found = true;
    return changed ? next : old;
  });
  return found;
}

/** Applies one change of the signed-in stream to the query cache. */
export function applyLiveChange(client: QueryClient, change: LiveChange): void {
  if (!change.type.startsWith('Unit') && change.type !== 'PrototypeAdded') return;
  const id = change.idUnidad;
  let patched = false;
  if (id && change.type === 'UnitStatusChanged' && typeof change.status === 'string') {
    const status = change.status;
    let priceHidden = false;
    patched = patchUnits(client, id, (u) => {
      if (typeof u.precio !== 'number') priceHidden = true;
      return { ...u, status };
    });
    // The server left out a price its old status hid; the new status may show it: read again.
    if (priceHidden) patched = false;
  } else if (
    id &&
    change.type === 'UnitPriceChanged' &&
    typeof change.precio === 'number' &&
    // A price set to 0 means "the prototype's" (spec §4): the server's read prices it.
    change.precio > 0
  ) {
    const precio = change.precio;
    patched = patchUnits(client, id, (u) => ({ ...u, precio }));
  }
  if (!patched) {
    void client.invalidateQueries({ queryKey: ['api', 'wsObtenerClusters'] });
    void client.invalidateQueries({ queryKey: ['api', 'wsObtenerPrototipos'] });
  }
  // Price from and available counts of the list follow the units.
  void client.invalidateQueries({ queryKey: ['api', 'wsObtenerDesarrollos'] });
  if (id) void client.invalidateQueries({ queryKey: ['api', 'historialUnidad', { idUnidad: id }] });
}

/** How long to wait before opening again a stream the browser gave up on. */
export const LIVE_REOPEN_MS = 5000;

let source: EventSource | null = null;
let users = 0;
/**
 * Query caches that heard a `ready` before: a later `ready` is a reconnection for them, whether
 * the browser reconnected the stream or a page opened it again after the last one had closed
 * it (changes sent while no page held the stream were missed too, and the cache still holds
 * what came before). A new cache (another sign-in) starts fresh.
 */
const heardReady = new WeakSet<QueryClient>();
let reopenTimer: ReturnType<typeof setTimeout> | undefined;
const clients = new Set<QueryClient>();
const changeListeners = new Set<(change: LiveChange, client: QueryClient) => void>();

/** After a reconnection, what changed meanwhile is unknown: read the units again. */
function refetchUnits(client: QueryClient) {
  void client.invalidateQueries({ queryKey: ['api', 'wsObtenerClusters'] });
}
const reconnectListeners = new Set<(client: QueryClient) => void>([refetchUnits]);

/**
 * Lets another feature read the same stream (the leads' `Lead…` changes): the listener hears
 * every change while some page keeps the stream open with {@link useLiveStream}. Pair it
 * with {@link onLiveReconnect} for the changes it could not hear.
 */
export function onLiveChange(listener: (change: LiveChange, client: QueryClient) => void) {
  changeListeners.add(listener);
  return () => {
    changeListeners.delete(listener);
  };
}

/**
 * Lets another feature catch up after the stream reconnects: the listener runs, once per query
 * client, on every `ready` after that client's first, i.e. whenever changes may have been
 * missed.
 */
export function onLiveReconnect(listener: (client: QueryClient) => void) {
  reconnectListeners.add(listener);
  return () => {
    reconnectListeners.delete(listener);
  };
}

function open() {
  if (source || typeof EventSource === 'undefined') return;
  const es = new EventSource('/api/stream', { withCredentials: true });
  source = es;
  es.addEventListener('change', (e) => {
    let change: LiveChange;
    try {
      change = JSON.parse((e as MessageEvent<string>).data) as LiveChange;
    } catch {
      return;
    }
    for (const client of clients) {
      applyLiveChange(client, change);
      for (const listener of changeListeners) listener(change, client);
    }
  });
  es.addEventListener('ready', () => {
    for (const client of clients) {
      if (heardReady.has(client)) for (const listener of reconnectListeners) listener(client);
      else heardReady.add(client);
    }
  });
  // The browser reconnects a dropped stream by itself but gives up for good when an attempt is
  // answered with an error status (a proxy's 502 while the server restarts): open a new one.
  es.addEventListener('error', () => {
    if (source !== es || es.readyState !== EventSource.CLOSED) return;
    source = null;
    reopenTimer = setTimeout(() => {
      reopenTimer = undefined;
      if (users > 0) open();
    }, LIVE_REOPEN_MS);
  });
}

function close() {
  clearTimeout(reopenTimer);
  reopenTimer = undefined;
  source?.close();
  source = null;
}

/**
 * How long the stream stays open after the last page let go of it: a navigation from one live
 * page to the next unmounts one before it mounts the other, and should not reopen the stream
 * (and refetch what the new page just loaded).
 */
export const LIVE_LINGER_MS = 2000;
let lingerTimer: ReturnType<typeof setTimeout> | undefined;

/**
 * Holds the signed-in stream open for `client` until the returned function is called (the
 * stream closes {@link LIVE_LINGER_MS} after no one holds it). Pages use
 * {@link useLiveStream}.
 */
export function retainLiveStream(client: QueryClient): () => void {
  users++;
  clients.add(client);
  clearTimeout(lingerTimer);
  lingerTimer = undefined;
  open();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    users--;
    if (users > 0) return;
    lingerTimer = setTimeout(() => {
      lingerTimer = undefined;
      if (users > 0) return;
      clients.clear();
      close();
    }, LIVE_LINGER_MS);
  };
}

/** Keeps the signed-in live stream open while the calling page is mounted. */
export function useLiveStream(enabled = true): void {
  const client = useQueryClient();
  useEffect(() => (enabled ? retainLiveStream(client) : undefined), [client, enabled]);
}
