/**
 * The visitor's data path: only `/api/public/…`, which answers what a visitor may see (no
 * hidden prices, no adviser or lead data).
 */

import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { api } from './api';
import type {
  Areas,
  ColorSettings,
  Currency,
  Development,
  StatusColors,
  UnitFeatures,
} from '../../core/types';
import {
  FIRST_PAGE,
  publicAvailabilityUrl,
  restAfter,
  type ClusterPageParams,
} from '../../core/availability-pages';

export interface PublicCorporate {
  slug: string;
  nombre: string;
  multiIdioma: boolean;
  imagen: { imagenLogo?: string };
  colores: ColorSettings;
  divisa: Currency[];
  coloresStatus: StatusColors;
}

export type PublicDevelopment = Pick<
  Development,
  | 'id'
  | 'slug'
  | 'nombre'
  | 'nombreCorto'
  | 'ubicacion'
  | 'divisa'
  | 'imagenPortada'
  | 'imagenLogo'
  | 'presentacion'
  | 'amenidades'
  | 'tagsEtapaEntrega'
  | 'fechaEntrega'
  | 'configVistaNivel'
  | 'caracteristicasUnidad'
>;

export interface PublicUnit {
  id: string;
  idCluster: string;
  idPrototipo: string;
  nombre: string;
  nivel: number;
  posicion: number;
  status: string | null;
  /** 'Casa' for a house (core/site-plan.ts), else the unit's category or null. */
  categoria?: string | null;
  disponibilidad: string;
  color: string;
  esCotizable: boolean;
  caracteristicas: UnitFeatures;
  metrajes: Areas;
  divisa: string;
  /** Present only when the status lets the price show. */
  precio?: number;
}

export interface PublicPrototype {
  id: string;
  nombre: string;
  activo: boolean;
  caracteristicas: UnitFeatures;
  metrajes: Areas;
  imagen?: string;
}

export interface PublicCluster {
  id: string;
  nombre: string;
  niveles: number;
  unidadesPorNivel: number;
  etapa: string | null;
  /** A stage of houses: its streets' names (core/site-plan.ts). */
  calles?: string[] | null;
  unidades: PublicUnit[];
}

export interface PublicAvailability {
  corporativo: PublicCorporate;
  desarrollo: PublicDevelopment;
  coloresStatus: StatusColors;
  prototipos: PublicPrototype[];
  clusters: PublicCluster[];
}

/** Every read of a development's public availability is keyed under this (the live stream's too). */
export const publicAvailabilityKey = (corporateSlug: string, developmentSlug: string) =>
  ['api', 'public', 'disponibilidad', corporateSlug, developmentSlug] as const;

/** Every cluster (the simulator needs every unit). */
export const publicAvailabilityQuery = (corporateSlug: string, developmentSlug: string) =>
  queryOptions({
    queryKey: publicAvailabilityKey(corporateSlug, developmentSlug),
    queryFn: ({ signal }) =>
      api<PublicAvailability>(publicAvailabilityUrl(corporateSlug, developmentSlug), { signal }),
    staleTime: 30_000,
  });

/**
 * One page of clusters under the same header (issue 21): the first `limite`, or every cluster
 * after `despuesDe`. Keyed under {@link publicAvailabilityKey}, so the live stream updates and
 * refreshes pages as it does the whole answer.
 */
export const publicAvailabilityPageQuery = (
  corporateSlug: string,
  developmentSlug: string,
  page: ClusterPageParams,
) =>
  queryOptions({
    queryKey: [...publicAvailabilityKey(corporateSlug, developmentSlug), page] as const,
    queryFn: ({ signal }) =>
      api<PublicAvailability>(publicAvailabilityUrl(corporateSlug, developmentSlug, page), {
        signal,
      }),
    staleTime: 30_000,
  });

/** Two pages of the public availability under the first page's header. */
export function joinPublicPages(
  first: PublicAvailability,
  rest: PublicAvailability,
): PublicAvailability {
  return { ...first, clusters: [...first.clusters, ...rest.clusters] };
}

/**
 * The whole public availability from the pages the availability page left in the cache (its
 * first page and the rest behind it), with when the older of them was read; undefined unless
 * every cluster is there. The simulator starts from it rather than reading every unit again.
 */
export function publicPagesInCache(
  client: QueryClient,
  corporateSlug: string,
  developmentSlug: string,
): { data: PublicAvailability; updatedAt: number } | undefined {
  const first = client.getQueryState<PublicAvailability>(
    publicAvailabilityPageQuery(corporateSlug, developmentSlug, FIRST_PAGE).queryKey,
  );
  if (!first?.data) return undefined;
  const after = restAfter(first.data.clusters);
  if (!after) return { data: first.data, updatedAt: first.dataUpdatedAt };
  const rest = client.getQueryState<PublicAvailability>(
    publicAvailabilityPageQuery(corporateSlug, developmentSlug, after).queryKey,
  );
  if (!rest?.data) return undefined;
  return {
    data: joinPublicPages(first.data, rest.data),
    updatedAt: Math.min(first.dataUpdatedAt, rest.dataUpdatedAt),
  };
}
