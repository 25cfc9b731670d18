import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoginThrottle, SessionStore } from './auth/sessions';
import { AuthCache, type AuthCacheOptions } from './auth/auth-cache';
import { hashPassword } from './auth/passwords';
import type { AppDeps } from './http/context';
import { appointmentsProjection } from './appointments/projection';
import { registerArrivalWork } from './appointments/arrivals';
import { appointmentReminderTimers, registerAppointmentWork } from './appointments/reminders';
import { catalogueProjection } from './catalogue/projection';
import { checkInExpiryTimers, registerCheckInWork } from './check-ins/expiry';
import { checkInsProjection } from './check-ins/projection';
import { registerUnitHoldWork, unitHoldTimers } from './inventory/hold-expiry';
import { leadsProjection } from './leads/projection';
import { notificationsProjection } from './notifications/projection';
import { holdWarningTimers, registerNotificationWork } from './notifications/producers';
import { openPush, registerPushWork, type PushOptions } from './notifications/push';
import { leadRotationProjection } from './leads/round-robin';
import { purgeCaptureAttempts } from './leads/capture';
import { purgeSignInState } from './auth/throttle';
import { trustProxyHops } from './http/proxy';
import { registerHousekeeping, scheduleHousekeeping } from './store/housekeeping';
import { quotationsProjection } from './quotations/projection';
import { buildDemoSeed } from './seed/demo';
import { BackgroundWork, type BackgroundWorkOptions } from './store/background-work';
import { openDb, type Db, type OpenOptions } from './store/db';
import { EventStore } from './store/event-store';
import { migrate } from './store/migrate';
import { LiveFeed } from './live/feed';
import { DbShareKeyring, ensureShareKey } from './quotations/share-keys';
import { registerMailWork } from './mail/outbox';
import { openMail, type MailOptions } from './mail/service';
import { chatOptionsFromEnv, type ChatOptions } from './chat/webhook';
import { crmProjection } from './crm/projection';
import { registerCrmWork } from './crm/sync';
import { openCrm } from './crm/service';
import type { CrmOptions } from './crm/connections';
import { purgePeopleState } from './auth/people-tokens';
import { authProviderFromEnv, type AuthProviderOptions } from './auth/firebase';
import { firebaseLinksProjection } from './auth/firebase-link';

export interface Runtime {
  deps: AppDeps;
  /**
   * Arms the housekeeping timer and starts the background work (consumers, timers, outbox);
   * once only. The server calls it when it is listening (main.ts): on PGlite its first passes
   * share the one connection with the start's own reads and would hold them up.
   */
  startBackgroundWork(): Promise<void>;
  close(): Promise<void>;
}

/** Every projection of the server, in the order they run inside an append. */
export function registerProjections(store: EventStore) {
  store.registerProjection(catalogueProjection);
  store.registerProjection(leadsProjection);
  store.registerProjection(leadRotationProjection);
  store.registerProjection(quotationsProjection);
  store.registerProjection(unitHoldTimers);
  store.registerProjection(checkInsProjection);
  store.registerProjection(checkInExpiryTimers);
  store.registerProjection(appointmentsProjection);
  store.registerProjection(appointmentReminderTimers);
  store.registerProjection(notificationsProjection);
  store.registerProjection(holdWarningTimers);
  store.registerProjection(crmProjection);
  store.registerProjection(firebaseLinksProjection);
}

/**
 * Every consumer, timer handler and outbox handler of the server (areas add theirs here):
 * `work.registerConsumer({...})`, `work.registerTimer(kind, handler)`,
 * `work.registerOutbox(kind, handler)`. See store/background-work.ts.
 */
export function registerBackgroundWork(work: BackgroundWork): void {
  registerUnitHoldWork(work);
  registerCheckInWork(work);
  registerNotificationWork(work);
  registerAppointmentWork(work);
  registerArrivalWork(work);
  registerHousekeeping(work, [
    { name: 'sign-in', run: purgeSignInState },
    { name: 'lead-capture-attempts', run: purgeCaptureAttempts },
    { name: 'people-links', run: purgePeopleState },
  ]);
}

/**
 * The share links' keys (quotations/share-keys.ts): the deployment's, stored in the database
 * (created on the first start), or `VITRINA_SECRET` when set. Links signed before key ids verify
 * with `VITRINA_SECRET` (and `VITRINA_SECRET_PREVIOUS`) or an embedded store's old
 * `secret.key`, which is no longer written.
 */
async function openShareKeys(db: Db, dataDir: string | undefined): Promise<DbShareKeyring> {
  await ensureShareKey(db);
  const envSecret = process.env.VITRINA_SECRET || undefined;
  const previousEnvSecrets = (process.env.VITRINA_SECRET_PREVIOUS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const legacySecrets = [...(envSecret ? [envSecret] : []), ...previousEnvSecrets];
  const file = dataDir && !dataDir.startsWith('memory://') ? join(dataDir, 'secret.key') : null;
  if (file && existsSync(file)) legacySecrets.push(readFileSync(file, 'utf8').trim());
  return new DbShareKeyring(db, { envSecret, previousEnvSecrets, legacySecrets });
}

/** Opens the store, applies migrations and wires the dependencies the HTTP layer needs. */
export async function openRuntime(
  options: OpenOptions & {
    clock?: () => Date;
    /**
     * Start the background work (consumers, timers, outbox) now. Scripts (seed:large, store
     * tools) and most tests leave it off, and may call deps.work.start(); the server calls
     * {@link Runtime.startBackgroundWork} once listening.
     */
    startBackgroundWork?: boolean;
    background?: BackgroundWorkOptions;
    /** Reverse proxies in front (default: `TRUST_PROXY`); see http/proxy.ts. */
    trustProxy?: number;
    /** Web push: allow-list, loopback for tests, the https agent (notifications/push.ts). */
    push?: PushOptions;
    /** E-mail: SMTP from the environment, a mailbox folder, or a transport of the caller's. */
    mail?: MailOptions;
    /** The chat assistant: the deployment's switch and webhook (default: the environment). */
    chat?: ChatOptions;
    /** CRM sync: the key, http on loopback (tests' fakes), timeouts, retries (crm/service.ts). */
    crm?: CrmOptions;
    /** The sign-in provider (issue 22; default: `VITRINA_AUTH_PROVIDER` and the FIREBASE_* variables). */
    auth?: AuthProviderOptions;
    /** Where uploaded media files are written (default: a temporary directory). */
    mediaDir?: string;
    /**
     * Sessions, users and corporates in memory (auth/auth-cache.ts): on by default; `false`
     * (or `VITRINA_AUTH_CACHE=off`) reads them from the database on every request.
     */
    authCache?: AuthCacheOptions | false;
  },
): Promise<Runtime> {
  const db = await openDb(options);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const clock = options.clock ?? (() => new Date());
  // Uploaded media files (catalogue/uploads.ts): the caller's directory (the server's
  // `<data dir>/media`), else a temporary one of this runtime, removed when it closes.
  const ownMediaDir = !options.mediaDir;
  const mediaDir = options.mediaDir ?? mkdtempSync(join(tmpdir(), 'vitrina-media-'));
  let shareKeys: DbShareKeyring;
  try {
    shareKeys = await openShareKeys(db, options.databaseUrl ? undefined : options.dataDir);
  } catch (error) {
    await db.close();
    throw error;
  }
  const store = new EventStore(db);
  registerProjections(store);
  const live = new LiveFeed(db, store);
  await live.start();
  const authCache =
    options.authCache === false || process.env.VITRINA_AUTH_CACHE === 'off'
      ? undefined
      : new AuthCache(clock, options.authCache);
  authCache?.follow(live);
  const work = new BackgroundWork({ db, store, clock }, options.background);
  registerBackgroundWork(work);
  const push = await openPush(db, options.push);
  registerPushWork(work, db, push);
  const mail = openMail(options.mail);
  registerMailWork(work, db, mail);
  const crm = await openCrm(db, {
    ...options.crm,
    dataDir: options.databaseUrl ? undefined : options.dataDir,
    publicBaseUrl: options.crm?.publicBaseUrl ?? mail.publicBaseUrl,
  });
  registerCrmWork(work, { db, crm, clock, store });
  let backgroundStarted: Promise<void> | undefined;
  const startBackgroundWork = () =>
    (backgroundStarted ??= (async () => {
      await scheduleHousekeeping(db, clock());
      work.start();
    })());
  if (options.startBackgroundWork) await startBackgroundWork();
  const deps: AppDeps = {
    db,
    store,
    live,
    work,
    clock,
    newId: () => randomUUID(),
    sessions: new SessionStore(db, clock, { cache: authCache, store }),
    authCache,
    throttle: new LoginThrottle(db, clock),
    shareKeys,
    push: push.service,
    mail,
    chat: options.chat ?? chatOptionsFromEnv(),
    crm,
    auth: options.auth ?? authProviderFromEnv(),
    mediaDir,
    trustProxy: options.trustProxy ?? trustProxyHops(process.env.TRUST_PROXY),
  };
  return {
    deps,
    startBackgroundWork,
    close: async () => {
      await backgroundStarted?.catch(() => undefined);
      await work.stop();
      mail.transport.close();
      await live.close();
      await db.close();
      if (ownMediaDir) await rm(mediaDir, { recursive: true, force: true });
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
