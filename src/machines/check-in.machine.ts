/**
 * Checking in at a showroom (issue 14; spec §3 Check-in, §4 Check-in, §8, §9): the banner on the
 * developments list renders this machine's state and sends it events; it decides nothing itself.
 *
 * ```
 * loading ─┬─ active check-in ────────────────────────────────▶ checkedIn
 *          ├─ a `folio` in the link (QR) ─▶ saving ─────────────▶ checkedIn
 *          └─▶ idle ─checkIn.start─▶ locating ─┬─ denied ──▶ permissionDenied (QR offered)
 *                                              ├─ no fix ──▶ unavailable
 *                                              └─▶ evaluating ─┬─ inside ─▶ saving ─▶ checkedIn
 *                                                              ├─ too far ─▶ tooFar (distance, radius)
 *                                                              ├─ too rough ─▶ inaccurate
 *                                                              └─ none ─▶ noShowrooms
 * checkedIn ─checkIn.checkOut─▶ checkingOut ─▶ idle
 * checkedIn ─after checkInExpiry (43200 s from fechaAlta)─▶ idle (expired)
 * ```
 *
 * - `evaluating` asks the worker (the `evaluate` actor, core/check-in.ts `checkInCandidate`)
 *   which showroom the position is within: the same rule the server applies again.
 * - `saving` sends the check-in (the `saveCheckIn` actor): by position with the showroom found,
 *   or `tipoRegistro: 'QR'` with the folio. The server may still refuse (422 too far, a folio
 *   expired): the actor rejects with a {@link CheckInSaveError} and the machine shows why.
 *   A second start while busy is ignored: one tap, one check-in.
 * - `checkedIn` waits for the check-in's end (`checkInExpiry`, computed from `fechaAlta` and the
 *   injected `now`), then goes back to `idle` with `expired` set: the server's timer checks the
 *   adviser out by 'Sistema' at the same moment.
 * - `checkIn.refresh` (the live stream: the adviser was checked out elsewhere, another tab
 *   checked in) reads the server again from `idle` or `checkedIn`.
 * - Failures are logged as the spec says (`log`: 'sin checkin', geolocation denied, check-in and
 *   check-out failures) and kept in `failure` for the banner to say.
 *
 * Every side effect is a named actor or action, so the page provides them and tests swap them
 * with `checkInMachine.provide(…)`; the delay is named and runs on XState's clock (tests use a
 * SimulatedClock).
 */

import { assign, fromPromise, setup } from 'xstate';
import type { Kilometers } from '../core/brands';
import {
  checkInCandidate,
  checkInExpiresAt,
  type CheckIn,
  type CheckInCandidate,
} from '../core/check-in';
import type { DevicePosition } from '../core/geo';
import type { Showroom } from '../core/types';

/** Why the device gave no position. */
export type LocateFailure = 'denied' | 'unavailable' | 'timeout';

/** What the `locate` actor rejects with. */
export class LocateError extends Error {
  constructor(readonly reason: LocateFailure) {
    super(`geolocation ${reason}`);
    this.name = 'LocateError';
  }
}

/** How a save failed, as the `saveCheckIn` actor reports it. */
export type CheckInSaveFailure =
  /** The server measured the position outside the showroom (422 CHECK_IN_TOO_FAR). */
  | { kind: 'tooFar'; distanciaKm: number; radioKm: number; message: string }
  /** Anything else: `message` is what the adviser reads (folio expired, showroom inactive, …). */
  | { kind: 'failed'; message: string };

/** What the `saveCheckIn` and `checkOut` actors reject with. */
export class CheckInSaveError extends Error {
  constructor(readonly failure: CheckInSaveFailure) {
    super(failure.message);
    this.name = 'CheckInSaveError';
  }
}

/** What the `saveCheckIn` actor sends. */
export type SaveCheckInInput =
  | { tipoRegistro: 'Geolocalizacion'; showroom: Showroom; position: DevicePosition }
  | { tipoRegistro: 'QR'; folio: string };

export type Candidate = CheckInCandidate<Showroom>;

export interface CheckInContext {
  /** The check-in in effect, as the server answered it. */
  checkIn: CheckIn | null;
  /** The corporate's showrooms (the page keeps them current with `checkIn.sync`). */
  showrooms: Showroom[];
  /** A QR link's folio not used yet. */
  folio: string | null;
  position: DevicePosition | null;
  /** The worker's or the server's verdict on the position (too far: distance and radius). */
  candidate: Candidate | null;
  failure: CheckInSaveFailure | null;
  /** The last check-in ended by its 12 hours while on screen. */
  expired: boolean;
  /** The clock the expiry delay is computed with (ms since the epoch). */
  now: () => number;
}

export type CheckInMachineEvent =
  | { type: 'checkIn.start' }
  /** Check in with a QR link's folio. */
  | { type: 'checkIn.qr'; folio: string }
  | { type: 'checkIn.cancel' }
  | { type: 'checkIn.checkOut' }
  | { type: 'checkIn.sync'; showrooms: Showroom[] }
  /** The server's check-in may have changed (live stream): read it again. */
  | { type: 'checkIn.refresh' };

export interface CheckInInput {
  showrooms: Showroom[];
  /** The `folio` query parameter of the link, when the adviser came by a QR code. */
  folio?: string | null;
  now?: () => number;
}

const notProvided = (name: string) => () =>
  Promise.reject(new Error(`check-in actor ${name} was not provided`));

function errorOf(event: unknown): unknown {
  return (event as { error?: unknown }).error;
}

/** The failure of an actor's error event (anything but a CheckInSaveError is a plain failure). */
function saveFailureOf(event: unknown): CheckInSaveFailure {
  const error = errorOf(event);
  if (error instanceof CheckInSaveError) return error.failure;
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}

/** Milliseconds from `now` until the check-in is expired (0 if it already is). */
export function msUntilExpiry(checkIn: Pick<CheckIn, 'fechaAlta'>, now: number): number {
  return Math.max(0, checkInExpiresAt(checkIn.fechaAlta._seconds).getTime() - now);
}

export const checkInMachine = setup({
  types: {
    context: {} as CheckInContext,
    events: {} as CheckInMachineEvent,
    input: {} as CheckInInput,
    tags: '' as 'busy',
  },
  actors: {
    /** The user's check-in in effect (`wsObtenerCheckIn`), or null. */
    loadCheckIn: fromPromise<CheckIn | null>(notProvided('loadCheckIn')),
    /** The device's position (browser geolocation); rejects with a {@link LocateError}. */
    locate: fromPromise<DevicePosition>(notProvided('locate')),
    /**
     * Which showroom the position is within (the page runs it in the worker); by default the
     * core's rule on this thread.
     */
    evaluate: fromPromise<Candidate, { showrooms: Showroom[]; position: DevicePosition }>(
      ({ input }) => Promise.resolve(checkInCandidate(input.showrooms, input.position)),
    ),
    /** Saves the check-in; rejects with a {@link CheckInSaveError}. */
    saveCheckIn: fromPromise<CheckIn, SaveCheckInInput>(notProvided('saveCheckIn')),
    /** Checks the check-in out; rejects with a {@link CheckInSaveError}. */
    checkOut: fromPromise<CheckIn, CheckIn>(notProvided('checkOut')),
  },
  actions: {
    /** The spec's logging of check-in failures ('sin checkin', geolocation denied, …). */
    log: (_, _message: string) => {},
    /** The QR link's folio was used (or is not needed): the page drops it from the address. */
    folioDone: () => {},
    sync: assign(({ event }) =>
      event.type === 'checkIn.sync' ? { showrooms: event.showrooms } : {},
    ),
    keepCheckIn: assign((_, checkIn: CheckIn | null) => ({ checkIn })),
    keepPosition: assign((_, position: DevicePosition) => ({ position })),
    keepCandidate: assign((_, candidate: Candidate) => ({ candidate })),
    keepFailure: assign(({ event }) => ({ failure: saveFailureOf(event) })),
    keepServerTooFar: assign(({ context, event }) => {
      const failure = saveFailureOf(event);
      if (failure.kind !== 'tooFar' || context.candidate?.kind !== 'inside') return { failure };
      return {
        failure,
        candidate: {
          kind: 'tooFar' as const,
          showroom: context.candidate.showroom,
          distanciaKm: failure.distanciaKm as Kilometers,
          radioKm: failure.radioKm as Kilometers,
        },
      };
    }),
    takeFolio: assign(({ event }) => (event.type === 'checkIn.qr' ? { folio: event.folio } : {})),
    clearFolio: assign({ folio: null }),
    startAttempt: assign({ failure: null, candidate: null, position: null, expired: false }),
    markExpired: assign({ checkIn: null, expired: true }),
    clearCheckIn: assign({ checkIn: null }),
  },
  guards: {
    hasCheckIn: (_, checkIn: CheckIn | null) => checkIn !== null,
    hasFolio: ({ context }) => context.folio !== null,
    denied: ({ event }) => {
      const error = errorOf(event);
      return error instanceof LocateError && error.reason === 'denied';
    },
    inside: (_, c: Candidate) => c.kind === 'inside',
    tooFar: (_, c: Candidate) => c.kind === 'tooFar',
    inaccurate: (_, c: Candidate) => c.kind === 'inaccurate',
    serverTooFar: ({ event }) => saveFailureOf(event).kind === 'tooFar',
  },
  delays: {
    /** Until the check-in is older than 43200 s (spec §4, §9). */
    checkInExpiry: ({ context }) =>
      context.checkIn ? msUntilExpiry(context.checkIn, context.now()) : 0,
  },
}).createMachine({
  id: 'checkIn',
  context: ({ input }) => ({
    checkIn: null,
    showrooms: input.showrooms,
    folio: input.folio ?? null,
    position: null,
    candidate: null,
    failure: null,
    expired: false,
    now: input.now ?? (() => Date.now()),
  }),
  initial: 'loading',
  on: {
    'checkIn.sync': { actions: 'sync' },
  },
  states: {
    /** Reading the user's check-in in effect. */
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadCheckIn',
        onDone: [
          {
            guard: { type: 'hasCheckIn', params: ({ event }) => event.output },
            target: 'checkedIn',
            // Already checked in: a QR link's folio is not needed (the active one stands).
            actions: [
              { type: 'keepCheckIn', params: ({ event }) => event.output },
              'clearFolio',
              'folioDone',
            ],
          },
          {
            guard: 'hasFolio',
            target: 'saving',
            actions: [{ type: 'log', params: 'sin checkin' }, 'startAttempt'],
          },
          {
            target: 'idle',
            actions: [
              { type: 'keepCheckIn', params: null },
              { type: 'log', params: 'sin checkin' },
            ],
          },
        ],
        onError: {
          target: 'idle',
          actions: {
            type: 'log',
            params: ({ event }) => `check-in lookup failed: ${String(event.error)}`,
          },
        },
      },
    },

    /** Not checked in: the banner offers "Check in". */
    idle: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.refresh': { target: 'loading' },
      },
    },

    /** Asking the device where it is. */
    locating: {
      tags: ['busy'],
      invoke: {
        src: 'locate',
        onDone: {
          target: 'evaluating',
          actions: { type: 'keepPosition', params: ({ event }) => event.output },
        },
        onError: [
          {
            guard: 'denied',
            target: 'permissionDenied',
            actions: { type: 'log', params: 'geolocation denied' },
          },
          {
            target: 'unavailable',
            actions: {
              type: 'log',
              params: ({ event }) => `geolocation unavailable: ${String(event.error)}`,
            },
          },
        ],
      },
      on: { 'checkIn.cancel': { target: 'idle' } },
    },

    /** The worker decides which showroom the position is within. */
    evaluating: {
      tags: ['busy'],
      invoke: {
        src: 'evaluate',
        input: ({ context }) => ({
          showrooms: context.showrooms,
          position: context.position!,
        }),
        onDone: [
          {
            guard: { type: 'inside', params: ({ event }) => event.output },
            target: 'saving',
            actions: { type: 'keepCandidate', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'tooFar', params: ({ event }) => event.output },
            target: 'tooFar',
            actions: { type: 'keepCandidate', params: ({ event }) => event.output },
          },
          {
            guard: { type: 'inaccurate', params: ({ event }) => event.output },
            target: 'inaccurate',
            actions: { type: 'keepCandidate', params: ({ event }) => event.output },
          },
          {
            target: 'noShowrooms',
            actions: { type: 'keepCandidate', params: ({ event }) => event.output },
          },
        ],
        onError: {
          target: 'failed',
          actions: ['keepFailure', { type: 'log', params: 'check-in: evaluation failed' }],
        },
      },
    },

    /** Sending the check-in (by position, or QR with the folio). */
    saving: {
      tags: ['busy'],
      invoke: {
        src: 'saveCheckIn',
        input: ({ context }): SaveCheckInInput =>
          context.folio !== null
            ? { tipoRegistro: 'QR', folio: context.folio }
            : {
                tipoRegistro: 'Geolocalizacion',
                showroom: (context.candidate as Extract<Candidate, { kind: 'inside' }>).showroom,
                position: context.position!,
              },
        onDone: {
          target: 'checkedIn',
          actions: [
            { type: 'keepCheckIn', params: ({ event }) => event.output },
            'clearFolio',
            'folioDone',
          ],
        },
        onError: [
          {
            guard: 'serverTooFar',
            target: 'tooFar',
            actions: ['keepServerTooFar', { type: 'log', params: 'check-in failed: too far' }],
          },
          {
            target: 'failed',
            actions: [
              'keepFailure',
              'clearFolio',
              'folioDone',
              {
                type: 'log',
                params: ({ event }) => `check-in failed: ${saveFailureOf(event).message}`,
              },
            ],
          },
        ],
      },
    },

    /** Checked in: the banner shows the showroom and the time left. */
    checkedIn: {
      after: {
        checkInExpiry: { target: 'idle', actions: 'markExpired' },
      },
      on: {
        'checkIn.checkOut': { target: 'checkingOut', actions: assign({ failure: null }) },
        'checkIn.refresh': { target: 'loading' },
      },
    },

    checkingOut: {
      tags: ['busy'],
      invoke: {
        src: 'checkOut',
        input: ({ context }) => context.checkIn!,
        onDone: { target: 'idle', actions: 'clearCheckIn' },
        onError: {
          target: 'checkedIn',
          actions: [
            'keepFailure',
            {
              type: 'log',
              params: ({ event }) => `check-out failed: ${saveFailureOf(event).message}`,
            },
          ],
        },
      },
    },

    /** The browser refused the position: the banner explains and offers the QR code. */
    permissionDenied: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.cancel': { target: 'idle' },
      },
    },
    /** No position came (no signal, timeout). */
    unavailable: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.cancel': { target: 'idle' },
      },
    },
    /** Outside every showroom: the distance to the nearest and the radius allowed. */
    tooFar: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.cancel': { target: 'idle' },
      },
    },
    /** The position is too rough to check in by. */
    inaccurate: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.cancel': { target: 'idle' },
      },
    },
    /** The corporate has no active showroom. */
    noShowrooms: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.cancel': { target: 'idle' },
      },
    },
    /** The server refused the check-in for another reason (`failure.message`). */
    failed: {
      on: {
        'checkIn.start': { target: 'locating', actions: 'startAttempt' },
        'checkIn.qr': { target: 'saving', actions: ['startAttempt', 'takeFolio'] },
        'checkIn.cancel': { target: 'idle' },
      },
    },
  },
});
