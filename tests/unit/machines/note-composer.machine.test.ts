import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  noteComposerMachine,
  type AddNoteInput,
} from '../../../src/machines/note-composer.machine';
import { deferred, flush } from '../support/async';

function start(addNote: (input: AddNoteInput) => Promise<unknown> = () => Promise.resolve({})) {
  const spy = vi.fn(addNote);
  const machine = noteComposerMachine.provide({
    actors: { addNote: fromPromise(({ input }: { input: AddNoteInput }) => spy(input)) },
  });
  const actor = createActor(machine);
  actor.start();
  return { actor, addNote: spy };
}

describe('note composer machine', () => {
  it('starts empty, editing', () => {
    const { actor } = start();
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.text).toBe('');
  });

  it('an empty note is refused with the message; typing text takes the message away', () => {
    const { actor, addNote } = start();
    actor.send({ type: 'note.change', text: '   ' });
    actor.send({ type: 'note.submit' });
    expect(actor.getSnapshot().matches({ editing: 'invalid' })).toBe(true);
    expect(addNote).not.toHaveBeenCalled();
    // Still only spaces: the message stays.
    actor.send({ type: 'note.change', text: '    ' });
    expect(actor.getSnapshot().matches({ editing: 'invalid' })).toBe(true);
    actor.send({ type: 'note.change', text: 'Llamar el lunes' });
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
  });

  it('adds the trimmed note, then empties the box', async () => {
    const { actor, addNote } = start();
    actor.send({ type: 'note.change', text: '  Le interesa un 2 recámaras \n' });
    actor.send({ type: 'note.submit' });
    expect(actor.getSnapshot().matches('adding')).toBe(true);
    expect(actor.getSnapshot().hasTag('adding')).toBe(true);
    expect(addNote).toHaveBeenCalledWith({ nota: 'Le interesa un 2 recámaras' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.text).toBe('');
  });

  it('two submits in a row add exactly one note', async () => {
    const pending = deferred<unknown>();
    const { actor, addNote } = start(() => pending.promise);
    actor.send({ type: 'note.change', text: 'Una nota' });
    actor.send({ type: 'note.submit' });
    actor.send({ type: 'note.submit' });
    await flush();
    actor.send({ type: 'note.submit' });
    expect(addNote).toHaveBeenCalledTimes(1);
    pending.resolve({});
    await flush();
    expect(addNote).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
  });

  it('typing goes on while the note is being added', async () => {
    const pending = deferred<unknown>();
    const { actor } = start(() => pending.promise);
    actor.send({ type: 'note.change', text: 'Una nota' });
    actor.send({ type: 'note.submit' });
    actor.send({ type: 'note.change', text: 'Una nota más' });
    expect(actor.getSnapshot().context.text).toBe('Una nota más');
    pending.resolve({});
    await flush();
    expect(actor.getSnapshot().context.text).toBe('');
  });

  it('a failed add keeps the text to try again; the next click adds it', async () => {
    let calls = 0;
    const { actor, addNote } = start(() =>
      ++calls === 1 ? Promise.reject(new Error('offline')) : Promise.resolve({}),
    );
    actor.send({ type: 'note.change', text: 'Una nota' });
    actor.send({ type: 'note.submit' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'failed' })).toBe(true);
    expect(actor.getSnapshot().context.text).toBe('Una nota');
    actor.send({ type: 'note.submit' });
    await flush();
    expect(addNote).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.text).toBe('');
  });
});
