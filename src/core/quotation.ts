/**
 * The quotation aggregate (spec §3 Quotation, payment scheme configuration, optionals; §4 the
 * favourite flag): which schemes and optionals apply to a unit, how a quotation is priced and
 * frozen so it can be reproduced after prices change, and how its events fold.
 *
 * Pure: the clock, ids and every loaded document come in as arguments.
 */

import type { Money } from './brands';
import { convertMoney, currencyCode, findCurrency, normalizeCurrencies } from './currency';
import { moneyFromMajor } from './money';
import { PaymentSchemeError, quote, type Quote, type SchemePartKey } from './pricing';
import { isPriceVisible, isUnitQuotable } from './status';
import type {
  Areas,
  Cluster,
  Corporate,
  Currency,
  Development,
  Optional,
  PaymentScheme,
  Prototype,
  StatusColors,
  Unit,
  UnitFeatures,
} from './types';

/**
 * The schemes that apply to a cluster: the development's default schemes (no `idCluster`), where
 * a variant for this cluster with the same `nombre` takes the default's place, plus variants of
 * this cluster that have no default. Without a cluster, only the defaults.
 */
export function effectiveSchemes(
  schemes: readonly PaymentScheme[],
  idCluster?: string | null,
): PaymentScheme[] {
  const variants = idCluster ? schemes.filter((s) => s.idCluster === idCluster) : [];
  const out: PaymentScheme[] = [];
  const used = new Set<PaymentScheme>();
  for (const s of schemes) {
    if (s.idCluster) continue;
    const variant = variants.find((v) => v.nombre === s.nombre);
    if (variant) used.add(variant);
    out.push(variant ?? s);
  }
  for (const v of variants) if (!used.has(v)) out.push(v);
  return out;
}

/** The development's optionals for a cluster: those without `idCluster` and those of that cluster. */
export function applicableOptionals(
  opcionales: readonly Optional[],
  idCluster?: string | null,
): Optional[] {
  return opcionales.filter((o) => !o.idCluster || o.idCluster === idCluster);
}

/**
 * The scheme as the pricing core takes it. Configurations write a cash scheme's monthly part as
 * `{ porcentaje: 0, numeroMensualidades: 0 }`; with no monthly share there is no month count to
 * check, so the zero count is dropped rather than failing `validateScheme`.
 */
export function schemeForQuote(scheme: PaymentScheme): PaymentScheme {
  const m = scheme.mensualidades;
  if (m.porcentaje === 0 && m.numeroMensualidades === 0) {
    const { numeroMensualidades: _n, ...rest } = m;
    return { ...scheme, mensualidades: rest };
  }
  return scheme;
}

/**
 * An extra added by hand to a quotation: `precio` in major units of `divisa`, the currency it
 * was entered in. Without `divisa` (links and quotations made before extras carried it) the
 * price is in the quoted currency.
 */
export interface QuotationExtra {
  nombre: string;
  precio: number;
  divisa?: string;
}

/**
 * An extra's price in cents of the quoted currency `to`: converted from the currency it was
 * entered in by the ratio of exchange rates (core/currency.ts), so an extra of 50,000 MXN is
 * about 2,703 USD at 18.5 whatever the currency chosen afterwards. Null when the extra's
 * currency is not one of `currencies`.
 */
export function extraAmount(
  extra: QuotationExtra,
  currencies: readonly Currency[],
  to: Currency,
): Money | null {
  const from = extra.divisa === undefined ? to : findCurrency(currencies, extra.divisa);
  return from ? convertMoney(moneyFromMajor(extra.precio), from, to) : null;
}

/**
 * Whether a quotation's amounts are shown to the cent. Spec §9 shows whole units, and a
 * quotation whose prices are whole is shown so (pricing's `displayedQuote` rounds the
 * instalments that split a part so each breakdown adds up as printed). A price entered with
 * cents, though (the unit's, an optional's or an extra added by hand, in the currency it was
 * entered in), rounded to a unit would misquote it ($25,000.50 as $25,001): such a quotation
 * shows every amount exact to the cent, so its breakdowns still add up as printed. The cents a
 * conversion to another currency leaves are no price anyone entered; those stay whole.
 */
export function quotationInCents(q: {
  precioEnCotizacion: number;
  opcionales: readonly Pick<Optional, 'precio'>[];
  extras: readonly Pick<QuotationExtra, 'precio'>[];
}): boolean {
  const prices = [
    q.precioEnCotizacion,
    ...q.opcionales.map((o) => o.precio),
    ...q.extras.map((e) => e.precio),
  ];
  return prices.some((p) => Number.isFinite(p) && moneyFromMajor(p) % 100 !== 0);
}

/** One line added to the final price, in cents of the quoted currency. */
export interface QuotationAddition {
  tipo: 'opcional' | 'extra';
  /** The optional's id (optionals only). */
  id?: string;
  nombre: string;
  monto: Money;
}

/** {@link Quote} as JSON: instalment dates are ISO strings. Amounts are cents. */
export type QuoteFigures = Omit<Quote, 'instalments'> & {
  instalments: { number: number; date: string; amount: Money }[];
};

/**
 * A saved quotation (spec §3 Quotation), frozen at creation: every figure can be shown again
 * exactly as quoted even after the unit's price, the scheme or the exchange rate change.
 */
export interface Quotation {
  id: string;
  idCorporativo: string;
  idDesarrollo: string;
  idCluster: string;
  idUnidad: string;
  idPrototipo: string;
  idAsesor: string;
  idLead: string;
  nombreUnidad: string;
  /** The spec's field name. */
  nombrePrototipe: string;
  nombreCluster: string;
  nombreDesarrolloInteres: string;
  /** Display names at quote time (the buyer's page and the report show them). */
  nombreAsesor: string;
  nombreCliente: string;
  /** The unit's list price when quoted, major units of {@link Quotation.divisaUnidad}. */
  precioEnCotizacion: number;
  /** The unit's currency and its rate when quoted. */
  divisaUnidad: Currency;
  /** The currency of every figure, with its rate when quoted. */
  divisa: Currency;
  /** The scheme exactly as quoted (the spec's `esquemasPago`). */
  esquemasPago: PaymentScheme;
  /** The development's optionals chosen, as configured when quoted (price in the development's currency). */
  opcionales: Optional[];
  /** Extras added by hand, each with the currency it was entered in (else the quoted one). */
  extras: QuotationExtra[];
  /** Optionals and extras in cents of the quoted currency, in that order. */
  adicionales: QuotationAddition[];
  /** Discount, final price, parts and instalments in cents of the quoted currency. */
  figuras: QuoteFigures;
  unidad: {
    nivel: number;
    metrajes: Areas;
    caracteristicas: UnitFeatures;
  };
  fechaEntrega: string | null;
  /** Calendar of the instalment dates (the corporate's `zonaHoraria`). */
  zonaHoraria: string;
  /** Seconds since the epoch. */
  fechaAlta: number;
  esFavorito: boolean;
  /**
   * The quotation's number in its corporate (1, 2, 3, … in the order they were saved), assigned
   * once when it is saved; printed as {@link quotationFolio}. Absent in quotations saved before
   * numbers existed: the read model numbers those in the order of the log.
   */
  numero?: number;
}

/** How a quotation number is printed: `COT-000042`. */
export function quotationFolio(numero: number | null | undefined): string | null {
  if (numero === null || numero === undefined || !Number.isInteger(numero) || numero < 1)
    return null;
  return `COT-${String(numero).padStart(6, '0')}`;
}

/** Why a quotation cannot be priced. */
export type QuotationError =
  | { code: 'UNIT_NOT_QUOTABLE'; status: string | null }
  | { code: 'PRICE_NOT_VISIBLE' }
  | { code: 'SCHEME_NOT_FOUND' }
  | { code: 'SCHEME_INVALID'; message: string }
  | { code: 'OPTIONAL_NOT_FOUND'; id: string }
  | { code: 'EXTRA_INVALID'; index: number }
  | { code: 'CURRENCY_NOT_FOUND'; codigo: string };

/** Everything {@link priceQuotation} needs, loaded by the caller. */
export interface QuotationPricingInput {
  corporate: Pick<Corporate, 'divisa' | 'zonaHoraria'>;
  development: Pick<Development, 'esquemasPago' | 'opcionales' | 'divisa' | 'fechaEntrega'>;
  unit: Unit;
  /** The status colours in force for the development (its own, else the corporate's). */
  statusColors: StatusColors;
  /**
   * `quotable`: an adviser's quotation (the unit must be quotable now); `priceVisible`: a
   * visitor's simulation (the unit's price must be public).
   */
  rule: 'quotable' | 'priceVisible';
  idEsquema: string;
  idsOpcionales: readonly string[];
  extras: readonly QuotationExtra[];
  /** The currency code to quote in. */
  divisa: string;
  now: Date;
}

/** A priced quotation, before it is attached to an adviser and a lead. */
export interface PricedQuotation {
  precioEnCotizacion: number;
  divisaUnidad: Currency;
  divisa: Currency;
  esquemasPago: PaymentScheme;
  opcionales: Optional[];
  extras: QuotationExtra[];
  adicionales: QuotationAddition[];
  figuras: QuoteFigures;
}

export type QuotationPricing =
  { ok: true; priced: PricedQuotation } | { ok: false; error: QuotationError };

const fail = (error: QuotationError): QuotationPricing => ({ ok: false, error });

/** {@link Quote} with ISO dates. */
export function quoteFigures(q: Quote): QuoteFigures {
  return {
    ...q,
    instalments: q.instalments.map((i) => ({
      number: i.number,
      date: i.date.toISOString(),
      amount: i.amount,
    })),
  };
}

/**
 * Checks and prices a quotation with the core rules: the unit is quotable (or its price
 * visible), the scheme is one of the unit's cluster ({@link effectiveSchemes}) and valid
 * (parts sum to 1), the optionals apply to the cluster, extras are non-negative, and the
 * currency (and each extra's) is one of the corporate's. The unit's price, the optionals and
 * the extras are converted to the quoted currency before pricing, so the parts add up exactly
 * to the final price shown.
 */
export function priceQuotation(input: QuotationPricingInput): QuotationPricing {
  const { unit, development, statusColors } = input;
  if (input.rule === 'quotable' && !isUnitQuotable(unit, statusColors)) {
    return fail({ code: 'UNIT_NOT_QUOTABLE', status: unit.status ?? null });
  }
  if (input.rule === 'priceVisible' && !isPriceVisible(unit, statusColors)) {
    return fail({ code: 'PRICE_NOT_VISIBLE' });
  }
  const scheme = effectiveSchemes(development.esquemasPago, unit.idCluster).find(
    (s) => s.id === input.idEsquema,
  );
  if (!scheme) return fail({ code: 'SCHEME_NOT_FOUND' });
  const applicable = applicableOptionals(development.opcionales, unit.idCluster);
  const opcionales: Optional[] = [];
  for (const id of new Set(input.idsOpcionales)) {
    const o = applicable.find((x) => x.id === id);
    if (!o) return fail({ code: 'OPTIONAL_NOT_FOUND', id });
    opcionales.push(o);
  }
  for (const [index, e] of input.extras.entries()) {
    if (!Number.isFinite(e.precio) || e.precio < 0) return fail({ code: 'EXTRA_INVALID', index });
  }
  const currencies = normalizeCurrencies(input.corporate.divisa);
  const to = findCurrency(currencies, input.divisa);
  if (!to || to.activo === false) return fail({ code: 'CURRENCY_NOT_FOUND', codigo: input.divisa });
  const extraAmounts: Money[] = [];
  for (const e of input.extras) {
    const amount = extraAmount(e, currencies, to);
    if (amount === null) return fail({ code: 'CURRENCY_NOT_FOUND', codigo: e.divisa ?? '' });
    extraAmounts.push(amount);
  }
  const unitCode = unit.divisa ?? development.divisa ?? 'MXN';
  const from = findCurrency(currencies, unitCode);
  if (!from) return fail({ code: 'CURRENCY_NOT_FOUND', codigo: unitCode });
  const devCurrency = findCurrency(currencies, development.divisa ?? 'MXN') ?? from;

  const adicionales: QuotationAddition[] = [
    ...opcionales.map((o): QuotationAddition => ({
      tipo: 'opcional',
      id: o.id,
      nombre: o.nombre,
      monto: convertMoney(moneyFromMajor(o.precio), devCurrency, to),
    })),
    ...input.extras.map((e, i): QuotationAddition => ({
      tipo: 'extra',
      nombre: e.nombre,
      monto: extraAmounts[i]!,
    })),
  ];
  const delivery = development.fechaEntrega ? new Date(development.fechaEntrega) : undefined;
  try {
    const q = quote({
      unitPrice: convertMoney(moneyFromMajor(unit.precio), from, to),
      scheme: schemeForQuote(scheme),
      extras: adicionales.map((a) => a.monto),
      now: input.now,
      ...(delivery && !Number.isNaN(delivery.getTime()) ? { deliveryDate: delivery } : {}),
      timeZone: input.corporate.zonaHoraria,
    });
    return {
      ok: true,
      priced: {
        precioEnCotizacion: unit.precio,
        divisaUnidad: { ...from },
        divisa: { ...to },
        esquemasPago: scheme,
        opcionales,
        extras: input.extras.map((e) => ({
          nombre: e.nombre,
          precio: e.precio,
          ...(e.divisa === undefined ? {} : { divisa: currencyCode(e.divisa) }),
        })),
        adicionales,
        figuras: quoteFigures(q),
      },
    };
  } catch (error) {
    if (error instanceof PaymentSchemeError)
      return fail({ code: 'SCHEME_INVALID', message: error.message });
    if (error instanceof RangeError)
      return fail({ code: 'SCHEME_INVALID', message: error.message });
    throw error;
  }
}

/** The parties and catalogue names a priced quotation is saved with. */
export interface QuotationContext {
  id: string;
  idCorporativo: string;
  zonaHoraria: string;
  development: Pick<Development, 'id' | 'nombre' | 'fechaEntrega'>;
  cluster: Pick<Cluster, 'nombre'> | null;
  prototype: Pick<Prototype, 'nombre'> | null;
  unit: Unit;
  adviser: { id: string; nombre: string };
  lead: { id: string; nombre: string };
  now: Date;
  /** The corporate's next quotation number (the caller draws it under its lock). */
  numero?: number;
}

/** The quotation document a `QuotationCreated` event carries. */
export function newQuotation(priced: PricedQuotation, ctx: QuotationContext): Quotation {
  return {
    id: ctx.id,
    idCorporativo: ctx.idCorporativo,
    idDesarrollo: ctx.development.id,
    idCluster: ctx.unit.idCluster,
    idUnidad: ctx.unit.id,
    idPrototipo: ctx.unit.idPrototipo,
    idAsesor: ctx.adviser.id,
    idLead: ctx.lead.id,
    nombreUnidad: ctx.unit.nombre,
    nombrePrototipe: ctx.prototype?.nombre ?? '',
    nombreCluster: ctx.cluster?.nombre ?? '',
    nombreDesarrolloInteres: ctx.development.nombre,
    nombreAsesor: ctx.adviser.nombre,
    nombreCliente: ctx.lead.nombre,
    ...priced,
    unidad: {
      nivel: ctx.unit.nivel,
      metrajes: ctx.unit.metrajes,
      caracteristicas: ctx.unit.caracteristicas,
    },
    fechaEntrega: ctx.development.fechaEntrega || null,
    zonaHoraria: ctx.zonaHoraria,
    fechaAlta: Math.floor(ctx.now.getTime() / 1000),
    esFavorito: false,
    ...(ctx.numero === undefined ? {} : { numero: ctx.numero }),
  };
}

/** Every quotation event carries the corporate, the adviser and the lead, for scoped live feeds. */
interface QuotationEventBase {
  idCotizacion: string;
  idCorporativo: string;
  idAsesor: string;
  idLead: string;
}

export type QuotationEvent =
  | { type: 'QuotationCreated'; data: QuotationEventBase & { cotizacion: Quotation } }
  | { type: 'QuotationFavouriteToggled'; data: QuotationEventBase & { esFavorito: boolean } }
  | {
      type: 'QuotationShared';
      /**
       * `nonce`: the random part of the share token; `expiraEn`: ISO instant; `kid`: the key
       * that signed the token (absent in links from before key ids).
       */
      data: QuotationEventBase & { nonce: string; expiraEn: string; kid?: string };
    }
  | {
      type: 'QuotationShareRevoked';
      /** `nonce`: the share link turned off; its token is refused from then on. */
      data: QuotationEventBase & { nonce: string };
    };

export type QuotationEventType = QuotationEvent['type'];

export const QUOTATION_EVENT_TYPES: readonly QuotationEventType[] = [
  'QuotationCreated',
  'QuotationFavouriteToggled',
  'QuotationShared',
  'QuotationShareRevoked',
];

/** The event base of a quotation. */
export function quotationEventBase(q: Quotation): QuotationEventBase {
  return {
    idCotizacion: q.id,
    idCorporativo: q.idCorporativo,
    idAsesor: q.idAsesor,
    idLead: q.idLead,
  };
}

/** The quotation after one event (never mutated). */
export function evolveQuotation(state: Quotation | null, event: QuotationEvent): Quotation | null {
  switch (event.type) {
    case 'QuotationCreated':
      return { ...event.data.cotizacion };
    case 'QuotationFavouriteToggled':
      return state ? { ...state, esFavorito: event.data.esFavorito } : state;
    case 'QuotationShared':
    case 'QuotationShareRevoked':
      return state;
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The amount of one part of a quotation's figures. */
export function quotationPart(q: Pick<Quotation, 'figuras'>, key: SchemePartKey): Money {
  return q.figuras.parts.find((p) => p.key === key)?.amount ?? (0 as Money);
}
