/**
 * Live availability for visitors: `EventSource('/api/public/…/stream')` sends the public view of
 * a changed unit, which replaces it in every cached read of the public availability — the whole
 * answer and each page of clusters (issue 21), all keyed under `publicAvailabilityKey` (the
 * signed-in stream is `lib/live-stream.ts`).
 */

import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  publicAvailabilityKey,
  type PublicAvailability,
  type PublicUnit,
} from '../../../lib/public-catalogue';

/** Replaces one unit in a public availability answer (a page without its cluster is left alone). */
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

/** Puts a changed unit into every cached read of the development's public availability. */
export function cachePublicUnit(
  client: QueryClient,
  corporateSlug: string,
  developmentSlug: string,
  unit: PublicUnit,
): void {
  client.setQueriesData<PublicAvailability>(
    { queryKey: publicAvailabilityKey(corporateSlug, developmentSlug) },
    (old) => applyPublicUnit(old, unit),
  );
}

/** Keeps the public stream of a development open and its cached availability current. */
export function usePublicLive(corporateSlug: string, developmentSlug: string): void {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const es = new EventSource(
      `/api/public/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos/${encodeURIComponent(developmentSlug)}/stream`,
    );
    const key = publicAvailabilityKey(corporateSlug, developmentSlug);
    es.addEventListener('unit', (e) => {
      try {
        const unit = JSON.parse((e as MessageEvent<string>).data) as PublicUnit;
        cachePublicUnit(client, corporateSlug, developmentSlug, unit);
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
