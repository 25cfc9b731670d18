import { describe, expect, it } from 'vitest';
import {
  activeSidebarItem,
  homePath,
  keepsPathOnLogout,
  languageForCorporate,
  loginPath,
  pageOf,
  redirectAfterLogin,
  rootRedirect,
  safeRedirect,
  sidebarItems,
  walkInPath,
  spanishPathOf,
  titleParts,
  titledPageOf,
  type NavCorporate,
} from '../../src/core/navigation';
import type { Role, User } from '../../src/core/types';

const role = (id: string, extra: Partial<Role> = {}): Role => ({
  id,
  nombre: id,
  permisos: {},
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
  ...extra,
});
const hostRole = role('hostes', { permisos: { adminHostes: true } });
const adviser = role('asesor');
const manager = role('gerente', { permisosUsuarios: { editarUsuarios: true } });
const admin = role('admin', { permisosUsuarios: { crearUsuarios: true, editarUsuarios: true } });

const corpA: NavCorporate = {
  id: 'a',
  slug: 'grupo-a',
  roles: [hostRole, adviser, manager, admin],
};
const corpB: NavCorporate = {
  id: 'b',
  slug: 'grupo-b',
  roles: [hostRole, adviser, manager, admin],
};
const corpC: NavCorporate = { id: 'c', slug: 'grupo-c', roles: [hostRole, adviser] };
const all = [corpA, corpB, corpC];

type U = Pick<User, 'corporativos' | 'corporativoFavorito' | 'roles'>;
const user = (
  corporativos: string[],
  roles: Record<string, string>,
  corporativoFavorito: string | null = null,
): U => ({
  corporativos,
  roles,
  corporativoFavorito,
});

describe('redirect after login (spec §2, four rules in order)', () => {
  it('rule 1: a redirect query wins over every other rule', () => {
    const hostess = user(['a'], { a: 'hostes' }, 'a');
    expect(
      redirectAfterLogin({
        redirect: '/corporativos/grupo-a/clientes?folio=9',
        user: hostess,
        corporates: all,
      }),
    ).toBe('/corporativos/grupo-a/clientes?folio=9');
  });

  it('rule 1 ignores a redirect that leaves the application or loops to the login page', () => {
    const one = user(['b'], { b: 'asesor' });
    for (const redirect of [
      'https://evil.example/',
      '//evil.example',
      '/\\evil.example',
      'corporativos',
      '/login?redirect=/x',
      '',
      null,
    ]) {
      expect(redirectAfterLogin({ redirect, user: one, corporates: all }), String(redirect)).toBe(
        '/corporativos/grupo-b',
      );
    }
  });

  it('rule 2: a host administrator lands on the events page of the favourite corporate', () => {
    const hostess = user(['a', 'b'], { a: 'hostes', b: 'hostes' }, 'b');
    expect(redirectAfterLogin({ user: hostess, corporates: all })).toBe(
      '/corporativos/grupo-b/eventos',
    );
  });

  it('rule 2: without a favourite among them, the first corporate where the user is host administrator', () => {
    expect(
      redirectAfterLogin({ user: user(['a', 'b'], { a: 'hostes', b: 'hostes' }), corporates: all }),
    ).toBe('/corporativos/grupo-a/eventos');
    // Favourite set to a corporate where the user is not a host administrator: the hosting one.
    expect(
      redirectAfterLogin({
        user: user(['a', 'b'], { a: 'asesor', b: 'hostes' }, 'a'),
        corporates: all,
      }),
    ).toBe('/corporativos/grupo-b/eventos');
    // Rule 2 comes before rule 3 even with a single corporate.
    expect(redirectAfterLogin({ user: user(['c'], { c: 'hostes' }), corporates: all })).toBe(
      '/corporativos/grupo-c/eventos',
    );
  });

  it('rule 3: two or more corporates go to the favourite one', () => {
    expect(
      redirectAfterLogin({
        user: user(['a', 'b'], { a: 'admin', b: 'admin' }, 'b'),
        corporates: all,
      }),
    ).toBe('/corporativos/grupo-b');
  });

  it('rule 3: two or more corporates without a favourite (or one not found) go to the corporates list', () => {
    expect(
      redirectAfterLogin({ user: user(['a', 'b'], { a: 'admin', b: 'admin' }), corporates: all }),
    ).toBe('/corporativos');
    expect(
      redirectAfterLogin({
        user: user(['a', 'b'], { a: 'admin', b: 'admin' }, 'zz'),
        corporates: all,
      }),
    ).toBe('/corporativos');
    // A favourite the user is no longer a member of is "not found".
    expect(
      redirectAfterLogin({
        user: user(['a', 'b'], { a: 'admin', b: 'admin' }, 'c'),
        corporates: all,
      }),
    ).toBe('/corporativos');
  });

  it('rule 4: one corporate goes to that corporate', () => {
    expect(redirectAfterLogin({ user: user(['c'], { c: 'asesor' }), corporates: all })).toBe(
      '/corporativos/grupo-c',
    );
  });

  it('with no approved corporate (a pending broker) the corporates list shows the pending ones', () => {
    expect(redirectAfterLogin({ user: user([], {}), corporates: all })).toBe('/corporativos');
  });
});

describe('root behaviour (spec §2)', () => {
  it('one corporate goes straight to it; several go to the corporates list', () => {
    expect(rootRedirect('/', user(['b'], { b: 'asesor' }), all)).toBe('/corporativos/grupo-b');
    expect(rootRedirect('/', user(['a', 'b'], { a: 'asesor', b: 'asesor' }, 'a'), all)).toBe(
      '/corporativos',
    );
    expect(rootRedirect('/', user([], {}), all)).toBe('/corporativos');
    expect(rootRedirect('/login', user(['b'], { b: 'asesor' }), all)).toBe('/corporativos/grupo-b');
  });

  it('on a corporate or clients path (or any other page) nothing is redirected', () => {
    const one = user(['b'], { b: 'asesor' });
    expect(rootRedirect('/corporativos/grupo-a', one, all)).toBeNull();
    expect(rootRedirect('/corporativos/grupo-b/clientes', one, all)).toBeNull();
    expect(rootRedirect('/corporativos', one, all)).toBeNull();
  });
});

describe('sidebar Home (spec §2)', () => {
  it('goes to the favourite corporate when set', () => {
    expect(homePath({ user: user(['a', 'b'], {}, 'b'), corporates: all, current: corpA })).toBe(
      '/corporativos/grupo-b',
    );
  });
  it('else to the corporates list with more than one corporate', () => {
    expect(homePath({ user: user(['a', 'b'], {}), corporates: all, current: corpA })).toBe(
      '/corporativos',
    );
  });
  it('else to the current corporate', () => {
    expect(homePath({ user: user(['c'], {}), corporates: all, current: corpC })).toBe(
      '/corporativos/grupo-c',
    );
    expect(homePath({ user: user(['c'], {}), corporates: all })).toBe('/corporativos/grupo-c');
    expect(homePath({ user: user([], {}), corporates: all })).toBe('/corporativos');
  });
});

describe('sidebar items (spec §2, §6)', () => {
  it('standard items with Events; Users only with crearUsuarios or editarUsuarios; the switch hidden with one corporate', () => {
    expect(sidebarItems({ role: adviser, corporateCount: 1, inCorporate: true })).toEqual([
      'home',
      'clientes',
      'desarrollos',
      'eventos',
      'settings',
      'logout',
    ]);
    expect(sidebarItems({ role: manager, corporateCount: 1, inCorporate: true })).toEqual([
      'home',
      'clientes',
      'desarrollos',
      'eventos',
      'usuarios',
      'settings',
      'logout',
    ]);
    expect(sidebarItems({ role: admin, corporateCount: 2, inCorporate: true })).toEqual([
      'home',
      'clientes',
      'desarrollos',
      'eventos',
      'usuarios',
      'switchCorporate',
      'settings',
      'logout',
    ]);
  });
  it('a host administrator sees the walk-in registration and Events instead of the standard items', () => {
    expect(sidebarItems({ role: hostRole, corporateCount: 1, inCorporate: true })).toEqual([
      'home',
      'registroClientes',
      'eventos',
      'settings',
      'logout',
    ]);
  });
  it('a platform administrator (operator) also has Operations, in a corporate or not', () => {
    expect(
      sidebarItems({ role: admin, corporateCount: 2, inCorporate: true, operator: true }),
    ).toEqual([
      'home',
      'clientes',
      'desarrollos',
      'eventos',
      'usuarios',
      'operaciones',
      'switchCorporate',
      'settings',
      'logout',
    ]);
    expect(sidebarItems({ corporateCount: 1, inCorporate: false, operator: true })).toEqual([
      'home',
      'operaciones',
      'settings',
      'logout',
    ]);
    expect(sidebarItems({ role: admin, corporateCount: 1, inCorporate: true })).not.toContain(
      'operaciones',
    );
  });
  it('outside a corporate only Home and the common items', () => {
    expect(sidebarItems({ corporateCount: 3, inCorporate: false })).toEqual([
      'home',
      'switchCorporate',
      'settings',
      'logout',
    ]);
  });
  it('highlights the item the path belongs to', () => {
    expect(activeSidebarItem('/corporativos/grupo-a', 'grupo-a')).toBe('home');
    expect(
      activeSidebarItem('/corporativos/grupo-a/desarrollos/torre/disponibilidad', 'grupo-a'),
    ).toBe('desarrollos');
    expect(activeSidebarItem('/corporativos/grupo-a/clientes', 'grupo-a')).toBe('clientes');
    expect(activeSidebarItem('/corporativos/grupo-a/eventos', 'grupo-a')).toBe('eventos');
    expect(
      activeSidebarItem('/corporativos/grupo-a/desarrollos/torre/registro-clientes', 'grupo-a'),
    ).toBe('registroClientes');
    expect(walkInPath('grupo-a', 'torre')).toBe(
      '/corporativos/grupo-a/desarrollos/torre/registro-clientes',
    );
    expect(activeSidebarItem('/corporativos', null)).toBe('home');
    expect(activeSidebarItem('/corporativos/grupo-a/otra', 'grupo-a')).toBeNull();
    expect(activeSidebarItem('/operaciones', null)).toBe('operaciones');
    expect(activeSidebarItem('/operaciones', 'grupo-a')).toBe('operaciones');
  });
});

describe('top-bar title (spec §2)', () => {
  it('Dashboard, suffixed with the corporate and development names', () => {
    expect(titleParts({ pathname: '/corporativos/a', corporateName: 'Grupo A' })).toEqual({
      key: 'dashboard',
      suffixes: ['Grupo A'],
    });
    expect(
      titleParts({
        pathname: '/corporativos/a/desarrollos/t',
        corporateName: 'Grupo A',
        developmentName: 'Torre',
      }),
    ).toEqual({
      key: 'dashboard',
      suffixes: ['Grupo A', 'Torre'],
    });
    expect(titleParts({ pathname: '/corporativos' })).toEqual({ key: 'dashboard', suffixes: [] });
  });
  it('Operations on the operations page', () => {
    expect(titleParts({ pathname: '/operaciones', corporateName: 'Grupo A' })).toEqual({
      key: 'operations',
      suffixes: [],
    });
  });
  it('My clients on the clients pages; Clients for a role that sees every adviser’s', () => {
    expect(titleParts({ pathname: '/corporativos/a/clientes', corporateName: 'Grupo A' })).toEqual({
      key: 'myClients',
      suffixes: ['Grupo A'],
    });
    for (const pathname of ['/corporativos/a/clientes', '/corporativos/a/clientes/lead-1'])
      expect(titleParts({ pathname, corporateName: 'Grupo A', seesAllClients: true })).toEqual({
        key: 'clients',
        suffixes: ['Grupo A'],
      });
    expect(titleParts({ pathname: '/corporativos/a', seesAllClients: true }).key).toBe('dashboard');
  });
});

describe('language and logout helpers', () => {
  it('switches English to Spanish for a corporate without multiIdioma', () => {
    expect(languageForCorporate({ multiIdioma: false }, 'en')).toBe('es');
    expect(languageForCorporate({ multiIdioma: false }, 'es')).toBe('es');
    expect(languageForCorporate({ multiIdioma: true }, 'en')).toBe('en');
  });
  it('keeps the path on logout only with a folio query parameter', () => {
    expect(keepsPathOnLogout('?folio=123')).toBe(true);
    expect(keepsPathOnLogout('a=1&folio=')).toBe(true);
    expect(keepsPathOnLogout('?foliox=1')).toBe(false);
    expect(keepsPathOnLogout('')).toBe(false);
  });
  it('builds the login path with a safe redirect only', () => {
    expect(loginPath('/corporativos/a?x=1')).toBe('/login?redirect=%2Fcorporativos%2Fa%3Fx%3D1');
    expect(loginPath('https://evil.example')).toBe('/login');
    expect(loginPath()).toBe('/login');
    expect(safeRedirect('/a\nb')).toBeNull();
  });
});

describe('English route builders (spec §2: corporates, events, developments, users, clients)', () => {
  it('each English segment names its Spanish page; what follows the section is kept', () => {
    expect(spanishPathOf('/corporates')).toBe('/corporativos');
    expect(spanishPathOf('/corporates/')).toBe('/corporativos/');
    expect(spanishPathOf('/corporates/grupo-horizonte')).toBe('/corporativos/grupo-horizonte');
    expect(spanishPathOf('/corporates/grupo-horizonte/events')).toBe(
      '/corporativos/grupo-horizonte/eventos',
    );
    expect(spanishPathOf('/corporates/grupo-horizonte/users')).toBe(
      '/corporativos/grupo-horizonte/usuarios',
    );
    expect(spanishPathOf('/corporates/grupo-horizonte/clients/lead-1')).toBe(
      '/corporativos/grupo-horizonte/clientes/lead-1',
    );
    expect(spanishPathOf('/corporates/grupo-horizonte/developments/torre/disponibilidad')).toBe(
      '/corporativos/grupo-horizonte/desarrollos/torre/disponibilidad',
    );
  });

  it('our own paths, unknown sections and look-alike slugs are left alone', () => {
    expect(spanishPathOf('/corporativos/grupo-horizonte/eventos')).toBeNull();
    expect(spanishPathOf('/login')).toBeNull();
    expect(spanishPathOf('/corporatesx')).toBeNull();
    // A development called "events" is a slug, not a section.
    expect(spanishPathOf('/corporates/c/developments/events')).toBe(
      '/corporativos/c/desarrollos/events',
    );
    expect(spanishPathOf('/corporates/c/constructor')).toBe('/corporativos/c/constructor');
    expect(spanishPathOf('/corporates/c/toString')).toBe('/corporativos/c/toString');
  });
});

describe('page of a path (document titles, issue 19)', () => {
  it('names every route, signed-in and public alike', () => {
    const dev = '/corporativos/grupo-horizonte/desarrollos/torre-alameda';
    expect(pageOf('/login')).toBe('login');
    expect(pageOf('/operaciones')).toBe('operations');
    expect(pageOf('/corporativos')).toBe('corporates');
    expect(pageOf('/corporativos/grupo-horizonte')).toBe('home');
    expect(pageOf('/corporativos/grupo-horizonte/desarrollos/')).toBe('developments');
    expect(pageOf(dev)).toBe('development');
    expect(pageOf(`${dev}/disponibilidad`)).toBe('availability');
    expect(pageOf(`${dev}/disponibilidad-simple`)).toBe('availabilityList');
    expect(pageOf(`${dev}/cotizacion`)).toBe('quotation');
    expect(pageOf(`${dev}/cotizacion-adicionales`)).toBe('quotationExtras');
    expect(pageOf(`${dev}/registro-clientes`)).toBe('clientRegistration');
    expect(pageOf(`/public${dev}/disponibilidad`)).toBe('availability');
    expect(pageOf(`/public${dev}/cotizacion`)).toBe('quotation');
    expect(pageOf('/public/cotizacion/abc.def.ghi')).toBe('sharedQuotation');
    expect(pageOf('/corporativos/grupo-horizonte/clientes')).toBe('clients');
    expect(pageOf('/corporativos/grupo-horizonte/clientes/lead-1')).toBe('client');
    expect(pageOf('/corporativos/grupo-horizonte/eventos')).toBe('events');
    expect(pageOf('/corporativos/grupo-horizonte/usuarios')).toBe('users');
    expect(pageOf('/corporativos/grupo-horizonte/showrooms')).toBe('showrooms');
    expect(pageOf('/corporativos/grupo-horizonte/showrooms/s1/cartel')).toBe('showroomPoster');
  });

  it('the clients list of a role that sees every adviser’s clients is titled allClients', () => {
    const clients = '/corporativos/grupo-horizonte/clientes';
    expect(titledPageOf(clients)).toBe('clients');
    expect(titledPageOf(clients, true)).toBe('allClients');
    expect(titledPageOf(`${clients}/lead-1`, true)).toBe('client');
    expect(titledPageOf('/corporativos/grupo-horizonte', true)).toBe('home');
  });

  it('answers notFound for paths no route serves', () => {
    for (const path of [
      '/',
      '/nada',
      '/public',
      '/public/cotizacion',
      '/corporativos/grupo-horizonte/otra',
      '/corporativos/grupo-horizonte/desarrollos/torre-alameda/constructor',
      '/corporativos/grupo-horizonte/desarrollos/torre-alameda/disponibilidad/mas',
      '/corporativos/grupo-horizonte/clientes/lead-1/notas',
      '/corporativos/grupo-horizonte/showrooms/s1/otro',
    ])
      expect(pageOf(path), path).toBe('notFound');
  });
});
