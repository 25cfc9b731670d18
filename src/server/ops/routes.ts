/**
 * Operations (issue 12): the background work of the deployment for platform administrators
 * (`mayOperate`: esAdmin), and retries of what failed. Everyone else gets 401 (signed out) or 403
 * in the spec's shape, before any parameter is looked at, so the routes reveal nothing about the
 * work to them.
 *
 * - `GET /api/operaciones?limite=50` → {@link OperationsOverview}: each consumer's state, lag and
 *   lease holder; timer and outbox counts with the failed/parked (dead) rows and the next ones
 *   due; parked consumer events with their errors. Every list holds at most `limite` rows (1–200).
 * - `POST /api/operaciones/timers/:key/reintentar` → the timer, due at once.
 * - `POST /api/operaciones/mensajes/:id/reintentar` → the outbound message, pending at once.
 * - `POST /api/operaciones/consumidores/:consumer/eventos/:eventId/reintentar` → the parked event,
 *   which the consumer runs again within about a second.
 *
 * A retry takes no body (an empty one or `{}`); see commands.ts for 404 / 409 and idempotence.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { queryInt } from '../http/query';
import { mayOperate } from '../../core/permissions';
import { requireUser, type Ctx, type Env } from '../http/context';
import { forbidden, jsonBody, parse } from '../http/errors';
import { retryMessageNow, retryParkedEventNow, retryTimerNow } from './commands';
import { operationsOverview, type OperationsOverview } from './queries';

export type { OperationsOverview };

const overviewQuery = z.strictObject({
  limite: queryInt(1, 200).optional(),
});
const timerKey = z.string().min(1).max(500);
const messageId = z.string().min(1).max(200);
const consumerName = z.string().min(1).max(200);
/** Any UUID form: event ids are random v4 or derived (`deterministicId`). */
const eventId = z.guid();
const emptyBody = z.strictObject({});

async function requireOperator(c: Ctx) {
  const user = await requireUser(c);
  if (!mayOperate(user)) throw forbidden();
  return user;
}

/** A retry's body must be empty (or `{}`): anything else is a 400, not silently ignored. */
async function noBody(c: Ctx) {
  parse(emptyBody, await jsonBody(c));
}

/** Who retried what, for the server's log (ids only: no payloads, no personal data). */
function logRetry(userId: string, what: string) {
  console.info(`[vitrina] operations: ${userId} retried ${what}`);
}

export const operationsRoutes = new Hono<Env>()
  .get('/operaciones', async (c) => {
    await requireOperator(c);
    const query = parse(overviewQuery, c.req.query());
    return c.json(await operationsOverview(c.get('deps'), query.limite ?? 50));
  })
  .post('/operaciones/timers/:key/reintentar', async (c) => {
    const user = await requireOperator(c);
    const key = parse(timerKey, c.req.param('key'));
    await noBody(c);
    const timer = await retryTimerNow(c.get('deps'), key);
    logRetry(user.id, `timer ${key}`);
    return c.json(timer);
  })
  .post('/operaciones/mensajes/:id/reintentar', async (c) => {
    const user = await requireOperator(c);
    const id = parse(messageId, c.req.param('id'));
    await noBody(c);
    const message = await retryMessageNow(c.get('deps'), id);
    logRetry(user.id, `outbox message ${id}`);
    return c.json(message);
  })
  .post('/operaciones/consumidores/:consumer/eventos/:eventId/reintentar', async (c) => {
    const user = await requireOperator(c);
    const consumer = parse(consumerName, c.req.param('consumer'));
    const id = parse(eventId, c.req.param('eventId'));
    await noBody(c);
    const parked = await retryParkedEventNow(c.get('deps'), consumer, id);
    logRetry(user.id, `event ${id} of consumer ${consumer}`);
    return c.json(parked);
  });
