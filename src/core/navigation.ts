/**
 * Where the application sends a person (spec §2): the redirect after sign-in, the root
 * behaviour, the sidebar's Home target and items, the top-bar title and the language rule.
 * Pure: it takes the user, the user's corporates (with their role lists) and the path, and
 * answers paths; the router and the session machine act on the answer.
 */

import type { Corporate, Role, User } from './types';

/** A corporate as navigation needs it: its slug for paths and its roles for permissions. */
export type NavCorporate = Pick<Corporate, 'id' | 'slug'> & { roles?: readonly Role[] };

export const LOGIN_PATH = '/login';
export const CORPORATES_PATH = '/corporativos';
/** The operations page of platform administrators (background work; not a corporate's page). */
export const OPERATIONS_PATH = '/operaciones';

/** The pages of a corporate that the shell links to (Spanish segments of spec §2). */
export type CorporateSection = 'home' | 'desarrollos' | 'clientes' | 'eventos' | 'usuarios';

export function corporatePath(slug: string, section: CorporateSection = 'home'): string {
  const base = `${CORPORATES_PATH}/${encodeURIComponent(slug)}`;
  return section === 'home' ? base : `${base}/${section}`;
}

/**
 * The English route builders (spec §2: "another set of route builders uses English segment
 * names: corporates, events, developments, users, clients"): their segment → ours.
 */
const ENGLISH_SECTIONS: Readonly<Record<string, CorporateSection>> = {
  events: 'eventos',
  developments: 'desarrollos',
  users: 'usuarios',
  clients: 'clientes',
};

/**
 * The Spanish page an English path names, with everything after the section (a development's
 * slug and sub-page, a client id) kept as it is: `/corporates` → `/corporativos`,
 * `/corporates/{c}/developments/{d}/disponibilidad` → `/corporativos/{c}/desarrollos/{d}/disponibilidad`.
 * `null` for any path that is not under `/corporates` (ours are left alone). The caller keeps the
 * query and the hash.
 */
export function spanishPathOf(pathname: string): string | null {
  const segments = pathname.split('/');
  if (segments[1] !== 'corporates') return null;
  const out = [...segments];
  out[1] = 'corporativos';
  const section = segments[3];
  if (section !== undefined && Object.hasOwn(ENGLISH_SECTIONS, section))
    out[3] = ENGLISH_SECTIONS[section]!;
  return out.join('/');
}

/** The role the user holds in a corporate (one role id per corporate, spec §6). */
export function roleIn(user: Pick<User, 'roles'>, corporate: NavCorporate): Role | undefined {
  const id = user.roles[corporate.id];
  return id === undefined ? undefined : corporate.roles?.find((r) => r.id === id);
}

/** The approved corporates of the user, in the order given. */
export function memberCorporates<C extends NavCorporate>(
  user: Pick<User, 'corporativos'>,
  corporates: readonly C[],
): C[] {
  return corporates.filter((c) => user.corporativos.includes(c.id));
}

function favouriteOf<C extends NavCorporate>(
  user: Pick<User, 'corporativoFavorito'>,
  among: readonly C[],
): C | undefined {
  return user.corporativoFavorito
    ? among.find((c) => c.id === user.corporativoFavorito)
    : undefined;
}

/**
 * A redirect query is followed only when it is a path of this application: relative, starting
 * with one slash (no `//host` or `/\host`), never back to the login page. Anything else is an
 * open redirect and is ignored.
 */
export function safeRedirect(redirect: string | null | undefined): string | null {
  if (!redirect || typeof redirect !== 'string') return null;
  if (!redirect.startsWith('/') || redirect.startsWith('//') || redirect.startsWith('/\\'))
    return null;
  if ([...redirect].some((ch) => ch.charCodeAt(0) < 0x20)) return null;
  const path = redirect.split(/[?#]/)[0] ?? '';
  if (path === LOGIN_PATH || path.startsWith(`${LOGIN_PATH}/`)) return null;
  return redirect;
}

export type SignInUser = Pick<User, 'corporativos' | 'corporativoFavorito' | 'roles'>;

/**
 * Redirect after login (spec §2), the four rules in order:
 * 1. a redirect query, when present (and a path of this app);
 * 2. adminHostes in any corporate: that corporate's events page — the favourite corporate when
 *    the user is a host administrator there, else the first such corporate;
 * 3. two or more corporates: the favourite corporate, or the corporates list when none is set
 *    or it is not among them;
 * 4. one corporate: that corporate.
 * With no approved corporate (a pending broker) the corporates list shows the pending ones.
 */
export function redirectAfterLogin(input: {
  redirect?: string | null;
  user: SignInUser;
  corporates: readonly NavCorporate[];
}): string {
  const wanted = safeRedirect(input.redirect);
  if (wanted) return wanted;
  const mine = memberCorporates(input.user, input.corporates);
  const hosting = mine.filter((c) => roleIn(input.user, c)?.permisos.adminHostes === true);
  const host = favouriteOf(input.user, hosting) ?? hosting[0];
  if (host) return corporatePath(host.slug, 'eventos');
  if (mine.length >= 2) {
    const favourite = favouriteOf(input.user, mine);
    return favourite ? corporatePath(favourite.slug) : CORPORATES_PATH;
  }
  const only = mine[0];
  return only ? corporatePath(only.slug) : CORPORATES_PATH;
}

/** A corporate path (`/corporativos/{slug}` and below, clients included). */
export function isCorporatePath(pathname: string): boolean {
  return /^\/corporativos\/[^/]+/.test(pathname);
}

/**
 * Root behaviour (spec §2) for a signed-in user on `pathname`: on the root (and on the login
 * page, which a signed-in user has no use for) one corporate goes straight to it, several go to
 * the corporates list. On a corporate or clients path — and on any other page — nothing is
 * redirected (`null`).
 */
export function rootRedirect(
  pathname: string,
  user: Pick<User, 'corporativos'>,
  corporates: readonly NavCorporate[],
): string | null {
  if (isCorporatePath(pathname)) return null;
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path !== '/' && path !== LOGIN_PATH) return null;
  const mine = memberCorporates(user, corporates);
  const only = mine.length === 1 ? mine[0] : undefined;
  return only ? corporatePath(only.slug) : CORPORATES_PATH;
}

/**
 * The sidebar's Home (spec §2): the favourite corporate if set, else the corporates list when
 * the user has more than one corporate, else the current corporate.
 */
export function homePath(input: {
  user: Pick<User, 'corporativos' | 'corporativoFavorito'>;
  corporates: readonly NavCorporate[];
  current?: NavCorporate | null;
}): string {
  const mine = memberCorporates(input.user, input.corporates);
  const favourite = favouriteOf(input.user, mine);
  if (favourite) return corporatePath(favourite.slug);
  if (input.user.corporativos.length > 1) return CORPORATES_PATH;
  const current = input.current ?? mine[0];
  return current ? corporatePath(current.slug) : CORPORATES_PATH;
}

export type SidebarItem =
  | 'home'
  | 'clientes'
  | 'desarrollos'
  | 'usuarios'
  | 'eventos'
  | 'registroClientes'
  | 'operaciones'
  | 'switchCorporate'
  | 'settings'
  | 'logout';

/**
 * The sidebar's items (spec §2, §6): Home, Clients, Developments, Users (only with crearUsuarios
 * or editarUsuarios); a host administrator (adminHostes) sees the walk-in registration
 * (`registroClientes`, issue 19) and Events instead of the standard items; the corporate switch is hidden with only one corporate; settings and logout always.
 * Without a current corporate (the corporates list) only Home and the common items remain.
 * A platform administrator (`operator`, core/permissions `mayOperate`) also has Operations,
 * inside a corporate or not.
 */
export function sidebarItems(input: {
  role?: Role | null;
  corporateCount: number;
  inCorporate: boolean;
  operator?: boolean;
}): SidebarItem[] {
  const items: SidebarItem[] = ['home'];
  if (input.inCorporate) {
    if (input.role?.permisos.adminHostes) {
      items.push('registroClientes', 'eventos');
    } else {
      // Events too: every member books and keeps appointments (the spec lists it for the host
      // administrator's menu; advisers had no way to their own calendar but a client's page).
      items.push('clientes', 'desarrollos', 'eventos');
      if (input.role?.permisosUsuarios.crearUsuarios || input.role?.permisosUsuarios.editarUsuarios)
        items.push('usuarios');
    }
  }
  if (input.operator) items.push('operaciones');
  if (input.corporateCount > 1) items.push('switchCorporate');
  items.push('settings', 'logout');
  return items;
}

/** A development's walk-in registration (spec §2 `registro-clientes`). */
export function walkInPath(corporateSlug: string, developmentSlug: string): string {
  return `${corporatePath(corporateSlug, 'desarrollos')}/${encodeURIComponent(developmentSlug)}/registro-clientes`;
}

/** The item of `items` that the path belongs to, for the highlight. */
export function activeSidebarItem(
  pathname: string,
  corporateSlug: string | null | undefined,
): SidebarItem | null {
  if (pathname === OPERATIONS_PATH || pathname.startsWith(`${OPERATIONS_PATH}/`))
    return 'operaciones';
  if (corporateSlug) {
    const base = corporatePath(corporateSlug);
    if (pathname.startsWith(`${base}/desarrollos/`) && pathname.endsWith('/registro-clientes'))
      return 'registroClientes';
    for (const section of ['clientes', 'desarrollos', 'usuarios', 'eventos'] as const) {
      const path = `${base}/${section}`;
      if (pathname === path || pathname.startsWith(`${path}/`)) return section;
    }
    if (pathname === base || pathname === `${base}/`) return 'home';
    return null;
  }
  return pathname === CORPORATES_PATH || pathname === '/' ? 'home' : null;
}

/**
 * The top-bar title (spec §2): Dashboard, or My clients on the clients pages (Clients for a role
 * that sees every adviser's clients, `seesAllLeads`: they are not the user's own), suffixed with
 * the corporate name and the development name when the route has them; Operations on the
 * operations page. Answers the parts; the screen translates the first one.
 */
export function titleParts(input: {
  pathname: string;
  corporateName?: string | null;
  developmentName?: string | null;
  seesAllClients?: boolean;
}): { key: 'dashboard' | 'myClients' | 'clients' | 'operations'; suffixes: string[] } {
  if (activeSidebarItem(input.pathname, null) === 'operaciones')
    return { key: 'operations', suffixes: [] };
  const clients = /^\/corporativos\/[^/]+\/clientes(\/|$)/.test(input.pathname);
  const suffixes = [input.corporateName, input.developmentName].filter((s): s is string =>
    Boolean(s),
  );
  if (!clients) return { key: 'dashboard', suffixes };
  return { key: input.seesAllClients ? 'clients' : 'myClients', suffixes };
}

/** The page a path shows, for its document title (each route its own title, issue 19). */
export type PageKey =
  | 'login'
  | 'corporates'
  | 'home'
  | 'developments'
  | 'development'
  | 'availability'
  | 'availabilityList'
  | 'units'
  | 'quotation'
  | 'quotationExtras'
  | 'comparator'
  | 'compare'
  | 'amenities'
  | 'documents'
  | 'galleries'
  | 'videos'
  | 'visualMaterial'
  | 'presentation'
  | 'prototypes'
  | 'clientRegistration'
  | 'location'
  | 'clients'
  | 'client'
  | 'events'
  | 'showrooms'
  | 'showroomPoster'
  | 'users'
  | 'crmSettings'
  | 'clientQuotation'
  | 'legalData'
  | 'corporateLabels'
  | 'operations'
  | 'sharedQuotation'
  | 'notFound';

/** A development's sub-page segment → its page (the routes under `desarrollos/$desarrollo`). */
const DEVELOPMENT_PAGES: Readonly<Record<string, PageKey>> = {
  disponibilidad: 'availability',
  'disponibilidad-simple': 'availabilityList',
  departamentos: 'units',
  cotizacion: 'quotation',
  'cotizacion-adicionales': 'quotationExtras',
  comparador: 'comparator',
  comparar: 'compare',
  amenidades: 'amenities',
  documentos: 'documents',
  galerias: 'galleries',
  'galerias-videos': 'videos',
  'material-visual': 'visualMaterial',
  presentacion: 'presentation',
  prototipos: 'prototypes',
  'registro-clientes': 'clientRegistration',
  ubicacion: 'location',
};

/**
 * The page of a path, signed-in and public alike (`/public/corporativos/…` names the same pages
 * as `/corporativos/…`); `notFound` for a path no route serves. A trailing slash is ignored.
 */
export function pageOf(pathname: string): PageKey {
  const parts = pathname.split('/').filter(Boolean);
  if (parts[0] === 'public') {
    if (parts[1] === 'cotizacion' && parts.length === 3) return 'sharedQuotation';
    parts.shift();
  }
  const [first, , section, id, sub, ...rest] = parts;
  if (parts.length === 1 && first === 'login') return 'login';
  if (parts.length === 1 && first === 'operaciones') return 'operations';
  if (first !== 'corporativos') return 'notFound';
  if (parts.length === 1) return 'corporates';
  if (parts.length === 2) return 'home';
  // A client's saved quotation (issue 19): `clientes/{lead}/cotizaciones/{quotation}`.
  if (section === 'clientes' && id !== undefined && sub === 'cotizaciones' && rest.length === 1)
    return 'clientQuotation';
  if (rest.length > 0) return 'notFound';
  switch (section) {
    case 'desarrollos':
      if (id === undefined) return 'developments';
      if (sub === undefined) return 'development';
      return Object.hasOwn(DEVELOPMENT_PAGES, sub) ? DEVELOPMENT_PAGES[sub]! : 'notFound';
    case 'clientes':
      return id === undefined ? 'clients' : sub === undefined ? 'client' : 'notFound';
    case 'eventos':
      return id === undefined ? 'events' : 'notFound';
    case 'usuarios':
      return id === undefined ? 'users' : 'notFound';
    case 'crm':
      return id === undefined ? 'crmSettings' : 'notFound';
    case 'datos-legales':
      return id === undefined ? 'legalData' : 'notFound';
    case 'idiomas':
      return id === undefined ? 'corporateLabels' : 'notFound';
    case 'showrooms':
      if (id === undefined) return 'showrooms';
      return sub === 'cartel' ? 'showroomPoster' : 'notFound';
    default:
      return 'notFound';
  }
}

/**
 * The name a page's document title starts with: its {@link pageOf}, except the clients list of a
 * role that sees every adviser's clients, `allClients` ("Clientes", not "Mis clientes").
 */
export function titledPageOf(pathname: string, seesAllClients = false): PageKey | 'allClients' {
  const page = pageOf(pathname);
  return page === 'clients' && seesAllClients ? 'allClients' : page;
}

export type Language = 'es' | 'en';

/**
 * The language a corporate page is shown in (spec §2): a corporate without `multiIdioma` switches
 * an English interface to Spanish; otherwise the current language stays.
 */
export function languageForCorporate(
  corporate: Pick<Corporate, 'multiIdioma'>,
  current: Language,
): Language {
  return !corporate.multiIdioma && current === 'en' ? 'es' : current;
}

/** The session guard keeps the current path when a `folio` query parameter exists (spec §2). */
export function keepsPathOnLogout(search: string): boolean {
  return new URLSearchParams(search.startsWith('?') ? search.slice(1) : search).has('folio');
}

/** The login page for a logout, with the redirect when one is given. */
export function loginPath(redirect?: string | null): string {
  const target = safeRedirect(redirect);
  return target ? `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}` : LOGIN_PATH;
}
