/**
 * The visitor's data path: only `/api/public/…`, which answers what a visitor may see (no
 * hidden prices, no adviser or lead data).
 */

import { queryOptions } from '@tanstack/react-query';
import { api } from './api';
import type {
  Areas,
  ColorSettings,
  Currency,
  Development,
  StatusColors,
  UnitFeatures,
} from '../../core/types';

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

const seg = encodeURIComponent;

export const publicAvailabilityQuery = (corporateSlug: string, developmentSlug: string) =>
  queryOptions({
    queryKey: ['api', 'public', 'disponibilidad', corporateSlug, developmentSlug],
    queryFn: ({ signal }) =>
      api<PublicAvailability>(
        `/api/public/corporativos/${seg(corporateSlug)}/desarrollos/${seg(developmentSlug)}/disponibilidad`,
        { signal },
      ),
    staleTime: 30_000,
  });
