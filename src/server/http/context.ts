import type { Context } from 'hono';
import type { Corporate, Role, User } from '../../core/types';
import type { SessionStore, LoginThrottle } from '../auth/sessions';
import { rolesById, type AuthCache, type CachedCorporate } from '../auth/auth-cache';
import type { Revisions } from '../auth/revisions';
import type { BackgroundWork } from '../store/background-work';
import type { Db } from '../store/db';
import type { EventStore } from '../store/event-store';
import type { LiveFeed } from '../live/feed';
import type { ShareKeyring } from '../quotations/share-keys';
import type { PushService } from '../notifications/push';
import type { MailService } from '../mail/outbox';
import type { AuthProviderOptions } from '../auth/firebase';
import type { ChatOptions } from '../chat/webhook';
import type { CrmService } from '../crm/connections';
import { ApiError, forbidden, unauthenticated } from './errors';
import type { RequestGauge } from './in-flight';

export interface AppDeps {
  db: Db;
  store: EventStore;
  live: LiveFeed;
  /** Consumers, timers and the outbox of this process; `work.status()` for health/operations. */
  work: BackgroundWork;
  clock: () => Date;
  newId: () => string;
  sessions: SessionStore;
  /**
   * Sessions, users and corporates in memory, invalidated by the live feed (auth/auth-cache.ts);
   * absent: every request reads them from the database.
   */
  authCache?: AuthCache;
  throttle: LoginThrottle;
  /** The deployment's keys for signed links (share tokens): quotations/share-keys.ts. */
  shareKeys: ShareKeyring;
  /** Web push: the deployment's VAPID public key and the endpoint allow-list (notifications/push.ts). */
  push?: PushService;
  /** E-mail (issue 16): the transport and the public base URL of links (mail/service.ts). */
  mail?: MailService;
  /** The chat assistant's deployment settings (chat/webhook.ts; default: the environment). */
  chat?: ChatOptions;
  /** CRM sync (issue 17): the deployment's key, the http rules, the public base URL (crm/connections.ts). */
  crm?: CrmService;
  /** The sign-in provider (issue 22): `builtin` or `firebase` (auth/firebase.ts; default: the environment). */
  auth?: AuthProviderOptions;
  /** Where uploaded media files live (catalogue/uploads.ts): `<data dir>/media` by default. */
  mediaDir?: string;
  /**
   * How many reverse proxies stand in front (`TRUST_PROXY`; 0 or absent: none): only then are
   * X-Forwarded-For and X-Forwarded-Proto believed (http/proxy.ts).
   */
  trustProxy?: number;
  /** The requests being answered now (http/in-flight.ts); absent: the app counts its own. */
  requests?: RequestGauge;
}

export type Env = {
  Variables: {
    deps: AppDeps;
    /** The requests being answered now (http/in-flight.ts). */
    requests: RequestGauge;
    userId: string | null;
    sessionToken: string | undefined;
    /**
     * The revisions read for this request before its handler (PostgreSQL with the auth cache:
     * auth/revisions.ts), which its catalogue reads use instead of reading them again.
     */
    revisions: Revisions | undefined;
    /**
     * The handler's answer carries every header the middlewares would add (catalogue/ready-json.ts:
     * the security headers, Cache-Control, the charset, and an encoding it chose itself with its
     * Vary): the security, API and compression middlewares leave it as it is without reading its
     * headers.
     */
    headersComplete: boolean | undefined;
  };
};

export type Ctx = Context<Env>;

export async function findUser(db: Db, id: string): Promise<User | null> {
  const { rows } = await db.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [id]);
  return rows[0]?.doc ?? null;
}

/** The signed-in user, or a 401 in the spec's shape. */
export async function requireUser(c: Ctx): Promise<User> {
  const id = c.get('userId');
  if (!id) throw unauthenticated();
  const deps = c.get('deps');
  const user = deps.authCache
    ? await deps.authCache.user(id, () => findUser(deps.db, id))
    : await findUser(deps.db, id);
  // A deactivated user's sessions are ended; one still in flight is refused all the same.
  if (!user || user.info?.estatus === 'inactivo') throw unauthenticated();
  return user;
}

export interface Membership {
  user: User;
  corporate: Corporate;
  role: Role;
}

export async function findCorporate(
  db: Db,
  by: { id?: string; slug?: string },
): Promise<Corporate | null> {
  const { rows } = by.id
    ? await db.query<{ doc: Corporate }>('SELECT doc FROM rm_corporates WHERE id = $1', [by.id])
    : await db.query<{ doc: Corporate }>('SELECT doc FROM rm_corporates WHERE slug = $1', [
        by.slug,
      ]);
  return rows[0]?.doc ?? null;
}

/** The corporate with its roles by id: from the cache when the deployment has one. */
async function corporateFor(
  deps: AppDeps,
  by: { id?: string; slug?: string },
): Promise<CachedCorporate | null> {
  if (deps.authCache) return deps.authCache.corporate(by, () => findCorporate(deps.db, by));
  const corporate = await findCorporate(deps.db, by);
  return corporate ? { corporate, roles: rolesById(corporate) } : null;
}

/**
 * A corporate by id or slug for a read that needs no session (public pages and their first
 * paint): from the same cache as the members' requests, so a visitor's page costs no corporate
 * read on a hit; a change to the corporate drops it in every process (auth-cache.ts). Frozen.
 */
export async function cachedCorporate(
  deps: AppDeps,
  by: { id?: string; slug?: string },
): Promise<Corporate | null> {
  return (await corporateFor(deps, by))?.corporate ?? null;
}

/**
 * The tenant comes from the session's membership, never from the request alone: a user who is not
 * an approved member of the corporate gets 403, whether or not the corporate exists.
 */
export async function requireMember(
  c: Ctx,
  by: { id?: string; slug?: string },
): Promise<Membership> {
  const user = await requireUser(c);
  const found = await corporateFor(c.get('deps'), by);
  if (!found) {
    if (by.slug) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    throw forbidden('forbidden_corporate');
  }
  const { corporate } = found;
  if (!user.corporativos.includes(corporate.id)) throw forbidden('forbidden_corporate');
  const roleId = user.roles[corporate.id];
  const role = roleId === undefined ? undefined : found.roles.get(roleId);
  if (!role) throw forbidden('forbidden_corporate');
  return { user, corporate, role };
}
