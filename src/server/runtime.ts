import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LoginThrottle, SessionStore } from './auth/sessions';
import { hashPassword } from './auth/passwords';
import type { AppDeps } from './http/context';
import { catalogueProjection } from './projections/catalogue';
import { leadsProjection } from './projections/leads';
import { quotationsProjection } from './projections/quotations';
import { buildDemoSeed } from './seed/demo';
import { openDb, type OpenOptions } from './store/db';
import { EventStore } from './store/event-store';
import { migrate } from './store/migrate';
import { LiveFeed } from './live';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

/** Every projection of the server, in the order they run inside an append. */
export function registerProjections(store: EventStore) {
  store.registerProjection(catalogueProjection);
  store.registerProjection(leadsProjection);
  store.registerProjection(quotationsProjection);
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
export async function openRuntime(options: OpenOptions & { clock?: () => Date }): Promise<Runtime> {
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
  const deps: AppDeps = {
    db,
    store,
    live,
    clock,
    newId: () => randomUUID(),
    sessions: new SessionStore(db, clock),
    throttle: new LoginThrottle(db, clock),
    secret: loadSecret(options.databaseUrl ? undefined : options.dataDir),
  };
  return {
    deps,
    close: async () => {
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
