/**
 * The notifications' calls (spec §7): the user's list (newest first, texts in the interface
 * language), a read mark and "mark all read", kept current by the live stream's
 * `Notification…` changes and refetched after a reconnection.
 */
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../../../lib/api';
import { onLiveChange, onLiveReconnect, useLiveStream } from '../../../lib/live-stream';

export interface NotificationItem {
  id: string;
  tipo: string;
  titulo: string;
  mensaje: string;
  fechaAlta: number;
  leida: boolean;
  link: string | null;
}

/** Keyed by the language too: the server writes the texts in it. */
export const notificationsQuery = (idCorporativo: string, idUsuario: string, language: string) =>
  queryOptions({
    queryKey: ['api', 'wsObtenerNotificaciones', { idCorporativo, idUsuario }, language] as const,
    queryFn: ({ signal }) =>
      api<NotificationItem[]>('wsObtenerNotificaciones', {
        query: { idCorporativo, idUsuario },
        signal,
      }),
  });

const KEY = ['api', 'wsObtenerNotificaciones'] as const;
const refetch = (client: QueryClient) => void client.invalidateQueries({ queryKey: KEY });

/** The user's notifications in the corporate, live. */
export function useNotifications(idCorporativo: string, idUsuario: string, language: string) {
  useLiveStream();
  useEffect(() => {
    const stopChange = onLiveChange((change, client) => {
      if (change.type.startsWith('Notification') && change.corporateId === idCorporativo)
        refetch(client);
    });
    const stopReconnect = onLiveReconnect(refetch);
    return () => {
      stopChange();
      stopReconnect();
    };
  }, [idCorporativo]);
  return useQuery({ ...notificationsQuery(idCorporativo, idUsuario, language), staleTime: 30_000 });
}

/** Marks one notification read (`idNotificacion`) or all of them (`todas`). */
export function useMarkRead(idCorporativo: string, idUsuario: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (target: { idNotificacion: string } | { todas: true }) =>
      api<{ noLeidas: number }>(`corporativos/${idCorporativo}/notificaciones/leidas`, {
        method: 'PUT',
        body: { idUsuario, ...target },
      }),
    onMutate: async (target) => {
      // The mark shows at once; the answer (and the live change) confirm it.
      await client.cancelQueries({ queryKey: KEY });
      client.setQueriesData<NotificationItem[]>({ queryKey: KEY }, (old) =>
        old?.map((n) =>
          'todas' in target || n.id === target.idNotificacion ? { ...n, leida: true } : n,
        ),
      );
    },
    onSettled: () => refetch(client),
  });
}
