/**
 * The lead editor (issue 11 point 7): editing → saving → saved / conflict / gone / error.
 *
 * - `editing`: the user types (`editor.change`), undoes (`editor.cancel`: back to the loaded
 *   lead) and saves (`editor.save`). A save is refused next to the fields when the form is not
 *   valid, and cannot happen without a change. Its substates say how the last save ended:
 *   `idle`, `saved` (the toast "Los cambios se guardaron."), `error` (field errors from the
 *   form or the server, or a failure message). While nothing is typed, a newer version of the
 *   lead (`editor.leadUpdated`: live stream, another tab's save) simply replaces the form.
 * - `saving`: the `saveLead` actor sends the changed fields with `leadAnterior`, the lead as the
 *   editor loaded it. Another `editor.save` meanwhile does nothing: one click, one save.
 * - `conflict`: the server answered 409 with its current version of the lead (somebody else
 *   saved first); nothing was written. The user compares and either reapplies their own changes
 *   on top of the current version (`editor.reapply`: fields the user did not touch keep what the
 *   other person saved) or takes the current version (`editor.discard`).
 * - `gone`: the lead was deleted meanwhile (404 on save, or the page found it gone:
 *   `editor.gone`). The form stays visible, locked (tag `locked`).
 *
 * The save is the named `fromPromise` actor `saveLead` (the component provides it through its
 * TanStack mutation, which also updates the caches), and the toast is the `notifySaved` action,
 * so tests swap both with `leadEditorMachine.provide(…)`. The actor reports how a save failed
 * by rejecting with a {@link LeadSaveError} (conflict, gone, invalid fields, or a failure with
 * the message to show): the component reads the API's errors into it, so the machine knows
 * nothing of HTTP or of the UI's messages.
 */

import { and, assign, fromPromise, setup } from 'xstate';
import type { Lead, LeadEditableField, LeadFields } from '../core/lead';
import {
  changesFrom,
  formValuesFromLead,
  hasErrors,
  validateLeadForm,
  type LeadFormErrors,
  type LeadFormValues,
} from '../core/lead-form';

export interface LeadEditorContext {
  /** The lead as the editor loaded it (or last saved it): sent back as `leadAnterior`. */
  base: Lead;
  values: LeadFormValues;
  errors: LeadFormErrors;
  /** The version stored now, after a 409 answer; null when there is no conflict. */
  conflict: Lead | null;
  /** What went wrong with the last save, when it is not about a field. */
  failure: string | null;
}

export type LeadEditorEvent =
  | { type: 'editor.change'; campo: LeadEditableField; value: string }
  | { type: 'editor.save' }
  /** "Deshacer": the form goes back to the loaded lead. */
  | { type: 'editor.cancel' }
  /** The lead as the page has it now (live stream, cache). */
  | { type: 'editor.leadUpdated'; lead: Lead }
  /** Conflict: the user's own changes on top of the current version, saved at once. */
  | { type: 'editor.reapply' }
  /** Conflict: take the current version, drop the user's changes. */
  | { type: 'editor.discard' }
  /** The page found the lead deleted. */
  | { type: 'editor.gone' };

export interface LeadEditorInput {
  lead: Lead;
}

export interface SaveLeadInput {
  changes: Partial<LeadFields>;
  leadAnterior: Lead;
}

/** How a save failed, as the `saveLead` actor reports it. */
export type LeadSaveFailure =
  /** The stored lead changed since the editor loaded it (409); `current` is the version now. */
  | { kind: 'conflict'; current: Lead }
  /** The lead was deleted meanwhile (404). */
  | { kind: 'gone' }
  /** The server refused fields (400 VALIDATION): shown next to them. */
  | { kind: 'invalid'; errors: LeadFormErrors }
  /** Anything else: `message` is what the user reads. */
  | { kind: 'failed'; message: string };

/** What the `saveLead` actor rejects with. */
export class LeadSaveError extends Error {
  constructor(readonly failure: LeadSaveFailure) {
    super(failure.kind === 'failed' ? failure.message : `lead save: ${failure.kind}`);
    this.name = 'LeadSaveError';
  }
}

const notProvided = () => Promise.reject(new Error('lead editor actor saveLead was not provided'));

const changeCount = (base: Lead, values: LeadFormValues) =>
  Object.keys(changesFrom(base, values)).length;

/** The form values the user changed relative to `base`. */
function changedValues(base: Lead, values: LeadFormValues): Partial<LeadFormValues> {
  const out: Partial<LeadFormValues> = {};
  for (const campo of Object.keys(changesFrom(base, values)) as LeadEditableField[])
    out[campo] = values[campo];
  return out;
}

/**
 * The user's changes on top of the stored version: only the fields the user changed replace
 * the stored ones; fields the user did not touch keep what the other person saved.
 */
export function reappliedValues(context: LeadEditorContext): LeadFormValues {
  const current = context.conflict ?? context.base;
  return { ...formValuesFromLead(current), ...changedValues(context.base, context.values) };
}

/**
 * The failure of an actor's error event. An actor that rejects with anything but a
 * {@link LeadSaveError} broke its contract: its error's message is shown as a failure.
 */
function failureOf(event: unknown): LeadSaveFailure {
  const error = (event as { error?: unknown }).error;
  if (error instanceof LeadSaveError) return error.failure;
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

const sameValues = (a: LeadFormValues, b: LeadFormValues) =>
  (Object.keys(a) as LeadEditableField[]).every((k) => a[k] === b[k]);

export const leadEditorMachine = setup({
  types: {
    context: {} as LeadEditorContext,
    events: {} as LeadEditorEvent,
    input: {} as LeadEditorInput,
    tags: '' as 'saving' | 'locked',
  },
  actors: {
    /** Saves the changes over `leadAnterior`; answers the saved lead. */
    saveLead: fromPromise<Lead, SaveLeadInput>(notProvided),
  },
  actions: {
    /** Tells the user the changes were saved (a toast). */
    notifySaved: () => {},
    applyChange: assign(({ context, event }) => {
      if (event.type !== 'editor.change') return {};
      const values = { ...context.values, [event.campo]: event.value };
      // Once the form showed errors, they follow the typing.
      return hasErrors(context.errors) ? { values, errors: validateLeadForm(values) } : { values };
    }),
    undoChanges: assign(({ context }) => ({
      values: formValuesFromLead(context.base),
      errors: {},
    })),
    adoptLead: assign(({ event }) => {
      if (event.type !== 'editor.leadUpdated') return {};
      return { base: event.lead, values: formValuesFromLead(event.lead) };
    }),
    showValidationErrors: assign(({ context }) => ({
      errors: validateLeadForm(context.values),
      failure: null,
    })),
    startSave: assign({ errors: {}, failure: null }),
    adoptReapplied: assign(({ context }) => ({
      base: context.conflict ?? context.base,
      values: reappliedValues(context),
    })),
    adoptConflict: assign(({ context }) => ({
      base: context.conflict ?? context.base,
      values: formValuesFromLead(context.conflict ?? context.base),
      conflict: null,
      errors: {},
    })),
    dropConflict: assign({ conflict: null }),
    adoptSaved: assign((_, saved: Lead) => ({
      base: saved,
      values: formValuesFromLead(saved),
      conflict: null,
    })),
    showConflict: assign(({ context, event }) => {
      const failure = failureOf(event);
      return { conflict: failure.kind === 'conflict' ? failure.current : context.conflict };
    }),
    showFailure: assign(({ event }) => {
      const failure = failureOf(event);
      if (failure.kind === 'invalid') return { errors: failure.errors };
      return { failure: failure.kind === 'failed' ? failure.message : failure.kind };
    }),
  },
  guards: {
    /** The form differs from the loaded lead. */
    dirty: ({ context }) => changeCount(context.base, context.values) > 0,
    invalid: ({ context }) => hasErrors(validateLeadForm(context.values)),
    /** Nothing typed: the form still shows the loaded lead. */
    untouched: ({ context }) => sameValues(context.values, formValuesFromLead(context.base)),
    newerLead: ({ context, event }) =>
      event.type === 'editor.leadUpdated' && event.lead !== context.base,
    reappliedInvalid: ({ context }) => hasErrors(validateLeadForm(reappliedValues(context))),
    reappliedUnchanged: ({ context }) =>
      changeCount(context.conflict ?? context.base, reappliedValues(context)) === 0,
    /** The save was refused because the stored lead changed (409 with its current version). */
    isConflict: ({ event }) => failureOf(event).kind === 'conflict',
    /** The save found the lead deleted (404). */
    isGone: ({ event }) => failureOf(event).kind === 'gone',
    /** A conflict was being resolved when the save failed. */
    inConflict: ({ context }) => context.conflict !== null,
  },
}).createMachine({
  id: 'leadEditor',
  context: ({ input }) => ({
    base: input.lead,
    values: formValuesFromLead(input.lead),
    errors: {},
    conflict: null,
    failure: null,
  }),
  initial: 'editing',
  on: {
    'editor.gone': '.gone',
  },
  states: {
    editing: {
      initial: 'idle',
      states: {
        idle: {},
        saved: { entry: 'notifySaved' },
        error: {},
      },
      on: {
        'editor.change': { actions: 'applyChange' },
        'editor.cancel': { guard: 'dirty', actions: 'undoChanges' },
        'editor.save': [
          {
            guard: and(['dirty', 'invalid']),
            target: '.error',
            actions: 'showValidationErrors',
          },
          { guard: 'dirty', target: 'saving' },
        ],
        'editor.leadUpdated': {
          guard: and(['newerLead', 'untouched']),
          actions: 'adoptLead',
        },
      },
    },

    saving: {
      tags: ['saving'],
      entry: 'startSave',
      invoke: {
        src: 'saveLead',
        input: ({ context }) => ({
          changes: changesFrom(context.base, context.values),
          leadAnterior: context.base,
        }),
        onDone: {
          target: 'editing.saved',
          actions: { type: 'adoptSaved', params: ({ event }) => event.output },
        },
        onError: [
          { guard: 'isConflict', target: 'conflict', actions: 'showConflict' },
          { guard: 'isGone', target: 'gone' },
          { guard: 'inConflict', target: 'conflict', actions: 'showFailure' },
          { target: 'editing.error', actions: 'showFailure' },
        ],
      },
      on: {
        // Typing goes on while the save is under way; the saved version replaces it.
        'editor.change': { actions: 'applyChange' },
        // A second click while saving does nothing.
      },
    },

    conflict: {
      on: {
        'editor.change': { actions: 'applyChange' },
        'editor.cancel': { guard: 'dirty', actions: 'undoChanges' },
        // Saving over the version the user loaded: the server answers with the conflict again.
        'editor.save': [
          { guard: and(['dirty', 'invalid']), actions: 'showValidationErrors' },
          { guard: 'dirty', target: 'saving' },
        ],
        'editor.reapply': [
          {
            guard: 'reappliedInvalid',
            actions: ['adoptReapplied', 'showValidationErrors'],
          },
          {
            guard: 'reappliedUnchanged',
            target: 'editing',
            actions: ['adoptReapplied', 'dropConflict'],
          },
          { target: 'saving', actions: 'adoptReapplied' },
        ],
        'editor.discard': { target: 'editing', actions: 'adoptConflict' },
      },
    },

    /** Deleted meanwhile: the form stays visible, locked; nothing can be saved any more. */
    gone: { tags: ['locked'] },
  },
});
