/**
 * An operator's retries: a failed or parked timer, a failed or dead outbound message, a parked
 * consumer event runs again now (attempts reset), and this process's loops are woken so it
 * happens within moments.
 *
 * Idempotent: asking again while the first retry still waits to run answers the same 200 (the
 * row is already due at once), so a double click or a retried request runs the work once.
 * An unknown id is a 404; work that has not failed (scheduled for later, being sent, done) is a
 * 409 `NOT_RETRYABLE` with its `state`.
 */
import type { AppDeps } from '../http/context';
import { ApiError } from '../http/errors';
import {
  getOutboxMessage,
  getParkedEvent,
  getTimer,
  type ParkedEvent,
  retryOutboxMessage,
  retryParkedEvent,
  retryTimer,
} from '../store/background-work';
import { messageView, timerView, type OperationsMessage, type OperationsTimer } from './queries';

type Deps = Pick<AppDeps, 'db' | 'work'>;

const notRetryable = (state: string) =>
  new ApiError(409, 'NOT_RETRYABLE', 'not_retryable', {}, { state });

/** `retryTimer` marks a timer due at '-infinity': the sign that a retry waits to run. */
const awaitsRetry = (d: Date) => !Number.isFinite(d.getTime());

export async function retryTimerNow(deps: Deps, key: string): Promise<OperationsTimer> {
  const retried = await retryTimer(deps.db, key);
  if (retried) deps.work.wake();
  const timer = await getTimer(deps.db, key);
  if (!timer) throw new ApiError(404, 'TIMER_NOT_FOUND', 'timer_not_found');
  if (retried || (timer.state === 'scheduled' && awaitsRetry(timer.nextAttemptAt)))
    return timerView(timer);
  throw notRetryable(timer.state);
}

export async function retryMessageNow(deps: Deps, id: string): Promise<OperationsMessage> {
  const retried = await retryOutboxMessage(deps.db, id);
  if (retried) deps.work.wake();
  const message = await getOutboxMessage(deps.db, id);
  if (!message) throw new ApiError(404, 'MESSAGE_NOT_FOUND', 'outbox_message_not_found');
  // A pending message with no next attempt is due at once: it waits for its (re)send.
  if (retried || (message.state === 'pending' && message.nextAttemptAt === null))
    return messageView(message);
  throw notRetryable(message.state);
}

export async function retryParkedEventNow(
  deps: Deps,
  consumer: string,
  eventId: string,
): Promise<ParkedEvent> {
  const retried = await retryParkedEvent(deps.db, consumer, eventId);
  if (retried) deps.work.wake();
  const parked = await getParkedEvent(deps.db, consumer, eventId);
  if (!parked) throw new ApiError(404, 'PARKED_EVENT_NOT_FOUND', 'parked_event_not_found');
  if (retried || parked.state === 'retry') return parked;
  throw notRetryable(parked.state);
}
