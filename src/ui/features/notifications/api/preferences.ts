/**
 * The user's notification preferences (issue 15 point 6): per kind, shown in the app and/or
 * pushed, and the language push messages are written in. The language follows the user's
 * interface language setting: {@link useSyncPushLanguage} tells the server when they differ.
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { NotificationKind } from '../../../../core/notifications';
import { api } from '../../../lib/api';

export interface KindPreference {
  app: boolean;
  push: boolean;
}

export interface NotificationPreferences {
  idioma: 'es' | 'en';
  tipos: Record<NotificationKind, KindPreference>;
}

export interface PreferencesChange {
  idioma?: 'es' | 'en';
  tipos?: Partial<Record<NotificationKind, Partial<KindPreference>>>;
}

const path = (userId: string) => `users/${userId}/notificaciones/preferencias`;

export const preferencesQuery = (userId: string) =>
  queryOptions({
    queryKey: ['api', 'notificaciones/preferencias', userId] as const,
    queryFn: ({ signal }) => api<NotificationPreferences>(path(userId), { signal }),
    staleTime: 5 * 60_000,
  });

export function usePreferences(userId: string) {
  return useQuery(preferencesQuery(userId));
}

/** Changes some kinds or the language; the answer (every kind) replaces the cached preferences. */
export function useUpdatePreferences(userId: string) {
  const client = useQueryClient();
  const key = preferencesQuery(userId).queryKey;
  return useMutation({
    mutationFn: (change: PreferencesChange) =>
      api<NotificationPreferences>(path(userId), { method: 'PUT', body: change }),
    onMutate: async (change) => {
      // The switch moves at once; a refusal puts it back.
      await client.cancelQueries({ queryKey: key });
      const before = client.getQueryData(key);
      if (before)
        client.setQueryData(key, {
          idioma: change.idioma ?? before.idioma,
          tipos: Object.fromEntries(
            Object.entries(before.tipos).map(([k, v]) => [
              k,
              { ...v, ...change.tipos?.[k as NotificationKind] },
            ]),
          ) as NotificationPreferences['tipos'],
        });
      return { before };
    },
    onError: (_error, _change, context) => {
      if (context?.before) client.setQueryData(key, context.before);
    },
    onSuccess: (prefs, change) => {
      client.setQueryData(key, prefs);
      // What the bell lists and counts depends on the in-app choices.
      if (change.tipos)
        void client.invalidateQueries({ queryKey: ['api', 'wsObtenerNotificaciones'] });
    },
  });
}

/**
 * Push messages are written in the user's language setting (`language`, the one they chose on
 * this device): the server is told whenever its record differs.
 */
export function useSyncPushLanguage(userId: string, language: 'es' | 'en') {
  const { data } = usePreferences(userId);
  const update = useUpdatePreferences(userId);
  const { mutate, isPending } = update;
  const differs = data !== undefined && data.idioma !== language;
  useEffect(() => {
    if (differs && !isPending) mutate({ idioma: language });
    // Once per difference: a failed attempt is not retried in a loop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [differs, language]);
}
