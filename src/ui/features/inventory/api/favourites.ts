/**
 * Favourite developments (spec §3 `desarrollosFavoritos`, §4 "added, or removed if already
 * present"), persisted as events by `PUT /api/users/:id/desarrollos-favoritos`.
 */

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { User } from '../../../../core/types';
import { api } from '../../../lib/api';

type Favourites = User['desarrollosFavoritos'];

const key = (userId: string) => ['inventory', 'favourites', userId] as const;

export function useFavouriteDevelopments(user: User, idCorporativo: string) {
  const client = useQueryClient();
  const favourites = useQuery({
    queryKey: key(user.id),
    queryFn: async () =>
      (await api<User>('wsObtenerUsuario', { query: { id: user.id } })).desarrollosFavoritos,
    initialData: user.desarrollosFavoritos ?? {},
    staleTime: Number.POSITIVE_INFINITY,
  });
  const toggle = useMutation({
    mutationFn: (idDesarrollo: string) =>
      api<User>(`/api/users/${encodeURIComponent(user.id)}/desarrollos-favoritos`, {
        method: 'PUT',
        body: { idCorporativo, idDesarrollo },
      }),
    onSuccess: (updated) =>
      client.setQueryData<Favourites>(key(user.id), updated.desarrollosFavoritos ?? {}),
  });
  const map = favourites.data?.[idCorporativo] ?? {};
  return {
    isFavourite: (idDesarrollo: string) => map[idDesarrollo] === true,
    toggle: (idDesarrollo: string) => toggle.mutate(idDesarrollo),
    pending: toggle.isPending,
  };
}
