/**
 * A development's clusters by cluster or page (issue 21), shared by the signed-in
 * `wsObtenerClusters` and the public availability: one cluster (`idCluster`), or `limite`
 * clusters after the cluster `despuesDe`, in the unpaged answer's order (by name).
 */
import { z } from 'zod';
import type { Cluster } from '../../core/types';

const id = z.string().min(1).max(64);

/** The paging parameters of a query (all optional: without them, every cluster). */
export const clusterPage = {
  idCluster: id.optional(),
  despuesDe: id.optional(),
  limite: z
    .string()
    .regex(/^[1-9]\d{0,3}$/)
    .optional(),
};

export interface ClusterPage {
  idCluster?: string;
  despuesDe?: string;
  limite?: string;
}

/** Whether the query asks for a page rather than every cluster. */
export function isPaged(page: ClusterPage): boolean {
  return !!(page.idCluster || page.despuesDe || page.limite);
}

/** The clusters of a page, in the read's order (by name). */
export function pageOf(clusters: readonly Cluster[], page: ClusterPage): Cluster[] {
  if (page.idCluster) return clusters.filter((cl) => cl.id === page.idCluster);
  const from = page.despuesDe ? clusters.findIndex((cl) => cl.id === page.despuesDe) + 1 : 0;
  // An unknown cursor answers nothing rather than starting over.
  if (page.despuesDe && from === 0) return [];
  return clusters.slice(from, page.limite ? from + Number(page.limite) : undefined);
}
