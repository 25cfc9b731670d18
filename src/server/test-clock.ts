/**
 * A clock the end-to-end tests may move forward (a hold's expiry without waiting 48 hours). Off
 * unless the server is started with `VITRINA_TEST_CLOCK=1` (only scripts/e2e-server.mjs does):
 * then the server's injected clock is real time plus an offset, and `POST /__test__/clock`
 * `{ advanceMs }` (or `{ reset: true }`) moves it and wakes the background work.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { BackgroundWork } from './store/background-work';

export interface TestClock {
  clock: () => Date;
  advance(ms: number): void;
  reset(): void;
}

/** The test clock when `VITRINA_TEST_CLOCK` is '1', else null (the real clock). */
export function testClockFromEnv(env: NodeJS.ProcessEnv = process.env): TestClock | null {
  if (env.VITRINA_TEST_CLOCK !== '1') return null;
  let offset = 0;
  return {
    clock: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += ms;
    },
    reset: () => {
      offset = 0;
    },
  };
}

const body = z.union([
  z.strictObject({
    advanceMs: z
      .number()
      .int()
      .min(0)
      .max(365 * 24 * 3_600_000),
  }),
  z.strictObject({ reset: z.literal(true) }),
]);

/** `POST /__test__/clock`: moves the test clock and makes due timers fire now. */
export function testClockRoutes(testClock: TestClock, work: BackgroundWork) {
  return new Hono().post('/__test__/clock', async (c) => {
    const parsed = body.safeParse(await c.req.json().catch(() => null));
    if (!parsed.success) return c.json([{ errorCode: 'VALIDATION', message: 'advanceMs' }], 400);
    if ('reset' in parsed.data) testClock.reset();
    else testClock.advance(parsed.data.advanceMs);
    work.wake();
    return c.json({ now: testClock.clock().toISOString() });
  });
}
