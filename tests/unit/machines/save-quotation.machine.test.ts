import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { Quotation } from '../../../src/core/quotation';
import {
  clientChoice,
  effectiveMode,
  listChoice,
  saveQuotationMachine,
  SaveQuotationError,
  type DuplicateClient,
  type LeadOption,
  type SaveQuotationActorInput,
  type SaveQuotationInput,
} from '../../../src/machines/save-quotation.machine';
import { saveQuotationFailure } from '../../../src/ui/features/quotes/utils/save-quotation-failure';
import { ApiRequestError } from '../../../src/ui/lib/api';
import { deferred, flush } from '../support/async';

const lucia: LeadOption = {
  id: 'l1',
  nombre: 'Lucía',
  apellidos: 'Quintero',
  email: 'lucia@example.com',
};
const andres: LeadOption = { id: 'l2', nombre: 'Andrés', apellidos: 'Villalobos', email: null };

/** Only the fields these tests read; the machine hands the quotation on as the server gave it. */
const quotation = (over: Partial<Quotation> = {}) =>
  ({ id: 'q1', idLead: 'l1', nombreCliente: 'Lucía Quintero', ...over }) as Quotation;

function start(
  input: Partial<SaveQuotationInput> = {},
  saveQuotation: (input: SaveQuotationActorInput) => Promise<Quotation> = () =>
    Promise.resolve(quotation()),
) {
  const spies = {
    saveQuotation: vi.fn(saveQuotation),
    notifySaved: vi.fn<(q: Quotation) => void>(),
  };
  const machine = saveQuotationMachine.provide({
    actors: {
      saveQuotation: fromPromise(({ input }: { input: SaveQuotationActorInput }) =>
        spies.saveQuotation(input),
      ),
    },
    actions: { notifySaved: (_, q: Quotation) => spies.notifySaved(q) },
  });
  const actor = createActor(machine, {
    input: { pinned: null, leads: [], disabled: false, ...input },
  });
  actor.start();
  return { actor, spies };
}

const duplicate = (client: DuplicateClient) =>
  new SaveQuotationError({ kind: 'duplicate', duplicate: client });

const duplicateAnswer = (item: Record<string, unknown>) =>
  new ApiRequestError(409, 'LEAD_DUPLICATE', 'Esta persona ya es uno de tus clientes.', [
    { errorCode: 'LEAD_DUPLICATE', msg: 'Esta persona ya es uno de tus clientes.', ...item },
  ]);

describe('save quotation machine: choosing the client', () => {
  it('the pinned lead is the default', () => {
    const { actor } = start({ pinned: lucia, leads: [andres] });
    const snap = actor.getSnapshot();
    expect(snap.matches({ choosing: 'idle' })).toBe(true);
    expect(effectiveMode(snap.context)).toBe('pinned');
    expect(clientChoice(snap.context)).toEqual({ idLead: 'l1' });
    expect(snap.can({ type: 'quotation.save' })).toBe(true);
  });

  it('without a pinned lead, the first lead of the list; another one can be picked', () => {
    const { actor } = start({ leads: [andres, lucia] });
    expect(effectiveMode(actor.getSnapshot().context)).toBe('list');
    expect(listChoice(actor.getSnapshot().context)).toBe('l2');
    actor.send({ type: 'quotation.choose', leadId: 'l1' });
    expect(clientChoice(actor.getSnapshot().context)).toEqual({ idLead: 'l1' });
  });

  it('without leads, a new client, which needs a name before it can be saved', () => {
    const { actor, spies } = start();
    expect(effectiveMode(actor.getSnapshot().context)).toBe('new');
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(false);
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: '   ' });
    actor.send({ type: 'quotation.save' });
    expect(actor.getSnapshot().matches({ choosing: 'idle' })).toBe(true);
    expect(spies.saveQuotation).not.toHaveBeenCalled();
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: ' Jorge ' });
    actor.send({ type: 'quotation.newClient', campo: 'apellidos', value: 'Ramírez ' });
    actor.send({ type: 'quotation.newClient', campo: 'telefono', value: '  ' });
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(true);
    // Empty optional fields are left out, the rest trimmed.
    expect(clientChoice(actor.getSnapshot().context)).toEqual({
      nuevoLead: { nombre: 'Jorge', apellidos: 'Ramírez' },
    });
  });

  it("the user's choice of mode wins over the default", () => {
    const { actor } = start({ pinned: lucia, leads: [andres] });
    actor.send({ type: 'quotation.mode', mode: 'list' });
    expect(clientChoice(actor.getSnapshot().context)).toEqual({ idLead: 'l2' });
    actor.send({ type: 'quotation.mode', mode: 'new' });
    expect(effectiveMode(actor.getSnapshot().context)).toBe('new');
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(false);
  });

  it("the page's data arrives later (sync): the defaults follow it", () => {
    const { actor } = start();
    expect(effectiveMode(actor.getSnapshot().context)).toBe('new');
    actor.send({ type: 'quotation.sync', pinned: null, leads: [andres], disabled: false });
    expect(effectiveMode(actor.getSnapshot().context)).toBe('list');
    actor.send({ type: 'quotation.sync', pinned: lucia, leads: [andres], disabled: false });
    expect(effectiveMode(actor.getSnapshot().context)).toBe('pinned');
  });

  it('nothing is saved while the quotation is not priced', () => {
    const { actor, spies } = start({ pinned: lucia, disabled: true });
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(false);
    actor.send({ type: 'quotation.save' });
    expect(spies.saveQuotation).not.toHaveBeenCalled();
    actor.send({ type: 'quotation.sync', pinned: lucia, leads: [], disabled: false });
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(true);
  });

  it('a pinned mode whose lead is no longer pinned cannot be saved', () => {
    const { actor } = start({ pinned: lucia });
    actor.send({ type: 'quotation.mode', mode: 'pinned' });
    actor.send({ type: 'quotation.sync', pinned: null, leads: [], disabled: false });
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(false);
  });
});

describe('save quotation machine: saving', () => {
  it('saves for the chosen client, then hands the saved quotation to the page', async () => {
    const { actor, spies } = start({ pinned: lucia });
    actor.send({ type: 'quotation.save' });
    expect(actor.getSnapshot().matches('saving')).toBe(true);
    expect(actor.getSnapshot().hasTag('saving')).toBe(true);
    expect(spies.saveQuotation).toHaveBeenCalledWith({ client: { idLead: 'l1' } });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('saved')).toBe(true);
    expect(snap.context.quotation?.id).toBe('q1');
    expect(spies.notifySaved).toHaveBeenCalledTimes(1);
    expect(spies.notifySaved).toHaveBeenCalledWith(snap.context.quotation);
    expect(snap.can({ type: 'quotation.save' })).toBe(false);
  });

  it('two save events in a row: one client, one quotation', async () => {
    const pending = deferred<Quotation>();
    const { actor, spies } = start({}, () => pending.promise);
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Jorge' });
    actor.send({ type: 'quotation.save' });
    actor.send({ type: 'quotation.save' });
    await flush();
    actor.send({ type: 'quotation.save' });
    expect(spies.saveQuotation).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().can({ type: 'quotation.save' })).toBe(false);
    pending.resolve(quotation({ idLead: 'new' }));
    await flush();
    expect(actor.getSnapshot().matches('saved')).toBe(true);
    expect(spies.saveQuotation).toHaveBeenCalledTimes(1);
    expect(spies.notifySaved).toHaveBeenCalledTimes(1);
  });

  it('the choice stays editable while saving; the call under way keeps its client', async () => {
    const pending = deferred<Quotation>();
    const { actor, spies } = start({}, () => pending.promise);
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Jorge' });
    actor.send({ type: 'quotation.save' });
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Jorge Luis' });
    expect(actor.getSnapshot().context.nuevo.nombre).toBe('Jorge Luis');
    expect(spies.saveQuotation).toHaveBeenCalledWith({
      client: { nuevoLead: { nombre: 'Jorge' } },
    });
    pending.resolve(quotation());
    await flush();
    expect(spies.saveQuotation).toHaveBeenCalledTimes(1);
  });

  it('a refused save goes back to the choice, kept, and can be sent again', async () => {
    let calls = 0;
    const { actor, spies } = start({ leads: [andres] }, () =>
      ++calls === 1
        ? Promise.reject(new SaveQuotationError({ kind: 'failed', message: 'No hay conexión' }))
        : Promise.resolve(quotation({ idLead: 'l2' })),
    );
    actor.send({ type: 'quotation.save' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ choosing: 'error' })).toBe(true);
    expect(clientChoice(snap.context)).toEqual({ idLead: 'l2' });
    expect(snap.context.duplicate).toBeNull();
    expect(spies.notifySaved).not.toHaveBeenCalled();
    actor.send({ type: 'quotation.save' });
    await flush();
    expect(actor.getSnapshot().matches('saved')).toBe(true);
    expect(spies.saveQuotation).toHaveBeenCalledTimes(2);
  });

  it('a new client who already is a lead (409 LEAD_DUPLICATE): nothing saved, whose it is kept', async () => {
    const { actor, spies } = start({}, () =>
      Promise.reject(duplicate({ ownerName: 'Sofía Navarro', leadId: 'l9', own: true })),
    );
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Lucía' });
    actor.send({ type: 'quotation.newClient', campo: 'email', value: 'lucia@example.com' });
    actor.send({ type: 'quotation.save' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ choosing: 'duplicateClient' })).toBe(true);
    expect(snap.context.duplicate).toEqual({ ownerName: 'Sofía Navarro', leadId: 'l9', own: true });
    expect(snap.context.nuevo.email).toBe('lucia@example.com');
    expect(spies.notifySaved).not.toHaveBeenCalled();
    // The user changes the client and saves again: the duplicate is forgotten.
    spies.saveQuotation.mockImplementation(() => Promise.resolve(quotation()));
    actor.send({ type: 'quotation.newClient', campo: 'email', value: 'lucia.q@example.com' });
    actor.send({ type: 'quotation.save' });
    expect(actor.getSnapshot().context.duplicate).toBeNull();
    await flush();
    expect(actor.getSnapshot().matches('saved')).toBe(true);
  });

  it('an actor that rejects with another error: an ordinary error', async () => {
    const { actor } = start({ pinned: lucia }, () => Promise.reject(new Error('boom')));
    actor.send({ type: 'quotation.save' });
    await flush();
    expect(actor.getSnapshot().matches({ choosing: 'error' })).toBe(true);
    expect(actor.getSnapshot().context.duplicate).toBeNull();
  });
});

describe("save quotation machine: the API's errors, read as the page reads them", () => {
  /** The machine with the page's translation of the API's errors (`save-quotation.tsx`). */
  const startReading = (input: Partial<SaveQuotationInput>, answer: () => Promise<Quotation>) =>
    start(input, () =>
      answer().catch((error: unknown) => {
        throw new SaveQuotationError(saveQuotationFailure(error));
      }),
    );

  it('409 LEAD_DUPLICATE: whose lead it is, and which when the user may see it', async () => {
    const { actor } = startReading({}, () =>
      Promise.reject(
        duplicateAnswer({ propietario: { nombre: 'Sofía Navarro' }, idLead: 'l9', propio: true }),
      ),
    );
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Lucía' });
    actor.send({ type: 'quotation.save' });
    await flush();
    expect(actor.getSnapshot().matches({ choosing: 'duplicateClient' })).toBe(true);
    expect(actor.getSnapshot().context.duplicate).toEqual({
      ownerName: 'Sofía Navarro',
      leadId: 'l9',
      own: true,
    });
  });

  it("another adviser's client: only the owner's name is known", async () => {
    const { actor } = startReading({}, () =>
      Promise.reject(duplicateAnswer({ propietario: { nombre: 'Marco Díaz' } })),
    );
    actor.send({ type: 'quotation.newClient', campo: 'nombre', value: 'Lucía' });
    actor.send({ type: 'quotation.save' });
    await flush();
    expect(actor.getSnapshot().context.duplicate).toEqual({
      ownerName: 'Marco Díaz',
      leadId: null,
      own: false,
    });
  });

  it('a 409 that is not a duplicate is an ordinary error', async () => {
    const { actor } = startReading({ pinned: lucia }, () =>
      Promise.reject(new ApiRequestError(409, 'CONFLICT', 'conflict', [])),
    );
    actor.send({ type: 'quotation.save' });
    await flush();
    expect(actor.getSnapshot().matches({ choosing: 'error' })).toBe(true);
    expect(actor.getSnapshot().context.duplicate).toBeNull();
  });

  it('a network failure is an ordinary failure with its message', () => {
    expect(saveQuotationFailure(new ApiRequestError(0, null, 'No hay conexión', null))).toEqual({
      kind: 'failed',
      message: 'No hay conexión',
    });
  });
});
