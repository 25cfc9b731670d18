/**
 * The display rows of a development's units (issue 20, the card's worker): in one pass over the
 * units, everything the inventory screens show of each — its status colour and label, whether it
 * may be quoted, its price as shown (converted to the chosen currency, or hidden by its status),
 * its areas in the chosen unit and its rent — and the development's "price from" and rent
 * (core/filters.ts `priceFrom`, `rentPrice`). The
 * core worker builds them when a development's units load and again when the display settings
 * change (currency, m²/ft²), so none of these rules runs on the main thread for a page of
 * thousands of units. Pure.
 */

import { priceFrom, rentPrice } from './filters';
import { displayedPrice, formatAreaIn, formatPrice, type Display } from './display';
import { isPriceVisible, isUnitQuotable, statusInfo } from './status';
import type { StatusColors, Unit } from './types';

/** What the screens show of one unit. */
export interface DisplayRow {
  id: string;
  /** The status colour (`#RRGGBB`) and label ('Disponible', or the corporate's own word). */
  hexColor: string;
  statusLabel: string;
  /** The colour map has an entry for the unit's status (else the strict 'Sin estatus'). */
  statusKnown: boolean;
  /** The status allows quoting and the unit carries its price. */
  quotable: boolean;
  /** The status shows the price and the unit has one. */
  priceVisible: boolean;
  /** The price in the chosen currency, whole units; null when hidden or absent. */
  price: number | null;
  /** `$4,350,000 MXN`; null when hidden or absent. */
  priceText: string | null;
  /** Areas in the chosen unit: `85.00 m²`; null when the unit has none. */
  areaText: string;
  interiorText: string | null;
  balconyText: string | null;
  terraceText: string | null;
  /** The rent shown (spec §5 `precioRenta`), when it has one and its price may be shown. */
  rentText: string | null;
}

export interface DisplayRows {
  /** One per unit, in the units' order. */
  rows: DisplayRow[];
  /** The lowest visible price, shown (spec §4 "desde"); null when none. */
  priceFromText: string | null;
  /** The lowest rent, shown (spec §5); null when no unit has one. */
  rentText: string | null;
  /** The currency and area unit the rows were built for. */
  currency: string;
  areaUnit: Display['areaUnit'];
}

/** The rows of `units` under the status colours and display settings. */
export function buildDisplayRows(
  units: readonly Unit[],
  colors: StatusColors,
  display: Display,
  developmentCurrency?: string | null,
): DisplayRows {
  const rows: DisplayRow[] = new Array<DisplayRow>(units.length);
  const rented: Unit[] = [];
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    const info = statusInfo(u.status, colors);
    const hasPrice = typeof u.precio === 'number' && u.precio > 0;
    const visible = isPriceVisible(u, colors) && hasPrice;
    const m = u.metrajes;
    const rent =
      visible && typeof u.precioRenta === 'number' && u.precioRenta > 0 ? u.precioRenta : null;
    if (rent !== null) rented.push(u);
    rows[i] = {
      id: u.id,
      hexColor: info.hexColor,
      statusLabel: info.disponibilidad,
      statusKnown: u.status !== undefined && Object.hasOwn(colors, u.status),
      quotable: isUnitQuotable(u, colors) && typeof u.precio === 'number',
      priceVisible: visible,
      price: visible ? displayedPrice(u.precio, display, u.divisa) : null,
      priceText: visible ? formatPrice(u.precio, display, u.divisa) : null,
      areaText: formatAreaIn(m?.areaTotal, display),
      interiorText: m?.areaInterior ? formatAreaIn(m.areaInterior, display) : null,
      balconyText: m?.areaBalcon ? formatAreaIn(m.areaBalcon, display) : null,
      terraceText: m?.terraza ? formatAreaIn(m.terraza, display) : null,
      rentText: rent === null ? null : formatPrice(rent, display, u.divisa),
    };
  }
  const from = priceFrom(units, colors);
  // Rent only where the price may be shown (a hidden price hides its rent too).
  const rent = rentPrice(rented);
  return {
    rows,
    priceFromText: from === undefined ? null : formatPrice(from, display, developmentCurrency),
    rentText: rent === undefined ? null : formatPrice(rent, display, developmentCurrency),
    currency: display.currency.codigo,
    areaUnit: display.areaUnit,
  };
}
