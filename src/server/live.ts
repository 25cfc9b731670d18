import type { Db } from './store/db';
import { NOTIFY_CHANNEL, type EventStore, type StoredEvent } from './store/event-store';

type Listener = (event: StoredEvent) => void;

/**
 * Committed events as they happen, for the server-sent event stream. With PGlite (one process)
 * it follows the store in process; with PostgreSQL it LISTENs, so every server process behind a
 * load balancer sees every other process's appends.
 */
export class LiveFeed {
  private readonly listeners = new Set<Listener>();
  private stop: (() => Promise<void>) | undefined;

  constructor(
    private readonly db: Db,
    private readonly store: EventStore,
  ) {}

  async start(): Promise<void> {
    if (this.db.kind === 'postgres' && this.db.listen) {
      this.stop = await this.db.listen(NOTIFY_CHANNEL, (payload) => {
        try {
          this.emit(JSON.parse(payload) as StoredEvent);
        } catch {
          // a malformed payload is nobody's event
        }
      });
    } else {
      const off = this.store.onAppended((events) => events.forEach((e) => this.emit(e)));
      this.stop = () => {
        off();
        return Promise.resolve();
      };
    }
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: StoredEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // one subscriber's failure does not stop the others
      }
    }
  }

  async close(): Promise<void> {
    await this.stop?.();
    this.listeners.clear();
  }
}
