/**
 * Search params shared by `cotizacion` and `cotizacion-adicionales`. Kept apart from the quote
 * queries because route files import the validator: whatever it imports is on every page.
 */

import type { QuotationExtra } from '../../../../core/quotation';

export interface QuoteSearch {
  unidad?: string;
  esquema?: string;
  /** Ids of the development's optionals. */
  opcionales?: string[];
  /**
   * Extras added by hand, each in major units of the currency it was entered in (`divisa`;
   * links made before it was recorded have none and mean the quoted currency).
   */
  extras?: QuotationExtra[];
}

const MAX_ITEMS = 50;
/** The longest extra name the server takes. */
const MAX_EXTRA_NAME = 120;
const CURRENCY_CODE = /^[A-Za-z0-9]{1,10}$/;

/** An extra as the server takes it, or undefined: malformed ones are dropped, not repaired. */
function extra(value: unknown): QuotationExtra | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { nombre, precio, divisa } = value as Record<string, unknown>;
  const name = typeof nombre === 'string' ? nombre.trim() : '';
  if (name.length === 0 || name.length > MAX_EXTRA_NAME) return undefined;
  if (typeof precio !== 'number' || !Number.isFinite(precio) || precio < 0) return undefined;
  if (divisa === undefined) return { nombre: name, precio };
  if (typeof divisa !== 'string' || !CURRENCY_CODE.test(divisa)) return undefined;
  return { nombre: name, precio, divisa: divisa.toUpperCase() };
}

function text(value: unknown, max = 120): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/**
 * `validateSearch` of the quotation pages: anything malformed is dropped, never thrown.
 *
 * Every key is returned, `undefined` when dropped: the router spreads a route's validated search
 * over its parent's, and the parent routes do not validate, so a key left out would come back
 * raw from the URL (`extras` with a negative price, say) and reach the page.
 */
export function validateQuoteSearch(search: Record<string, unknown>): QuoteSearch {
  const out: QuoteSearch = {
    unidad: undefined,
    esquema: undefined,
    opcionales: undefined,
    extras: undefined,
  };
  const unidad = text(search.unidad, 64);
  if (unidad) out.unidad = unidad;
  const esquema = text(search.esquema, 64);
  if (esquema) out.esquema = esquema;
  const rawOptionals =
    typeof search.opcionales === 'string' ? [search.opcionales] : search.opcionales;
  if (Array.isArray(rawOptionals)) {
    const ids = [
      ...new Set(rawOptionals.map((v) => text(v, 64)).filter((v): v is string => !!v)),
    ].slice(0, MAX_ITEMS);
    if (ids.length > 0) out.opcionales = ids;
  }
  if (Array.isArray(search.extras)) {
    const extras = search.extras
      .slice(0, MAX_ITEMS)
      .map(extra)
      .filter((e): e is QuotationExtra => e !== undefined);
    if (extras.length > 0) out.extras = extras;
  }
  return out;
}
