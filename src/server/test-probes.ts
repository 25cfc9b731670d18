/**
 * Background work the end-to-end tests can break on purpose (tests/e2e/operations.spec.ts), on
 * only with the test clock (`VITRINA_TEST_CLOCK=1`, which only scripts/e2e-server.mjs sets):
 * a consumer `e2e-probe`, a timer kind and an outbox kind `e2e-probe`, each failing while the
 * probe is set to fail. `POST /__test__/probe` `{ failing }` sets it and, with `failing: true`,
 * appends one `E2EProbed` event, schedules one timer due now and queues one message, so the
 * operations page shows a parked event, a parked timer and a dead message to retry.
 */
import { randomUUID } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppDeps } from './http/context';
import { enqueueOutbox, PermanentFailure, scheduleTimer } from './store/background-work';

const KIND = 'e2e-probe';
const body = z.strictObject({ failing: z.boolean() });

export function testProbeRoutes(deps: Pick<AppDeps, 'store' | 'work' | 'clock'>) {
  let failing = false;
  const outcome = () =>
    failing ? Promise.reject(new Error('e2e probe: failing on purpose')) : Promise.resolve();
  deps.work.registerConsumer({
    name: KIND,
    handles: ['E2EProbed'],
    startAt: 'end',
    retry: { maxAttempts: 2, baseDelayMs: 100, maxDelayMs: 200 },
    handle: outcome,
  });
  deps.work.registerTimer(KIND, outcome, { retry: { maxAttempts: 1 } });
  deps.work.registerOutbox(KIND, () =>
    failing
      ? Promise.reject(new PermanentFailure('e2e probe: 550 mailbox unavailable'))
      : Promise.resolve(),
  );
  return new Hono().post('/__test__/probe', async (c) => {
    const parsed = body.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json([{ errorCode: 'VALIDATION', message: 'failing' }], 400);
    failing = parsed.data.failing;
    if (failing) {
      const id = randomUUID();
      const now = deps.clock();
      await deps.store.transact(async (tx) => {
        await tx.append({
          streamId: `${KIND}:${id}`,
          expectedVersion: 0,
          events: [{ id, type: 'E2EProbed', data: {}, occurredAt: now }],
        });
        await scheduleTimer(tx, { key: `${KIND}:${id}`, kind: KIND, dueAt: now });
        await enqueueOutbox(tx, { id: `${KIND}:${id}`, kind: KIND, payload: {} });
      });
      return c.json({ eventId: id, key: `${KIND}:${id}` });
    }
    return c.json({});
  });
}
