/**
 * Waiting for a consumer in tests. The work status's `lag` counts only events below the oldest
 * running transaction (what a consumer may safely read), so while any other transaction is open
 * — a timer firing in the background loop, another consumer's batch — a just-committed event is
 * not counted yet and `lag` reads 0 too early. A test wants something stricter: every committed
 * event is behind the consumer's checkpoint.
 */
import type { Queryable } from '../../../src/server/store/db';

/** Whether the consumer's checkpoint is at or past every committed event of the log. */
export async function caughtUp(db: Queryable, consumer: string): Promise<boolean> {
  const { rows } = await db.query<{ behind: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM events e
        WHERE (e.transaction_id, e.global_position) >
              (SELECT coalesce(c.transaction_id, '0'::xid8), coalesce(c.position, 0)
                 FROM consumers c WHERE c.name = $1)
     ) AS behind`,
    [consumer],
  );
  return rows[0]?.behind === false;
}

/** Polls `check` every 100 ms until it holds, or fails after `ms`. */
export async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting for the background work');
    await new Promise((r) => setTimeout(r, 100));
  }
}
