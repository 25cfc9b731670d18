/**
 * Each route's own document title (issue 19: every page was titled "Vitrina"): the page's name
 * from the path (core `pageOf`), then the names the page knows (development, corporate, unit),
 * then the product, e.g. "Disponibilidad – Torre Alameda – Grupo Horizonte – Vitrina".
 */

import { useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { pageOf } from '../../core/navigation';

export const PRODUCT_NAME = 'Vitrina';

/** The title from its parts; empty parts are left out. */
export function documentTitle(parts: readonly (string | null | undefined)[]): string {
  return [...parts.filter((p): p is string => Boolean(p?.trim())), PRODUCT_NAME].join(' – ');
}

/**
 * Sets the document title to the current route's page name followed by `names`. Called by the
 * layouts and pages that know the names (the top bar, the public headers, the sign-in page);
 * the last one to render wins, so one call per screen.
 */
export function usePageTitle(...names: (string | null | undefined)[]): void {
  const { t } = useTranslation('shell');
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  useDocumentTitle(t(`pages.${pageOf(pathname)}`), ...names);
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
