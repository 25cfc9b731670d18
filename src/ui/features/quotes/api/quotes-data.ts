/**
 * The quotations' reads and writes (issue 7; spec §7 quotation calls): query options keyed
 * through the shell's `apiQuery`, and the wire types. The share links of a saved quotation are
 * shared with the leads (`lib/quotation-shares.ts`).
 */

import { queryOptions } from '@tanstack/react-query';
import type { Money } from '../../../../core/brands';
import type { Quotation, QuotationExtra, QuoteFigures } from '../../../../core/quotation';
import type { ColorSettings, Optional, PaymentScheme } from '../../../../core/types';
import { api, apiQuery } from '../../../lib/api';

/** A scheme of `wsObtenerEsquemasPago`: `valido` is false for one the core refuses. */
export type SchemeOption = PaymentScheme & { valido: boolean; detalle?: string };

/** The buyer's quotation behind a share link (`GET /api/public/cotizaciones/:token`). */
export interface PublicQuotationAnswer {
  cotizacion: Pick<
    Quotation,
    | 'fechaAlta'
    | 'nombreDesarrolloInteres'
    | 'nombreCluster'
    | 'nombreUnidad'
    | 'nombrePrototipe'
    | 'nombreAsesor'
    | 'nombreCliente'
    | 'precioEnCotizacion'
    | 'figuras'
    | 'unidad'
    | 'fechaEntrega'
    | 'zonaHoraria'
  > & {
    divisaUnidad: { codigo: string; nombre: string };
    divisa: { codigo: string; nombre: string };
    esquemasPago: Omit<PaymentScheme, 'id' | 'idCluster'>;
    adicionales: { tipo: 'opcional' | 'extra'; nombre: string; monto: Money }[];
    /** The corporate's quotation number (null on a quotation saved before numbers). */
    numero?: number | null;
    /** The adviser's work contact as it is now. */
    asesor?: { email: string | null; telefono: string | null };
    /** Every amount to the cent (core `quotationInCents`). */
    conCentavos: boolean;
  };
  corporativo: {
    nombre: string;
    slug: string;
    imagen: { imagenLogo: string | null };
    colores: ColorSettings | undefined;
    /** The developer's legal name and address (null when not set). */
    razonSocial?: string | null;
    domicilio?: string | null;
    /** Bilingual: the page follows the link's `lang` or the visitor's language (issue 19). */
    multiIdioma?: boolean;
  };
  expiraEn: string;
}

/** The visitor's simulation (`POST /api/public/…/simular`). */
export interface SimulationAnswer {
  unidad: { id: string; nombre: string; idCluster: string };
  idEsquema: string;
  esquemasPago: Omit<PaymentScheme, 'id' | 'idCluster'>;
  precioEnCotizacion: number;
  divisa: { codigo: string; nombre: string };
  adicionales: { tipo: 'opcional' | 'extra'; nombre: string; monto: Money }[];
  figuras: QuoteFigures;
  /** Every amount to the cent (core `quotationInCents`). */
  conCentavos: boolean;
}

/** Body of `POST /api/corporativos/:id/cotizaciones`. */
export interface CreateQuotationBody {
  idUnidad: string;
  idEsquema: string;
  opcionales: string[];
  extras: QuotationExtra[];
  divisa: string;
  idLead?: string;
  nuevoLead?: { nombre: string; apellidos?: string; email?: string; telefono?: string };
}

export const schemesQuery = (idCorporativo: string, idDesarrollo: string, idCluster: string) =>
  apiQuery<SchemeOption[]>('wsObtenerEsquemasPago', { idCorporativo, idDesarrollo, idCluster });

export const extrasQuery = (idCorporativo: string, idDesarrollo: string, idCluster: string) =>
  apiQuery<Optional[]>('wsObtenerExtrasAdicionales', { idCorporativo, idDesarrollo, idCluster });

export const leadQuotationsQuery = (idCorporativo: string, idLead: string) =>
  apiQuery<Quotation[]>('wsObtenerCotizacionesLocales', { idCorporativo, idLead });

export const publicQuotationQuery = (token: string) =>
  queryOptions({
    queryKey: ['api', 'public', 'cotizacion', token] as const,
    queryFn: ({ signal }) =>
      api<PublicQuotationAnswer>(`/api/public/cotizaciones/${encodeURIComponent(token)}`, {
        signal,
      }),
    retry: false,
    staleTime: Infinity,
  });

export function createQuotation(idCorporativo: string, body: CreateQuotationBody) {
  return api<Quotation>(`/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones`, {
    method: 'POST',
    body,
  });
}

export function toggleFavourite(idCorporativo: string, idCotizacion: string) {
  return api<{ id: string; esFavorito: boolean }>(
    `/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones/${encodeURIComponent(idCotizacion)}/favorito`,
    { method: 'PUT' },
  );
}

export function simulate(
  corporateSlug: string,
  developmentSlug: string,
  body: { idUnidad: string; idEsquema: string; opcionales: string[]; divisa: string },
  signal?: AbortSignal,
) {
  return api<SimulationAnswer>(
    `/api/public/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos/${encodeURIComponent(developmentSlug)}/simular`,
    { method: 'POST', body, ...(signal ? { signal } : {}) },
  );
}
