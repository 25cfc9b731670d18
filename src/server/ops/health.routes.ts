import { Hono } from 'hono';
import type { Env } from '../http/context';
import type { BackgroundWorkStatus } from '../store/background-work';

/** How long the health check waits for the store before calling it unreachable. */
const STORE_TIMEOUT_MS = 2_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Counts only: error texts and instance ids stay for operators (logs, the operations page), since
 * this answer is public (load balancers and monitors call it without a session).
 */
function workHealth(work: BackgroundWorkStatus | null) {
  if (!work) return { consumers: [], timers: {}, outbox: {} };
  return {
    consumers: work.consumers.map((c) => ({
      name: c.name,
      state: c.state,
      lag: c.lag,
      lagCapped: c.lagCapped,
      failingAttempts: c.failing?.attempts ?? 0,
      parked: c.parked,
    })),
    timers: {
      scheduled: work.timers.scheduled,
      due: work.timers.due,
      failed: work.timers.failed,
      parked: work.timers.parked,
    },
    outbox: {
      pending: work.outbox.pending,
      due: work.outbox.due,
      failed: work.outbox.failed,
      dead: work.outbox.dead,
    },
  };
}

/**
 * `GET /api/health`: whether this process can serve. 200 while the store answers ('ok', or
 * 'degraded' while the live listener reconnects: its own changes still reach its streams), 503
 * when the store does not.
 */
export const healthRoutes = new Hono<Env>().get('/health', async (c) => {
  const deps = c.get('deps');
  const reachable = await within(STORE_TIMEOUT_MS, deps.db.query('SELECT 1')).then(
    () => true,
    () => false,
  );
  const live = deps.live.status();
  const work = reachable
    ? await within(STORE_TIMEOUT_MS, deps.work.status()).catch(() => null)
    : null;
  const status = !reachable ? 'down' : live.listener === 'reconnecting' ? 'degraded' : 'ok';
  return c.json(
    {
      status,
      store: { kind: deps.db.kind, reachable },
      listener: {
        state: live.listener,
        since: live.since,
        reconnects: live.reconnects,
        openStreams: live.openStreams,
      },
      ...workHealth(work),
    },
    reachable ? 200 : 503,
  );
});
