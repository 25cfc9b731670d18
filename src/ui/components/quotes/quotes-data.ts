/**
 * The quotations' reads and writes (issue 7; spec §7 quotation calls): query options keyed
 * through the shell's `apiQuery`, the wire types, the search params the quotation pages share
 * (`?unidad=&esquema=&opcionales=&extras=`), and the money and date formatting of a quote.
 */

import { queryOptions } from '@tanstack/react-query';
import type { Money } from '../../../core/brands';
import { formatMoney } from '../../../core/money';
import type { Quotation, QuotationExtra, QuoteFigures } from '../../../core/quotation';
import type { Lead } from '../../../core/lead';
import type { ColorSettings, Optional, PaymentScheme } from '../../../core/types';
import { api, apiQuery } from '../../lib/api';

/** A scheme of `wsObtenerEsquemasPago`: `valido` is false for one the core refuses. */
export type SchemeOption = PaymentScheme & { valido: boolean; detalle?: string };

/** The answer of `POST …/cotizaciones/:id/compartir`. */
export interface ShareAnswer {
  url: string;
  token: string;
  expiraEn: string;
}

/** One share link of a quotation (`GET …/cotizaciones/:id/compartidos`, ISO instants). */
export interface ShareLinkAnswer {
  nonce: string;
  creadoEn: string;
  expiraEn: string;
  revocadoEn: string | null;
  url: string;
}

export type ShareLinkState = 'active' | 'expired' | 'revoked';

/** Whether a link still opens at `now`; a revoked link says so even once it has expired too. */
export function shareLinkState(link: ShareLinkAnswer, now: number): ShareLinkState {
  if (link.revocadoEn !== null) return 'revoked';
  return Date.parse(link.expiraEn) <= now ? 'expired' : 'active';
}

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
  };
  corporativo: {
    nombre: string;
    slug: string;
    imagen: { imagenLogo: string | null };
    colores: ColorSettings | undefined;
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

export const leadsQuery = (idCorporativo: string) =>
  apiQuery<Lead[]>('wsObtenerLeads', { idCorporativo, limit: 200 });

export const leadQuery = (idCorporativo: string, idLead: string) =>
  queryOptions({
    queryKey: ['api', 'lead', { idCorporativo, idLead }] as const,
    queryFn: ({ signal }) =>
      api<Lead>(
        `/api/corporativos/${encodeURIComponent(idCorporativo)}/leads/${encodeURIComponent(idLead)}`,
        { signal },
      ),
    retry: false,
  });

const quotationPath = (idCorporativo: string, idCotizacion: string) =>
  `/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones/${encodeURIComponent(idCotizacion)}`;

/** The quotation's share links, newest first; sharing and revoking invalidate it. */
export const quotationSharesQuery = (idCorporativo: string, idCotizacion: string) =>
  queryOptions({
    queryKey: ['api', 'cotizacionCompartidos', { idCorporativo, idCotizacion }] as const,
    queryFn: ({ signal }) =>
      api<ShareLinkAnswer[]>(`${quotationPath(idCorporativo, idCotizacion)}/compartidos`, {
        signal,
      }),
  });

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

export function shareQuotation(idCorporativo: string, idCotizacion: string) {
  return api<ShareAnswer>(
    `/api/corporativos/${encodeURIComponent(idCorporativo)}/cotizaciones/${encodeURIComponent(idCotizacion)}/compartir`,
    { method: 'POST', body: {} },
  );
}

/** Turns a share link off; revoking a revoked link answers the same link. */
export function revokeShare(idCorporativo: string, idCotizacion: string, nonce: string) {
  return api<ShareLinkAnswer>(
    `${quotationPath(idCorporativo, idCotizacion)}/compartidos/${encodeURIComponent(nonce)}`,
    { method: 'DELETE' },
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

// ---------------------------------------------------------------------------------------------
// Formatting

/** Cents of a currency: `$4,350,000 MXN` (spec §9: commas, no decimals, `$`). */
export function formatCents(amount: number, currencyCode: string): string {
  return `${formatMoney(amount as Money)} ${currencyCode}`;
}

/** A fraction as a percentage: 0.15 → `15%`, 0.025 → `2.5%`. */
export function formatPercent(fraction: number): string {
  return `${Math.round(fraction * 10000) / 100}%`;
}

/**
 * A calendar date in the interface language and the corporate's time zone, the day without a
 * leading zero like every other date of the app: `5 dic 2026`, `Dec 5, 2026`.
 */
export function formatDate(iso: string | number | Date, language: string, timeZone?: string) {
  const date = typeof iso === 'number' ? new Date(iso * 1000) : new Date(iso);
  // A calendar date without a time ('2027-12-15') is that day everywhere, not UTC midnight.
  const dateOnly = typeof iso === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(iso);
  const zone = dateOnly ? 'UTC' : timeZone;
  try {
    return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'es-MX', {
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      ...(zone ? { timeZone: zone } : {}),
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 10);
  }
}

/** An instant with its time, in the interface language and the corporate's time zone. */
export function formatDateTime(iso: string, language: string, timeZone?: string) {
  const date = new Date(iso);
  try {
    return new Intl.DateTimeFormat(language === 'en' ? 'en-US' : 'es-MX', {
      dateStyle: 'medium',
      timeStyle: 'short',
      ...(timeZone ? { timeZone } : {}),
    }).format(date);
  } catch {
    return date.toISOString().slice(0, 16).replace('T', ' ');
  }
}

/** Path of the quotation pages of a development. */
export function quotePath(corporateSlug: string, developmentSlug: string, page = 'cotizacion') {
  return `/corporativos/${corporateSlug}/desarrollos/${developmentSlug}/${page}`;
}
