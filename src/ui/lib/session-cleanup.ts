/**
 * What a logout clears besides the user (spec §4): leads, check-in and comparator state, and
 * every cached query. A feature that keeps state of its own registers a cleanup once, at module
 * load, and the logout runs it:
 *
 * ```ts
 * registerSessionCleanup('comparator', () => comparatorStore.reset());
 * ```
 *
 * The local-storage keys (session-storage.ts) are the ones the spec names (the pinned lead
 * under `lead-id`) and those the check-in and comparator features use; a feature adding a key
 * adds it there or registers a cleanup. Display settings (area unit, currency) and the language are preferences
 * of the device, not of the session, and stay.
 */

import { queryClient } from './api';
import { removeSessionKeys } from './session-storage';

export {
  AUTH_ITEM_KEY,
  SESSION_STORAGE_KEYS,
  removeAuthItem,
  storeAuthItem,
} from './session-storage';

const cleanups = new Map<string, () => void>();

/** Registers (or replaces) the cleanup of a feature; returns the unregister. */
export function registerSessionCleanup(name: string, cleanup: () => void): () => void {
  cleanups.set(name, cleanup);
  return () => {
    if (cleanups.get(name) === cleanup) cleanups.delete(name);
  };
}

/** Runs every registered cleanup, removes the session's local-storage keys and empties the query cache. */
export function clearSessionState() {
  for (const [name, cleanup] of cleanups) {
    try {
      cleanup();
    } catch (error) {
      console.error(`[vitrina] session cleanup "${name}" failed`, error);
    }
  }
  removeSessionKeys();
  queryClient.clear();
}
