/**
 * Spec §3 `reedireccionarLandingPage` / `landingPage`: a visitor of a development's public pages
 * is sent to its own landing page when the administrator set one (core/development-settings.ts
 * `landingRedirect`, answered by `GET /api/public/…/desarrollos/:d/landing`).
 */
import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export function useLandingRedirect(corporateSlug: string, developmentSlug: string) {
  const landing = useQuery({
    queryKey: ['public', 'landing', corporateSlug, developmentSlug],
    queryFn: ({ signal }) =>
      api<{ landingPage: string | null }>(
        `/api/public/corporativos/${encodeURIComponent(corporateSlug)}/desarrollos/${encodeURIComponent(developmentSlug)}/landing`,
        { signal },
      ),
    staleTime: 60_000,
    retry: false,
  });
  const url = landing.data?.landingPage;
  useEffect(() => {
    if (url) window.location.replace(url);
  }, [url]);
}
