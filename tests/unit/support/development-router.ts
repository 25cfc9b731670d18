/** A router of the app's shape for tests of a development page's search validation. */
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  type AnySchema,
} from '@tanstack/react-router';

/**
 * The development page `page` (its `validateSearch`) under parents that validate nothing, as in
 * the app (corporativos/$corporativo → desarrollos/$desarrollo), opened at `url`; `pageId` is the
 * page route's id.
 */
export function developmentPageRouter(
  page: string,
  validateSearch: (search: Record<string, unknown>) => AnySchema,
  url: string,
) {
  const root = createRootRoute();
  const corporate = createRoute({ getParentRoute: () => root, path: 'corporativos/$corporativo' });
  const development = createRoute({
    getParentRoute: () => corporate,
    path: 'desarrollos/$desarrollo',
  });
  const leaf = createRoute({ getParentRoute: () => development, path: page, validateSearch });
  const router = createRouter({
    routeTree: root.addChildren([corporate.addChildren([development.addChildren([leaf])])]),
    history: createMemoryHistory({ initialEntries: [url] }),
  });
  return { router, pageId: leaf.id as string };
}

/** The search the page at `url` receives: its validated search over its parents'. */
export function developmentPageSearch(
  page: string,
  validateSearch: (search: Record<string, unknown>) => AnySchema,
  url: string,
): { routeId: string; pageId: string; search: unknown } {
  const { router, pageId } = developmentPageRouter(page, validateSearch, url);
  const match = router.matchRoutes(router.state.location).at(-1)!;
  return { routeId: match.routeId, pageId, search: match.search };
}
