/**
 * The quotation aggregate's decisions (spec §3 Quotation, §4 the favourite flag, §7 share
 * links): creating an already priced quotation, setting its favourite flag, issuing share links
 * and revoking them. One stream per quotation; the events are those of `./quotation`
 * ({@link QuotationEvent}) with their `data` exactly as the streams hold them. Pricing stays in
 * `./quotation` (`priceQuotation`, `newQuotation`); this module decides what happens to the
 * quotation afterwards.
 */

import { accept, reject, type Decider, type Decision } from './decider';
import {
  evolveQuotation,
  quotationEventBase,
  type Quotation,
  type QuotationEvent,
} from './quotation';

/** The longest a share link may live, in days (from its creation). */
export const QUOTATION_SHARE_MAX_DAYS = 90;

/** One share link of the quotation, by nonce. */
export interface QuotationShare {
  /** ISO instant after which the link is refused. */
  expiraEn: string;
  revocado: boolean;
}

/** The quotation (null before it is created) and its share links by nonce. */
export interface QuotationState {
  quotation: Quotation | null;
  shares: Readonly<Record<string, QuotationShare>>;
}

export const initialQuotationState: QuotationState = { quotation: null, shares: {} };

export type QuotationCommand =
  /** Save a quotation priced and assembled by `priceQuotation` and `newQuotation`. */
  | { type: 'CreateQuotation'; cotizacion: Quotation }
  | { type: 'SetQuotationFavourite'; esFavorito: boolean }
  | {
      type: 'ShareQuotation';
      /** The random part of the share token (the caller draws it). */
      nonce: string;
      expiraEn: Date;
      /** When the link is issued. */
      now: Date;
      /** The id of the key that signs the link's token (recorded so its list shows that token). */
      kid?: string;
    }
  | { type: 'RevokeQuotationShare'; nonce: string };

export type QuotationDeciderError =
  | { code: 'QUOTATION_NOT_FOUND' }
  | { code: 'QUOTATION_EXISTS' }
  | { code: 'SHARE_NOT_FOUND'; nonce: string }
  | { code: 'SHARE_EXISTS'; nonce: string }
  /** The expiry is not after the issue time, or more than {@link QUOTATION_SHARE_MAX_DAYS} later. */
  | { code: 'SHARE_EXPIRY_INVALID' };

export type QuotationDecision = Decision<QuotationEvent, QuotationDeciderError>;

const DAY_MS = 86_400_000;

/** What a command produces given the quotation's state: events, or why it cannot happen. */
export function decideQuotation(
  command: QuotationCommand,
  state: QuotationState,
): QuotationDecision {
  if (command.type === 'CreateQuotation') {
    if (state.quotation) return reject({ code: 'QUOTATION_EXISTS' });
    const q = command.cotizacion;
    return accept({ type: 'QuotationCreated', data: { ...quotationEventBase(q), cotizacion: q } });
  }
  const quotation = state.quotation;
  if (!quotation) return reject({ code: 'QUOTATION_NOT_FOUND' });
  switch (command.type) {
    case 'SetQuotationFavourite':
      if (command.esFavorito === quotation.esFavorito) return accept();
      return accept({
        type: 'QuotationFavouriteToggled',
        data: { ...quotationEventBase(quotation), esFavorito: command.esFavorito },
      });
    case 'ShareQuotation': {
      const { nonce } = command;
      if (Object.hasOwn(state.shares, nonce)) return reject({ code: 'SHARE_EXISTS', nonce });
      const life = command.expiraEn.getTime() - command.now.getTime();
      if (!(life > 0 && life <= QUOTATION_SHARE_MAX_DAYS * DAY_MS))
        return reject({ code: 'SHARE_EXPIRY_INVALID' });
      return accept({
        type: 'QuotationShared',
        data: {
          ...quotationEventBase(quotation),
          nonce,
          expiraEn: command.expiraEn.toISOString(),
          ...(command.kid === undefined ? {} : { kid: command.kid }),
        },
      });
    }
    case 'RevokeQuotationShare': {
      const { nonce } = command;
      const share = Object.hasOwn(state.shares, nonce) ? state.shares[nonce] : undefined;
      if (!share) return reject({ code: 'SHARE_NOT_FOUND', nonce });
      if (share.revocado) return accept();
      return accept({
        type: 'QuotationShareRevoked',
        data: { ...quotationEventBase(quotation), nonce },
      });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

function evolveShares(
  shares: QuotationState['shares'],
  event: QuotationEvent,
): QuotationState['shares'] {
  switch (event.type) {
    case 'QuotationShared':
      return { ...shares, [event.data.nonce]: { expiraEn: event.data.expiraEn, revocado: false } };
    case 'QuotationShareRevoked': {
      const share = Object.hasOwn(shares, event.data.nonce) ? shares[event.data.nonce] : undefined;
      return share ? { ...shares, [event.data.nonce]: { ...share, revocado: true } } : shares;
    }
    case 'QuotationCreated':
    case 'QuotationFavouriteToggled':
      return shares;
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The aggregate after one event (never mutated). */
export function evolveQuotationState(state: QuotationState, event: QuotationEvent): QuotationState {
  return {
    quotation: evolveQuotation(state.quotation, event),
    shares: evolveShares(state.shares, event),
  };
}

/** The quotation aggregate as a {@link Decider}. */
export const quotationDecider: Decider<
  QuotationCommand,
  QuotationState,
  QuotationEvent,
  QuotationDeciderError
> = {
  initialState: initialQuotationState,
  decide: decideQuotation,
  evolve: evolveQuotationState,
};
