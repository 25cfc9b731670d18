import { useRouterState } from '@tanstack/react-router';

/**
 * The clients list's search string as it is in the address (`?q=ana&status=…`, or ''), for the
 * links between the list and a lead: opening a lead, or going back to the list, keeps the
 * list filtered as it was.
 */
export function useListSearch(): string {
  const search = useRouterState({ select: (s) => s.location.searchStr });
  return search && !search.startsWith('?') ? `?${search}` : search;
}
