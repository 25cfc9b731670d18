/**
 * The first frame the server painted for a development's public page (server/public/first-paint.ts:
 * `#first-paint`, the page's top bar over the app while its script and data load). The page
 * takes it away in the commit that draws its own — the header in the same place, or what went
 * wrong — so the visitor never sees the loading state in between.
 */
import { useLayoutEffect } from 'react';

/** Removes the server's first paint once `settled` (the page's data or its error is drawn). */
export function useFirstPaintDone(settled: boolean): void {
  useLayoutEffect(() => {
    if (settled) document.getElementById('first-paint')?.remove();
  }, [settled]);
}
