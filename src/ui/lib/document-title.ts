/**
 * The document's title and meta description, set by a page while it is shown (no router: the
 * light sign-in page uses them too). page-title.ts names each route's page.
 */

import { useEffect } from 'react';

export const PRODUCT_NAME = 'Vitrina';

/** The title from its parts; empty parts are left out. */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((p): p is string => Boolean(p?.trim())), PRODUCT_NAME].join(' – ');
}

/** Sets the document title to `parts` and the product (a page whose heading names the page). */
export function useDocumentTitle(...parts: (string | null | undefined)[]): void {
  const title = documentTitle(parts);
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/**
 * Sets the page's meta description (public pages: what a search result shows) while the page is
 * shown; the document's own (index.html) comes back when it goes.
 */
export function usePageDescription(description: string | null | undefined): void {
  useEffect(() => {
    if (!description) return;
    let meta = document.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !meta;
    if (!meta) {
      meta = document.createElement('meta');
      meta.name = 'description';
      document.head.append(meta);
    }
    const previous = meta.content;
    meta.content = description;
    return () => {
      if (created) meta.remove();
      else meta.content = previous;
    };
  }, [description]);
}
