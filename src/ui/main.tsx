import { StrictMode } from 'react';
import { createRoot } from './lib/react-root';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { LoadingScreen } from './components/loading-screen';
import { OfflineNotice } from './components/offline-notice';
import { UpdatePrompt } from './components/update-prompt';
import {
  initI18n,
  preloadFeatureNamespaces,
  prefetchVisitorLanguage,
  publicPageNamespaces,
} from './i18n';
import { queryClient } from './lib/api';
import { startServiceWorker } from './lib/service-worker';
import { SessionProvider, startSession } from './session';
import './index.css';

const router = createRouter({
  routeTree,
  // The session actor navigates with this router, so it is created after it and handed to
  // the routes through <RouterProvider context> (TanStack's authenticated-routes pattern).
  context: { queryClient, session: undefined! },
  defaultPreload: 'intent',
  defaultPendingComponent: () => <LoadingScreen />,
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// The login page needs only the shell's texts; a public page its own, in its visitor's likely
// language (fetched at once: a bilingual corporate shows the visitor's); every other page gets
// the feature namespaces.
router.subscribe('onBeforeLoad', ({ toLocation }) => {
  const { pathname, searchStr } = toLocation;
  if (publicPageNamespaces(pathname)) void prefetchVisitorLanguage(pathname, searchStr);
  else if (pathname !== '/login') void preloadFeatureNamespaces();
});

// The installable app's worker: the shell offline, push, and the "new version" prompt.
startServiceWorker();

// A public page opens in its visitor's likely language, its texts fetched before it renders.
void initI18n({ pathname: location.pathname, search: location.search }).then(() => {
  const session = startSession(router);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider actor={session}>
          <RouterProvider router={router} context={{ session }} />
          <UpdatePrompt />
          {/* Outside the router: routes wait for the session while it is offline. */}
          <OfflineNotice />
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
});
