import { useState } from 'react';

/**
 * A choice kept in the address (search params) that answers the click at once. The address
 * updates only after the navigation commits; until then a controlled radio or checkbox would
 * show its old state (under load, long enough for a second click to undo the first). The pick
 * is shown while the address still holds the value it was made over (compared by `key`), and
 * the address wins again as soon as it moves: the navigation landed, or back/forward.
 */
export function useAddressChoice<T>(
  address: T,
  key: (value: T) => string,
): [value: T, pick: (next: T) => void] {
  const [pick, setPick] = useState<{ value: T; over: string } | null>(null);
  const value = pick && pick.over === key(address) ? pick.value : address;
  return [value, (next) => setPick({ value: next, over: key(address) })];
}
