/**
 * The operations page's read: what the background work of this deployment is doing and what
 * needs an operator. Consumers come from this process's `BackgroundWork.status()` (their lag,
 * state and lease holder are read from the database, so they hold across processes); timers,
 * outbound messages and parked events are read from their tables.
 *
 * Error texts are shown as they were recorded: they may name internals, which is why the page
 * is for platform administrators only (`mayOperate`), unlike the public `GET /api/health`.
 */
import type { AppDeps } from '../http/context';
import {
  type ConsumerStatus,
  listOutbox,
  listParkedEvents,
  listTimers,
  type OutboxRecord,
  type ParkedEvent,
  type Timer,
} from '../store/background-work';

/** A timer as the page shows it (no payload: it may carry a client's data). */
export interface OperationsTimer {
  key: string;
  kind: string;
  state: Timer['state'];
  dueAt: string;
  /** Null when an operator's retry made it due at once. */
  nextAttemptAt: string | null;
  attempts: number;
  lastError: string | null;
}

/** An outbound message as the page shows it (no payload). */
export interface OperationsMessage {
  id: string;
  kind: string;
  state: OutboxRecord['state'];
  attempts: number;
  /** Null while it waits to be sent at once. */
  nextAttemptAt: string | null;
  lastError: string | null;
  createdAt: string;
}

export interface OperationsOverview {
  /** The injected clock's time of the reading. */
  generatedAt: string;
  /** The process that answered (consumers' states are as it sees them). */
  instanceId: string;
  running: boolean;
  consumers: ConsumerStatus[];
  timers: {
    counts: { scheduled: number; due: number; failed: number; parked: number };
    kinds: string[];
    lastError: string | null;
    /** Failed (waiting for their next attempt) and parked timers, soonest first. */
    attention: OperationsTimer[];
    /** The next timers to fire, soonest first. */
    upcoming: OperationsTimer[];
  };
  outbox: {
    counts: { pending: number; due: number; sending: number; failed: number; dead: number };
    kinds: string[];
    lastError: string | null;
    /** Failed (waiting for their next attempt) and dead-lettered messages, newest first. */
    attention: OperationsMessage[];
    /** Messages waiting to be sent or being sent, newest first. */
    pending: OperationsMessage[];
  };
  /** Events a consumer gave up on (parked) or that an operator asked to retry, newest first. */
  parked: ParkedEvent[];
  /** The most rows any list above holds. */
  limit: number;
}

/** An instant as ISO text; null for '-infinity' (due at once), which has no ISO form. */
const isoOrNull = (d: Date) => (Number.isFinite(d.getTime()) ? d.toISOString() : null);

export function timerView(t: Timer): OperationsTimer {
  return {
    key: t.key,
    kind: t.kind,
    state: t.state,
    dueAt: t.dueAt.toISOString(),
    nextAttemptAt: isoOrNull(t.nextAttemptAt),
    attempts: t.attempts,
    lastError: t.lastError,
  };
}

export function messageView(m: OutboxRecord): OperationsMessage {
  return {
    id: m.id,
    kind: m.kind,
    state: m.state,
    attempts: m.attempts,
    nextAttemptAt: m.nextAttemptAt ? m.nextAttemptAt.toISOString() : null,
    lastError: m.lastError,
    createdAt: m.createdAt.toISOString(),
  };
}

/**
 * Everything the operations page shows, each list capped at `limit` rows (counts are whole). One
 * snapshot (a REPEATABLE READ transaction): the counts, the consumers' lines and the lists agree
 * with each other, even while the background work writes between the reads (an event parked is
 * in the parked list and on its consumer's line, or in neither).
 */
export async function operationsOverview(
  deps: Pick<AppDeps, 'db' | 'work' | 'clock'>,
  limit: number,
): Promise<OperationsOverview> {
  const { db, work } = deps;
  const { status, timersAttention, timersUpcoming, outboxAttention, outboxPending, parked } =
    await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      // One connection: the statements run one after another anyway.
      return {
        status: await work.status(tx),
        timersAttention: await listTimers(tx, { states: ['failed', 'parked'], limit }),
        timersUpcoming: await listTimers(tx, { states: ['scheduled'], limit }),
        outboxAttention: await listOutbox(tx, { states: ['failed', 'dead'], limit }),
        outboxPending: await listOutbox(tx, { states: ['pending', 'sending'], limit }),
        parked: await listParkedEvents(tx, { limit }),
      };
    });
  return {
    generatedAt: deps.clock().toISOString(),
    instanceId: status.instanceId,
    running: status.running,
    consumers: status.consumers,
    timers: {
      counts: {
        scheduled: status.timers.scheduled,
        due: status.timers.due,
        failed: status.timers.failed,
        parked: status.timers.parked,
      },
      kinds: status.timers.kinds,
      lastError: status.timers.lastError,
      attention: timersAttention.map(timerView),
      upcoming: timersUpcoming.map(timerView),
    },
    outbox: {
      counts: {
        pending: status.outbox.pending,
        due: status.outbox.due,
        sending: status.outbox.sending,
        failed: status.outbox.failed,
        dead: status.outbox.dead,
      },
      kinds: status.outbox.kinds,
      lastError: status.outbox.lastError,
      attention: outboxAttention.map(messageView),
      pending: outboxPending.map(messageView),
    },
    parked,
    limit,
  };
}
