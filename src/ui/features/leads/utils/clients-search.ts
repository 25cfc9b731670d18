/**
 * The clients list's filters as search params (`/corporativos/{slug}/clientes?q=ana&status=…`),
 * so a filtered list is a link: `q` (name, email or phone), `status`, `desarrollo` and — for
 * `alcanceLeads = Todos` — `idVendedor`, as the list call names them. An empty or malformed
 * value is no filter.
 */

import { z } from 'zod';

// The router reads `?q=5512` as the number 5512: a phone search is still text.
const filter = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).trim() || undefined)
  .optional()
  .catch(undefined);

export const clientsSearchSchema = z.object({
  q: filter,
  status: filter,
  desarrollo: filter,
  idVendedor: filter,
});

export type ClientsSearch = z.output<typeof clientsSearchSchema>;
