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
import { UNIT_STATUSES, type StatusColors, type Unit } from './types';

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

/** One status of a development as its legend, filters and cards show it. */
export interface StatusSummary {
  /** The unit's `status`; '' for units without one. */
  status: string;
  /** The status's label ('Disponible', or the corporate's own word) and colour (`#RRGGBB`). */
  label: string;
  hexColor: string;
  /** The colour map has an entry for it (the filters offer only those). */
  known: boolean;
  /** How many units have it (0 for a coloured status no unit has). */
  total: number;
}

export interface DisplayRows {
  /** One per unit, in the units' order. */
  rows: DisplayRow[];
  /** Every status of the colour map and of the units, with its count (see {@link summariseStatuses}). */
  statuses: StatusSummary[];
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
  const counts = new Map<string, number>();
  for (let i = 0; i < units.length; i++) {
    const u = units[i]!;
    counts.set(u.status ?? '', (counts.get(u.status ?? '') ?? 0) + 1);
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
    statuses: summariseStatuses(counts, colors),
    priceFromText: from === undefined ? null : formatPrice(from, display, developmentCurrency),
    rentText: rent === undefined ? null : formatPrice(rent, display, developmentCurrency),
    currency: display.currency.codigo,
    areaUnit: display.areaUnit,
  };
}

/**
 * The statuses of the colour map in the spec's order (§4), then the map's own statuses, then any
 * other status the counts name (a unit whose status the map does not colour, or '' for none),
 * each with its label, colour and count.
 */
export function summariseStatuses(
  counts: ReadonlyMap<string, number>,
  colors: StatusColors,
): StatusSummary[] {
  const order = [
    ...UNIT_STATUSES.filter((s) => Object.hasOwn(colors, s)),
    ...Object.keys(colors).filter((s) => !(UNIT_STATUSES as readonly string[]).includes(s)),
  ];
  for (const s of counts.keys()) if (!order.includes(s)) order.push(s);
  return order.map((status) => {
    const info = statusInfo(status === '' ? undefined : status, colors);
    return {
      status,
      label: info.disponibilidad,
      hexColor: info.hexColor,
      known: Object.hasOwn(colors, status),
      total: counts.get(status) ?? 0,
    };
  });
}

/** What a development card's figures are built from (the developments list's summary). */
export interface DevelopmentFiguresInput {
  id: string;
  /** The lowest visible price and the lowest rent, in the development's currency. */
  precioDesde?: number | null;
  precioRentaDesde?: number | null;
  divisa?: string | null;
  /** Units per status, when the card shows the breakdown ('' for units without a status). */
  statusCounts?: Readonly<Record<string, number>>;
}

/** A development card's figures as shown. */
export interface DevelopmentFigures {
  id: string;
  /** `$2,600,000 MXN` in the chosen currency; null when the development has no price. */
  priceFromText: string | null;
  rentText: string | null;
  /** The breakdown by status (only statuses some unit has); null when no counts were given. */
  statuses: StatusSummary[] | null;
}

/** The figures of the developments' cards under the status colours and display settings. */
export function buildDevelopmentFigures(
  items: readonly DevelopmentFiguresInput[],
  colors: StatusColors,
  display: Display,
): DevelopmentFigures[] {
  return items.map((d) => ({
    id: d.id,
    priceFromText: d.precioDesde ? formatPrice(d.precioDesde, display, d.divisa) : null,
    rentText: d.precioRentaDesde ? formatPrice(d.precioRentaDesde, display, d.divisa) : null,
    statuses: d.statusCounts
      ? summariseStatuses(new Map(Object.entries(d.statusCounts)), colors).filter(
          (s) => s.total > 0,
        )
      : null,
  }));
}

/** A unit of an answer of the chat assistant (core/chat-query.ts `ChatUnitCard`), as read here. */
export interface ChatUnitFiguresInput {
  id: string;
  /** Absent when the unit's status hides its price from the caller. */
  precio?: number;
  divisa?: string | null;
  areaTotal: number;
  terraza?: number;
}

/** A chat unit card's figures as shown. */
export interface ChatUnitFigures {
  id: string;
  /** null when the price is hidden. */
  priceText: string | null;
  areaText: string;
  terraceText: string | null;
}

/** The figures of the chat assistant's unit cards in the chosen currency and area unit. */
export function buildChatUnitFigures(
  units: readonly ChatUnitFiguresInput[],
  display: Display,
): ChatUnitFigures[] {
  return units.map((u) => ({
    id: u.id,
    priceText: u.precio !== undefined ? formatPrice(u.precio, display, u.divisa) : null,
    areaText: formatAreaIn(u.areaTotal, display),
    terraceText: u.terraza ? formatAreaIn(u.terraza, display) : null,
  }));
}
