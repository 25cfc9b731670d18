/**
 * The featured-developments document (issue 20; server/content/routes.ts): read by the
 * developments list's featured block and the `destacados` page, set by the administrator.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FeaturedDevelopments } from '../../core/featured';
import { api, apiQuery } from './api';

export const featuredQuery = (idCorporativo: string) =>
  apiQuery<FeaturedDevelopments>('wsObtenerDestacados', { idCorporativo });

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
