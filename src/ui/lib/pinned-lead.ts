/**
 * The pinned lead (spec §3 local storage: "a pinned lead id under lead-id"): the lead an adviser
 * is working with, picked on the clients page and picked up by other pages (the quotation page
 * preselects it, appointments too).
 *
 * ```tsx
 * const { leadId, pin, unpin } = usePinnedLead();
 * ```
 *
 * Every hook in the page (and other tabs, through the `storage` event) sees a change at once. A
 * logout removes the key (it is one of `SESSION_STORAGE_KEYS`) and the cleanup registered below
 * tells the hooks.
 */

import { useCallback, useSyncExternalStore } from 'react';
import { registerSessionCleanup } from './session-cleanup';

export const PINNED_LEAD_KEY = 'lead-id';

const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return localStorage.getItem(PINNED_LEAD_KEY) || null;
  } catch {
    return null;
  }
}

function emit() {
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (e: StorageEvent) => {
    if (e.key === PINNED_LEAD_KEY || e.key === null) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Pins a lead (replacing any pinned one). */
export function pinLead(leadId: string) {
  try {
    localStorage.setItem(PINNED_LEAD_KEY, leadId);
  } catch {
    // Storage unavailable: nothing is remembered.
  }
  emit();
}

/** Removes the pinned lead. */
export function unpinLead() {
  try {
    localStorage.removeItem(PINNED_LEAD_KEY);
  } catch {
    // Nothing stored.
  }
  emit();
}

/**
 * Forgets the pinned lead when it is `leadId`: the lead was deleted, or answered 404 or 403
 * (deleted or moved out of the user's scope elsewhere), so pages stop asking for it (issue 19,
 * defect 7: every quotation and client page logged a 404 for a deleted pinned client).
 */
export function forgetPinnedLead(leadId: string) {
  if (read() === leadId) unpinLead();
}

/** The pinned lead's id (null when none), and the actions to change it. */
export function usePinnedLead(): {
  leadId: string | null;
  pin: (leadId: string) => void;
  unpin: () => void;
} {
  const leadId = useSyncExternalStore(subscribe, read, () => null);
  return { leadId, pin: useCallback(pinLead, []), unpin: useCallback(unpinLead, []) };
}

// Logout removes the key itself; the hooks still showing it must hear about it.
registerSessionCleanup('pinned-lead', () => queueMicrotask(emit));
