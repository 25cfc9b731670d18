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

export type ClusterPage = z.infer<z.ZodObject<typeof clusterPage>>;

/** Whether the query asks for a page rather than every cluster. */
function isPaged(page: ClusterPage): boolean {
  return !!(page.idCluster || page.despuesDe || page.limite);
}

/** The clusters of a page, in the read's order (by name). */
function pageOf(clusters: readonly Cluster[], page: ClusterPage): Cluster[] {
  if (page.idCluster) return clusters.filter((cl) => cl.id === page.idCluster);
  const from = page.despuesDe ? clusters.findIndex((cl) => cl.id === page.despuesDe) + 1 : 0;
  // An unknown cursor answers nothing rather than starting over.
  if (page.despuesDe && from === 0) return [];
  return clusters.slice(from, page.limite ? from + Number(page.limite) : undefined);
}

/** A page's clusters and the clusters whose units to read (`undefined`: the whole development). */
export function selectPage(
  clusters: readonly Cluster[],
  page: ClusterPage,
): { clusters: readonly Cluster[]; unitsOf: string[] | undefined } {
  if (!isPaged(page)) return { clusters, unitsOf: undefined };
  const selected = pageOf(clusters, page);
  return { clusters: selected, unitsOf: selected.map((cl) => cl.id) };
}

/** Units by their cluster, each list in the units' order. */
export function unitsByCluster<U extends { idCluster: string }>(
  units: readonly U[],
): Map<string, U[]> {
  const byCluster = new Map<string, U[]>();
  for (const u of units) {
    const list = byCluster.get(u.idCluster);
    if (list) list.push(u);
    else byCluster.set(u.idCluster, [u]);
  }
  return byCluster;
}
