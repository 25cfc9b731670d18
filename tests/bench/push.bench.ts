/**
 * Web push (issue 15): one broadcast to BENCH_PUSH_SUBSCRIPTIONS subscriptions (default 1,000),
 * on PGlite, against the fake push service of the tests (loopback HTTPS; it decrypts every
 * aes128gcm payload, as a real service receives it).
 *
 * 1. The fake alone: the same number of pushes sent straight to it with `web-push` (the same
 *    encryption, VAPID signature and https agent the server uses), as many at a time as the
 *    outbox sends (its batch, default 10). Its accept rate is the ceiling.
 * 2. The broadcast: one `NotificationSent` to as many users as subscriptions (one browser each),
 *    then the time until the fake has accepted them all: the consumer queues one outbox message per
 *    subscription in one transaction (the recipient's preference and language read there), and the
 *    outbox dispatcher sends them (each re-reads the subscription and the preference).
 *
 * Reports both rates and their ratio (broadcast time / fake-alone time; 1.0 would be no overhead).
 *
 * Run: `npm run bench push` (or `npx tsx tests/bench/push.bench.ts`).
 */
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:https';
import { performance } from 'node:perf_hooks';
import webPush from 'web-push';
import { notify } from '../../src/server/notifications/notify';
import { ensureVapidKeys, PUSH_CONSUMER } from '../../src/server/notifications/push';
import { openRuntime } from '../../src/server/runtime';
import { startFakePushService } from '../integration/support/fake-push-service';
import { recordResult } from './support/results';

const N = Number(process.env.BENCH_PUSH_SUBSCRIPTIONS ?? 1_000);
const CONCURRENCY = Number(process.env.BENCH_PUSH_CONCURRENCY ?? 10);
const silent = () => undefined;
const fmt = (n: number, digits = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main() {
  const fake = await startFakePushService();
  const agent = new Agent({ ca: fake.ca, keepAlive: true, maxSockets: CONCURRENCY });
  const rt = await openRuntime({
    dataDir: 'memory://',
    push: { allowLoopback: true, allowedHosts: [], agent },
    background: { log: silent, outboxBatchSize: CONCURRENCY },
  });
  try {
    const { db, store, work } = rt.deps;
    const keys = await ensureVapidKeys(db);
    console.log(
      `push: ${fmt(N)} subscriptions, ${CONCURRENCY} sent at a time, PGlite, fake push service on loopback HTTPS`,
    );

    // 1. The fake alone.
    const body = JSON.stringify({
      titulo: 'Aviso',
      mensaje: 'Mensaje de prueba',
      url: '/',
      tag: 'x',
    });
    let next = 0;
    const aloneStart = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          const i = next++;
          await webPush.sendNotification(
            { endpoint: `${fake.base}/alone/${i}`, keys: fake.keys },
            body,
            {
              vapidDetails: {
                subject: 'mailto:bench@vitrina.app',
                publicKey: keys.publicKey,
                privateKey: keys.privateKey,
              },
              TTL: 86_400,
              agent,
            },
          );
        }
      }),
    );
    const aloneMs = performance.now() - aloneStart;
    const aloneOk = fake.received.filter((r) => r.path.startsWith('/alone/') && r.payload).length;
    if (aloneOk !== N) throw new Error(`the fake decrypted ${aloneOk} of ${N} pushes sent alone`);
    console.log(
      `  fake alone:  ${fmt(N)} accepted in ${fmt(aloneMs)} ms = ${fmt((N / aloneMs) * 1000)} pushes/s`,
    );

    // 2. The broadcast through the server.
    const users = Array.from({ length: N }, (_, i) => `bench-user-${i}`);
    await db.transaction(async (tx) => {
      for (let i = 0; i < N; i += 500) {
        const slice = users.slice(i, i + 500);
        await tx.query(
          `INSERT INTO push_subscriptions (endpoint, user_id, p256dh, auth)
           SELECT $1 || u, u, $2, $3 FROM unnest($4::text[]) AS u`,
          [`${fake.base}/broadcast/`, fake.keys.p256dh, fake.keys.auth, slice],
        );
      }
    });
    work.start();
    // The push consumer starts at the end of the log: wait until it has its place.
    const deadline = Date.now() + 30_000;
    while (
      (await db.query('SELECT 1 FROM consumers WHERE name = $1', [PUSH_CONSUMER])).rows.length === 0
    ) {
      if (Date.now() > deadline) throw new Error('the push consumer did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
    let accepted = 0;
    let resolveAll: () => void = () => undefined;
    const allAccepted = new Promise<void>((r) => (resolveAll = r));
    fake.onReceived = (r) => {
      if (r.path.startsWith('/broadcast/') && r.payload && ++accepted === N) resolveAll();
    };
    const broadcastStart = performance.now();
    await store.transact((tx) =>
      notify(tx, {
        corporateId: 'bench',
        userIds: users,
        kind: 'mensaje',
        titulo: 'Aviso general',
        mensaje: `Mensaje para todos ${randomUUID().slice(0, 8)}`,
        link: '/corporativos/bench',
      }),
    );
    const committedMs = performance.now() - broadcastStart;
    let queuedAt = 0;
    const watchQueue = setInterval(() => {
      void db
        .query<{ n: number }>("SELECT count(*)::int AS n FROM outbox WHERE kind = 'push'")
        .then(({ rows }) => {
          if (!queuedAt && rows[0]!.n >= N) queuedAt = performance.now() - broadcastStart;
        });
    }, 20);
    const timeout = setTimeout(() => resolveAll(), 10 * 60_000);
    await allAccepted;
    clearTimeout(timeout);
    clearInterval(watchQueue);
    const broadcastMs = performance.now() - broadcastStart;
    if (accepted !== N) throw new Error(`only ${accepted} of ${N} accepted within 10 minutes`);
    console.log(
      `  broadcast:   ${fmt(N)} accepted in ${fmt(broadcastMs)} ms = ${fmt((N / broadcastMs) * 1000)} pushes/s` +
        ` (the notification committed after ${fmt(committedMs)} ms; all ${fmt(N)} queued by ~${fmt(queuedAt)} ms)`,
    );
    console.log(
      `  ratio:       broadcast / fake alone = ${fmt(broadcastMs / aloneMs, 2)}× the time` +
        ` (${fmt((aloneMs / broadcastMs) * 100, 0)} % of the fake's own rate)`,
    );
    recordResult({
      bench: 'push',
      measure: `broadcast of ${fmt(N)} pushes through the server`,
      value: (N / broadcastMs) * 1000,
      unit: 'pushes/s',
      baseline: { label: 'the fake push service alone', value: (N / aloneMs) * 1000 },
    });
    await work.stop();
  } finally {
    await rt.close();
    agent.destroy();
    await fake.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
