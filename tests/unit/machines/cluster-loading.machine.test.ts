import { describe, expect, it } from 'vitest';
import { SimulatedClock, createActor } from 'xstate';
import {
  CLUSTER_LOADING_CLEAR_MS,
  clusterLoadingMachine,
} from '../../../src/machines/cluster-loading.machine';

function start() {
  const clock = new SimulatedClock();
  const actor = createActor(clusterLoadingMachine, { clock });
  actor.start();
  const loading = () => actor.getSnapshot().hasTag('loading');
  return { clock, actor, loading };
}

describe('cluster loading flag (spec §4, §9: "The cluster loading flag clears 100 ms after loading")', () => {
  it('the named delay is the spec’s 100 ms', () => {
    expect(CLUSTER_LOADING_CLEAR_MS).toBe(100);
    expect(clusterLoadingMachine.implementations.delays.clusterLoadingClear).toBe(100);
  });

  it('is up while loading and for 100 ms after the clusters loaded, then clears', () => {
    const { clock, actor, loading } = start();
    expect(loading()).toBe(false);
    actor.send({ type: 'clusters.load' });
    expect(loading()).toBe(true);
    clock.increment(5_000); // a slow read: no timer runs while loading
    expect(loading()).toBe(true);
    actor.send({ type: 'clusters.loaded' });
    clock.increment(99);
    expect(loading()).toBe(true);
    clock.increment(1);
    expect(loading()).toBe(false);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('a new load while settling waits for its own end, and the 100 ms start again', () => {
    const { clock, actor, loading } = start();
    actor.send({ type: 'clusters.load' });
    actor.send({ type: 'clusters.loaded' });
    clock.increment(60);
    actor.send({ type: 'clusters.load' });
    clock.increment(60);
    expect(loading()).toBe(true);
    actor.send({ type: 'clusters.loaded' });
    clock.increment(99);
    expect(loading()).toBe(true);
    clock.increment(1);
    expect(loading()).toBe(false);
  });

  it('clusters already in the cache (loaded without a load) still raise the flag for 100 ms', () => {
    const { clock, actor, loading } = start();
    actor.send({ type: 'clusters.loaded' });
    expect(loading()).toBe(true);
    clock.increment(CLUSTER_LOADING_CLEAR_MS);
    expect(loading()).toBe(false);
  });
});
