/**
 * The availability's clusters, on screen first (issue 21): the first clusters (the towers the
 * grid shows without scrolling) in one small read, then every other cluster in a second read
 * behind them, put together into one answer in the unpaged answer's order. The page renders as
 * soon as the first read is in; `complete` says whether the rest has arrived (counts and filters
 * then cover every unit). The signed-in reads are keyed under `wsObtenerClusters` and the public
 * ones under the public availability's key, so each live stream updates them as it updates the
 * whole answer, and the server answers a repeat with 304.
 */
import { useMemo } from 'react';
import { useQuery, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import { FIRST_PAGE, restAfter, type ClusterPageParams } from '../../../../core/availability-pages';
import { clustersPageQuery, type ClusterWithUnits } from '../../../lib/catalogue';
import {
  joinPublicPages,
  publicAvailabilityPageQuery,
  type PublicAvailability,
} from '../../../lib/public-catalogue';

export interface PagedRead<T> {
  data: T | undefined;
  /** The first read's error (a 404 there is the page's "not found"). */
  error: Error | null;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  /** Every cluster has arrived (false while the rest is on its way). */
  complete: boolean;
}

export type AvailabilityClusters = PagedRead<ClusterWithUnits[]>;

/** How a read is paged: its query for a page, its clusters, and two pages put together. */
interface Paging<T, K extends QueryKey> {
  query: (page: ClusterPageParams) => UseQueryOptions<T, Error, T, K>;
  clustersOf: (page: T) => readonly { id: string }[];
  join: (first: T, rest: T) => T;
}

/** The first page, then every cluster after its last one, as one answer. */
export function usePagedClusters<T, K extends QueryKey>({
  query,
  clustersOf,
  join,
}: Paging<T, K>): PagedRead<T> {
  const first = useQuery(query(FIRST_PAGE));
  const after = first.data ? restAfter(clustersOf(first.data)) : null;
  const more = after !== null;
  const rest = useQuery({ ...query(after ?? { despuesDe: '' }), enabled: more });
  // An empty rest (the first page held every cluster) keeps the first answer itself: a new
  // array of the same units would have the worker build every row again.
  const data = useMemo(
    () =>
      first.data && more && rest.data && clustersOf(rest.data).length > 0
        ? join(first.data, rest.data)
        : first.data,
    [first.data, rest.data, more, join, clustersOf],
  );
  return {
    data,
    error: first.error ?? rest.error,
    isPending: first.isPending,
    isError: first.isError || rest.isError,
    isFetching: first.isFetching || rest.isFetching,
    complete: !!first.data && (!more || rest.isSuccess),
  };
}

const concat = (first: ClusterWithUnits[], rest: ClusterWithUnits[]) => [...first, ...rest];
const itself = (page: ClusterWithUnits[]) => page;

export function useAvailabilityClusters(
  idCorporativo: string,
  idDesarrollo: string,
): AvailabilityClusters {
  return usePagedClusters({
    query: (page) => clustersPageQuery(idCorporativo, idDesarrollo, page),
    clustersOf: itself,
    join: concat,
  });
}

const publicClusters = (page: PublicAvailability) => page.clusters;

/** The visitors' availability by pages (grid and table). */
export function usePublicAvailabilityPages(
  corporateSlug: string,
  developmentSlug: string,
): PagedRead<PublicAvailability> {
  return usePagedClusters({
    query: (page) => publicAvailabilityPageQuery(corporateSlug, developmentSlug, page),
    clustersOf: publicClusters,
    join: joinPublicPages,
  });
}
