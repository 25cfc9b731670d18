/**
 * A check-in ends by itself 43200 s after it was made (spec §4, §9): the second use of the
 * background work's timers, after unit holds (inventory/hold-expiry.ts), and the same shape.
 *
 * - {@link checkInExpiryTimers}, an inline projection, keeps one timer per adviser's check-in
 *   stream (`check-in:<streamId>`): scheduled by `CheckedIn` at core/check-in.ts
 *   `checkInExpiresAt`, removed by a check-out by hand.
 * - {@link fireCheckInExpiry}, the timer's handler, decides `CheckOut { motivo: 'expirado' }`
 *   with the core's decider and appends in the timer's own transaction, so the check-out and
 *   "the timer fired" commit together: exactly once, across restarts and processes. The event
 *   has no actor and no `idUsuarioSalida`: the history says 'Sistema'. A check-out by hand just
 *   before finds nothing to do (the decider's check-out is idempotent).
 */
import { decideAsSystem } from '../store/command-handler';
import { checkInDecider, checkInExpiresAt, type CheckIn } from '../../core/check-in';
import { workProjection, type BackgroundWork } from '../store/background-work';
import type { TimerContext } from '../store/timers';

export const CHECK_IN_EXPIRY = 'check-in-expiry';

/** The expiry timer of an adviser's check-ins: one per stream (one active check-in at a time). */
export const checkInTimerKey = (streamId: string) => `check-in:${streamId}`;

interface ExpiryPayload {
  streamId: string;
  corporateId: string | null;
  id: string;
}

export const checkInExpiryTimers = workProjection({
  name: 'check-in-expiry-timers',
  handles: ['CheckedIn', 'CheckedOut'],
  effects: (e) => {
    const key = checkInTimerKey(e.streamId);
    if (e.type === 'CheckedIn') {
      const { checkIn } = e.data as { checkIn: CheckIn };
      const payload: ExpiryPayload = {
        streamId: e.streamId,
        corporateId: e.corporateId,
        id: checkIn.id,
      };
      return {
        schedule: {
          key,
          kind: CHECK_IN_EXPIRY,
          dueAt: checkInExpiresAt(checkIn.fechaAlta._seconds),
          payload,
        },
      };
    }
    // An expiry's check-out: the timer's own transaction marks it done, or (a check-in made
    // over an expired one) the CheckedIn that follows reschedules the same key.
    if ((e.data as { motivo?: unknown }).motivo === 'expirado') return null;
    return { cancel: key };
  },
});

/** Checks the adviser out when their check-in's 12 hours are over (nothing if it already ended). */
export async function fireCheckInExpiry({ tx, timer, now }: TimerContext): Promise<void> {
  const { streamId, corporateId, id } = timer.payload as ExpiryPayload;
  // As every command, under the stream's lock: a check-out by hand at the same moment queues.
  await decideAsSystem(
    tx,
    checkInDecider,
    { streamId, corporateId },
    { type: 'CheckOut', id, motivo: 'expirado', by: null, now },
    now,
  );
}

/** Registers the expiry timer's handler (runtime.ts registerBackgroundWork). */
export function registerCheckInWork(work: BackgroundWork): void {
  work.registerTimer(CHECK_IN_EXPIRY, fireCheckInExpiry);
}
