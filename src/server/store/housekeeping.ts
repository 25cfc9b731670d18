/**
 * Housekeeping: state that only matters for a while (failed sign-ins, expired sessions, public
 * capture attempts) is purged on a schedule, so those tables do not grow for ever.
 *
 * It is one recurring timer of the background work (timers.ts), key and kind
 * {@link HOUSEKEEPING}: the server arms it when its background work starts (due at once), and
 * each firing runs every task in the timer's transaction and schedules the next one
 * {@link HOUSEKEEPING_INTERVAL_MS} later (same key), on the injected clock. A timer fires once
 * however many server processes run, so two processes never purge at the same time, and a
 * process that dies mid-purge rolls it back for the next one. The tasks are the areas' own
 * (runtime.ts wires them): this file knows no table.
 */
import type { Queryable } from './db';
import type { BackgroundWork } from './background-work';
import { scheduleTimer } from './timers';

export const HOUSEKEEPING = 'housekeeping';
export const HOUSEKEEPING_INTERVAL_MS = 15 * 60_000;

export interface HousekeepingTask {
  name: string;
  /** Purges in `tx` what is stale at `now`; answers what it removed (for the log). */
  run(tx: Queryable, now: Date): Promise<unknown>;
}

/** Registers the housekeeping timer's handler (runtime.ts registerBackgroundWork). */
export function registerHousekeeping(
  work: BackgroundWork,
  tasks: readonly HousekeepingTask[],
): void {
  work.registerTimer(
    HOUSEKEEPING,
    async ({ tx, now }) => {
      for (const task of tasks) await task.run(tx, now);
      await scheduleHousekeeping(tx, new Date(now.getTime() + HOUSEKEEPING_INTERVAL_MS));
    },
    // Recurring: a failing purge keeps being retried (with backoff) instead of being parked.
    { retry: { maxAttempts: Number.MAX_SAFE_INTEGER } },
  );
}

/**
 * Arms the housekeeping timer (or moves it) to `dueAt`. The server calls it on start with the
 * current time: one purge now, then every interval; two processes starting arm the same timer.
 */
export async function scheduleHousekeeping(q: Queryable, dueAt: Date): Promise<void> {
  await scheduleTimer(q, { key: HOUSEKEEPING, kind: HOUSEKEEPING, dueAt });
}
