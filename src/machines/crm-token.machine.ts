/**
 * An adviser's CRM connection in one corporate (spec §4 "CRM token", §7 authorisation window;
 * issue 17 point 3): checking → disconnected → authorising (the popup) → connected → expired →
 * refreshing (Zoho: the server refreshes with the stored refresh token, credentials merged) or
 * reauthorising (Salesforce, HubSpot: the authorisation window again; meanwhile the clients page
 * shows an empty CRM list with a reconnect prompt) → connected | failed.
 *
 * - The token lives on the server; the machine knows only who is connected and until when
 *   (`GET /api/crm/user`). At `expira` a delayed transition on the machine's clock (`untilExpiry`)
 *   moves to `expired`.
 * - `crm.unauthorised` (a CRM list call answered 401 / 409 `CRM_REAUTORIZAR`) also expires the
 *   connection. Refreshes are single-flight: while one is running, further `crm.unauthorised`
 *   events join it instead of starting another (see {@link retryOnceAfterRefresh}).
 * - A popup can only be opened by a click, so the UI opens it synchronously and sends it with
 *   `crm.connect` (null when the browser blocked it). The `authorise` actor points it at the
 *   provider and waits for the callback page's message.
 *
 * Every side effect is a named `fromPromise` actor the application provides
 * (`src/ui/features/crm/api/crm-connection.ts`); tests swap them with `crmTokenMachine.provide`.
 */

import { assign, fromPromise, setup, waitFor, type ActorRefFrom } from 'xstate';

export type CrmType = 'Salesforce' | 'Hubspot' | 'Zoho';

export interface CrmUserInfo {
  user_id: string;
  email: string;
  name: string;
}

/** What `GET /api/crm/user` answers. */
export interface CrmStatus {
  estado: 'desconectado' | 'conectado' | 'expirado' | 'reautorizar';
  tipo: CrmType | null;
  info?: CrmUserInfo;
  /** ISO date-time. */
  expira?: string;
}

/** A connection that just succeeded (the callback's `POST /api/crm/token`). */
export interface CrmConnected {
  info: CrmUserInfo;
  /** ISO date-time. */
  expira: string;
}

/** The window the UI opened on the click (`window.open`), as far as the machine needs it. */
export interface CrmPopup {
  readonly closed: boolean;
  close(): void;
}

/** Why connecting, refreshing or disconnecting did not work (shown by the status strip). */
export type CrmFailureReason =
  /** The browser blocked the popup. */
  | 'popupBlocked'
  /** The user closed the window before the provider sent them back. */
  | 'popupClosed'
  /** The callback's `state` was wrong, reused or another session's (400 from `crm/token`). */
  | 'state'
  /** The corporate's CRM configuration is missing a piece ('No hay authorizeUri', …). */
  | 'config'
  /** The server could not refresh the token. */
  | 'refresh'
  /** Anything else (network, provider error); `message` says what. */
  | 'other';

export interface CrmFailure {
  reason: CrmFailureReason;
  /** The server's translated message when there was one. */
  message: string;
}

export interface CrmTokenContext {
  corporateId: string;
  tipo: CrmType | null;
  info: CrmUserInfo | null;
  /** Epoch ms of the access token's expiry, or null when not connected. */
  expira: number | null;
  failure: CrmFailure | null;
  /** How many refreshes have been started (single-flight is observable). */
  refreshes: number;
  /** The current time (the machine's clock in tests). */
  now: () => number;
}

export type CrmTokenEvent =
  /** Connect / reconnect: the popup the click opened, or null when it was blocked. */
  | { type: 'crm.connect'; popup: CrmPopup | null }
  /** A CRM call answered 401 / 409 CRM_REAUTORIZAR: the token is no longer good. */
  | { type: 'crm.unauthorised' }
  /** Disconnect (already confirmed by the user): credentials emptied, local CRM state cleared. */
  | { type: 'crm.disconnect' }
  /**
   * Another tab connected or disconnected (BroadcastChannel `vitrina-crm`): ask the server again
   * (ignored while this tab's own window or call is in flight).
   */
  | { type: 'crm.changed' }
  /** Dismiss a failure: ask the server again. */
  | { type: 'crm.retry' };

export interface CrmTokenInput {
  corporateId: string;
  now?: () => number;
}

/** Setting a timer further than this overflows (2^31 - 1 ms, about 24.8 days). */
const MAX_DELAY_MS = 2_147_483_647;

/** Reads an API error (`{ status, errorCode, message }`) into a failure. */
export function crmFailureOf(error: unknown, fallback: CrmFailureReason = 'other'): CrmFailure {
  if (error && typeof error === 'object') {
    const e = error as { reason?: unknown; errorCode?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : '';
    if (typeof e.reason === 'string') return { reason: e.reason as CrmFailureReason, message };
    return { reason: fallback, message };
  }
  return { reason: fallback, message: '' };
}

/** The error a refresh gets when only a new authorisation will do (`409 CRM_REAUTORIZAR`). */
export function needsReauthorisation(error: unknown): boolean {
  return (
    !!error &&
    typeof error === 'object' &&
    ((error as { errorCode?: unknown }).errorCode === 'CRM_REAUTORIZAR' ||
      (error as { code?: unknown }).code === 'CRM_REAUTORIZAR')
  );
}

const notProvided = (name: string) => () =>
  Promise.reject(new Error(`crm-token actor ${name} was not provided`));

const toMs = (iso: string | undefined): number | null => {
  if (!iso) return null;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
};

export const crmTokenMachine = setup({
  types: {
    context: {} as CrmTokenContext,
    events: {} as CrmTokenEvent,
    input: {} as CrmTokenInput,
    tags: '' as
      | 'busy'
      | 'connected'
      /** The CRM is the lead source (connected, or being refreshed / re-authorised). */
      | 'crmSource'
      /** The lead list shows an empty CRM list and the reconnect prompt. */
      | 'reconnectPrompt'
      /** The list needs the user before it can load again (retries stop waiting). */
      | 'needsUser',
  },
  actors: {
    /** `GET /api/crm/user?idCorporativo=`. */
    loadStatus: fromPromise<CrmStatus, { corporateId: string }>(notProvided('loadStatus')),
    /**
     * `POST /api/crm/autorizar`, the popup pointed at the returned URL, then the callback page's
     * message. Rejects with `{ reason, message }` (popupClosed, state, config, other).
     */
    authorise: fromPromise<CrmConnected, { corporateId: string; popup: CrmPopup }>(
      notProvided('authorise'),
    ),
    /** `POST /api/crm/refresh-token`; rejects with errorCode CRM_REAUTORIZAR when it cannot. */
    refresh: fromPromise<{ expira: string }, { corporateId: string }>(notProvided('refresh')),
    /** `DELETE /api/crm/user?idCorporativo=`. */
    disconnect: fromPromise<void, { corporateId: string }>(notProvided('disconnect')),
  },
  actions: {
    /** Clears the local CRM state (cached CRM lists and sync answers). */
    clearCrmState: () => {},
    /** Tells other tabs the connection changed. */
    broadcast: () => {},
  },
  guards: {
    isZoho: ({ context }) => context.tipo === 'Zoho',
    popupBlocked: ({ event }) => event.type === 'crm.connect' && event.popup === null,
    hasExpiry: ({ context }) => context.expira !== null,
  },
  delays: {
    /** Until the access token's `expira`, on the machine's clock. */
    untilExpiry: ({ context }) =>
      Math.min(MAX_DELAY_MS, Math.max(0, (context.expira ?? 0) - context.now())),
  },
}).createMachine({
  id: 'crmToken',
  context: ({ input }) => ({
    corporateId: input.corporateId,
    tipo: null,
    info: null,
    expira: null,
    failure: null,
    refreshes: 0,
    now: input.now ?? (() => Date.now()),
  }),
  initial: 'checking',
  states: {
    /** Asking the server who is connected. */
    checking: {
      tags: ['busy'],
      invoke: {
        src: 'loadStatus',
        input: ({ context }) => ({ corporateId: context.corporateId }),
        onDone: [
          {
            guard: ({ event }) => event.output.estado === 'conectado',
            target: 'connected',
            actions: assign({
              tipo: ({ event }) => event.output.tipo,
              info: ({ event }) => event.output.info ?? null,
              expira: ({ event }) => toMs(event.output.expira),
              failure: null,
            }),
          },
          {
            guard: ({ event }) => event.output.estado === 'expirado',
            target: 'expired',
            actions: assign({
              tipo: ({ event }) => event.output.tipo,
              info: ({ event }) => event.output.info ?? null,
              expira: ({ event }) => toMs(event.output.expira),
              failure: null,
            }),
          },
          {
            guard: ({ event }) => event.output.estado === 'reautorizar',
            target: 'reauthorising',
            actions: assign({
              tipo: ({ event }) => event.output.tipo,
              info: ({ event }) => event.output.info ?? null,
              expira: null,
              failure: null,
            }),
          },
          {
            target: 'disconnected',
            actions: assign({
              tipo: ({ event }) => event.output.tipo,
              info: null,
              expira: null,
              failure: null,
            }),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ failure: ({ event }) => crmFailureOf(event.error) }),
        },
      },
    },

    /** No credentials: the clients page lists Vitrina's own leads. */
    disconnected: {
      on: {
        'crm.changed': 'checking',
        'crm.connect': [
          {
            guard: 'popupBlocked',
            target: 'failed',
            actions: assign({ failure: { reason: 'popupBlocked', message: '' } }),
          },
          { target: 'authorising' },
        ],
      },
    },

    /** The authorisation window is open. */
    authorising: {
      tags: ['busy'],
      invoke: {
        src: 'authorise',
        input: ({ context, event }) => ({
          corporateId: context.corporateId,
          popup: (event as Extract<CrmTokenEvent, { type: 'crm.connect' }>).popup!,
        }),
        onDone: {
          target: 'connected',
          actions: [
            assign({
              info: ({ event }) => event.output.info,
              expira: ({ event }) => toMs(event.output.expira),
              failure: null,
            }),
            'broadcast',
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ failure: ({ event }) => crmFailureOf(event.error) }),
        },
      },
    },

    /** Leads come from the CRM until `expira`. */
    connected: {
      tags: ['connected', 'crmSource'],
      // A connection whose expiry the server did not tell is kept until a call says otherwise.
      after: { untilExpiry: { guard: 'hasExpiry', target: 'expired' } },
      on: {
        'crm.unauthorised': 'expired',
        'crm.disconnect': 'disconnecting',
        'crm.changed': 'checking',
      },
    },

    /** The access token expired: Zoho refreshes on the server, the others re-authorise. */
    expired: {
      tags: ['crmSource'],
      always: [{ guard: 'isZoho', target: 'refreshing' }, { target: 'reauthorising' }],
    },

    /**
     * One refresh on the server (credentials merged). Single-flight: `crm.unauthorised` while it
     * runs is ignored here, and the callers wait for its outcome.
     */
    refreshing: {
      tags: ['busy', 'crmSource'],
      entry: assign({ refreshes: ({ context }) => context.refreshes + 1 }),
      invoke: {
        src: 'refresh',
        input: ({ context }) => ({ corporateId: context.corporateId }),
        onDone: {
          target: 'connected',
          actions: assign({ expira: ({ event }) => toMs(event.output.expira), failure: null }),
        },
        onError: [
          { guard: ({ event }) => needsReauthorisation(event.error), target: 'reauthorising' },
          {
            target: 'failed',
            actions: assign({ failure: ({ event }) => crmFailureOf(event.error, 'refresh') }),
          },
        ],
      },
    },

    /**
     * The provider needs the user again (spec §4: "other CRMs reopen the authorisation window and
     * return an empty list"). A window may only open on a click, so the prompt waits for one.
     */
    reauthorising: {
      tags: ['crmSource', 'reconnectPrompt'],
      initial: 'prompt',
      // Disconnecting from the prompt is the same as from anywhere else (the top-level state).
      on: { 'crm.disconnect': '#crmToken.disconnecting' },
      states: {
        prompt: {
          tags: ['needsUser'],
          on: {
            'crm.changed': '#crmToken.checking',
            'crm.connect': [
              {
                guard: 'popupBlocked',
                target: '#crmToken.failed',
                actions: assign({ failure: { reason: 'popupBlocked', message: '' } }),
              },
              { target: 'window' },
            ],
          },
        },
        window: {
          tags: ['busy'],
          invoke: {
            src: 'authorise',
            input: ({ context, event }) => ({
              corporateId: context.corporateId,
              popup: (event as Extract<CrmTokenEvent, { type: 'crm.connect' }>).popup!,
            }),
            onDone: {
              target: '#crmToken.connected',
              actions: [
                assign({
                  info: ({ event }) => event.output.info,
                  expira: ({ event }) => toMs(event.output.expira),
                  failure: null,
                }),
                'broadcast',
              ],
            },
            onError: {
              target: '#crmToken.failed',
              actions: assign({ failure: ({ event }) => crmFailureOf(event.error) }),
            },
          },
        },
      },
    },

    /** Credentials being emptied on the server; then the local CRM state is cleared. */
    disconnecting: {
      tags: ['busy'],
      invoke: {
        src: 'disconnect',
        input: ({ context }) => ({ corporateId: context.corporateId }),
        onDone: {
          target: 'disconnected',
          actions: [
            assign({ info: null, expira: null, failure: null }),
            'clearCrmState',
            'broadcast',
          ],
        },
        onError: {
          target: 'failed',
          actions: assign({ failure: ({ event }) => crmFailureOf(event.error) }),
        },
      },
    },

    /**
     * Connecting, refreshing or disconnecting did not work; `failure` says why. The user may try
     * connecting again (a click, so a popup), or dismiss (the server is asked again).
     */
    failed: {
      tags: ['needsUser'],
      on: {
        'crm.connect': [
          {
            guard: 'popupBlocked',
            target: 'failed',
            reenter: true,
            actions: assign({ failure: { reason: 'popupBlocked', message: '' } }),
          },
          { target: 'authorising' },
        ],
        'crm.retry': 'checking',
        'crm.changed': 'checking',
        'crm.disconnect': 'disconnecting',
      },
    },
  },
});

export type CrmTokenActor = ActorRefFrom<typeof crmTokenMachine>;

/** A CRM call failed and the connection needs the user (reconnect prompt or failure shown). */
export class CrmReconnectError extends Error {
  constructor() {
    super('CRM connection needs the user');
    this.name = 'CrmReconnectError';
  }
}

/**
 * One CRM call with the rule "one 401 → one refresh → one retry": `call` runs; when it answers
 * unauthorised (`isUnauthorised`), the machine is told (`crm.unauthorised`; a refresh already
 * running is joined, not repeated), and once the connection is back `call` runs once more. When
 * the connection needs the user instead (re-authorisation, failure), {@link CrmReconnectError}.
 */
export async function retryOnceAfterRefresh<T>(
  actor: CrmTokenActor,
  call: () => Promise<T>,
  isUnauthorised: (error: unknown) => boolean,
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!isUnauthorised(error)) throw error;
  }
  actor.send({ type: 'crm.unauthorised' });
  const settled = await waitFor(
    actor,
    (s) => s.matches('connected') || s.hasTag('needsUser') || s.matches('disconnected'),
  );
  if (!settled.matches('connected')) throw new CrmReconnectError();
  return call();
}
