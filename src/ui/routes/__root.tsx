/**
 * The root route. Every route's `beforeLoad` and loader get the router context: the query
 * client (loaders preload into it) and the session actor (membership checks wait for it to know
 * who is signed in). main.tsx provides both.
 */

import type { QueryClient } from '@tanstack/react-query';
import {
  Outlet,
  createRootRouteWithContext,
  redirect,
  useRouterState,
} from '@tanstack/react-router';
import { spanishPathOf } from '../../core/navigation';
import { needsFeatureNamespaces, preloadFeatureNamespaces } from '../i18n';
import { Toaster } from '../components/toaster';
import { LogoutOverlay } from '../features/shell/components/logout-overlay';
import { NotFoundPage } from '../features/shell/components/not-found-page';
import { useFirstPaintDone } from '../lib/first-paint';
import { useRouteFocus } from '../lib/route-focus';
import type { SessionActor } from '../session';

export interface RouterContext {
  queryClient: QueryClient;
  session: SessionActor;
}

function Root() {
  useRouteFocus();
  // The server's first paint of a public page goes once the page is drawn (the page takes it
  // away), or here when the route itself failed, so the error is not hidden behind it.
  const failed = useRouterState({
    select: (s) => s.matches.some((m) => m.status === 'error' || m.status === 'notFound'),
  });
  useFirstPaintDone(failed);
  return (
    <>
      <Outlet />
      <Toaster />
      <LogoutOverlay />
    </>
  );
}

export const Route = createRootRouteWithContext<RouterContext>()({
  // A link built with the English route builders opens the Spanish page, query and hash kept.
  beforeLoad: ({ location }) => {
    const spanish = spanishPathOf(location.pathname);
    if (spanish !== null)
      throw redirect({
        href: spanish + location.searchStr + (location.hash ? `#${location.hash}` : ''),
        replace: true,
      });
  },
  // A signed-in page draws with its texts: the feature namespaces (asked for as the navigation
  // starts, main.tsx; their chunk is named in the page's HTML) are awaited beside the page's own
  // loaders, never drawn as their keys first.
  loader: ({ location }) =>
    needsFeatureNamespaces(location.pathname) ? preloadFeatureNamespaces() : undefined,
  component: Root,
  notFoundComponent: () => <NotFoundPage />,
});
