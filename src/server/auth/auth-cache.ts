import type { Corporate, Role, User } from '../../core/types';
import type { Queryable } from '../store/db';
import type { StoredEvent } from '../store/event-store';
import { revisionReader, type Revisions } from './revisions';

/**
 * Sessions, users and corporates (with their roles) held in memory, so an authenticated request
 * costs no query before its handler (issue 21). Every process keeps its own copy and drops an
 * entry when an event that may change it is delivered by the live feed (its own commits at
 * once, other processes' through LISTEN/NOTIFY); when the feed's listener reconnects, events may
 * have been missed, and the whole cache goes.
 *
 * - a `user:<id>` event (profile, membership, role, password, deactivation: every one of them
 *   is on the user's stream) drops the user and every cached session of theirs;
 * - a `session:<userId>` event ({@link SESSION_ENDED}, a sign-out) drops the user's sessions;
 * - a `corporate:<id>` event (settings, roles, showrooms) drops the corporate;
 * - a sign-out in this process drops its session at once, before the database is told.
 *
 * Bounded: each map is an LRU of at most its size, so unknown tokens (kept as misses, to spare
 * the database a client that repeats a stale cookie) cannot grow memory without bound. Each
 * entry also lives at most `ttlMs` (a safety net for a change no event announces, e.g. a row
 * written by hand), and a session's own expiry is checked on every use with the injected clock.
 */

/** What a sign-out appends, on the stream `session:<userId>` (sessions.ts). */
export const SESSION_ENDED = 'SessionEnded';
export const sessionStream = (userId: string) => `session:${userId}`;

export interface AuthCacheOptions {
  /** Sessions kept (default 20,000). */
  maxSessions?: number;
  /** Unknown or refused tokens remembered as such (default 5,000). */
  maxMisses?: number;
  /** Users kept (default 10,000). */
  maxUsers?: number;
  /** Corporates kept (default 1,000). */
  maxCorporates?: number;
  /** The longest an entry is believed without asking the database again (default 60 s). */
  ttlMs?: number;
}

/** A corporate as requests use it: the document (frozen) and its roles by id. */
export interface CachedCorporate {
  corporate: Corporate;
  roles: ReadonlyMap<string, Role>;
}

export interface SessionRecord {
  userId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

interface Entry<V> {
  value: V;
  /** When it was read (the injected clock, epoch ms). */
  at: number;
}

/** A Map kept in use order: a read moves the key to the end, a write past `max` drops the oldest. */
class Lru<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.max) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }

  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}

/** A corporate's roles by id (the first of a repeated id, as `roles.find` would answer). */
export function rolesById(corporate: Corporate): ReadonlyMap<string, Role> {
  const roles = new Map<string, Role>();
  for (const role of corporate.roles) if (!roles.has(role.id)) roles.set(role.id, role);
  return roles;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export interface AuthCacheStats {
  hits: number;
  misses: number;
  sessions: number;
  /** Tokens remembered as unknown or ended. */
  missing: number;
  users: number;
  corporates: number;
  /** Times the whole cache was dropped (the feed asked to resync). */
  clears: number;
}

export class AuthCache {
  private readonly sessions: Lru<string, Entry<SessionRecord>>;
  private readonly missing: Lru<string, number>;
  private readonly users: Lru<string, Entry<User>>;
  private readonly corporates: Lru<string, Entry<CachedCorporate>>;
  private readonly slugs: Lru<string, string>;
  private readonly ttlMs: number;
  /**
   * Bumped by every invalidation: a read that started before one does not store what it read,
   * since it may predate the change (a read of the database racing an event).
   */
  private epoch = 0;
  private hits = 0;
  private misses = 0;
  private clears = 0;

  constructor(
    private readonly clock: () => Date,
    options: AuthCacheOptions = {},
  ) {
    this.sessions = new Lru(options.maxSessions ?? 20_000);
    this.missing = new Lru(options.maxMisses ?? 5_000);
    this.users = new Lru(options.maxUsers ?? 10_000);
    const maxCorporates = options.maxCorporates ?? 1_000;
    this.corporates = new Lru(maxCorporates);
    this.slugs = new Lru(maxCorporates);
    this.ttlMs = options.ttlMs ?? 60_000;
  }

  /** Follows a live feed (live/feed.ts): answers the unsubscribe. */
  follow(feed: {
    subscribe(listener: (event: StoredEvent) => void, onResync?: () => void): () => void;
  }): () => void {
    return feed.subscribe(
      (event) => this.apply(event),
      () => this.clear(),
    );
  }

  /** The user id of a live session (by its token's hash), or null. */
  async session(hash: string, load: () => Promise<SessionRecord | null>): Promise<string | null> {
    const now = this.clock().getTime();
    const hit = this.fresh(this.sessions, hash, now);
    if (hit) {
      if (hit.expiresAt > now) return hit.userId;
      this.sessions.delete(hash);
      return null;
    }
    const missedAt = this.missing.get(hash);
    if (missedAt !== undefined && now - missedAt < this.ttlMs) {
      this.hits += 1;
      return null;
    }
    this.misses += 1;
    const epoch = this.epoch;
    const record = await load();
    const live = record !== null && record.expiresAt > now;
    if (epoch === this.epoch) {
      if (live) this.sessions.set(hash, { value: record, at: now });
      else this.missing.set(hash, now);
    }
    return live ? record.userId : null;
  }

  async user(id: string, load: () => Promise<User | null>): Promise<User | null> {
    const now = this.clock().getTime();
    const hit = this.fresh(this.users, id, now);
    if (hit) return hit;
    this.misses += 1;
    const epoch = this.epoch;
    const user = await load();
    if (!user) return null;
    deepFreeze(user);
    if (epoch === this.epoch) this.users.set(id, { value: user, at: now });
    return user;
  }

  async corporate(
    by: { id?: string; slug?: string },
    load: () => Promise<Corporate | null>,
  ): Promise<CachedCorporate | null> {
    const now = this.clock().getTime();
    const id = by.id ?? (by.slug !== undefined ? this.slugs.get(by.slug) : undefined);
    if (id !== undefined) {
      const hit = this.fresh(this.corporates, id, now);
      if (hit && (by.slug === undefined || hit.corporate.slug === by.slug)) return hit;
    }
    this.misses += 1;
    const epoch = this.epoch;
    const corporate = await load();
    if (!corporate) return null;
    deepFreeze(corporate);
    const cached: CachedCorporate = {
      corporate,
      roles: rolesById(corporate),
    };
    if (epoch === this.epoch) {
      this.corporates.set(corporate.id, { value: cached, at: now });
      this.slugs.set(corporate.slug, corporate.id);
    }
    return cached;
  }

  /** A sign-out in this process: the session is refused from now on, whatever the database says. */
  forgetSession(hash: string): void {
    this.epoch += 1;
    this.sessions.delete(hash);
  }

  /** Drops what `event` may have changed. */
  apply(event: StoredEvent): void {
    const colon = event.streamId.indexOf(':');
    const kind = colon < 0 ? event.streamId : event.streamId.slice(0, colon);
    const rest = event.streamId.slice(colon + 1);
    if (kind === 'user') {
      this.epoch += 1;
      this.users.delete(rest);
      this.forgetSessionsOf(rest);
    } else if (kind === 'session') {
      this.epoch += 1;
      this.forgetSessionsOf(rest);
    } else if (kind === 'corporate') {
      this.epoch += 1;
      this.corporates.delete(rest);
    }
    // Belt and braces: a corporate's settings named by the envelope, a user named by the data.
    if (event.type.startsWith('Corporate') && event.corporateId) {
      this.epoch += 1;
      this.corporates.delete(event.corporateId);
    }
    const named = (event.data as { idUsuario?: unknown } | null)?.idUsuario;
    if (typeof named === 'string' && event.type.startsWith('Membership')) {
      this.epoch += 1;
      this.users.delete(named);
    }
  }

  /** The database's `auth_revision` this cache's entries were read under (PostgreSQL only). */
  private revision: bigint | null = null;

  /**
   * Checks the database's authentication revision (migration 028: every statement that changes
   * a user, a corporate or ends a session bumps it in its transaction) and drops everything when
   * it moved. The feed's notification of another process's commit may arrive after the next
   * request; this read does not, so a change applies on the next request in every process. The
   * read is shared with the requests that arrive while it is pending and carries the catalogue
   * revisions too (auth/revisions.ts); answers what it read, for the request's catalogue reads.
   */
  async checkRevision(db: Queryable): Promise<Revisions> {
    const revisions = await revisionReader(db).read();
    this.applyRevision(revisions.auth);
    return revisions;
  }

  private applyRevision(n: bigint | null): void {
    if (n === null) return;
    // Equal: nothing changed. Lower: a request that read before a newer one (never go back).
    if (this.revision !== null && n <= this.revision) return;
    if (this.revision !== null) this.clear();
    this.revision = n;
  }

  /** Drops everything (the feed may have missed events). */
  clear(): void {
    this.epoch += 1;
    this.clears += 1;
    this.sessions.clear();
    this.missing.clear();
    this.users.clear();
    this.corporates.clear();
    this.slugs.clear();
  }

  stats(): AuthCacheStats {
    return {
      hits: this.hits,
      misses: this.misses,
      sessions: this.sessions.size,
      missing: this.missing.size,
      users: this.users.size,
      corporates: this.corporates.size,
      clears: this.clears,
    };
  }

  private forgetSessionsOf(userId: string): void {
    for (const [hash, entry] of this.sessions.entries()) {
      if (entry.value.userId === userId) this.sessions.delete(hash);
    }
  }

  private fresh<V>(map: Lru<string, Entry<V>>, key: string, now: number): V | undefined {
    const entry = map.get(key);
    if (!entry) return undefined;
    // A clock that went back (tests) or an entry past its safety TTL is read again.
    if (now - entry.at >= this.ttlMs || now < entry.at) {
      map.delete(key);
      return undefined;
    }
    this.hits += 1;
    return entry.value;
  }
}
