/**
 * The corporate's tutorials (issue 20; server/content/routes.ts). The featured developments'
 * calls are in lib/content.ts (the inventory's pages read them too).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Tutorial } from '../../../../core/tutorials';
import { api, apiQuery } from '../../../lib/api';

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
