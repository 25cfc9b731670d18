/**
 * The clients list's filters as search params (`/corporativos/{slug}/clientes?q=ana&status=…`),
 * so a filtered list is a link: `q` (name, email or phone), `status`, `desarrollo` and — for
 * `alcanceLeads = Todos` — `idVendedor`, as the list call names them. An empty or malformed
 * value is no filter.
 *
 * Written by hand, not with a schema library: the route's search validation is in the router's
 * main chunk, which every page (the sign-in page too) loads.
 */

export interface ClientsSearch {
  q?: string;
  status?: string;
  desarrollo?: string;
  idVendedor?: string;
}

const KEYS = ['q', 'status', 'desarrollo', 'idVendedor'] as const;

// The router reads `?q=5512` as the number 5512: a phone search is still text.
function filter(value: unknown): string | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  return String(value).trim() || undefined;
}

/** The route's `validateSearch`: the four filters, trimmed; anything else dropped. */
export function validateClientsSearch(search: Record<string, unknown>): ClientsSearch {
  const out: ClientsSearch = {};
  for (const key of KEYS) {
    const value = filter(search[key]);
    if (value !== undefined) out[key] = value;
  }
  return out;
}
