/**
 * The corporate's content for users (issue 20): featured developments and tutorials
 * (server/content/routes.ts).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeaturedDevelopments } from '../../../../core/featured';
import type { Tutorial } from '../../../../core/tutorials';
import { api, apiQuery } from '../../../lib/api';

export const featuredQuery = (idCorporativo: string) =>
  apiQuery<FeaturedDevelopments>('wsObtenerDestacados', { idCorporativo });

/** The active tutorials, in order (spec §7 `wsObtenerTutoriales`). */
export const tutorialsQuery = (idCorporativo: string) =>
  apiQuery<Tutorial[]>('wsObtenerTutoriales', { idCorporativo });

/** Every tutorial, active or not, for the administrator's editor. */
export const allTutorialsQuery = (idCorporativo: string) => ({
  queryKey: ['api', 'tutoriales-admin', { idCorporativo }] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    api<Tutorial[]>(`/api/corporativos/${encodeURIComponent(idCorporativo)}/tutoriales`, {
      signal,
    }),
});

export function useSaveFeatured(idCorporativo: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (items: string[]) =>
      api<FeaturedDevelopments>(
        `/api/corporativos/${encodeURIComponent(idCorporativo)}/destacados`,
        { method: 'PUT', body: { items } },
      ),
    onSuccess: (saved) => {
      client.setQueryData(featuredQuery(idCorporativo).queryKey, saved);
    },
  });
}

export function useSaveTutorials(idCorporativo: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (tutoriales: Tutorial[]) =>
      api<Tutorial[]>(`/api/corporativos/${encodeURIComponent(idCorporativo)}/tutoriales`, {
        method: 'PUT',
        body: { tutoriales },
      }),
    onSuccess: (saved) => {
      client.setQueryData(allTutorialsQuery(idCorporativo).queryKey, saved);
      void client.invalidateQueries({ queryKey: tutorialsQuery(idCorporativo).queryKey });
    },
  });
}
