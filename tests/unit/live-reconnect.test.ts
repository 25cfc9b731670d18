import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Corporate } from '../../src/core/types';
import {
  LIVE_LINGER_MS,
  LIVE_REOPEN_MS,
  onLiveReconnect,
  retainLiveStream,
} from '../../src/ui/lib/live-stream';
import { followLeadChanges, leadKeys } from '../../src/ui/features/leads/api/lead-queries';

/** Just enough of EventSource: the test plays the server and the browser's reconnections. */
class FakeEventSource {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static instances: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;
  private readonly listeners = new Map<string, ((e: MessageEvent<string>) => void)[]>();

  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, listener: (e: MessageEvent<string>) => void) {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  close() {
    this.readyState = FakeEventSource.CLOSED;
  }
  emit(type: string, data = '{}') {
    if (type === 'ready') this.readyState = FakeEventSource.OPEN;
    for (const listener of this.listeners.get(type) ?? []) {
      listener({ data } as MessageEvent<string>);
    }
  }
  /** The connection dropped; the browser will retry (`ready` again) on this same object. */
  drop() {
    this.readyState = FakeEventSource.CONNECTING;
    this.emit('error');
  }
  /** A retry was answered with an error status: the browser gives up on this object. */
  fail() {
    this.readyState = FakeEventSource.CLOSED;
    this.emit('error');
  }
}

const corporate = { id: 'c1' } as Corporate;
const latest = () => FakeEventSource.instances.at(-1)!;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the shared live stream refetches after a reconnection', () => {
  let client: QueryClient;
  let fetches: Map<string, number>;
  const stops: (() => void)[] = [];

  /** An active query (as a mounted page holds one) that counts its fetches. */
  const watch = (queryKey: QueryKey) => {
    const name = JSON.stringify(queryKey);
    fetches.set(name, 0);
    const observer = new QueryObserver(client, {
      queryKey,
      queryFn: () => {
        fetches.set(name, fetches.get(name)! + 1);
        return Promise.resolve(fetches.get(name));
      },
      staleTime: Infinity,
    });
    stops.push(observer.subscribe(() => undefined));
    return () => fetches.get(name);
  };

  beforeEach(() => {
    FakeEventSource.instances = [];
    vi.stubGlobal('EventSource', FakeEventSource);
    client = new QueryClient();
    fetches = new Map();
  });
  afterEach(() => {
    // Released pages keep the stream for LIVE_LINGER_MS: let it close before the next test.
    vi.useFakeTimers();
    for (const stop of stops.splice(0)) stop();
    vi.advanceTimersByTime(LIVE_LINGER_MS);
    client.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('the first ready changes nothing; a ready after a drop refetches the units and every view of the corporate’s leads, not another corporate’s', async () => {
    const units = watch(['api', 'wsObtenerClusters', { idDesarrollo: 'd1' }]);
    const list = watch(leadKeys.list('c1', 'vitrina', { q: 'ana' }));
    const total = watch(leadKeys.total('c1', 'vitrina', { q: 'ana' }));
    const lead = watch(leadKeys.lead('c1', 'l1'));
    const otherCorporate = watch(leadKeys.list('c2', 'vitrina', {}));
    stops.push(retainLiveStream(client), followLeadChanges(corporate));
    await settle();
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(latest().url).toBe('/api/stream');

    latest().emit('ready');
    await settle();
    expect([units(), list(), total(), lead(), otherCorporate()]).toEqual([1, 1, 1, 1, 1]);

    latest().drop();
    latest().emit('ready');
    await settle();
    expect([units(), list(), total(), lead(), otherCorporate()]).toEqual([2, 2, 2, 2, 1]);
  });

  it('a stream the browser gave up on is opened again, and its ready counts as a reconnection', async () => {
    vi.useFakeTimers();
    const list = watch(leadKeys.list('c1', 'vitrina', {}));
    stops.push(retainLiveStream(client), followLeadChanges(corporate));
    await vi.advanceTimersByTimeAsync(0);
    const first = latest();
    first.emit('ready');
    first.fail();
    await vi.advanceTimersByTimeAsync(LIVE_REOPEN_MS - 1);
    expect(FakeEventSource.instances).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeEventSource.instances).toHaveLength(2);
    expect(list()).toBe(1);
    latest().emit('ready');
    await vi.advanceTimersByTimeAsync(0);
    expect(list()).toBe(2);
  });

  it('a navigation between live pages keeps the stream open', async () => {
    vi.useFakeTimers();
    const release = retainLiveStream(client);
    const es = latest();
    es.emit('ready');
    release();
    await vi.advanceTimersByTimeAsync(LIVE_LINGER_MS - 1);
    stops.push(retainLiveStream(client));
    await vi.advanceTimersByTimeAsync(LIVE_LINGER_MS);
    expect(FakeEventSource.instances).toEqual([es]);
    expect(es.readyState).toBe(FakeEventSource.OPEN);
  });

  it('once no page holds the stream it closes, and a listener that stopped hears nothing', async () => {
    const heard: QueryClient[] = [];
    const stopListening = onLiveReconnect((c) => heard.push(c));
    const release = retainLiveStream(client);
    const es = latest();
    es.emit('ready');
    es.drop();
    es.emit('ready');
    expect(heard).toEqual([client]);

    stopListening();
    es.emit('ready');
    expect(heard).toEqual([client]);

    vi.useFakeTimers();
    release();
    expect(es.readyState).toBe(FakeEventSource.OPEN);
    await vi.advanceTimersByTimeAsync(LIVE_LINGER_MS);
    expect(es.readyState).toBe(FakeEventSource.CLOSED);
    vi.useRealTimers();
    // Opened again by the next page: what changed while no page held it was missed, and the
    // cache still holds the old answers, so its ready is a reconnection for this cache…
    const list = watch(leadKeys.list('c1', 'vitrina', {}));
    stops.push(retainLiveStream(client), followLeadChanges(corporate));
    expect(FakeEventSource.instances).toHaveLength(2);
    await settle();
    expect(list()).toBe(1);
    latest().emit('ready');
    await settle();
    expect(list()).toBe(2);
  });

  it('a new query cache (another sign-in) starts fresh: its first ready refetches nothing', async () => {
    const list = watch(leadKeys.list('c1', 'vitrina', {}));
    stops.push(retainLiveStream(client), followLeadChanges(corporate));
    await settle();
    latest().emit('ready');
    await settle();
    expect(list()).toBe(1);
  });
});
