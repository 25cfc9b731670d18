import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Lead } from '../../../src/core/lead';
import {
  LeadSaveError,
  leadEditorMachine,
  type SaveLeadInput,
} from '../../../src/machines/lead-editor.machine';
import { deferred, flush } from '../support/async';

const makeLead = (over: Partial<Lead> = {}): Lead => ({
  id: 'l1',
  idCorporativo: 'c1',
  nombre: 'Lucía',
  apellidos: 'Quintero',
  email: 'lucia@example.com',
  telefono: null,
  celular: null,
  notas: '',
  medioContacto: 'Showroom',
  tipo: null,
  status: 'nuevo',
  desarrollo: null,
  idVendedor: 'u1',
  fechaAlta: 1_700_000_000,
  eliminado: false,
  ...over,
});

function start(
  saveLead: (input: SaveLeadInput) => Promise<Lead> = ({ changes, leadAnterior }) =>
    Promise.resolve({ ...leadAnterior, ...changes }),
  lead: Lead = makeLead(),
) {
  const spies = { saveLead: vi.fn(saveLead), notifySaved: vi.fn() };
  const machine = leadEditorMachine.provide({
    actors: {
      saveLead: fromPromise(({ input }: { input: SaveLeadInput }) => spies.saveLead(input)),
    },
    actions: { notifySaved: () => spies.notifySaved() },
  });
  const actor = createActor(machine, { input: { lead } });
  actor.start();
  return { actor, spies, lead };
}

describe('lead editor machine: editing', () => {
  it('starts editing with the lead in the form; nothing to save or undo yet', () => {
    const { actor } = start();
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'idle' })).toBe(true);
    expect(snap.context.values.nombre).toBe('Lucía');
    expect(snap.context.values.telefono).toBe('');
    expect(snap.can({ type: 'editor.save' })).toBe(false);
    expect(snap.can({ type: 'editor.cancel' })).toBe(false);
    expect(snap.hasTag('locked')).toBe(false);
  });

  it('a change makes the form savable; undo puts the loaded lead back', () => {
    const { actor } = start();
    actor.send({ type: 'editor.change', campo: 'celular', value: '55 1234 5678' });
    expect(actor.getSnapshot().context.values.celular).toBe('55 1234 5678');
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(true);
    expect(actor.getSnapshot().can({ type: 'editor.cancel' })).toBe(true);
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().context.values.celular).toBe('');
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);
  });

  it('a save without a change does nothing', async () => {
    const { actor, spies } = start();
    actor.send({ type: 'editor.save' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'idle' })).toBe(true);
    expect(spies.saveLead).not.toHaveBeenCalled();
  });

  it('an invalid form is refused next to the fields; nothing is sent; errors follow the typing', async () => {
    const { actor, spies } = start();
    actor.send({ type: 'editor.change', campo: 'celular', value: '55-12' });
    actor.send({ type: 'editor.save' });
    await flush();
    let snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'error' })).toBe(true);
    expect(snap.context.errors).toEqual({ celular: 'invalid_phone' });
    expect(spies.saveLead).not.toHaveBeenCalled();
    actor.send({ type: 'editor.change', campo: 'celular', value: '+52 55 9876 5432' });
    snap = actor.getSnapshot();
    expect(snap.context.errors).toEqual({});
    expect(snap.matches({ editing: 'error' })).toBe(true);
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
  });

  it('undo clears the field errors', () => {
    const { actor } = start();
    actor.send({ type: 'editor.change', campo: 'email', value: 'lucia@' });
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().context.errors).toEqual({ email: 'invalid_email' });
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().context.errors).toEqual({});
    expect(actor.getSnapshot().context.values.email).toBe('lucia@example.com');
  });

  it('a newer version of the lead replaces the form while nothing is typed', () => {
    const { actor } = start();
    const newer = makeLead({ status: 'contactado' });
    actor.send({ type: 'editor.leadUpdated', lead: newer });
    expect(actor.getSnapshot().context.base).toBe(newer);
    expect(actor.getSnapshot().context.values.status).toBe('contactado');
  });

  it('a newer version does not overwrite what the user typed', () => {
    const { actor, lead } = start();
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.leadUpdated', lead: makeLead({ status: 'contactado' }) });
    expect(actor.getSnapshot().context.base).toBe(lead);
    expect(actor.getSnapshot().context.values.nombre).toBe('Lucy');
    expect(actor.getSnapshot().context.values.status).toBe('nuevo');
  });
});

describe('lead editor machine: saving', () => {
  it('sends only the changed fields with the loaded lead as leadAnterior, then shows the saved lead', async () => {
    const { actor, spies, lead } = start();
    actor.send({ type: 'editor.change', campo: 'status', value: 'contactado' });
    actor.send({ type: 'editor.save' });
    const snap = actor.getSnapshot();
    expect(snap.matches('saving')).toBe(true);
    expect(snap.hasTag('saving')).toBe(true);
    expect(snap.can({ type: 'editor.cancel' })).toBe(false);
    expect(spies.saveLead).toHaveBeenCalledWith({
      changes: { status: 'contactado' },
      leadAnterior: lead,
    });
    await flush();
    const done = actor.getSnapshot();
    expect(done.matches({ editing: 'saved' })).toBe(true);
    expect(done.context.base.status).toBe('contactado');
    expect(done.context.values.status).toBe('contactado');
    expect(done.can({ type: 'editor.save' })).toBe(false);
    expect(spies.notifySaved).toHaveBeenCalledTimes(1);
  });

  it('two save events in a row call the save actor exactly once', async () => {
    const pending = deferred<Lead>();
    const { actor, spies } = start(() => pending.promise);
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.save' });
    actor.send({ type: 'editor.save' });
    await flush();
    actor.send({ type: 'editor.save' });
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);
    pending.resolve(makeLead({ nombre: 'Lucy' }));
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'saved' })).toBe(true);
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
    expect(spies.notifySaved).toHaveBeenCalledTimes(1);
  });

  it('typing goes on while saving; the saved version replaces it', async () => {
    const pending = deferred<Lead>();
    const { actor } = start(() => pending.promise);
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.save' });
    actor.send({ type: 'editor.change', campo: 'tipo', value: 'Inversionista' });
    expect(actor.getSnapshot().context.values.tipo).toBe('Inversionista');
    pending.resolve(makeLead({ nombre: 'Lucy' }));
    await flush();
    expect(actor.getSnapshot().context.values.tipo).toBe('');
    expect(actor.getSnapshot().context.values.nombre).toBe('Lucy');
  });

  it('a failure that is not about a field goes back to editing with its message', async () => {
    const { actor, spies } = start(() =>
      Promise.reject(new LeadSaveError({ kind: 'failed', message: 'No hay conexión' })),
    );
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.save' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'error' })).toBe(true);
    expect(snap.context.failure).toBe('No hay conexión');
    // What the user typed is kept, and can be sent again.
    expect(snap.context.values.nombre).toBe('Lucy');
    spies.saveLead.mockImplementation(({ changes, leadAnterior }) =>
      Promise.resolve({ ...leadAnterior, ...changes }),
    );
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().context.failure).toBeNull();
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'saved' })).toBe(true);
  });

  it("the server's field errors (400 VALIDATION) are shown next to the fields", async () => {
    const { actor } = start(() =>
      Promise.reject(new LeadSaveError({ kind: 'invalid', errors: { status: 'unknown_value' } })),
    );
    actor.send({ type: 'editor.change', campo: 'status', value: 'inventado' });
    actor.send({ type: 'editor.save' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'error' })).toBe(true);
    expect(snap.context.errors).toEqual({ status: 'unknown_value' });
    expect(snap.context.failure).toBeNull();
  });

  it('an actor that rejects with another error: a failure with its message', async () => {
    const { actor } = start(() => Promise.reject(new Error('boom')));
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.save' });
    await flush();
    expect(actor.getSnapshot().matches({ editing: 'error' })).toBe(true);
    expect(actor.getSnapshot().context.failure).toBe('boom');
  });

  it('a lead deleted meanwhile (404) locks the editor: nothing more is sent', async () => {
    const { actor, spies } = start(() => Promise.reject(new LeadSaveError({ kind: 'gone' })));
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Lucy' });
    actor.send({ type: 'editor.save' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('gone')).toBe(true);
    expect(snap.hasTag('locked')).toBe(true);
    actor.send({ type: 'editor.change', campo: 'nombre', value: 'Otra' });
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().context.values.nombre).toBe('Lucy');
    expect(actor.getSnapshot().can({ type: 'editor.save' })).toBe(false);
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
  });

  it('the page finding the lead gone locks the editor too', () => {
    const { actor } = start();
    actor.send({ type: 'editor.gone' });
    expect(actor.getSnapshot().matches('gone')).toBe(true);
    expect(actor.getSnapshot().hasTag('locked')).toBe(true);
    actor.send({ type: 'editor.leadUpdated', lead: makeLead({ nombre: 'Otra' }) });
    expect(actor.getSnapshot().context.values.nombre).toBe('Lucía');
  });
});

describe('lead editor machine: conflict', () => {
  /** The lead as another user saved it meanwhile: a new status and a phone. */
  const theirs = makeLead({ status: 'contactado', telefono: '5511112222' });

  async function inConflict(
    after: (input: SaveLeadInput) => Promise<Lead> = ({ changes, leadAnterior }) =>
      Promise.resolve({ ...leadAnterior, ...changes }),
  ) {
    let calls = 0;
    const ctx = start((input) =>
      ++calls === 1
        ? Promise.reject(new LeadSaveError({ kind: 'conflict', current: theirs }))
        : after(input),
    );
    ctx.actor.send({ type: 'editor.change', campo: 'celular', value: '5598765432' });
    ctx.actor.send({ type: 'editor.save' });
    await flush();
    expect(ctx.actor.getSnapshot().matches('conflict')).toBe(true);
    return ctx;
  }

  it('a 409 shows the current version beside the user values; nothing is overwritten', async () => {
    const { actor, lead, spies } = await inConflict();
    const snap = actor.getSnapshot();
    expect(snap.context.conflict).toBe(theirs);
    expect(snap.context.base).toBe(lead);
    expect(snap.context.values.celular).toBe('5598765432');
    expect(snap.context.values.status).toBe('nuevo');
    expect(snap.can({ type: 'editor.reapply' })).toBe(true);
    expect(spies.notifySaved).not.toHaveBeenCalled();
  });

  it("reapply: the user's own changes on top of the current version, saved against it", async () => {
    const { actor, spies } = await inConflict();
    actor.send({ type: 'editor.reapply' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    // The panel stays while the save is under way.
    expect(actor.getSnapshot().context.conflict).toBe(theirs);
    expect(spies.saveLead).toHaveBeenLastCalledWith({
      changes: { celular: '5598765432' },
      leadAnterior: theirs,
    });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'saved' })).toBe(true);
    expect(snap.context.conflict).toBeNull();
    expect(snap.context.values).toMatchObject({
      status: 'contactado',
      telefono: '5511112222',
      celular: '5598765432',
    });
  });

  it('reapply twice in a row saves once', async () => {
    const pending = deferred<Lead>();
    const { actor, spies } = await inConflict(() => pending.promise);
    actor.send({ type: 'editor.reapply' });
    actor.send({ type: 'editor.reapply' });
    actor.send({ type: 'editor.save' });
    expect(spies.saveLead).toHaveBeenCalledTimes(2);
    pending.resolve({ ...theirs, celular: '5598765432' });
    await flush();
    expect(spies.saveLead).toHaveBeenCalledTimes(2);
  });

  it('a second conflict while reapplying shows the newest version', async () => {
    const newest = makeLead({ status: 'cita', telefono: '5511112222' });
    const { actor } = await inConflict(() =>
      Promise.reject(new LeadSaveError({ kind: 'conflict', current: newest })),
    );
    actor.send({ type: 'editor.reapply' });
    await flush();
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.conflict).toBe(newest);
    expect(actor.getSnapshot().context.base).toBe(theirs);
  });

  it('reapply when the current version already has the same values: nothing to send', async () => {
    const { actor, spies } = await inConflict();
    // The user's change equals the other person's.
    actor.send({ type: 'editor.change', campo: 'celular', value: '' });
    actor.send({ type: 'editor.change', campo: 'status', value: 'contactado' });
    actor.send({ type: 'editor.reapply' });
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'idle' })).toBe(true);
    expect(snap.context.conflict).toBeNull();
    expect(snap.context.base).toBe(theirs);
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
  });

  it('reapply with an invalid value stays in the conflict with the field error', async () => {
    const { actor, spies } = await inConflict();
    actor.send({ type: 'editor.change', campo: 'email', value: 'lucia@' });
    actor.send({ type: 'editor.reapply' });
    const snap = actor.getSnapshot();
    expect(snap.matches('conflict')).toBe(true);
    expect(snap.context.errors).toEqual({ email: 'invalid_email' });
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
  });

  it('discard takes the current version and drops the user changes', async () => {
    const { actor, spies } = await inConflict();
    actor.send({ type: 'editor.discard' });
    const snap = actor.getSnapshot();
    expect(snap.matches({ editing: 'idle' })).toBe(true);
    expect(snap.context.conflict).toBeNull();
    expect(snap.context.base).toBe(theirs);
    expect(snap.context.values.celular).toBe('');
    expect(snap.context.values.status).toBe('contactado');
    expect(snap.can({ type: 'editor.save' })).toBe(false);
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
  });

  it('undo and typing still work beside the conflict', async () => {
    const { actor } = await inConflict();
    actor.send({ type: 'editor.change', campo: 'tipo', value: 'Inversionista' });
    expect(actor.getSnapshot().context.values.tipo).toBe('Inversionista');
    actor.send({ type: 'editor.cancel' });
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.values.celular).toBe('');
  });

  it('saving over the version the user loaded asks the server again (against the old lead)', async () => {
    const { actor, spies, lead } = await inConflict(() =>
      Promise.reject(new LeadSaveError({ kind: 'conflict', current: theirs })),
    );
    actor.send({ type: 'editor.save' });
    expect(spies.saveLead).toHaveBeenLastCalledWith({
      changes: { celular: '5598765432' },
      leadAnterior: lead,
    });
    await flush();
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
  });

  it('an invalid save beside the conflict is refused next to the fields', async () => {
    const { actor, spies } = await inConflict();
    actor.send({ type: 'editor.change', campo: 'email', value: 'x@' });
    actor.send({ type: 'editor.save' });
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
    expect(actor.getSnapshot().context.errors).toEqual({ email: 'invalid_email' });
    expect(spies.saveLead).toHaveBeenCalledTimes(1);
  });

  it('a failed reapply (network) keeps the conflict on screen with the message', async () => {
    const { actor } = await inConflict(() =>
      Promise.reject(new LeadSaveError({ kind: 'failed', message: 'No hay conexión' })),
    );
    actor.send({ type: 'editor.reapply' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('conflict')).toBe(true);
    expect(snap.context.conflict).toBe(theirs);
    expect(snap.context.failure).toBe('No hay conexión');
  });

  it('a newer version from the stream does not replace the form during a conflict', async () => {
    const { actor, lead } = await inConflict();
    actor.send({ type: 'editor.leadUpdated', lead: makeLead({ nombre: 'Otra' }) });
    expect(actor.getSnapshot().context.base).toBe(lead);
    expect(actor.getSnapshot().matches('conflict')).toBe(true);
  });

  it('the lead deleted while resolving the conflict: locked', async () => {
    const { actor } = await inConflict(() => Promise.reject(new LeadSaveError({ kind: 'gone' })));
    actor.send({ type: 'editor.reapply' });
    await flush();
    expect(actor.getSnapshot().matches('gone')).toBe(true);
  });
});
