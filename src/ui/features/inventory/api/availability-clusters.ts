/**
 * The availability's clusters, on screen first (issue 21): the first clusters (the towers the
 * grid shows without scrolling) in one small read, then every other cluster in a second read
 * behind them, put together into one list in the unpaged answer's order. The page renders as
 * soon as the first read is in; `complete` says whether the rest has arrived (counts and filters
 * then cover every unit). Both reads are keyed under `wsObtenerClusters`, so the live stream
 * updates them as it updates the whole answer, and the server answers a repeat with 304.
 */
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { clustersPageQuery, type ClusterWithUnits } from '../../../lib/catalogue';

/** Clusters in the first read: the towers a grid shows side by side on a wide screen. */
export const FIRST_CLUSTERS = 2;

export interface AvailabilityClusters {
  data: ClusterWithUnits[] | undefined;
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  /** Every cluster has arrived (false while the rest is on its way). */
  complete: boolean;
}

export function useAvailabilityClusters(
  idCorporativo: string,
  idDesarrollo: string,
): AvailabilityClusters {
  const first = useQuery(
    clustersPageQuery(idCorporativo, idDesarrollo, { limite: FIRST_CLUSTERS }),
  );
  const last = first.data?.at(-1);
  const more = !!first.data && first.data.length >= FIRST_CLUSTERS && !!last;
  const rest = useQuery({
    ...clustersPageQuery(idCorporativo, idDesarrollo, { despuesDe: last?.id ?? '' }),
    enabled: more,
  });
  const data = useMemo(
    () => (first.data ? [...first.data, ...(more ? (rest.data ?? []) : [])] : undefined),
    [first.data, rest.data, more],
  );
  return {
    data,
    isPending: first.isPending,
    isError: first.isError || rest.isError,
    isFetching: first.isFetching || rest.isFetching,
    complete: !!first.data && (!more || rest.isSuccess),
  };
}
