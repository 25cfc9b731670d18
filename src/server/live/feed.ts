import { ApiError } from '../http/errors';
import type { Db, Listening } from '../store/db';
import {
  NOTIFY_CHANNEL,
  type CommitAnnouncement,
  type EventStore,
  type StoredEvent,
} from '../store/event-store';

/** Whether this process hears other processes' commits: PostgreSQL only. */
export type ListenerState = 'connected' | 'reconnecting' | 'not-applicable';

export interface LiveStatus {
  listener: ListenerState;
  /** When the listener entered its state (ISO). */
  since: string;
  /** Times the listener connection was re-established after a loss. */
  reconnects: number;
  /** The listening connection's backend pid while connected (for operators; not in /api/health). */
  listenerPid: number | null;
  lastError: string | null;
  /** Server-sent event streams open in this process. */
  openStreams: number;
}

export interface LiveFeedOptions {
  /** Open streams per signed-in user (default 10). */
  maxStreamsPerUser?: number;
  /** Open anonymous (public) streams per client address (default 50). */
  maxStreamsPerAddress?: number;
  /** Reconnection delays of the listener: doubling from `initialMs` up to `maxMs`, jittered. */
  backoff?: { initialMs: number; maxMs: number };
  log?: Pick<Console, 'info' | 'warn'>;
}

type EventListener = (event: StoredEvent) => void;

interface Subscriber {
  event: EventListener;
  resync: (() => void) | undefined;
  end: (() => void) | undefined;
}

/** Transaction ids remembered as delivered, so a commit heard twice is delivered once. */
const DELIVERED_MEMORY = 10_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Committed events as they happen, for the server-sent event streams.
 *
 * A process delivers its own commits at once, from the store (whatever the state of any
 * connection). With PostgreSQL it also LISTENs: every commit announces its transaction id (not
 * its events, so size and count do not matter) and each process reads that transaction's events
 * from the log. When the listening connection is lost the feed says so in the log and in
 * {@link status}, reconnects with exponential backoff, LISTENs again and asks every subscriber
 * to resync, since other processes' commits in between were not heard.
 */
export class LiveFeed {
  private readonly subscribers = new Set<Subscriber>();
  private readonly delivered = new Map<string, true>();
  private readonly perUser = new Map<string, number>();
  private readonly perAddress = new Map<string, number>();
  private readonly maxPerUser: number;
  private readonly maxPerAddress: number;
  private readonly backoff: { initialMs: number; maxMs: number };
  private readonly log: Pick<Console, 'info' | 'warn'>;
  private openStreams = 0;
  private state: ListenerState = 'not-applicable';
  private since = new Date();
  private reconnects = 0;
  private lastError: string | null = null;
  private attempt = 0;
  private connectedOnce = false;
  /** A connection was lost or could not be made: the next one counts as a reconnection. */
  private recovering = false;
  private closed = false;
  private listening: Listening | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private offAppended: (() => void) | undefined;
  /** Announced commits are read and delivered one after another, in the order heard. */
  private reading: Promise<void> = Promise.resolve();
  /** Announced commits heard but not yet delivered. */
  private unread = 0;

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
    options: LiveFeedOptions = {},
  ) {
    this.maxPerUser = options.maxStreamsPerUser ?? 10;
    this.maxPerAddress = options.maxStreamsPerAddress ?? 50;
    this.backoff = options.backoff ?? { initialMs: 100, maxMs: 10_000 };
    this.log = options.log ?? console;
  }

  async start(): Promise<void> {
    const off = this.store.onAppended((events, commit) =>
      this.deliver(commit.transactionId, events),
    );
    this.offAppended = () => void off();
    if (this.db.kind !== 'postgres' || !this.db.listen) return;
    this.setState('reconnecting');
    try {
      await this.connect();
    } catch (error) {
      // The server starts anyway: its own writes are delivered, and the listener keeps trying.
      this.lost(error);
    }
  }

  /**
   * Hears every committed event; `onResync` is called when events may have been missed (the
   * listener reconnected), so the subscriber's clients should read everything again.
   */
  subscribe(listener: EventListener, onResync?: () => void, onEnd?: () => void): () => void {
    const subscriber: Subscriber = { event: listener, resync: onResync, end: onEnd };
    this.subscribers.add(subscriber);
    return () => this.subscribers.delete(subscriber);
  }

  /**
   * Asks every subscriber to end (`onEnd`): the process is shutting down, and a live stream,
   * which never finishes by itself, would hold the server open. Its client connects again, to
   * this server once restarted or to another process.
   */
  endStreams(): void {
    for (const subscriber of [...this.subscribers]) {
      try {
        subscriber.end?.();
      } catch {
        // one subscriber's failure does not stop the others
      }
    }
  }

  /**
   * Resolves once every commit heard from other processes so far is delivered; undefined when
   * none is waiting (the usual case: nothing to await). The in-memory caches (auth/auth-cache.ts)
   * wait on it so a request that follows another process's change sees it.
   */
  caughtUp(): Promise<void> | undefined {
    return this.unread > 0 ? this.reading : undefined;
  }

  /**
   * Takes a place for one open stream: a signed-in user may hold {@link LiveFeedOptions.maxStreamsPerUser},
   * an anonymous client address {@link LiveFeedOptions.maxStreamsPerAddress}. Answers the
   * function that gives the place back (idempotent); throws a 429 in the spec's shape when full.
   * Signed-in streams are bounded by their user, not their address: a showroom's advisers share
   * one public address.
   */
  admitStream(who: { userId: string | null; address: string }): () => void {
    const [counts, key, max] = who.userId
      ? [this.perUser, who.userId, this.maxPerUser]
      : [this.perAddress, who.address, this.maxPerAddress];
    const open = counts.get(key) ?? 0;
    if (open >= max) throw new ApiError(429, 'TOO_MANY_STREAMS', 'too_many_streams', { max });
    counts.set(key, open + 1);
    this.openStreams += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.openStreams -= 1;
      const left = (counts.get(key) ?? 1) - 1;
      if (left <= 0) counts.delete(key);
      else counts.set(key, left);
    };
  }

  status(): LiveStatus {
    return {
      listener: this.state,
      since: this.since.toISOString(),
      reconnects: this.reconnects,
      listenerPid: this.listening?.pid ?? null,
      lastError: this.lastError,
      openStreams: this.openStreams,
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.offAppended?.();
    await this.listening?.close();
    this.listening = undefined;
    this.subscribers.clear();
  }

  private setState(state: ListenerState) {
    if (this.state === state) return;
    this.state = state;
    this.since = new Date();
  }

  private async connect(): Promise<void> {
    const listening = await this.db.listen!(NOTIFY_CHANNEL, {
      notify: (payload) => this.announced(payload),
      lost: (error) => this.lost(error),
    });
    if (this.closed) {
      await listening.close();
      return;
    }
    this.listening = listening;
    this.attempt = 0;
    this.connectedOnce = true;
    this.setState('connected');
    if (this.recovering) {
      this.recovering = false;
      this.reconnects += 1;
      this.log.info('[vitrina] live: listening again; connected streams resync');
      this.resyncAll();
    }
  }

  private lost(error: unknown) {
    this.listening = undefined;
    if (this.closed) return;
    this.lastError = error instanceof Error ? error.message : String(error);
    if (!this.recovering) {
      this.log.warn(
        `[vitrina] live: ${this.connectedOnce ? 'the LISTEN connection was lost' : 'could not LISTEN'} (${this.lastError}); reconnecting. This process's own changes are still delivered.`,
      );
    } else if (this.attempt % 10 === 0) {
      this.log.warn(
        `[vitrina] live: still reconnecting after ${this.attempt} attempts (${this.lastError})`,
      );
    }
    this.recovering = true;
    this.setState('reconnecting');
    const ceiling = Math.min(this.backoff.maxMs, this.backoff.initialMs * 2 ** this.attempt);
    this.attempt += 1;
    const delay = ceiling / 2 + Math.random() * (ceiling / 2);
    clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      this.connect().catch((e: unknown) => this.lost(e));
    }, delay);
    this.retry.unref?.();
  }

  private announced(payload: string) {
    let announcement: CommitAnnouncement;
    try {
      announcement = JSON.parse(payload) as CommitAnnouncement;
    } catch {
      return;
    }
    const id = announcement.transactionId;
    if (typeof id !== 'string' || !/^\d+$/.test(id) || this.delivered.has(id)) return;
    this.unread += 1;
    this.reading = this.reading
      .then(() => this.readAnnounced(announcement))
      .finally(() => {
        this.unread -= 1;
      });
  }

  private async readAnnounced(announcement: CommitAnnouncement): Promise<void> {
    const id = announcement.transactionId;
    if (this.delivered.has(id)) return;
    try {
      let events = await this.store.readTransaction(id);
      // Heard after its commit, so it is readable; should a read still come up short, retry.
      for (let i = 0; events.length < announcement.events && i < 5; i++) {
        await sleep(20 * 2 ** i);
        events = await this.store.readTransaction(id);
      }
      this.deliver(id, events);
    } catch (error) {
      this.log.warn(
        `[vitrina] live: could not read announced transaction ${id} (${error instanceof Error ? error.message : String(error)}); connected streams resync`,
      );
      this.resyncAll();
    }
  }

  private deliver(transactionId: string, events: readonly StoredEvent[]) {
    if (this.delivered.has(transactionId)) return;
    this.delivered.set(transactionId, true);
    if (this.delivered.size > DELIVERED_MEMORY) {
      this.delivered.delete(this.delivered.keys().next().value!);
    }
    for (const event of events) {
      for (const subscriber of this.subscribers) {
        try {
          subscriber.event(event);
        } catch {
          // one subscriber's failure does not stop the others
        }
      }
    }
  }

  private resyncAll() {
    for (const subscriber of this.subscribers) {
      try {
        subscriber.resync?.();
      } catch {
        // as above
      }
    }
  }
}
