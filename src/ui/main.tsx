import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, createRouter } from '@tanstack/react-router';
import { routeTree } from './routeTree.gen';
import { initI18n, preloadFeatureNamespaces } from './i18n';
import { queryClient } from './lib/api';
import { SessionProvider, startSession } from './session';
import './index.css';

const router = createRouter({ routeTree, defaultPreload: 'intent', scrollRestoration: true });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// The login page needs only the shell's texts; every other page gets the feature namespaces.
router.subscribe('onBeforeLoad', ({ toLocation }) => {
  if (toLocation.pathname !== '/login') preloadFeatureNamespaces();
});

void initI18n().then(() => {
  const session = startSession(router);
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <SessionProvider actor={session}>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
});
