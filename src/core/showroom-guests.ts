/**
 * A showroom's guests (spec §3: "Guests (invitados) also exist"): people expected at the
 * showroom on a day, each hosted by an adviser of the corporate. Host administrators keep the
 * list: they invite a guest and remove one. One stream per showroom
 * (`showroom-guests:<corporateId>:<showroomId>`), so its list is decided as a whole.
 *
 * Events (`data` keeps Spanish field names): `GuestInvited { invitado }`,
 * `GuestRemoved { id }`, `GuestArrived { id, invitado, llegada }` (the host administrator saw them
 * come in; the event carries the guest as it was, so the arrival notice needs no lookup).
 */

import { isCalendarDay } from './check-in';
import { accept, reject, type Decider, type Decision } from './decider';

/** A guest of a showroom. */
export interface Guest {
  id: string;
  idShowroom: string;
  nombre: string;
  /** E-mail or phone, as the host administrator wrote it (may be empty). */
  contacto: string;
  /** The day of the visit, `YYYY-MM-DD` in the corporate's time zone. */
  fechaVisita: string;
  /** The adviser who hosts them (an approved member of the corporate; checked by the caller). */
  idAsesor: string;
  /** When the guest was added, whole seconds since the epoch. */
  fechaAlta: { _seconds: number };
  /** When they arrived at the showroom (absent: not yet), whole seconds since the epoch. */
  llegada?: { _seconds: number };
}

export type GuestEvent =
  | { type: 'GuestInvited'; data: { invitado: Guest } }
  | { type: 'GuestRemoved'; data: { id: string } }
  | { type: 'GuestArrived'; data: { id: string; invitado: Guest; llegada: { _seconds: number } } };

export type GuestEventType = GuestEvent['type'];

export const GUEST_EVENT_TYPES: readonly GuestEventType[] = [
  'GuestInvited',
  'GuestRemoved',
  'GuestArrived',
];

/** The showroom's guests by id, and the ids removed. */
export interface GuestListState {
  guests: Record<string, Guest>;
  removed: string[];
}

export const initialGuestListState: GuestListState = { guests: {}, removed: [] };

export type GuestCommand =
  | { type: 'InviteGuest'; guest: Guest }
  | { type: 'RemoveGuest'; id: string }
  /** The guest came in (`now`: the server's clock). Marking an arrived guest again writes nothing. */
  | { type: 'MarkGuestArrived'; id: string; now: Date };

export type GuestField = 'nombre' | 'contacto' | 'fechaVisita' | 'idAsesor';

export type GuestError =
  | { code: 'GUEST_INVALID'; campos: GuestField[] }
  | { code: 'GUEST_EXISTS' }
  | { code: 'GUEST_NOT_FOUND' };

export type GuestDecision = Decision<GuestEvent, GuestError>;

/** Longest name and contact a guest may have. */
export const GUEST_NAME_MAX = 120;
export const GUEST_CONTACT_MAX = 160;

/** What is wrong with a guest, field by field (empty: nothing). */
export function guestProblems(guest: Pick<Guest, GuestField>): GuestField[] {
  const out: GuestField[] = [];
  const nombre = guest.nombre.trim();
  if (nombre.length === 0 || nombre.length > GUEST_NAME_MAX) out.push('nombre');
  if (guest.contacto.trim().length > GUEST_CONTACT_MAX) out.push('contacto');
  if (!isCalendarDay(guest.fechaVisita)) out.push('fechaVisita');
  if (guest.idAsesor.trim().length === 0) out.push('idAsesor');
  return out;
}

export function decideGuests(command: GuestCommand, state: GuestListState): GuestDecision {
  switch (command.type) {
    case 'InviteGuest': {
      const { guest } = command;
      if (state.guests[guest.id] || state.removed.includes(guest.id))
        return reject({ code: 'GUEST_EXISTS' });
      const campos = guestProblems(guest);
      if (campos.length > 0) return reject({ code: 'GUEST_INVALID', campos });
      return accept({
        type: 'GuestInvited',
        data: {
          invitado: { ...guest, nombre: guest.nombre.trim(), contacto: guest.contacto.trim() },
        },
      });
    }
    case 'RemoveGuest':
      if (state.removed.includes(command.id)) return accept();
      if (!state.guests[command.id]) return reject({ code: 'GUEST_NOT_FOUND' });
      return accept({ type: 'GuestRemoved', data: { id: command.id } });
    case 'MarkGuestArrived': {
      const guest = state.guests[command.id];
      if (!guest) return reject({ code: 'GUEST_NOT_FOUND' });
      if (guest.llegada) return accept();
      return accept({
        type: 'GuestArrived',
        data: {
          id: guest.id,
          invitado: guest,
          llegada: { _seconds: Math.floor(command.now.getTime() / 1000) },
        },
      });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

export function evolveGuests(state: GuestListState, event: GuestEvent): GuestListState {
  switch (event.type) {
    case 'GuestInvited':
      return {
        ...state,
        guests: { ...state.guests, [event.data.invitado.id]: event.data.invitado },
      };
    case 'GuestRemoved': {
      const { [event.data.id]: _gone, ...guests } = state.guests;
      return { guests, removed: [...state.removed, event.data.id] };
    }
    case 'GuestArrived': {
      const guest = state.guests[event.data.id];
      if (!guest) return state;
      return {
        ...state,
        guests: { ...state.guests, [guest.id]: { ...guest, llegada: event.data.llegada } },
      };
    }
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The showroom guest list as a {@link Decider}. */
export const guestListDecider: Decider<GuestCommand, GuestListState, GuestEvent, GuestError> = {
  initialState: initialGuestListState,
  decide: decideGuests,
  evolve: evolveGuests,
};
