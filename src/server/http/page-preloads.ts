/**
 * The public pages' first paint, announced in the HTML that serves them (issue 19: Lighthouse on
 * a slow phone). Served the bare shell, a visitor's page asks for the main script, then — once it
 * runs — for its route's scripts and texts, then for its data: three round trips one after the
 * other before the heading paints. The URL already says which page it is, so the server names
 * what that page will ask for in the `<head>` and the browser fetches it beside the main script:
 *
 * - the route's scripts (`modulepreload`, read from Vite's manifest: `build.manifest`);
 * - its texts in the visitor's likely language (the same rule as the page's, from the share
 *   link's `lang` and `Accept-Language`; a choice remembered on the device is only known to the
 *   page, which then fetches the other language itself);
 * - its first API reads (`preload as=fetch`, matched by the page's own `fetch`).
 *
 * The service worker answers a return visit from its cache with the bare shell: everything is
 * cached there by then.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { visitorLanguage, type VisitorLanguage } from '../../core/visitor-language';

interface ManifestChunk {
  file: string;
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
/** What the client adds to the main chunk's Spanish texts (src/ui/i18n/index.ts). */
const SHELL_NAMESPACES = ['common', 'errors', 'shell'];

/** A path segment as the page re-encodes it for its reads (null: not a valid encoding). */
function segment(raw: string): string | null {
  try {
    return encodeURIComponent(decodeURIComponent(raw));
  } catch {
    return null;
  }
}

/** The public page at `pathname` and what it reads first; null for any other page. */
export function publicPageNeeds(pathname: string): PageNeeds | null {
  const development = /^\/public\/corporativos\/([^/]+)\/desarrollos\/([^/]+)\/([a-z-]+)\/?$/.exec(
    pathname,
  );
  if (development) {
    const [, c, d, page] = development;
    const corporate = segment(c!);
    const dev = segment(d!);
    if (corporate === null || dev === null) return null;
    const base = `/api/public/corporativos/${corporate}/desarrollos/${dev}`;
    // Both read the development's public catalogue and its landing redirect.
    const reads = [`${base}/disponibilidad`, `${base}/landing`];
    if (page === 'disponibilidad' || page === 'disponibilidad-simple')
      return { route: `${DEVELOPMENT_ROUTES}${page}.tsx`, reads, namespaces: ['inventory'] };
    if (page === 'cotizacion')
      return { route: `${DEVELOPMENT_ROUTES}cotizacion.tsx`, reads, namespaces: ['quotes'] };
    return null;
  }
  const shared = /^\/public\/cotizacion\/([^/]+)\/?$/.exec(pathname);
  if (shared) {
    const token = segment(shared[1]!);
    if (token === null) return null;
    return {
      route: 'src/ui/routes/public/cotizacion/$token.tsx',
      reads: [`/api/public/cotizaciones/${token}`],
      namespaces: ['quotes'],
    };
  }
  return null;
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
  return wanted
    .map((ns) => manifest[`src/ui/i18n/locales/${lng}/${ns}.json`]?.file)
    .filter((file): file is string => file !== undefined);
}

const attr = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

/**
 * The `<link>` tags for the page at `url` (none for a page that is not public): its data first
 * (the smallest and the latest needed), then its scripts, then its texts.
 */
export function preloadLinks(
  manifest: Manifest,
  url: URL,
  acceptLanguage: string | undefined,
): string {
  const needs = publicPageNeeds(url.pathname);
  if (!needs) return '';
  const entries = Object.keys(manifest).filter((key) => manifest[key]!.isEntry);
  const loaded = closure(manifest, entries);
  const routeKeys = Object.keys(manifest).filter((key) => key.startsWith(`${needs.route}?`));
  const scripts = [...closure(manifest, routeKeys)]
    .filter((key) => !loaded.has(key))
    .map((key) => manifest[key]!.file);
  const lng = visitorLanguage({
    multiIdioma: true,
    requested: url.searchParams.get('lang'),
    preferred: acceptedLanguages(acceptLanguage),
  });
  return [
    ...needs.reads.map(
      (read) => `<link rel="preload" as="fetch" crossorigin href="${attr(read)}">`,
    ),
    ...[...scripts, ...textChunks(manifest, lng, needs.namespaces)].map(
      (file) => `<link rel="modulepreload" crossorigin fetchpriority="low" href="/${attr(file)}">`,
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
