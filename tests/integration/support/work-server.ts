/**
 * A real server process for the background-work tests: the server's runtime (openRuntime, its
 * BackgroundWork started as main.ts starts it) and HTTP app on DATABASE_URL, plus a probe
 * consumer and a probe timer whose effects are plain inserts (a duplicate would show).
 *
 * PROBE_STALL=1: the handlers stall (60 s, inside their transaction, after writing the effect) on
 * events / timers whose data says `stall: true`, printing `STALLED <id>` so the test can kill -9.
 * Prints `READY <instanceId>` once serving.
 */
import { serve } from '@hono/node-server';
import { createApp } from '../../../src/server/app';
import { openRuntime } from '../../../src/server/runtime';

const databaseUrl = process.env.DATABASE_URL!;
const port = Number(process.env.PORT ?? 0);
const stall = process.env.PROBE_STALL === '1';

const runtime = await openRuntime({
  databaseUrl,
  poolSize: 4,
  background: { pollMs: 100, log: () => undefined },
});
const { work } = runtime.deps;

const hang = async (id: string) => {
  console.log(`STALLED ${id}`);
  await new Promise((r) => setTimeout(r, 60_000));
};

work.registerConsumer({
  name: 'probe',
  handles: ['ProbeEvent'],
  handle: async (event, { tx }) => {
    await tx.query('INSERT INTO probe_effects (event_id, instance) VALUES ($1, $2)', [
      event.id,
      work.instanceId,
    ]);
    if (stall && (event.data as { stall?: boolean }).stall) await hang(event.id);
  },
});
work.registerTimer('probe', async ({ tx, timer }) => {
  await tx.query('INSERT INTO probe_fired (key, instance) VALUES ($1, $2)', [
    timer.key,
    work.instanceId,
  ]);
  if (stall && (timer.payload as { stall?: boolean }).stall) await hang(timer.key);
});
work.start();

const app = createApp(runtime.deps);
serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => {
  console.log(`READY ${work.instanceId}`);
});

const shutdown = () => void runtime.close().finally(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
