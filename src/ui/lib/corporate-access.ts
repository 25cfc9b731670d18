/**
 * Getting into a corporate (spec §6): the corporate of a slug, who may see it, and the preload
 * of a corporate page's data. Route `beforeLoad`s and loaders use these; the corporate layout
 * reads the same query.
 */

import type { QueryClient } from '@tanstack/react-query';
import { notFound } from '@tanstack/react-router';
import { isApprovedMember } from '../../core/permissions';
import type { Corporate, User } from '../../core/types';
import type { SessionCorporate } from '../../machines/session.machine';
import { ApiRequestError, apiQuery } from './api';

/** The corporate of a slug (`wsObtenerCorporativo`): 403 for a non-member, 404 for no such slug. */
export const corporateQuery = (slug: string) =>
  apiQuery<Corporate>('wsObtenerCorporativo', { slug });

/** The signed-in user may not see this corporate: the corporate route shows the 403 page. */
export class CorporateForbiddenError extends Error {
  constructor(readonly slug: string) {
    super(`not a member of ${slug}`);
    this.name = 'CorporateForbiddenError';
  }
}

/** What a route's not-found carries for an unknown corporate. */
export interface CorporateNotFoundData {
  corporateSlug: string;
}

/** A 403 of the corporate (from a loader, or from the layout's query): the 403 page. */
export function isCorporateForbidden(error: unknown): boolean {
  return (
    error instanceof CorporateForbiddenError ||
    (error instanceof ApiRequestError && error.status === 403)
  );
}

/**
 * Loads the corporate into the query cache. The server's 403 becomes
 * {@link CorporateForbiddenError} and its 404 the route's not-found; anything else is rethrown.
 */
export async function loadCorporate(queryClient: QueryClient, slug: string): Promise<Corporate> {
  try {
    return await queryClient.ensureQueryData(corporateQuery(slug));
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 403)
      throw new CorporateForbiddenError(slug);
    if (error instanceof ApiRequestError && error.status === 404)
      throw notFound({ data: { corporateSlug: slug } satisfies CorporateNotFoundData });
    throw error;
  }
}

/**
 * Resolves the signed-in user's membership of the corporate of `slug`: an approved member as the
 * session knows them passes at once. Anyone else is asked about to the server, which tells a
 * corporate the user may not see (403) from one that does not exist (404), and knows of an
 * approval newer than the session's list of corporates.
 */
export async function requireMembership(
  queryClient: QueryClient,
  user: User,
  corporates: readonly SessionCorporate[],
  slug: string,
): Promise<void> {
  const known = corporates.find((c) => c.slug === slug);
  if (known && isApprovedMember(user, known.id)) return;
  await loadCorporate(queryClient, slug);
}

/**
 * Preloads a corporate page's data from its route loader: the corporate first (its id keys the
 * page's calls), then `load`. Never throws: the corporate route reports a corporate that cannot
 * be loaded, and the page reports a failure of its own data as it renders.
 */
export async function preloadCorporatePage(
  context: { queryClient: QueryClient; user: User | null },
  slug: string,
  load: (corporate: Corporate) => Promise<unknown>,
): Promise<void> {
  if (!context.user) return;
  try {
    await load(await context.queryClient.ensureQueryData(corporateQuery(slug)));
  } catch {
    // Shown where it belongs: see above.
  }
}
