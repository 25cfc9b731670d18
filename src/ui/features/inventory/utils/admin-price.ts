/**
 * The list price an inventory administrator types in the unit detail, checked as the server
 * checks it (`PUT …/unidades/:u/precio` takes a number from 0 to 10,000,000,000 in major units),
 * so an out-of-range price is explained next to the field instead of failing on save.
 */

/** The highest list price the server accepts, in the unit's currency (major units). */
export const UNIT_PRICE_MAX = 10_000_000_000;

export type AdminPrice =
  | { ok: true; precio: number }
  | { ok: false; reason: 'format' }
  | { ok: false; reason: 'max'; max: number };

/** Reads a typed price: digits with optional thousands commas, a `$` and decimals. */
export function parseAdminPrice(text: string): AdminPrice {
  const plain = text.replace(/[,\s$]/g, '');
  if (!/^\d+(\.\d+)?$/.test(plain)) return { ok: false, reason: 'format' };
  const precio = Number(plain);
  if (!Number.isFinite(precio)) return { ok: false, reason: 'format' };
  if (precio > UNIT_PRICE_MAX) return { ok: false, reason: 'max', max: UNIT_PRICE_MAX };
  return { ok: true, precio };
}
