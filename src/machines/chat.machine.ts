/**
 * The chat assistant's panel and its lock (issue 18, spec §2 Chat, §4, §5, §8).
 *
 * Two regions run side by side:
 * - `panel`: `closed` ⇄ `open` (`chat.toggle`, `chat.open`, `chat.close`; Escape sends close).
 * - `conversation`: `idle` → `sending` → `idle`. While a reply is pending the panel is locked
 *   (tag `locked`): the spec's guards ignore a send then (`replyPending`) and when the text is
 *   empty after trimming (`textIsBlank`); a text over {@link CHAT_MESSAGE_MAX} characters is
 *   refused before it is sent (`textTooLong`, context `refused`). The reply, a failure or the
 *   `replyTimeout` delay ends the wait; a failure or timeout adds the bot's failure message
 *   (the screen says 'Error al conectar con el bot') and reports it (`reportFailure`).
 *
 * The conversation (role, text) lives in the context; React renders it. The send is the named
 * `fromPromise` actor `sendMessage` (it receives an `AbortSignal`, aborted when the wait ends),
 * so tests swap it with `chatMachine.provide(…)`.
 */

import { assign, fromPromise, setup, stateIn } from 'xstate';
import { CHAT_MESSAGE_MAX, type ChatReply } from '../core/chat-query';

/** One message of the conversation (spec §3 Chat message: role and text). */
export interface ChatMessage {
  role: 'user' | 'bot';
  text: string;
  /** The bot's reply as the server sent it. */
  reply?: ChatReply;
  /** The bot's failure message ('Error al conectar con el bot'). */
  failed?: true;
}

export interface ChatContext {
  sessionId: string;
  draft: string;
  messages: ChatMessage[];
  /** Why the last send was refused before it left. */
  refused: 'tooLong' | null;
}

export type ChatEvent =
  | { type: 'chat.toggle' }
  | { type: 'chat.open' }
  | { type: 'chat.close' }
  | { type: 'chat.change'; text: string }
  | { type: 'chat.send' };

export interface SendMessageInput {
  mensaje: string;
  sessionID: string;
}

/** How long a reply may take before the panel unlocks with the failure message. */
export const CHAT_REPLY_TIMEOUT_MS = 20_000;

const notProvided = () => Promise.reject(new Error('chat actor sendMessage was not provided'));

export const chatMachine = setup({
  types: {
    context: {} as ChatContext,
    events: {} as ChatEvent,
    input: {} as { sessionId: string },
    tags: '' as 'locked',
  },
  actors: {
    /** Posts the message to the server's chat route and resolves with its reply. */
    sendMessage: fromPromise<ChatReply, SendMessageInput>(notProvided),
  },
  delays: { replyTimeout: CHAT_REPLY_TIMEOUT_MS },
  actions: {
    setDraft: assign(({ event }) =>
      event.type === 'chat.change' ? { draft: event.text, refused: null } : {},
    ),
    refuseTooLong: assign({ refused: 'tooLong' as const }),
    appendUserMessage: assign(({ context }) => ({
      messages: [...context.messages, { role: 'user' as const, text: context.draft.trim() }],
      draft: '',
      refused: null,
    })),
    appendReply: assign(({ context }, reply: ChatReply) => ({
      messages: [
        ...context.messages,
        {
          role: 'bot' as const,
          text: reply.tipo === 'html' ? reply.html : '',
          reply,
        },
      ],
    })),
    appendFailure: assign(({ context }) => ({
      messages: [...context.messages, { role: 'bot' as const, text: '', failed: true as const }],
    })),
    /** Spec §8: the chat failure is logged. */
    reportFailure: (_, error: unknown) => {
      console.error('chat: no reply from the bot', error);
    },
  },
  guards: {
    replyPending: stateIn({ conversation: 'sending' }),
    textIsBlank: ({ context }) => context.draft.trim() === '',
    textTooLong: ({ context }) => context.draft.trim().length > CHAT_MESSAGE_MAX,
  },
}).createMachine({
  id: 'chat',
  type: 'parallel',
  context: ({ input }) => ({ sessionId: input.sessionId, draft: '', messages: [], refused: null }),
  states: {
    panel: {
      initial: 'closed',
      states: {
        closed: { on: { 'chat.toggle': 'open', 'chat.open': 'open' } },
        open: { on: { 'chat.toggle': 'closed', 'chat.close': 'closed' } },
      },
    },
    conversation: {
      initial: 'idle',
      on: {
        'chat.change': { actions: 'setDraft' },
        'chat.send': [
          { guard: 'replyPending' },
          { guard: 'textIsBlank' },
          { guard: 'textTooLong', actions: 'refuseTooLong' },
          { target: '.sending', actions: 'appendUserMessage' },
        ],
      },
      states: {
        idle: {},
        sending: {
          tags: ['locked'],
          invoke: {
            src: 'sendMessage',
            input: ({ context }) => ({
              mensaje: context.messages.at(-1)?.text ?? '',
              sessionID: context.sessionId,
            }),
            onDone: {
              target: 'idle',
              actions: { type: 'appendReply', params: ({ event }) => event.output },
            },
            onError: {
              target: 'idle',
              actions: [
                'appendFailure',
                {
                  type: 'reportFailure',
                  params: ({ event }: { event: { error: unknown } }) => event.error,
                },
              ],
            },
          },
          after: {
            replyTimeout: {
              target: 'idle',
              actions: [
                'appendFailure',
                { type: 'reportFailure', params: () => new Error('timeout') },
              ],
            },
          },
        },
      },
    },
  },
});
