/**
 * Featured developments (spec §3 "featured developments (items)", §1 route `destacados`): one
 * document per corporate whose `items` are development ids in the order they are shown. The
 * corporate's administrators set it; the developments list's featured block and the
 * `destacados` page read it.
 */

import type { Role } from './types';

/** The featured-developments document. */
export interface FeaturedDevelopments {
  items: string[];
}

/** Most developments a corporate may feature. */
export const FEATURED_MAX = 24;

/** Who sets the featured developments and the tutorials: the corporate's administrator. */
export function mayAdministerContent(role: Role | null | undefined): boolean {
  return role?.permisos.activarAdminUsuarios === true;
}

export type FeaturedProblem =
  | { code: 'FEATURED_UNKNOWN_DEVELOPMENT'; ids: string[] }
  | { code: 'FEATURED_TOO_MANY'; max: number };

/**
 * The items as stored: each id once, in the order given (a repeat keeps its first place). Ids
 * that are not developments of the corporate are a problem, not silently dropped.
 */
export function normalizeFeatured(
  items: readonly string[],
  developmentIds: ReadonlySet<string>,
): { ok: true; featured: FeaturedDevelopments } | { ok: false; error: FeaturedProblem } {
  const unique = [...new Set(items)];
  const unknown = unique.filter((id) => !developmentIds.has(id));
  if (unknown.length > 0)
    return { ok: false, error: { code: 'FEATURED_UNKNOWN_DEVELOPMENT', ids: unknown } };
  if (unique.length > FEATURED_MAX)
    return { ok: false, error: { code: 'FEATURED_TOO_MANY', max: FEATURED_MAX } };
  return { ok: true, featured: { items: unique } };
}

/**
 * The featured developments in the document's order, among `developments` (those the viewer
 * may see; an id no longer among them is skipped).
 */
export function featuredInOrder<D extends { id: string }>(
  featured: FeaturedDevelopments | undefined,
  developments: readonly D[],
): D[] {
  const byId = new Map(developments.map((d) => [d.id, d]));
  return (featured?.items ?? []).flatMap((id) => {
    const d = byId.get(id);
    return d ? [d] : [];
  });
}
