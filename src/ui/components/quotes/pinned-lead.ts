/**
 * The pinned lead (spec §3 local storage: `lead-id`), read by the quotation page to save a
 * quotation to it by default. A stop-gap until the leads UI's `usePinnedLead()` lands in
 * `src/ui/lib/pinned-lead.ts`; it reads the same key, so both stay in step.
 */

import { useSyncExternalStore } from 'react';

export const PINNED_LEAD_KEY = 'lead-id';

function read(): string | null {
  try {
    const value = localStorage.getItem(PINNED_LEAD_KEY);
    return value && value.length <= 64 ? value : null;
  } catch {
    return null;
  }
}

function subscribe(listener: () => void) {
  const onStorage = (e: StorageEvent) => {
    if (e.key === PINNED_LEAD_KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** The id of the pinned lead on this device, or null. */
export function usePinnedLeadId(): string | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
