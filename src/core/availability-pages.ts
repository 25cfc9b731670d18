/**
 * The availability read by pages of clusters (issue 21): the first clusters (the towers a grid
 * shows side by side on a wide screen) in one small read, then the rest behind them. One source
 * for the public read's URLs: the page fetches them and the server preloads the first in the
 * HTML (server/http/page-preloads.ts), so both must be the same string.
 */

/** Clusters in the first read. */
export const FIRST_CLUSTERS = 2;

/** A page of clusters: the first `limite`, or every cluster after the cluster `despuesDe`. */
export type ClusterPageParams = { limite: number } | { despuesDe: string };

/** The first page's parameters (signed-in and public availability alike). */
export const FIRST_PAGE: ClusterPageParams = { limite: FIRST_CLUSTERS };

/**
 * The page to read after a first page with these clusters: every cluster after its last one;
 * null when the first page had fewer clusters than it asked for (it was all of them).
 */
export function restAfter(clusters: readonly { id: string }[]): ClusterPageParams | null {
  const last = clusters.at(-1);
  return clusters.length >= FIRST_CLUSTERS && last ? { despuesDe: last.id } : null;
}

/**
 * `GET /api/public/corporativos/:c/desarrollos/:d/disponibilidad` for the development's slugs
 * (not encoded), every cluster or one page of them.
 */
export function publicAvailabilityUrl(
  corporateSlug: string,
  developmentSlug: string,
  page?: ClusterPageParams,
): string {
  const base = `/api/public/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos/${encodeURIComponent(developmentSlug)}/disponibilidad`;
  if (!page) return base;
  return 'limite' in page
    ? `${base}?limite=${page.limite}`
    : `${base}?despuesDe=${encodeURIComponent(page.despuesDe)}`;
}
