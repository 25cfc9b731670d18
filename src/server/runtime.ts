import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoginThrottle, SessionStore } from './auth/sessions';
import { hashPassword } from './auth/passwords';
import type { AppDeps } from './http/context';
import { catalogueProjection } from './catalogue/projection';
import { registerUnitHoldWork, unitHoldTimers } from './inventory/hold-expiry';
import { leadsProjection } from './leads/projection';
import { quotationsProjection } from './quotations/projection';
import { buildDemoSeed } from './seed/demo';
import { BackgroundWork, type BackgroundWorkOptions } from './store/background-work';
import { openDb, type OpenOptions } from './store/db';
import { EventStore } from './store/event-store';
import { migrate } from './store/migrate';
import { LiveFeed } from './live/feed';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

/** Every projection of the server, in the order they run inside an append. */
export function registerProjections(store: EventStore) {
  store.registerProjection(catalogueProjection);
  store.registerProjection(leadsProjection);
  store.registerProjection(quotationsProjection);
  store.registerProjection(unitHoldTimers);
}

/**
 * Every consumer, timer handler and outbox handler of the server (areas add theirs here):
 * `work.registerConsumer({...})`, `work.registerTimer(kind, handler)`,
 * `work.registerOutbox(kind, handler)`. See store/background-work.ts.
 */
export function registerBackgroundWork(work: BackgroundWork): void {
  registerUnitHoldWork(work);
}

function loadSecret(dataDir: string | undefined): string {
  if (process.env.VITRINA_SECRET) return process.env.VITRINA_SECRET;
  if (!dataDir || dataDir.startsWith('memory://')) return randomBytes(32).toString('hex');
  const file = join(dataDir, 'secret.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** Opens the store, applies migrations and wires the dependencies the HTTP layer needs. */
export async function openRuntime(
  options: OpenOptions & {
    clock?: () => Date;
    /**
     * Start the background work (consumers, timers, outbox) now. The server does; scripts
     * (seed:large, store tools) and most tests leave it off, and may call deps.work.start().
     */
    startBackgroundWork?: boolean;
    background?: BackgroundWorkOptions;
  },
): Promise<Runtime> {
  const db = await openDb(options);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const store = new EventStore(db);
  registerProjections(store);
  const clock = options.clock ?? (() => new Date());
  const live = new LiveFeed(db, store);
  await live.start();
  const work = new BackgroundWork({ db, store, clock }, options.background);
  registerBackgroundWork(work);
  if (options.startBackgroundWork) work.start();
  const deps: AppDeps = {
    db,
    store,
    live,
    work,
    clock,
    newId: () => randomUUID(),
    sessions: new SessionStore(db, clock),
    throttle: new LoginThrottle(db, clock),
    secret: loadSecret(options.databaseUrl ? undefined : options.dataDir),
  };
  return {
    deps,
    close: async () => {
      await work.stop();
      await live.close();
      await db.close();
    },
  };
}

/**
 * Seeds the demo tenant when the store has none. The whole seed is one atomic append with
 * deterministic event ids: a seed killed half-way leaves nothing, and the next start redoes it.
 */
export async function seedDemoIfEmpty(
  store: EventStore,
  onSeeding: () => void = () => undefined,
): Promise<boolean> {
  if ((await store.streamVersion('system:demo-seed')) > 0) return false;
  onSeeding();
  const seed = await buildDemoSeed(hashPassword);
  await store.appendMany([
    ...seed.requests,
    {
      streamId: 'system:demo-seed',
      expectedVersion: 0,
      events: [
        { id: randomUUID(), type: 'DemoTenantSeeded', data: seed.summary, occurredAt: new Date() },
      ],
    },
  ]);
  return true;
}
