/**
 * Search params shared by `cotizacion` and `cotizacion-adicionales`. Kept apart from the quote
 * queries because route files import the validator: whatever it imports is on every page.
 */

import type { QuotationExtra } from '../../../core/quotation';

export interface QuoteSearch {
  unidad?: string;
  esquema?: string;
  /** Ids of the development's optionals. */
  opcionales?: string[];
  /** Extras added by hand, in major units of the quoted currency. */
  extras?: QuotationExtra[];
}

const MAX_ITEMS = 50;

function text(value: unknown, max = 120): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.length > 0 && value.length <= max ? value : undefined;
}

/** `validateSearch` of the quotation pages: anything malformed is dropped, never thrown. */
export function validateQuoteSearch(search: Record<string, unknown>): QuoteSearch {
  const out: QuoteSearch = {};
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
    const extras: QuotationExtra[] = [];
    for (const e of search.extras.slice(0, MAX_ITEMS)) {
      if (!e || typeof e !== 'object') continue;
      const { nombre, precio } = e as { nombre?: unknown; precio?: unknown };
      const name = typeof nombre === 'string' ? nombre.trim().slice(0, 120) : '';
      if (name && typeof precio === 'number' && Number.isFinite(precio) && precio >= 0) {
        extras.push({ nombre: name, precio });
      }
    }
    if (extras.length > 0) out.extras = extras;
  }
  return out;
}
