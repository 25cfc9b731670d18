/**
 * The inventory's reads: query options for the catalogue calls (all keyed `['api', name,
 * params]` through the shell's `apiQuery`, so live updates find them), the wire types the
 * pages read, and the display helpers every figure goes through (currency and area unit from
 * the settings modal, prices only where the status lets them show).
 */

import { apiQuery, api } from '../../lib/api';
import { formatArea, type AreaUnit } from '../../../core/area';
import {
  convert,
  findCurrency,
  normalizeCurrencies,
  BASE_CURRENCY_CODE,
} from '../../../core/currency';
import { formatMoney } from '../../../core/money';
import { moneyFromMajor } from '../../../core/money';
import { filterContextFor, type FilterContext } from '../../../core/filters';
import { isPriceVisible, isUnitQuotable, statusInfo } from '../../../core/status';
import { UNIT_STATUSES } from '../../../core/types';
import type {
  Cluster,
  Corporate,
  Currency,
  Development,
  Prototype,
  SearchTag,
  StatusColors,
  Unit,
} from '../../../core/types';

/** One development of `wsObtenerDesarrollos`, with the figures the server adds. */
export interface DevelopmentSummary extends Development {
  precioDesde: number | null;
  totalUnidades: number;
  unidadesDisponibles: number;
}

/** A cluster of `wsObtenerClusters`, with its units. */
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

/**
 * How figures are shown: the chosen currency (falling back to MXN when the corporate does not
 * offer it) and the chosen area unit.
 */
export interface Display {
  currencies: Currency[];
  currency: Currency;
  areaUnit: AreaUnit;
}

export function makeDisplay(
  corporateCurrencies: readonly Currency[] | undefined,
  currencyCode: string,
  areaUnit: AreaUnit,
): Display {
  const currencies = normalizeCurrencies(corporateCurrencies ?? []);
  const currency =
    findCurrency(currencies, currencyCode) ?? findCurrency(currencies, BASE_CURRENCY_CODE)!;
  return { currencies, currency, areaUnit };
}

/**
 * The whole number an amount in `from` (default MXN) shows as in the chosen currency: converted,
 * rounded to the cent, then to whole units (spec §9 shows no decimals), half away from zero.
 */
export function displayedPrice(amount: number, display: Display, from?: string | null): number {
  const source =
    findCurrency(display.currencies, from ?? BASE_CURRENCY_CODE) ??
    findCurrency(display.currencies, BASE_CURRENCY_CODE)!;
  const cents = moneyFromMajor(convert(amount, source, display.currency));
  const whole = Math.sign(cents) * Math.round(Math.abs(cents) / 100);
  return whole === 0 ? 0 : whole;
}

/** An amount in `from` (default MXN) shown in the chosen currency: `$4,350,000 MXN`. */
export function formatPrice(amount: number, display: Display, from?: string | null): string {
  const shown = displayedPrice(amount, display, from);
  return `${formatMoney(moneyFromMajor(shown))} ${display.currency.codigo}`;
}

/** An amount in the chosen currency converted back to `to` (default MXN), e.g. a filter bound. */
export function priceFromDisplay(amount: number, display: Display, to?: string | null): number {
  const target =
    findCurrency(display.currencies, to ?? BASE_CURRENCY_CODE) ??
    findCurrency(display.currencies, BASE_CURRENCY_CODE)!;
  return convert(amount, display.currency, target);
}

/** An area in m² shown in the chosen unit, two decimals. */
export function formatAreaIn(area: number | undefined, display: Pick<Display, 'areaUnit'>) {
  return formatArea(area ?? 0, display.areaUnit);
}

/** What the screens need to show one unit, from the status rules of the core. */
export function unitView(unit: Pick<Unit, 'status' | 'precio'>, colors: StatusColors) {
  const info = statusInfo(unit.status, colors);
  return {
    ...info,
    priceVisible: isPriceVisible(unit, colors),
    quotable: isUnitQuotable(unit, colors),
  };
}

/**
 * The WCAG 2 relative luminance of a `#rgb` or `#rrggbb` colour (an alpha part is ignored);
 * undefined when it is neither.
 */
export function relativeLuminance(hex: string): number | undefined {
  const text = hex.trim().replace(/^#/, '');
  const digits = /^[0-9a-f]{3}$/i.test(text)
    ? [...text].map((d) => d + d)
    : /^[0-9a-f]{6}/i.test(text)
      ? [text.slice(0, 2), text.slice(2, 4), text.slice(4, 6)]
      : undefined;
  if (!digits) return undefined;
  const [r, g, b] = digits.map((x) => {
    const c = parseInt(x, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG 2 contrast ratio of two relative luminances, from 1 to 21. */
export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** The text colours a status colour can carry. */
export const DARK_TEXT = '#111111';
export const LIGHT_TEXT = '#FFFFFF';

/**
 * The text colour for a status colour: dark or white, whichever has the higher WCAG contrast
 * ratio against it (a fixed luminance threshold put white on mid greens and reds, where it
 * fails AA while dark text passes).
 */
export function textOn(hex: string): string {
  const background = relativeLuminance(hex);
  if (background === undefined) return DARK_TEXT;
  const dark = contrastRatio(background, relativeLuminance(DARK_TEXT)!);
  const light = contrastRatio(background, 1);
  return dark >= light ? DARK_TEXT : LIGHT_TEXT;
}

/** Every unit of the clusters, in cluster order. */
export function allUnits(clusters: readonly ClusterWithUnits[] | undefined): Unit[] {
  return clusters ? clusters.flatMap((c) => c.unidades) : [];
}

/** Paths of a development's pages. */
export function developmentPath(corporateSlug: string, developmentSlug: string, page = '') {
  const base = `/corporativos/${corporateSlug}/desarrollos/${developmentSlug}`;
  return page ? `${base}/${page}` : base;
}

export function publicDevelopmentPath(corporateSlug: string, developmentSlug: string, page = '') {
  return `/public${developmentPath(corporateSlug, developmentSlug, page)}`;
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
