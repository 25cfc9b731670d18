/**
 * Writing a follow-up note on a lead (issue 11 point 7): editing → adding → editing.
 *
 * - `editing`: the user types (`note.change`) and adds (`note.submit`). An empty note (spaces
 *   only) is refused with the "write the note first" message (substate `invalid`), which goes
 *   away as soon as there is text. `failed`: the last add did not go through (the error toast
 *   says why); the text is kept to try again.
 * - `adding`: the `addNote` actor sends the trimmed note. Another `note.submit` meanwhile does
 *   nothing: one click, one note. Once added, the box is emptied.
 *
 * The add is the named `fromPromise` actor `addNote`, so tests swap it with
 * `noteComposerMachine.provide(…)`.
 */

import { assign, fromPromise, setup } from 'xstate';

export interface NoteComposerContext {
  text: string;
}

export type NoteComposerEvent = { type: 'note.change'; text: string } | { type: 'note.submit' };

export interface AddNoteInput {
  nota: string;
}

const notProvided = () => Promise.reject(new Error('note composer actor addNote was not provided'));

export const noteComposerMachine = setup({
  types: {
    context: {} as NoteComposerContext,
    events: {} as NoteComposerEvent,
    tags: '' as 'adding',
  },
  actors: {
    /** Adds the note to the lead. */
    addNote: fromPromise<unknown, AddNoteInput>(notProvided),
  },
  actions: {
    setText: assign(({ event }) => (event.type === 'note.change' ? { text: event.text } : {})),
    clearText: assign({ text: '' }),
  },
  guards: {
    blank: ({ context }) => context.text.trim() === '',
    typedText: ({ event }) => event.type === 'note.change' && event.text.trim() !== '',
  },
}).createMachine({
  id: 'noteComposer',
  context: { text: '' },
  initial: 'editing',
  states: {
    editing: {
      initial: 'idle',
      states: {
        idle: {},
        /** Submitted empty: the message stays until there is text. */
        invalid: {},
        failed: {},
      },
      on: {
        'note.change': [
          { guard: 'typedText', target: '.idle', actions: 'setText' },
          { actions: 'setText' },
        ],
        'note.submit': [{ guard: 'blank', target: '.invalid' }, { target: 'adding' }],
      },
    },
    adding: {
      tags: ['adding'],
      invoke: {
        src: 'addNote',
        input: ({ context }) => ({ nota: context.text.trim() }),
        onDone: { target: 'editing', actions: 'clearText' },
        onError: { target: 'editing.failed' },
      },
      on: {
        // Typing goes on; a second click while the note is being added does nothing.
        'note.change': { actions: 'setText' },
      },
    },
  },
});
