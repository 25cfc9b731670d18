import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestGauge } from '../../src/server/http/in-flight';

/** A request the test ends by hand. */
function held(gauge: RequestGauge) {
  let end!: () => void;
  const done = gauge.during(() => new Promise<void>((resolve) => (end = resolve)));
  return { end: async () => (end(), await done) };
}

describe('RequestGauge.whenQuiet: the embedded server starts its background work in a quiet moment', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const gauge = () => new RequestGauge(() => Date.now());

  it('waits the quiet time even when nothing is being answered', async () => {
    const g = gauge();
    let started = false;
    void g.whenQuiet(100, 1_000).then(() => (started = true));
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(true);
  });

  it('not while a request is answered, and the quiet time counts from its end', async () => {
    const g = gauge();
    let started = false;
    void g.whenQuiet(100, 1_000).then(() => (started = true));
    await vi.advanceTimersByTimeAsync(50);
    const request = held(g);
    await vi.advanceTimersByTimeAsync(200);
    expect(started).toBe(false);
    await request.end();
    await vi.advanceTimersByTimeAsync(99);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(true);
  });

  it('at the latest time however busy', async () => {
    const g = gauge();
    let started = false;
    void g.whenQuiet(100, 1_000).then(() => (started = true));
    const request = held(g);
    await vi.advanceTimersByTimeAsync(999);
    expect(started).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(true);
    await request.end();
  });

  it('requests one after another with short gaps keep it waiting', async () => {
    const g = gauge();
    let started = false;
    void g.whenQuiet(100, 1_000).then(() => (started = true));
    for (let i = 0; i < 5; i++) {
      const request = held(g);
      await vi.advanceTimersByTimeAsync(20);
      await request.end();
      await vi.advanceTimersByTimeAsync(60);
    }
    // 400 ms in, the last request ended 60 ms ago.
    expect(started).toBe(false);
    expect(g.busy()).toBe(false);
    await vi.advanceTimersByTimeAsync(40);
    expect(started).toBe(true);
  });
});
