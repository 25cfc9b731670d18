import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { LoadingScreen } from './components/loading-screen';
import { OfflineNotice } from './components/offline-notice';
import { UpdatePrompt } from './components/update-prompt';
import { initI18n, preloadFeatureNamespaces, prefetchVisitorLanguage } from './i18n';
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

// The login page needs only the shell's texts; every other page gets the feature namespaces.
// A public page shows the visitor's language on a bilingual corporate: fetched at once.
router.subscribe('onBeforeLoad', ({ toLocation }) => {
  if (toLocation.pathname !== '/login') preloadFeatureNamespaces();
  if (toLocation.pathname.startsWith('/public/')) prefetchVisitorLanguage(toLocation.searchStr);
});

// The installable app's worker: the shell offline, push, and the "new version" prompt.
startServiceWorker();

void initI18n().then(() => {
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
