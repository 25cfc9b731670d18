/**
 * The catalogue's reads, shared by every feature that shows developments or units: query
 * options for the catalogue calls (all keyed `['api', name, params]` through the shell's
 * `apiQuery`, so live updates find them), the wire types the pages read, and the status helpers
 * (effective colours, filter context, what a unit may show).
 */

import { apiQuery, api } from './api';
import { filterContextFor, type FilterContext } from '../../core/filters';
import { isPriceVisible, isUnitQuotable, statusInfo } from '../../core/status';
import { UNIT_STATUSES } from '../../core/types';
import type {
  Cluster,
  Corporate,
  Development,
  Prototype,
  SearchTag,
  StatusColors,
  Unit,
} from '../../core/types';

/** One development of `wsObtenerDesarrollos`, with the figures the server adds. */
export interface DevelopmentSummary extends Development {
  precioDesde: number | null;
  /** The lowest monthly rent among units with a visible price (spec §5), or null. */
  precioRentaDesde: number | null;
  totalUnidades: number;
  unidadesDisponibles: number;
}

/**
 * A cluster of `wsObtenerClusters`, with its units. A unit comes without `precio` and
 * `precioRenta` when its status hides the price from the caller's role (the server's
 * core/visibility.ts): screens show no price for it, and it cannot be quoted.
 */
export interface ClusterWithUnits extends Cluster {
  unidades: Unit[];
}

export interface SearchCategory {
  id: string;
  nombre: string;
}

export interface MediaInfo {
  id: string;
  nombre: string;
  contentType: string;
  url: string;
}

export interface DocumentInfo {
  id: string;
  titulo: string;
  idMedia: string;
  contentType: string | null;
  nombre: string;
  url: string;
}

export interface HistoryEntry {
  fecha: string;
  tipo: string;
  campo: 'status' | 'precio';
  anterior: string | number | null;
  nuevo: string | number | null;
  actor: string;
}

export const developmentsQuery = (idCorporativo: string) =>
  apiQuery<DevelopmentSummary[]>('wsObtenerDesarrollos', {
    idCorporativo,
    ocultarDesarrollosSinUnidades: 'si',
  });

export const developmentQuery = (idCorporativo: string, slug: string) =>
  apiQuery<Development>('wsObtenerDesarrollo', { idCorporativo, slug });

export const clustersQuery = (idCorporativo: string, idDesarrollo: string) =>
  apiQuery<ClusterWithUnits[]>('wsObtenerClusters', { idCorporativo, idDesarrollo });

/**
 * A page of `wsObtenerClusters` (issue 21): the first `limite` clusters, or every cluster after
 * the cluster `despuesDe`, in the unpaged answer's order. Keyed under `wsObtenerClusters`, so the
 * live stream updates and refreshes pages as it does the whole answer.
 */
export const clustersPageQuery = (
  idCorporativo: string,
  idDesarrollo: string,
  page: { limite: number } | { despuesDe: string },
) => apiQuery<ClusterWithUnits[]>('wsObtenerClusters', { idCorporativo, idDesarrollo, ...page });

export const prototypesQuery = (idCorporativo: string, idDesarrollo: string) =>
  apiQuery<Prototype[]>('wsObtenerPrototipos', { idCorporativo, idDesarrollo });

export const searchTagsQuery = (idCorporativo: string) =>
  apiQuery<SearchTag[]>('wsObtenerTagsBusqueda', { idCorporativo });

export const searchCategoriesQuery = (idCorporativo: string) =>
  apiQuery<SearchCategory[]>('wsObtenerTagsBusquedaCategoria', { idCorporativo });

export const mediaQuery = (id: string) => ({
  ...apiQuery<MediaInfo>('wsObtenerMedias', { id }),
  staleTime: 24 * 60 * 60_000,
});

export const documentQuery = (idCorporativo: string, idDesarrollo: string, idDocumento: string) =>
  apiQuery<DocumentInfo>('wsObtenerDocumento', { idCorporativo, idDesarrollo, idDocumento });

export const historyQuery = (idCorporativo: string, idUnidad: string) => ({
  queryKey: ['api', 'historialUnidad', { idCorporativo, idUnidad }] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<HistoryEntry[]>(`/api/corporativos/${idCorporativo}/unidades/${idUnidad}/historial`, {
      signal,
    }),
});

/** The bytes of a stored image or document. */
export function mediaUrl(idMedia: string | undefined | null): string | undefined {
  return idMedia ? `/api/media/${encodeURIComponent(idMedia)}` : undefined;
}

/** The status colours of a development: its own when it has any, else the corporate's. */
export function effectiveStatusColors(
  corporate: Pick<Corporate, 'coloresStatus'>,
  development?: Pick<Development, 'coloresStatus'> | null,
): StatusColors {
  const own = development?.coloresStatus;
  return own && Object.keys(own).length > 0 ? own : corporate.coloresStatus;
}

/** The filter context (core) for a development of a corporate. */
export function filterContext(
  corporate: Pick<Corporate, 'coloresStatus' | 'configFiltros'>,
  development?: Pick<Development, 'coloresStatus'> | null,
): FilterContext {
  const ctx = filterContextFor(corporate, development ?? undefined);
  return { ...ctx, statusColors: effectiveStatusColors(corporate, development) };
}

/** What the screens need to show one unit, from the status rules of the core. */
export function unitView(unit: Pick<Unit, 'status' | 'precio'>, colors: StatusColors) {
  const info = statusInfo(unit.status, colors);
  return {
    ...info,
    priceVisible: isPriceVisible(unit, colors),
    // Without its price (hidden from this role by the server) a unit cannot be quoted.
    quotable: isUnitQuotable(unit, colors) && typeof unit.precio === 'number',
  };
}

/** Every unit of the clusters, in cluster order. */
export function allUnits(clusters: readonly ClusterWithUnits[] | undefined): Unit[] {
  return clusters ? clusters.flatMap((c) => c.unidades) : [];
}

/**
 * The statuses of a colour map in the spec's order (§4 table), then any other the corporate
 * configures.
 */
export function orderedStatuses(colors: StatusColors): string[] {
  const known = UNIT_STATUSES.filter((s) => Object.hasOwn(colors, s));
  return [
    ...known,
    ...Object.keys(colors).filter((s) => !(UNIT_STATUSES as readonly string[]).includes(s)),
  ];
}
