/**
 * The root route. Every route's `beforeLoad` and loader get the router context: the query
 * client (loaders preload into it) and the session actor (membership checks wait for it to know
 * who is signed in). main.tsx provides both.
 */

import type { QueryClient } from '@tanstack/react-query';
import { Outlet, createRootRouteWithContext, redirect } from '@tanstack/react-router';
import { spanishPathOf } from '../../core/navigation';
import { Toaster } from '../components/toaster';
import { LogoutOverlay } from '../features/shell/components/logout-overlay';
import { NotFoundPage } from '../features/shell/components/not-found-page';
import { useRouteFocus } from '../lib/route-focus';
import type { SessionActor } from '../session';

export interface RouterContext {
  queryClient: QueryClient;
  session: SessionActor;
}

function Root() {
  useRouteFocus();
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
  component: Root,
  notFoundComponent: () => <NotFoundPage />,
});
