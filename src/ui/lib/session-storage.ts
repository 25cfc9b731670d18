/**
 * The session's keys in local storage (spec §4), apart from session-cleanup.ts (which also
 * empties the query cache) so the light sign-in page clears them without loading the query
 * layer. The pinned lead is under `lead-id`; the check-in and comparator features use the
 * others; a feature adding a key adds it here.
 */

export const SESSION_STORAGE_KEYS = [
  'lead-id',
  'vitrina:leads',
  'vitrina:checkin',
  'vitrina:comparador',
] as const;

/** The non-secret marker that a session existed on this device (the session itself is an httpOnly cookie). */
export const AUTH_ITEM_KEY = 'vitrina:auth';

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export function storeAuthItem(userId: string) {
  storage()?.setItem(AUTH_ITEM_KEY, JSON.stringify({ uid: userId }));
}

export function removeAuthItem() {
  storage()?.removeItem(AUTH_ITEM_KEY);
}

/** Removes the session's keys (display settings and the language are the device's and stay). */
export function removeSessionKeys() {
  const store = storage();
  for (const key of SESSION_STORAGE_KEYS) store?.removeItem(key);
}
