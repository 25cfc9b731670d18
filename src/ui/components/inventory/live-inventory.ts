/**
 * Live availability: the server's event stream patches the cached units, so every open
 * availability grid, table and list repaints without a reload.
 *
 * - Signed in: one shared `EventSource('/api/stream')` (reference counted across the pages
 *   that use it); a `UnitStatusChanged`/`UnitPriceChanged` patches the unit in every cached
 *   `wsObtenerClusters` answer at once, other unit events refetch.
 * - Visitors: `EventSource('/api/public/…/stream')` sends the public view of a changed unit,
 *   which replaces it in the cached public availability.
 */

import { useEffect } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import type { Unit } from '../../../core/types';
import type { ClusterWithUnits } from './inventory-data';
import type { PublicAvailability, PublicUnit } from './public-data';

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
    patched = patchUnits(client, id, (u) => ({ ...u, status }));
  } else if (id && change.type === 'UnitPriceChanged' && typeof change.precio === 'number') {
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

let source: EventSource | null = null;
let users = 0;
const clients = new Set<QueryClient>();
const changeListeners = new Set<(change: LiveChange, client: QueryClient) => void>();

/**
 * Lets another feature read the same stream (the leads' `Lead…` changes): the listener hears
 * every change while some page keeps the stream open with {@link useInventoryLive}.
 */
export function onLiveChange(listener: (change: LiveChange, client: QueryClient) => void) {
  changeListeners.add(listener);
  return () => {
    changeListeners.delete(listener);
  };
}

function open() {
  if (source || typeof EventSource === 'undefined') return;
  source = new EventSource('/api/stream', { withCredentials: true });
  source.addEventListener('change', (e) => {
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
  // After a reconnection, what changed meanwhile is unknown: read the units again.
  let opened = false;
  source.addEventListener('ready', () => {
    if (opened) {
      for (const client of clients) {
        void client.invalidateQueries({ queryKey: ['api', 'wsObtenerClusters'] });
      }
    }
    opened = true;
  });
}

function close() {
  source?.close();
  source = null;
}

/** Keeps the signed-in live stream open while the calling page is mounted. */
export function useInventoryLive(enabled = true): void {
  const client = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    users++;
    clients.add(client);
    open();
    return () => {
      users--;
      if (users === 0) {
        clients.clear();
        close();
      }
    };
  }, [client, enabled]);
}

/** Replaces one unit in a public availability answer. */
export function applyPublicUnit(
  data: PublicAvailability | undefined,
  unit: PublicUnit,
): PublicAvailability | undefined {
  if (!data) return data;
  let changed = false;
  const clusters = data.clusters.map((cluster) => {
    if (cluster.id !== unit.idCluster) return cluster;
    const i = cluster.unidades.findIndex((u) => u.id === unit.id);
    const unidades = cluster.unidades.slice();
    if (i < 0) unidades.push(unit);
    else unidades[i] = unit;
    changed = true;
    return { ...cluster, unidades };
  });
  return changed ? { ...data, clusters } : data;
}

/** Keeps the public stream of a development open and its cached availability current. */
export function usePublicLive(corporateSlug: string, developmentSlug: string): void {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const es = new EventSource(
      `/api/public/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos/${encodeURIComponent(developmentSlug)}/stream`,
    );
    const key = ['api', 'public', 'disponibilidad', corporateSlug, developmentSlug];
    es.addEventListener('unit', (e) => {
      try {
        const unit = JSON.parse((e as MessageEvent<string>).data) as PublicUnit;
        client.setQueryData<PublicAvailability>(key, (old) => applyPublicUnit(old, unit));
      } catch {
        // A malformed message is ignored; the next reload reads everything.
      }
    });
    let opened = false;
    es.addEventListener('ready', () => {
      if (opened) void client.invalidateQueries({ queryKey: key });
      opened = true;
    });
    return () => es.close();
  }, [client, corporateSlug, developmentSlug]);
}
