/**
 * The one way the client talks to the server.
 *
 * - `api(path, options)` — fetch with same-origin credentials, JSON in and out, and the current
 *   interface language as `Accept-Language` (the server translates its messages with it).
 *   A response that is not ok is read as JSON and thrown as an {@link ApiRequestError} carrying
 *   the first item's `errorCode` and `message` (spec §8: "Response not ok: read the JSON; throw
 *   the first item's errorCode if present, else the body"). A 2xx answer whose first data item
 *   has `status: 'error'` is thrown as well.
 * - `apiQuery(name, params)` — TanStack Query options for a GET call, keyed `['api', name,
 *   params]`, so every feature shares one cache and one way of naming it:
 *
 *   ```ts
 *   const developments = useQuery(apiQuery<Development[]>('wsObtenerDesarrollos', { idCorporativo }));
 *   const save = useMutation({ mutationFn: (lead: Lead) => api(`/api/corporativos/${id}/leads`, { method: 'POST', body: lead }) });
 *   ```
 * - `queryClient` — the application's client. A 401 anywhere tells the session machine the
 *   session has ended (see `onUnauthorized`); failed mutations show the error toast unless they
 *   set `meta: { silent: true }`.
 */

import { MutationCache, QueryCache, QueryClient, queryOptions } from '@tanstack/react-query';
import i18n from 'i18next';
import { ApiRequestError, api, type QueryParams } from './api-client';
import { toast } from './toast';
import { errorMessage } from './errors';

// The fetch core lives in api-client.ts (the sign-in page uses it alone); features import it from here.
export { ApiRequestError, api, apiUrl, onUnauthorized } from './api-client';
export type { ApiOptions, QueryParams } from './api-client';

/** Query options for a GET call; the key is `['api', name, params]`. */
export function apiQuery<T>(name: string, params: QueryParams = {}) {
  return queryOptions({
    queryKey: ['api', name, params] as const,
    queryFn: ({ signal }) => api<T>(name, { query: params, signal }),
  });
}

declare module '@tanstack/react-query' {
  interface Register {
    defaultError: Error;
    mutationMeta: { silent?: boolean };
  }
}

/** Builds a client with the application's defaults (tests build their own). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache(),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (!mutation.meta?.silent) toast.error(errorMessage(error, i18n));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        gcTime: 15 * 60_000,
        refetchOnWindowFocus: false,
        // Client errors (403, 404, validation) do not get better by retrying.
        retry: (count, error) =>
          !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) &&
          count < 2,
      },
    },
  });
}

export const queryClient = createQueryClient();
