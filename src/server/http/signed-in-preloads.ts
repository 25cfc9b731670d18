/**
 * A signed-in page's first reads, announced in the HTML that serves it (issue 21: the
 * availability's time to interactive). Served the bare shell, a member's page runs a chain of
 * round trips, each waiting for the one before: the main script, then the session, then the
 * user's corporates, then the corporate's record, then the route's scripts (they wait for the
 * corporate's loader), then the development, then its clusters and prototypes and the corporate's
 * labels. Each link needs an id the one before answers — but the server knows them all when the
 * page is asked for: the session cookie names the user, the path names the corporate and the
 * development. So the HTML names every one of those reads (`preload as=fetch`, at the URLs the
 * client builds, matched by its own `fetch`), the route's scripts and the interface's texts in the
 * user's language (`modulepreload`), and the browser fetches them beside the main script.
 *
 * Only for a session that resolves, and only the corporates the user is an approved member of:
 * nothing is announced that the page would not read itself (an announced read the page never
 * makes is a wasted request and a console warning), and the answers are the same the page's own
 * requests would get (each read checks the membership again). The HTML is then the user's own:
 * `Cache-Control: private, no-cache`, `Vary: Cookie` (http/static.ts).
 *
 * A return visit whose service worker answers the shell from its cache gets none of this: its
 * scripts come from that cache, and its reads run as the page asks for them.
 */
import { getCookie } from 'hono/cookie';
import { FIRST_CLUSTERS, FIRST_PAGE, restAfter } from '../../core/availability-pages';
import type { Corporate, User } from '../../core/types';
import { LANGUAGE_COOKIE } from '../../core/visitor-language';
import { SESSION_COOKIE } from '../auth/sessions';
import { selectPage } from '../catalogue/cluster-pages';
import { loadClusters, loadDevelopmentBySlug } from '../catalogue/queries';
import { cachedCorporate, findUser, type AppDeps, type Ctx } from './context';
import { escapeHtml } from './html';
import {
  appRouteChunks,
  featureTextChunks,
  scriptsBeyondEntry,
  type Manifest,
} from './page-preloads';

/** A corporate's pages (`/corporativos/{slug}/…`), its slug and the rest of the path. */
const CORPORATE_PATH = /^\/corporativos\/([^/]+)(?:\/(.*))?$/;
/** A development's pages under its corporate (the rest of the path after the corporate). */
const DEVELOPMENT_PATH = /^desarrollos\/([^/]+)(?:\/([^/]+))?\/?$/;
/** The development pages that read its first clusters and its prototypes from their loader. */
const AVAILABILITY_PAGES = new Set(['disponibilidad', 'disponibilidad-simple']);
/**
 * Modules a corporate's layout imports before any of its pages loads (the `beforeLoad` of
 * ui/routes/corporativos/$corporativo/route.tsx: the CRM's clients source, kept out of the main
 * chunk). Named in the HTML like the route's scripts, or the page waits for them after its main
 * script has run.
 */
const CORPORATE_LAYOUT_IMPORTS = [
  'src/ui/features/leads/api/lead-source.ts',
  'src/ui/features/crm/api/crm-lead-source.ts',
];
/** The first page as the server's query reads it (`limite` is a string there). */
const FIRST_PAGE_QUERY = { limite: String(FIRST_CLUSTERS) };
/** Pages that are not the signed-in application's (public, sign-in and sign-up pages). */
const NOT_APP_PATH = /^\/(?:public|login|registro|recuperar|acceso|api|__test__|dev)(?:\/|$)/;

/** `/api/<name>?<params>`, its parameters in the order the client's `apiUrl` writes them. */
function apiPath(name: string, query?: Record<string, string | number>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) search.set(key, String(value));
  const qs = search.toString();
  return `/api/${name}${qs ? `?${qs}` : ''}`;
}

/**
 * A path segment decoded; null when it cannot name anything (not a valid encoding, a NUL, a lone
 * surrogate, longer than any slug): then nothing is read for it.
 */
function decoded(raw: string): string | null {
  let text: string;
  try {
    text = decodeURIComponent(raw);
  } catch {
    return null;
  }
  return text !== '' && text.length <= 200 && text.isWellFormed() && !text.includes('\0')
    ? text
    : null;
}

async function sessionUser(deps: AppDeps, token: string | undefined): Promise<User | null> {
  if (!token) return null;
  const id = await deps.sessions.resolve(token);
  if (!id) return null;
  const user = deps.authCache
    ? await deps.authCache.user(id, () => findUser(deps.db, id))
    : await findUser(deps.db, id);
  return user && user.info?.estatus !== 'inactivo' ? user : null;
}

/** What a signed-in page fetches first: its API reads and the pictures it opens with. */
export interface SignedInReads {
  reads: string[];
  images: string[];
}

/** A picture's address as the client writes it (ui/lib/catalogue.ts `mediaUrl`). */
function mediaUrl(id: string | undefined): string | null {
  return id ? `/api/media/${encodeURIComponent(id)}` : null;
}

/**
 * The reads a signed-in page makes before it can show anything, for the user of `c`'s session at
 * `pathname`; none for a visitor, a page outside the application or a corporate the user may not
 * see (the page then goes elsewhere).
 */
export async function signedInReads(c: Ctx, pathname: string): Promise<SignedInReads> {
  const none: SignedInReads = { reads: [], images: [] };
  if (NOT_APP_PATH.test(pathname)) return none;
  const deps = c.get('deps');
  const user = await sessionUser(deps, getCookie(c, SESSION_COOKIE));
  if (!user) return none;
  // The session machine's start (ui/session.tsx): the provider, the session, the user's
  // corporates and each approved one's record (the pages read it by slug from there).
  const reads = ['/api/auth/proveedor', '/api/auth/session', apiPath('wsObtenerCorporativos')];
  const images: string[] = [];
  const answer = { reads, images };
  const approved = new Set(user.corporativos);
  for (const id of approved) reads.push(apiPath('wsObtenerCorporativo', { id }));
  const match = CORPORATE_PATH.exec(pathname);
  const slug = match ? decoded(match[1]!) : null;
  if (slug === null) return answer;
  const corporate: Corporate | null = await cachedCorporate(deps, { slug });
  if (!corporate || !approved.has(corporate.id) || user.roles[corporate.id] === undefined)
    return answer;
  // The corporate layout's labels (lib/corporate-labels.tsx), in the interface's language:
  // English only where chosen on this device (its cookie) and the corporate offers it.
  const lang = corporate.multiIdioma && getCookie(c, LANGUAGE_COOKIE) === 'en' ? 'en' : 'es';
  reads.push(apiPath('wsObtenerIdiomas', { idCorporativo: corporate.id, lang }));
  const page = DEVELOPMENT_PATH.exec(match![2] ?? '');
  const devSlug = page ? decoded(page[1]!) : null;
  if (devSlug === null) return answer;
  // The development's route loader (lib/catalogue.ts developmentQuery).
  reads.push(apiPath('wsObtenerDesarrollo', { idCorporativo: corporate.id, slug: devSlug }));
  const development = await loadDevelopmentBySlug(deps.db, corporate.id, devSlug);
  if (!development) return answer;
  // Every development page opens under its header, whose cover picture is the page's largest
  // content (development-layout.tsx): fetched beside the scripts, not once they have drawn it.
  const cover = mediaUrl(development.imagenPortada);
  if (cover) images.push(cover);
  if (!AVAILABILITY_PAGES.has(page![2] ?? '')) return answer;
  // The availability's loader (features/inventory/api/preload-availability.ts).
  const ids = { idCorporativo: corporate.id, idDesarrollo: development.id };
  reads.push(apiPath('wsObtenerClusters', { ...ids, ...FIRST_PAGE }));
  reads.push(apiPath('wsObtenerPrototipos', ids));
  // The rest of the clusters, which the page asks for as soon as the first page is in
  // (features/inventory/api/availability-clusters.ts): the cursor is the first page's last
  // cluster, in the same order (catalogue/cluster-pages.ts).
  const { clusters: first } = selectPage(
    await loadClusters(deps.db, corporate.id, development.id),
    FIRST_PAGE_QUERY,
  );
  const rest = restAfter(first);
  if (rest) reads.push(apiPath('wsObtenerClusters', { ...ids, ...rest }));
  return answer;
}

/**
 * The `<link>` tags of a signed-in page (empty for anyone else): its reads, then its route's
 * scripts and the interface's texts in the user's language.
 */
export async function signedInPreloads(
  c: Ctx,
  manifest: Manifest,
  pathname: string,
): Promise<string> {
  const { reads, images } = await signedInReads(c, pathname);
  if (reads.length === 0) return '';
  const lng = getCookie(c, LANGUAGE_COOKIE) === 'en' ? 'en' : 'es';
  const routes = appRouteChunks(manifest, pathname);
  const layout = CORPORATE_PATH.test(pathname)
    ? scriptsBeyondEntry(manifest, CORPORATE_LAYOUT_IMPORTS)
    : [];
  const scripts = [...new Set([...routes, ...layout]), ...featureTextChunks(manifest, lng)];
  return [
    ...reads.map(
      (read) => `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(read)}">`,
    ),
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`),
    // As the page's <img> asks for it (no CORS mode), at the priority it is drawn with.
    ...images.map(
      (image) => `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(image)}">`,
    ),
  ].join('');
}
