/**
 * The cluster-loading flag (spec §4 "The cluster loading flag clears 100 ms after loading", §9
 * "cluster loading flag 100 ms"): idle → loading while a development's clusters are read →
 * settling once they arrive → idle {@link CLUSTER_LOADING_CLEAR_MS} later. The flag (tag
 * `loading`) stays up while settling, so the grid that has just been drawn is not announced as
 * ready before the prices recomputed from the prototypes have been painted; a new load while
 * settling goes back to loading and the delay starts again once that load ends.
 *
 * The delay is the named `clusterLoadingClear`, so tests run it on XState's simulated clock.
 */

import { setup } from 'xstate';

/** Spec §4 and §9: the cluster-loading flag clears 100 ms after the clusters have loaded. */
export const CLUSTER_LOADING_CLEAR_MS = 100;

export type ClusterLoadingEvent = { type: 'clusters.load' } | { type: 'clusters.loaded' };

export const clusterLoadingMachine = setup({
  types: {
    events: {} as ClusterLoadingEvent,
    tags: '' as 'loading',
  },
  delays: {
    clusterLoadingClear: CLUSTER_LOADING_CLEAR_MS,
  },
}).createMachine({
  id: 'clusterLoading',
  initial: 'idle',
  states: {
    idle: {
      on: { 'clusters.load': 'loading', 'clusters.loaded': 'settling' },
    },
    loading: {
      tags: 'loading',
      on: { 'clusters.loaded': 'settling' },
    },
    settling: {
      tags: 'loading',
      after: { clusterLoadingClear: 'idle' },
      on: { 'clusters.load': 'loading' },
    },
  },
});
