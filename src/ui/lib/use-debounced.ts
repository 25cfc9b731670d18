import { useEffect, useState } from 'react';

/**
 * `value`, once it has stayed the same for `ms`: search-as-you-type sends one request when the
 * user pauses, not one per key.
 */
export function useDebounced<T>(value: T, ms: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
