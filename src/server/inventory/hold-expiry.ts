/**
 * Holds that end by themselves: the first real use of the background work (store/background-work.ts).
 *
 * - {@link unitHoldTimers}, an inline projection, keeps one timer per held unit
 *   (`unit-hold:<streamId>`) in the transaction of the event that holds, extends or ends the hold:
 *   scheduled at `hastaEn` on `UnitHeld` / `UnitHoldExtended`, removed on a release by hand or
 *   on a status change (a sale or a reservation clears the hold).
 * - {@link fireUnitHoldExpiry}, the timer's handler, decides `ReleaseHold { motivo: 'expired' }`
 *   on the unit's stream with the core's decider and appends in the timer's own transaction, so
 *   the release and "the timer fired" commit together: once, across restarts and processes. The
 *   event has no actor, so the unit's history shows 'Sistema'.
 */
import { decideAsSystem } from '../store/command-handler';
import { unitDecider } from '../../core/unit';
import { workProjection, type BackgroundWork } from '../store/background-work';
import type { TimerContext } from '../store/timers';

export const UNIT_HOLD_EXPIRY = 'unit-hold-expiry';

/** The timer of a unit's hold: one per unit stream, whoever holds it. */
export const unitHoldTimerKey = (streamId: string) => `unit-hold:${streamId}`;

interface HoldTimerPayload {
  streamId: string;
  corporateId: string | null;
}

export const unitHoldTimers = workProjection({
  name: 'unit-hold-timers',
  handles: ['UnitHeld', 'UnitHoldExtended', 'UnitHoldReleased', 'UnitStatusChanged'],
  effects: (e) => {
    const key = unitHoldTimerKey(e.streamId);
    if (e.type === 'UnitHeld' || e.type === 'UnitHoldExtended') {
      const payload: HoldTimerPayload = { streamId: e.streamId, corporateId: e.corporateId };
      const { hastaEn } = e.data as { hastaEn: string };
      return { schedule: { key, kind: UNIT_HOLD_EXPIRY, dueAt: new Date(hastaEn), payload } };
    }
    // Fired: the timer's own transaction marks it done (kept for the operations page).
    if (e.type === 'UnitHoldReleased' && (e.data as { motivo?: unknown }).motivo === 'expired')
      return null;
    // A status set to 'Apartado' by hand keeps whatever hold there is.
    if (e.type === 'UnitStatusChanged' && (e.data as { to?: unknown }).to === 'Apartado')
      return null;
    return { cancel: key };
  },
});

/** Releases the hold whose time has come (nothing when it was extended, released or cleared). */
export async function fireUnitHoldExpiry({ tx, timer, now }: TimerContext): Promise<void> {
  const { streamId, corporateId } = timer.payload as HoldTimerPayload;
  // As every command, under the stream's lock: a release by hand at the same moment queues.
  await decideAsSystem(
    tx,
    unitDecider,
    { streamId, corporateId },
    { type: 'ReleaseHold', motivo: 'expired', now },
    now,
  );
}

/** Registers the hold timer's handler (runtime.ts registerBackgroundWork). */
export function registerUnitHoldWork(work: BackgroundWork): void {
  work.registerTimer(UNIT_HOLD_EXPIRY, fireUnitHoldExpiry);
}
