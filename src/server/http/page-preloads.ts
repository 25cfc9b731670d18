/**
 * The public pages' first paint, announced in the HTML that serves them (issue 19: Lighthouse on
 * a slow phone). Served the bare shell, a visitor's page asks for the main script, then — once it
 * runs — for its route's scripts and texts, then for its data: three round trips one after the
 * other before the heading paints. The URL already says which page it is, so the server names
 * what that page will ask for in the `<head>` and the browser fetches it beside the main script:
 *
 * - the route's scripts (`modulepreload`, read from Vite's manifest: `build.manifest`);
 * - its texts in the visitor's likely language (the same rule as the page's, from the share
 *   link's `lang`, the choice remembered on the device — its cookie — and `Accept-Language`);
 * - its first API reads (`preload as=fetch`, matched by the page's own `fetch`).
 *
 * The service worker answers a return visit from its cache with the bare shell: everything is
 * cached there by then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { visitorLanguage, type VisitorLanguage } from '../../core/visitor-language';
import { FIRST_PAGE, publicAvailabilityUrl } from '../../core/availability-pages';
import { escapeHtml } from './html';

interface ManifestChunk {
  file: string;
  /** The chunk's name (a module's, or a chunk group's in vite.config.ts). */
  name?: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/** What one public page needs first. */
interface PageNeeds {
  /** Its route file (the manifest's key, before `?tsr-split=…`). */
  route: string;
  /** The API reads it makes on its first render. */
  reads: string[];
  /** Its feature namespaces (src/ui/i18n; common, errors and shell come with every page). */
  namespaces: string[];
}

const DEVELOPMENT_ROUTES =
  'src/ui/routes/public/corporativos/$corporativo/desarrollos/$desarrollo/';
const LOCALES_DIR = 'src/ui/i18n/locales/';
/** What the client adds to the main chunk's Spanish texts (src/ui/i18n/index.ts). */
const SHELL_NAMESPACES = ['common', 'errors', 'shell'];

/** A development's public pages (the path's last segment). */
export type DevelopmentPage = 'disponibilidad' | 'disponibilidad-simple' | 'cotizacion';

/** Which public page a path is, its segments decoded; null for any other page. */
export type PublicPage =
  | { kind: 'development'; corporate: string; development: string; page: DevelopmentPage }
  | { kind: 'shared'; token: string };

const DEVELOPMENT_PATH =
  /^\/public\/corporativos\/([^/]+)\/desarrollos\/([^/]+)\/(disponibilidad|disponibilidad-simple|cotizacion)\/?$/;
const SHARED_PATH = /^\/public\/cotizacion\/([^/]+)\/?$/;

/** A path segment decoded (null: not a valid encoding). */
function decoded(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * The public page at `pathname` (the path as requested). Read here once for what the HTML
 * announces (preloads) and what it paints first (public/first-paint.ts).
 */
export function publicPageAt(pathname: string): PublicPage | null {
  const development = DEVELOPMENT_PATH.exec(pathname);
  if (development) {
    const corporate = decoded(development[1]!);
    const dev = decoded(development[2]!);
    if (corporate === null || dev === null) return null;
    return {
      kind: 'development',
      corporate,
      development: dev,
      page: development[3] as DevelopmentPage,
    };
  }
  const shared = SHARED_PATH.exec(pathname);
  const token = shared ? decoded(shared[1]!) : null;
  return token === null ? null : { kind: 'shared', token };
}

/** The public page at `pathname` and what it reads first; null for any other page. */
export function publicPageNeeds(pathname: string): PageNeeds | null {
  const page = publicPageAt(pathname);
  if (!page) return null;
  if (page.kind === 'shared')
    return {
      route: 'src/ui/routes/public/cotizacion/$token.tsx',
      reads: [`/api/public/cotizaciones/${encodeURIComponent(page.token)}`],
      namespaces: ['quotes'],
    };
  // The page re-encodes its path's segments for its reads.
  const base = `/api/public/corporativos/${encodeURIComponent(page.corporate)}/desarrollos/${encodeURIComponent(page.development)}`;
  return {
    route: `${DEVELOPMENT_ROUTES}${page.page}.tsx`,
    // Each reads the development's public catalogue and its landing redirect: the availability
    // its first page of clusters, the simulator every unit, at the URLs the pages build (issue 21).
    reads: [
      publicAvailabilityUrl(
        page.corporate,
        page.development,
        page.page === 'cotizacion' ? undefined : FIRST_PAGE,
      ),
      `${base}/landing`,
    ],
    namespaces: page.page === 'cotizacion' ? ['quotes'] : ['inventory'],
  };
}

/** The browser's languages from `Accept-Language`, preferred first. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((l) => l.tag !== '' && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((l) => l.tag);
}

/** Every chunk `key` imports statically, itself included. */
function closure(manifest: Manifest, keys: readonly string[], into = new Set<string>()) {
  for (const key of keys) {
    if (into.has(key) || !manifest[key]) continue;
    into.add(key);
    closure(manifest, manifest[key].imports ?? [], into);
  }
  return into;
}

/** The script files of a language's texts for these namespaces. */
function textChunks(manifest: Manifest, lng: VisitorLanguage, namespaces: readonly string[]) {
  // Spanish common, errors and shell are in the main chunk; English's are chunks like the rest.
  const wanted = lng === 'en' ? [...SHELL_NAMESPACES, ...namespaces] : namespaces;
  // Most feature namespaces share one chunk per language (vite.config.ts `texts-<lng>`), which
  // the manifest lists under its own name rather than under each text file.
  const grouped = groupedTexts(manifest, lng);
  const files = wanted.map((ns) => manifest[`${LOCALES_DIR}${lng}/${ns}.json`]?.file ?? grouped);
  return [...new Set(files.filter((file): file is string => file !== undefined))];
}

/** The chunk of a language's grouped feature texts (vite.config.ts `texts-<lng>`), if any. */
function groupedTexts(manifest: Manifest, lng: VisitorLanguage): string | undefined {
  return Object.values(manifest).find((chunk) => chunk.name === `texts-${lng}`)?.file;
}

/** The script files of the chunks `keys` and what they import that the entry does not load. */
export function scriptsBeyondEntry(manifest: Manifest, keys: readonly string[]): string[] {
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const loaded = closure(manifest, entries);
  return [...closure(manifest, keys)]
    .filter((key) => !loaded.has(key))
    .map((key) => manifest[key]!.file);
}

/** Scripts the route files `keys` need that the entry does not load already. */
function routeScripts(manifest: Manifest, routeFiles: readonly string[]): string[] {
  const routeKeys = Object.keys(manifest).filter((key) =>
    routeFiles.some((route) => key.startsWith(`${route}?`)),
  );
  return scriptsBeyondEntry(manifest, routeKeys);
}

const ROUTES_DIR = 'src/ui/routes/';

/** A route file's place in the URL: its segments (`$x` any one) and whether it is a layout. */
interface RouteFile {
  file: string;
  segments: string[];
  layout: boolean;
}

/**
 * The application's route files as TanStack Router's file-based routing reads them: `route.tsx`
 * is its folder's layout, `index.tsx` its folder's page, any other file a page whose name's
 * dot-separated parts are segments (a trailing `_` only leaves its parent's layout).
 */
function routeFiles(manifest: Manifest): RouteFile[] {
  let read = routeFilesOf.get(manifest);
  if (!read) routeFilesOf.set(manifest, (read = readRouteFiles(manifest)));
  return read;
}

/** The route files of each build's manifest, read once (every signed-in page's HTML asks). */
const routeFilesOf = new WeakMap<Manifest, RouteFile[]>();

function readRouteFiles(manifest: Manifest): RouteFile[] {
  const files = new Set(
    Object.keys(manifest)
      .filter((key) => key.startsWith(ROUTES_DIR))
      .map((key) => key.split('?')[0]!),
  );
  return [...files].flatMap((file): RouteFile[] => {
    const parts = file
      .slice(ROUTES_DIR.length)
      .replace(/\.tsx$/, '')
      .split('/');
    const name = parts.pop()!;
    if (name === '__root') return [];
    if (name === 'route') return [{ file, segments: parts, layout: true }];
    if (name === 'index') return [{ file, segments: parts, layout: false }];
    const own = name.split('.').map((part) => part.replace(/_$/, ''));
    return [{ file, segments: [...parts, ...own], layout: false }];
  });
}

const segmentMatches = (pattern: string, segment: string) =>
  pattern.startsWith('$') ? segment !== '' : pattern === segment;

/**
 * The scripts a signed-in page at `pathname` needs that the entry does not load: the layouts
 * around it and the page's own route (the most literal one where several match, as the router
 * ranks them); none for a path no page answers.
 */
export function appRouteChunks(manifest: Manifest, pathname: string): string[] {
  const path = pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return '';
      }
    });
  const files = routeFiles(manifest);
  const matches = (route: RouteFile) =>
    route.segments.every((pattern, i) => i < path.length && segmentMatches(pattern, path[i]!));
  const pages = files
    .filter((route) => !route.layout && route.segments.length === path.length && matches(route))
    .sort(
      (a, b) =>
        b.segments.filter((s) => !s.startsWith('$')).length -
        a.segments.filter((s) => !s.startsWith('$')).length,
    );
  if (pages.length === 0) return [];
  const layouts = files.filter(
    (route) => route.layout && route.segments.length <= path.length && matches(route),
  );
  return routeScripts(manifest, [...layouts.map((l) => l.file), pages[0]!.file]);
}

/** The script files of every feature namespace's texts in `lng` (what a signed-in page loads). */
export function featureTextChunks(manifest: Manifest, lng: VisitorLanguage): string[] {
  const prefix = `${LOCALES_DIR}${lng}/`;
  const namespaces = Object.keys(manifest)
    .filter((key) => key.startsWith(prefix) && key.endsWith('.json'))
    .map((key) => key.slice(prefix.length, -'.json'.length))
    .filter((ns) => !SHELL_NAMESPACES.includes(ns));
  const grouped = groupedTexts(manifest, lng);
  return [...new Set([...textChunks(manifest, lng, namespaces), ...(grouped ? [grouped] : [])])];
}

/**
 * The `<link>` tags for the page at `url` (none for a page that is not public): its data first
 * (the smallest and the latest needed), then its scripts, then its texts.
 */
export function preloadLinks(
  manifest: Manifest,
  url: URL,
  acceptLanguage: string | undefined,
  /** The language remembered on the device (its cookie, LANGUAGE_COOKIE). */
  stored?: string | null,
): string {
  const needs = publicPageNeeds(url.pathname);
  if (!needs) return '';
  const scripts = routeScripts(manifest, [needs.route]);
  const lng = visitorLanguage({
    multiIdioma: true,
    requested: url.searchParams.get('lang'),
    stored,
    preferred: acceptedLanguages(acceptLanguage),
  });
  return [
    ...needs.reads.map(
      (read) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(read)}">`,
    ),
    ...[...scripts, ...textChunks(manifest, lng, needs.namespaces)].map(
      (file) =>
        `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${escapeHtml(file)}">`,
    ),
  ].join('');
}

/** Vite's manifest of the build in `distDir` (null when the build has none). */
export function readManifest(distDir: string): Manifest | null {
  const file = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return null;
  }
}

/** The shell `html` with the page's preloads at the end of its head. */
export function withPreloads(html: string, links: string): string {
  if (links === '') return html;
  const at = html.indexOf('</head>');
  return at === -1 ? html : `${html.slice(0, at)}${links}${html.slice(at)}`;
}
