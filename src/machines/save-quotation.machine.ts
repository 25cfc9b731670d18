/**
 * Saving a quotation to a client (issue 11 point 7): choosing → saving → saved, or back to
 * choosing with what went wrong (`error`, `duplicateClient`).
 *
 * - `choosing`: the client is the pinned lead (the default when there is one), one of the
 *   adviser's leads (the default otherwise, the first of the list until one is chosen) or a new
 *   client typed in place (the default when the adviser has no leads). `quotation.save` goes
 *   on only when the quotation can be priced (`disabled` false) and the choice is complete (a
 *   pinned lead, a lead of the list, a new client's name).
 * - `saving`: the `saveQuotation` actor sends the quotation with `idLead` or `nuevoLead` (one
 *   atomic call: the new client and the quotation are written together). Another
 *   `quotation.save` meanwhile does nothing: one client, one quotation.
 * - `saved`: the saved quotation is in `context.quotation`; the `notifySaved` action hands it
 *   to the page, which shows the saved panel (lead link, favourite, share link).
 * - `choosing.error`: the server refused (the error toast says why); the choice is kept.
 * - `choosing.duplicateClient`: the new client's email or phone already belongs to a lead (409
 *   LEAD_DUPLICATE): nothing was written; `context.duplicate` says whose it is (and which lead,
 *   when the user may see it). The error toast says so, as before.
 *
 * The pinned lead, the adviser's leads and whether the quotation can be priced come from the
 * page's queries (`quotation.sync`); the quotation's own fields (unit, scheme, extras, currency)
 * are added by the `saveQuotation` actor the page provides, so tests swap it with
 * `saveQuotationMachine.provide(…)`. The actor reports how a save failed by rejecting with a
 * {@link SaveQuotationError} (a duplicate client, or any other failure): the page reads the
 * API's errors into it, so the machine knows nothing of HTTP.
 */

import { assign, fromPromise, setup } from 'xstate';
import type { Lead } from '../core/lead';
import type { Quotation } from '../core/quotation';

export type LeadMode = 'pinned' | 'list' | 'new';

/** A lead as the panel lists it. */
export type LeadOption = Pick<Lead, 'id' | 'nombre' | 'apellidos' | 'email'>;

export interface NewClient {
  nombre: string;
  apellidos: string;
  email: string;
  telefono: string;
}

/** The client of the quotation, as the create call takes it. */
export type ClientChoice =
  | { idLead: string }
  | { nuevoLead: { nombre: string; apellidos?: string; email?: string; telefono?: string } };

export interface DuplicateClient {
  /** The adviser who looks after the existing lead (may be empty). */
  ownerName: string;
  /** The existing lead, when the user may see it. */
  leadId: string | null;
  /** The existing lead is the user's own. */
  own: boolean;
}

/** How a save failed, as the `saveQuotation` actor reports it. */
export type SaveQuotationFailure =
  /** The new client's email or phone already belongs to a lead (409 LEAD_DUPLICATE). */
  | { kind: 'duplicate'; duplicate: DuplicateClient }
  /** Anything else (the page's error toast says why): `message` is what the user reads. */
  | { kind: 'failed'; message: string };

/** What the `saveQuotation` actor rejects with. */
export class SaveQuotationError extends Error {
  constructor(readonly failure: SaveQuotationFailure) {
    super(failure.kind === 'failed' ? failure.message : `quotation save: ${failure.kind}`);
    this.name = 'SaveQuotationError';
  }
}

export interface SaveQuotationContext {
  pinned: LeadOption | null;
  leads: LeadOption[];
  /** The quotation cannot be saved yet (its figures are not priced). */
  disabled: boolean;
  /** The user's choice; null until they pick one (the default applies). */
  mode: LeadMode | null;
  /** The lead picked from the list; empty until one is picked (the first applies). */
  chosen: string;
  nuevo: NewClient;
  quotation: Quotation | null;
  duplicate: DuplicateClient | null;
}

export interface SaveQuotationSources {
  pinned: LeadOption | null;
  leads: LeadOption[];
  disabled: boolean;
}

export type SaveQuotationEvent =
  /** The page's data changed: the pinned lead, the adviser's leads, the figures. */
  | ({ type: 'quotation.sync' } & SaveQuotationSources)
  | { type: 'quotation.mode'; mode: LeadMode }
  | { type: 'quotation.choose'; leadId: string }
  | { type: 'quotation.newClient'; campo: keyof NewClient; value: string }
  | { type: 'quotation.save' };

export type SaveQuotationInput = SaveQuotationSources;

export interface SaveQuotationActorInput {
  client: ClientChoice;
}

/** The mode in effect: the user's, else the pinned lead, else the list, else a new client. */
export function effectiveMode(context: SaveQuotationContext): LeadMode {
  return context.mode ?? (context.pinned ? 'pinned' : context.leads.length > 0 ? 'list' : 'new');
}

/** The lead of the list in effect: the one picked, else the first. */
export function listChoice(context: SaveQuotationContext): string {
  return context.chosen || context.leads[0]?.id || '';
}

/** The client the quotation is saved to, as the create call takes it. */
export function clientChoice(context: SaveQuotationContext): ClientChoice {
  const mode = effectiveMode(context);
  if (mode === 'pinned' && context.pinned) return { idLead: context.pinned.id };
  if (mode === 'list') return { idLead: listChoice(context) };
  const { nombre, apellidos, email, telefono } = context.nuevo;
  return {
    nuevoLead: {
      nombre: nombre.trim(),
      ...(apellidos.trim() ? { apellidos: apellidos.trim() } : {}),
      ...(email.trim() ? { email: email.trim() } : {}),
      ...(telefono.trim() ? { telefono: telefono.trim() } : {}),
    },
  };
}

const notProvided = () =>
  Promise.reject(new Error('save quotation actor saveQuotation was not provided'));

/**
 * The failure of an actor's error event. An actor that rejects with anything but a
 * {@link SaveQuotationError} broke its contract: it is an ordinary failure.
 */
function failureOf(event: unknown): SaveQuotationFailure {
  const error = (event as { error?: unknown }).error;
  if (error instanceof SaveQuotationError) return error.failure;
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

/** The duplicate client of a failure; null for other failures. */
const duplicateOf = (failure: SaveQuotationFailure): DuplicateClient | null =>
  failure.kind === 'duplicate' ? failure.duplicate : null;

export const saveQuotationMachine = setup({
  types: {
    context: {} as SaveQuotationContext,
    events: {} as SaveQuotationEvent,
    input: {} as SaveQuotationInput,
    tags: '' as 'saving',
  },
  actors: {
    /** Creates the quotation for the client; answers the saved quotation. */
    saveQuotation: fromPromise<Quotation, SaveQuotationActorInput>(notProvided),
  },
  actions: {
    /** Hands the saved quotation to the page. */
    notifySaved: (_, _quotation: Quotation) => {},
    sync: assign(({ event }) =>
      event.type === 'quotation.sync'
        ? { pinned: event.pinned, leads: event.leads, disabled: event.disabled }
        : {},
    ),
    setMode: assign(({ event }) => (event.type === 'quotation.mode' ? { mode: event.mode } : {})),
    choose: assign(({ event }) =>
      event.type === 'quotation.choose' ? { chosen: event.leadId } : {},
    ),
    setNewClient: assign(({ context, event }) =>
      event.type === 'quotation.newClient'
        ? { nuevo: { ...context.nuevo, [event.campo]: event.value } }
        : {},
    ),
    startSave: assign({ duplicate: null }),
    keepQuotation: assign((_, quotation: Quotation) => ({ quotation })),
    keepDuplicate: assign(({ event }) => ({ duplicate: duplicateOf(failureOf(event)) })),
  },
  guards: {
    /** The quotation is priced and the client choice is complete. */
    canSave: ({ context }) => {
      if (context.disabled) return false;
      const mode = effectiveMode(context);
      if (mode === 'pinned') return context.pinned !== null;
      if (mode === 'list') return listChoice(context) !== '';
      return context.nuevo.nombre.trim().length > 0;
    },
    isDuplicate: ({ event }) => failureOf(event).kind === 'duplicate',
  },
}).createMachine({
  id: 'saveQuotation',
  context: ({ input }) => ({
    pinned: input.pinned,
    leads: input.leads,
    disabled: input.disabled,
    mode: null,
    chosen: '',
    nuevo: { nombre: '', apellidos: '', email: '', telefono: '' },
    quotation: null,
    duplicate: null,
  }),
  initial: 'choosing',
  on: {
    'quotation.sync': { actions: 'sync' },
    // The choice stays editable while saving; the call already under way keeps its client.
    'quotation.mode': { actions: 'setMode' },
    'quotation.choose': { actions: 'choose' },
    'quotation.newClient': { actions: 'setNewClient' },
  },
  states: {
    choosing: {
      initial: 'idle',
      states: {
        idle: {},
        error: {},
        duplicateClient: {},
      },
      on: {
        'quotation.save': { guard: 'canSave', target: 'saving' },
      },
    },

    saving: {
      tags: ['saving'],
      entry: 'startSave',
      invoke: {
        src: 'saveQuotation',
        input: ({ context }) => ({ client: clientChoice(context) }),
        onDone: {
          target: 'saved',
          actions: [
            { type: 'keepQuotation', params: ({ event }) => event.output },
            { type: 'notifySaved', params: ({ event }) => event.output },
          ],
        },
        onError: [
          { guard: 'isDuplicate', target: 'choosing.duplicateClient', actions: 'keepDuplicate' },
          { target: 'choosing.error' },
        ],
      },
      // A second click while saving does nothing: one client, one quotation.
    },

    /** Saved: the page shows the saved quotation (lead link, favourite, share link). */
    saved: {},
  },
});
