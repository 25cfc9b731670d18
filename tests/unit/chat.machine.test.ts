/**
 * The chat-lock machine (issue 18 point 1): every transition of the panel and the conversation,
 * the spec's send guards (spec §5), the lock while a reply is pending (spec §4), and the reply
 * timeout on a simulated clock (spec §8: the failure message).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import { CHAT_MESSAGE_MAX, type ChatReply } from '../../src/core/chat-query';
import {
  CHAT_REPLY_TIMEOUT_MS,
  chatMachine,
  type SendMessageInput,
} from '../../src/machines/chat.machine';
import { deferred, flush } from './support/async';

const html: ChatReply = { tipo: 'html', html: '<p>Hola</p>' };

function start(
  send: (input: SendMessageInput, signal: AbortSignal) => Promise<ChatReply> = () =>
    Promise.resolve(html),
) {
  const spy = vi.fn(send);
  const signals: AbortSignal[] = [];
  const clock = new SimulatedClock();
  const machine = chatMachine.provide({
    actors: {
      sendMessage: fromPromise(
        ({ input, signal }: { input: SendMessageInput; signal: AbortSignal }) => {
          signals.push(signal);
          return spy(input, signal);
        },
      ),
    },
  });
  const actor = createActor(machine, { input: { sessionId: 'sess-1' }, clock });
  actor.start();
  const type = (text: string) => actor.send({ type: 'chat.change', text });
  return { actor, send: spy, clock, signals, type };
}

afterEach(() => vi.restoreAllMocks());

describe('chat machine: the panel', () => {
  it('starts closed and idle with an empty conversation', () => {
    const { actor } = start();
    const s = actor.getSnapshot();
    expect(s.matches({ panel: 'closed', conversation: 'idle' })).toBe(true);
    expect(s.context.messages).toEqual([]);
    expect(s.hasTag('locked')).toBe(false);
  });

  it('the bubble toggles the panel open and closed; open and close are idempotent', () => {
    const { actor } = start();
    actor.send({ type: 'chat.toggle' });
    expect(actor.getSnapshot().matches({ panel: 'open' })).toBe(true);
    actor.send({ type: 'chat.open' });
    expect(actor.getSnapshot().matches({ panel: 'open' })).toBe(true);
    actor.send({ type: 'chat.toggle' });
    expect(actor.getSnapshot().matches({ panel: 'closed' })).toBe(true);
    actor.send({ type: 'chat.close' });
    expect(actor.getSnapshot().matches({ panel: 'closed' })).toBe(true);
    actor.send({ type: 'chat.open' });
    actor.send({ type: 'chat.close' });
    expect(actor.getSnapshot().matches({ panel: 'closed' })).toBe(true);
  });
});

describe('chat machine: sending', () => {
  it('sends the trimmed text with the session id, locks, then shows the reply and unlocks', async () => {
    const pending = deferred<ChatReply>();
    const { actor, send, type } = start(() => pending.promise);
    actor.send({ type: 'chat.open' });
    type('  ¿qué casas tienen 4 cajones?  ');
    actor.send({ type: 'chat.send' });
    const s = actor.getSnapshot();
    expect(s.matches({ conversation: 'sending' })).toBe(true);
    expect(s.hasTag('locked')).toBe(true);
    expect(send).toHaveBeenCalledWith(
      { mensaje: '¿qué casas tienen 4 cajones?', sessionID: 'sess-1' },
      expect.anything(),
    );
    expect(s.context.messages).toEqual([{ role: 'user', text: '¿qué casas tienen 4 cajones?' }]);
    expect(s.context.draft).toBe('');
    pending.resolve(html);
    await flush();
    const after = actor.getSnapshot();
    expect(after.matches({ conversation: 'idle' })).toBe(true);
    expect(after.hasTag('locked')).toBe(false);
    expect(after.context.messages[1]).toEqual({ role: 'bot', text: '<p>Hola</p>', reply: html });
  });

  it('an inventory answer is kept whole as the bot message', async () => {
    const reply: ChatReply = {
      tipo: 'inventario',
      entendida: true,
      intencion: 'listar',
      total: 0,
      desarrollos: [],
    };
    const { actor, type } = start(() => Promise.resolve(reply));
    type('casas');
    actor.send({ type: 'chat.send' });
    await flush();
    expect(actor.getSnapshot().context.messages[1]).toEqual({ role: 'bot', text: '', reply });
  });

  it('ignores a send when the text is empty after trimming (spec §5)', () => {
    const { actor, send, type } = start();
    actor.send({ type: 'chat.send' });
    type('   \n\t ');
    actor.send({ type: 'chat.send' });
    expect(send).not.toHaveBeenCalled();
    expect(actor.getSnapshot().matches({ conversation: 'idle' })).toBe(true);
    expect(actor.getSnapshot().context.messages).toEqual([]);
  });

  it('ignores a send while a reply is pending (spec §5): one message, one request', async () => {
    const pending = deferred<ChatReply>();
    const { actor, send, type } = start(() => pending.promise);
    type('hola');
    actor.send({ type: 'chat.send' });
    type('otra pregunta');
    actor.send({ type: 'chat.send' });
    actor.send({ type: 'chat.send' });
    expect(send).toHaveBeenCalledTimes(1);
    // Typing goes on while locked; the typed text waits in the box.
    expect(actor.getSnapshot().context.draft).toBe('otra pregunta');
    expect(actor.getSnapshot().context.messages).toHaveLength(1);
    pending.resolve(html);
    await flush();
    actor.send({ type: 'chat.send' });
    expect(send).toHaveBeenCalledTimes(2);
  });

  it(`refuses a text over ${CHAT_MESSAGE_MAX} characters before it is sent; typing clears it`, () => {
    const { actor, send, type } = start();
    type('x'.repeat(CHAT_MESSAGE_MAX + 1));
    actor.send({ type: 'chat.send' });
    expect(send).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.refused).toBe('tooLong');
    expect(actor.getSnapshot().matches({ conversation: 'idle' })).toBe(true);
    type('x'.repeat(CHAT_MESSAGE_MAX));
    expect(actor.getSnapshot().context.refused).toBeNull();
    actor.send({ type: 'chat.send' });
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('a failed request unlocks with the failure message and logs the error (spec §8)', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { actor, type } = start(() => Promise.reject(new Error('502')));
    type('hola');
    actor.send({ type: 'chat.send' });
    await flush();
    const s = actor.getSnapshot();
    expect(s.matches({ conversation: 'idle' })).toBe(true);
    expect(s.context.messages.at(-1)).toEqual({ role: 'bot', text: '', failed: true });
    expect(log).toHaveBeenCalledTimes(1);
  });

  it('no reply within the timeout: unlocks with the failure message, aborts the request, a late reply is dropped', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const pending = deferred<ChatReply>();
    const { actor, clock, signals, type } = start(() => pending.promise);
    type('hola');
    actor.send({ type: 'chat.send' });
    clock.increment(CHAT_REPLY_TIMEOUT_MS - 1);
    expect(actor.getSnapshot().hasTag('locked')).toBe(true);
    clock.increment(1);
    const s = actor.getSnapshot();
    expect(s.matches({ conversation: 'idle' })).toBe(true);
    expect(s.hasTag('locked')).toBe(false);
    expect(s.context.messages.at(-1)).toEqual({ role: 'bot', text: '', failed: true });
    expect(signals[0]!.aborted).toBe(true);
    expect(log).toHaveBeenCalledTimes(1);
    pending.resolve(html);
    await flush();
    expect(actor.getSnapshot().context.messages).toHaveLength(2);
  });

  it('a reply just before the timeout wins, and the timer is cancelled', async () => {
    const pending = deferred<ChatReply>();
    const { actor, clock, type } = start(() => pending.promise);
    type('hola');
    actor.send({ type: 'chat.send' });
    clock.increment(CHAT_REPLY_TIMEOUT_MS - 1);
    pending.resolve(html);
    await flush();
    clock.increment(10_000);
    expect(actor.getSnapshot().context.messages.map((m) => m.failed ?? false)).toEqual([
      false,
      false,
    ]);
  });

  it('closing the panel while a reply is pending keeps the wait; the reply is there on reopening', async () => {
    const pending = deferred<ChatReply>();
    const { actor, type } = start(() => pending.promise);
    actor.send({ type: 'chat.open' });
    type('hola');
    actor.send({ type: 'chat.send' });
    actor.send({ type: 'chat.close' });
    expect(actor.getSnapshot().matches({ panel: 'closed', conversation: 'sending' })).toBe(true);
    pending.resolve(html);
    await flush();
    actor.send({ type: 'chat.open' });
    expect(actor.getSnapshot().context.messages).toHaveLength(2);
  });
});
