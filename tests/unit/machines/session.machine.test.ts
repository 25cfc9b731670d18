import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { Role, User } from '../../../src/core/types';
import {
  sessionMachine,
  ANSWER_LIMIT_MS,
  OFFLINE_RETRY_MS,
  USER_RETRY_MS,
  type SessionCorporate,
  type SessionLocation,
} from '../../../src/machines/session.machine';
import { deferred, flush } from '../support/async';

const hostRole: Role = {
  id: 'h',
  nombre: 'Hostess',
  permisos: { adminHostes: true },
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
};
const adviserRole: Role = { ...hostRole, id: 'a', nombre: 'Asesor', permisos: {} };

const corp = (id: string, slug: string): SessionCorporate => ({
  id,
  slug,
  nombre: slug,
  multiIdioma: false,
  aprobado: true,
  roles: [hostRole, adviserRole],
});
const horizonte = corp('c1', 'grupo-horizonte');
const pacifico = corp('c2', 'desarrollos-pacifico');

const makeUser = (over: Partial<User> = {}): User => ({
  id: 'u1',
  email: 'asesor@vitrina.demo',
  nombre: 'Sofía',
  apellidos: 'Navarro',
  corporativos: ['c1'],
  corporativosRegistro: [],
  corporativoFavorito: null,
  desarrollosFavoritos: {},
  roles: { c1: 'a' },
  fechaAlta: 0,
  esAdmin: false,
  ...over,
});

interface Setup {
  location?: SessionLocation;
  checkSession?: () => Promise<{ id: string } | null>;
  loadUser?: (id: string) => Promise<{ user: User | null; corporates: SessionCorporate[] }>;
  signIn?: (c: { email: string; password: string }) => Promise<{ id: string }>;
  signOut?: () => Promise<void>;
}

function start(setup: Setup = {}) {
  const clock = new SimulatedClock();
  const spies = {
    navigate: vi.fn<(to: string, replace?: boolean) => void>(),
    storeAuthItem: vi.fn<(id: string) => void>(),
    removeAuthItem: vi.fn(),
    clearFeatureState: vi.fn(),
    signOut: vi.fn(setup.signOut ?? (() => Promise.resolve())),
    loadUser: vi.fn(
      setup.loadUser ?? (() => Promise.resolve({ user: makeUser(), corporates: [horizonte] })),
    ),
  };
  let location = setup.location ?? { pathname: '/corporativos/grupo-horizonte', search: '' };
  const machine = sessionMachine.provide({
    actors: {
      checkSession: fromPromise(setup.checkSession ?? (() => Promise.resolve(null))),
      loadUser: fromPromise(({ input }) => spies.loadUser(input.id)),
      signIn: fromPromise(({ input }) =>
        (setup.signIn ?? (() => Promise.resolve({ id: 'u1' })))(input),
      ),
      signOut: fromPromise(() => spies.signOut()),
    },
    actions: {
      navigate: (_, params) => {
        spies.navigate(params.to, params.replace);
        const url = new URL(params.to, 'http://x');
        location = { pathname: url.pathname, search: url.search };
      },
      storeAuthItem: (_, params) => spies.storeAuthItem(params.id),
      removeAuthItem: () => {
        spies.removeAuthItem();
      },
      clearFeatureState: () => {
        spies.clearFeatureState();
      },
    },
  });
  const actor = createActor(machine, { clock, input: { location: () => location } });
  actor.start();
  return { actor, clock, spies, setLocation: (l: SessionLocation) => (location = l) };
}

describe('session machine: checking', () => {
  it('signs in from the existing session, loads the user and records nothing else', async () => {
    const { actor, spies } = start({ checkSession: () => Promise.resolve({ id: 'u1' }) });
    expect(actor.getSnapshot().hasTag('checking')).toBe(true);
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('signedIn')).toBe(true);
    expect(snap.hasTag('signedIn')).toBe(true);
    expect(snap.context.user?.id).toBe('u1');
    expect(spies.loadUser).toHaveBeenCalledWith('u1');
    // On a corporate path nothing is redirected.
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('applies the root behaviour when the session is found on /', async () => {
    const { actor, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      location: { pathname: '/', search: '' },
    });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.navigate).toHaveBeenCalledWith('/corporativos/grupo-horizonte', true);
  });

  it('logs out when no signed-in user is found within 3000 ms, with the current path as redirect', async () => {
    const { actor, clock, spies } = start({
      location: { pathname: '/corporativos/grupo-horizonte/clientes', search: '?x=1' },
    });
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'awaitingUser' })).toBe(true);
    expect(actor.getSnapshot().hasTag('signedOut')).toBe(true);
    clock.increment(2999);
    expect(actor.getSnapshot().matches({ resolving: 'awaitingUser' })).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
    clock.increment(1);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    await flush();
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte%2Fclientes%3Fx%3D1',
      true,
    );
    expect(spies.removeAuthItem).toHaveBeenCalledTimes(1);
    expect(spies.clearFeatureState).toHaveBeenCalledTimes(1);
  });

  it('keeps the current path when a folio query parameter exists', async () => {
    const { actor, clock, spies } = start({
      location: {
        pathname: '/corporativos/grupo-horizonte/desarrollos/torre/checkin',
        search: '?folio=A1',
      },
    });
    await flush();
    clock.increment(3000);
    await flush();
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.navigate).not.toHaveBeenCalled();
    expect(spies.removeAuthItem).toHaveBeenCalled();
    clock.increment(1000);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('a session check still out when the 3000 ms pass is waited for: a found user signs in', async () => {
    const pending = deferred<{ id: string } | null>();
    const { actor, clock, spies } = start({ checkSession: () => pending.promise });
    clock.increment(3000);
    await flush();
    // A slow answer is not "no user found": nothing is revoked while it is out.
    expect(actor.getSnapshot().matches({ resolving: 'checking' })).toBe(true);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    clock.increment(ANSWER_LIMIT_MS - 1);
    pending.resolve({ id: 'u1' });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.loadUser).toHaveBeenCalledWith('u1');
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('a user record still loading when the 3000 ms pass is waited for too', async () => {
    const pending = deferred<{ user: User | null; corporates: SessionCorporate[] }>();
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: () => pending.promise,
    });
    await flush();
    clock.increment(4000);
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'loadingUser' })).toBe(true);
    pending.resolve({ user: makeUser(), corporates: [horizonte] });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('a late answer that finds nobody logs out at once, with the current path as redirect', async () => {
    const pending = deferred<{ id: string } | null>();
    const { actor, clock, spies } = start({
      checkSession: () => pending.promise,
      location: { pathname: '/corporativos/grupo-horizonte/clientes', search: '' },
    });
    clock.increment(3500);
    await flush();
    expect(spies.signOut).not.toHaveBeenCalled();
    pending.resolve(null);
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte%2Fclientes',
      true,
    );
  });

  it('a question with no answer 10 s after the guard counts as none: offline, nothing revoked', async () => {
    const pending = deferred<{ id: string } | null>();
    const { actor, clock, spies } = start({ checkSession: () => pending.promise });
    clock.increment(3000);
    clock.increment(ANSWER_LIMIT_MS - 1);
    expect(actor.getSnapshot().matches({ resolving: 'checking' })).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    // The abandoned answer changes nothing.
    pending.resolve(null);
    await flush();
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('a user load that fails with no answer after the guard: offline at once, not retried in place', async () => {
    const pending = deferred<{ user: User | null; corporates: SessionCorporate[] }>();
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: () => pending.promise,
    });
    await flush();
    clock.increment(3000);
    pending.reject(Object.assign(new Error(''), { status: 0 }));
    await flush();
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('the timer does not fire once the user is signed in', async () => {
    const { actor, clock, spies } = start({ checkSession: () => Promise.resolve({ id: 'u1' }) });
    await flush();
    clock.increment(10_000);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('logs out a signed-in account without a user record', async () => {
    const { actor, spies } = start({
      checkSession: () => Promise.resolve({ id: 'ghost' }),
      loadUser: () => Promise.resolve({ user: null, corporates: [] }),
    });
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.user).toBeNull();
  });

  it('on the login page the guard stays there, keeping its redirect query', async () => {
    const { clock, spies } = start({
      location: { pathname: '/login', search: '?redirect=%2Fcorporativos' },
    });
    await flush();
    clock.increment(3000);
    await flush();
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('a signed-out visitor on the login page is logged out quietly: no overlay, no sign-out call', async () => {
    const { actor, clock, spies } = start({ location: { pathname: '/login', search: '' } });
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'awaitingUser' })).toBe(true);
    clock.increment(2999);
    expect(actor.getSnapshot().matches({ resolving: 'awaitingUser' })).toBe(true);
    clock.increment(1);
    const snap = actor.getSnapshot();
    expect(snap.matches('signedOut')).toBe(true);
    expect(snap.hasTag('logoutLoading')).toBe(false);
    expect(spies.removeAuthItem).toHaveBeenCalledTimes(1);
    expect(spies.clearFeatureState).toHaveBeenCalledTimes(1);
    await flush();
    expect(spies.signOut).not.toHaveBeenCalled();
    expect(spies.navigate).not.toHaveBeenCalled();
  });

  it('on the login page a session check answered after the guard still logs out quietly', async () => {
    const pending = deferred<{ id: string } | null>();
    const { actor, clock, spies } = start({
      checkSession: () => pending.promise,
      location: { pathname: '/login', search: '' },
    });
    clock.increment(3000);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    pending.resolve(null);
    await flush();
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    expect(spies.removeAuthItem).toHaveBeenCalledTimes(1);
    expect(spies.signOut).not.toHaveBeenCalled();
  });
});

describe('session machine: sign in', () => {
  it('signs in during the grace period and follows the redirect rules (adminHostes → events)', async () => {
    const hostess = makeUser({ id: 'u9', roles: { c1: 'h' } });
    const { actor, clock, spies } = start({
      location: { pathname: '/login', search: '' },
      signIn: () => Promise.resolve({ id: 'u9' }),
      loadUser: () => Promise.resolve({ user: hostess, corporates: [horizonte] }),
    });
    await flush();
    actor.send({ type: 'session.signIn', email: 'hostess@vitrina.demo', password: 'x' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.navigate).toHaveBeenCalledWith('/corporativos/grupo-horizonte/eventos', true);
    expect(spies.storeAuthItem).toHaveBeenCalledWith('u9');
    // The grace timer was cancelled by the sign-in.
    clock.increment(5000);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('follows the redirect query first', async () => {
    const { actor, clock, spies } = start();
    await flush();
    clock.increment(3000);
    await flush();
    clock.increment(1000);
    spies.navigate.mockClear();
    actor.send({
      type: 'session.signIn',
      email: 'a',
      password: 'b',
      redirect: '/corporativos/grupo-horizonte/clientes',
    });
    await flush();
    expect(spies.navigate).toHaveBeenCalledWith('/corporativos/grupo-horizonte/clientes', true);
  });

  it('two corporates with a favourite go to the favourite', async () => {
    const admin = makeUser({
      corporativos: ['c1', 'c2'],
      roles: { c1: 'a', c2: 'a' },
      corporativoFavorito: 'c2',
    });
    const { actor, spies } = start({
      loadUser: () => Promise.resolve({ user: admin, corporates: [horizonte, pacifico] }),
    });
    await flush();
    actor.send({ type: 'session.signIn', email: 'a', password: 'b' });
    await flush();
    expect(spies.navigate).toHaveBeenLastCalledWith('/corporativos/desarrollos-pacifico', true);
  });

  it('a failed sign-in keeps the user signed out with the server message', async () => {
    const { actor, spies } = start({
      signIn: () =>
        Promise.reject(
          Object.assign(new Error('El correo o la contraseña no son correctos'), {
            errorCode: 'BAD_CREDENTIALS',
          }),
        ),
    });
    await flush();
    actor.send({ type: 'session.signIn', email: 'a', password: 'b' });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('signedOut')).toBe(true);
    expect(snap.context.error).toEqual({
      errorCode: 'BAD_CREDENTIALS',
      message: 'El correo o la contraseña no son correctos',
    });
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('signing in to an account without a user record logs out', async () => {
    const { actor, spies } = start({
      loadUser: () => Promise.resolve({ user: null, corporates: [] }),
    });
    await flush();
    actor.send({ type: 'session.signIn', email: 'a', password: 'b' });
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.storeAuthItem).not.toHaveBeenCalled();
  });
});

describe('session machine: logout', () => {
  async function signedIn() {
    const ctx = start({ checkSession: () => Promise.resolve({ id: 'u1' }) });
    await flush();
    expect(ctx.actor.getSnapshot().matches('signedIn')).toBe(true);
    return ctx;
  }

  it('signs out on the server, clears everything, goes to /login and holds the flag for 1000 ms', async () => {
    const serverSignOut = deferred<void>();
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      signOut: () => serverSignOut.promise,
    });
    await flush();
    actor.send({ type: 'session.signOut' });
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    // Nothing is cleared before the server answered.
    expect(spies.removeAuthItem).not.toHaveBeenCalled();
    serverSignOut.resolve();
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.context.user).toBeNull();
    expect(snap.context.corporates).toEqual([]);
    expect(spies.removeAuthItem).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith('/login', true);
    expect(spies.clearFeatureState).toHaveBeenCalledTimes(1);
    // The order of the spec: navigate, then clear leads/check-in/comparator.
    expect(spies.navigate.mock.invocationCallOrder[0]!).toBeLessThan(
      spies.clearFeatureState.mock.invocationCallOrder[0]!,
    );
    clock.increment(999);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('navigates to /login with the redirect when one is given', async () => {
    const { actor, spies } = await signedIn();
    actor.send({ type: 'session.signOut', redirect: '/corporativos/grupo-horizonte' });
    await flush();
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte',
      true,
    );
  });

  it('clears the local state even when the server sign-out fails', async () => {
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      signOut: () => Promise.reject(new Error('offline')),
    });
    await flush();
    actor.send({ type: 'session.signOut' });
    await flush();
    expect(spies.removeAuthItem).toHaveBeenCalledTimes(1);
    expect(spies.clearFeatureState).toHaveBeenCalledTimes(1);
    clock.increment(1000);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('an expired session (API 401) logs out back to the current page', async () => {
    const { actor, spies, setLocation } = await signedIn();
    setLocation({ pathname: '/corporativos/grupo-horizonte/usuarios', search: '' });
    actor.send({ type: 'session.expired' });
    await flush();
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte%2Fusuarios',
      true,
    );
  });

  it('a user update replaces the user without leaving the signed-in state', async () => {
    const { actor } = await signedIn();
    actor.send({ type: 'session.userUpdated', user: makeUser({ corporativoFavorito: 'c1' }) });
    expect(actor.getSnapshot().context.user?.corporativoFavorito).toBe('c1');
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });
});

describe('session machine: requests that get no answer', () => {
  const unanswered = () => Promise.reject(Object.assign(new Error(''), { status: 0 }));
  const aborted = () => Promise.reject(new DOMException('aborted', 'AbortError'));

  it('a user load that gets no answer is asked again, and never revokes the session', async () => {
    let calls = 0;
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: () =>
        ++calls === 1
          ? unanswered()
          : Promise.resolve({ user: makeUser(), corporates: [horizonte] }),
    });
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'retryingUser' })).toBe(true);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    clock.increment(USER_RETRY_MS);
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.loadUser).toHaveBeenCalledTimes(2);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('an aborted user load (the page unloading) does not log out either', async () => {
    const { actor, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: aborted,
    });
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'retryingUser' })).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('still logs out when the user record does not load for another reason', async () => {
    const { actor, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: () => Promise.reject(Object.assign(new Error('boom'), { status: 500 })),
    });
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
  });

  it('offline at start (the session check gets no answer): the offline state, nothing revoked, asked again after OFFLINE_RETRY_MS; back online, signed in', async () => {
    let online = false;
    let checks = 0;
    const { actor, clock, spies } = start({
      checkSession: () => {
        checks += 1;
        return online ? Promise.resolve({ id: 'u1' }) : unanswered();
      },
      loadUser: () => Promise.resolve({ user: makeUser(), corporates: [horizonte] }),
    });
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('offline')).toBe(true);
    expect(snap.hasTag('offline') && snap.hasTag('checking')).toBe(true);
    // The 3000 ms guard does not run offline.
    clock.increment(3000);
    await flush();
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
    clock.increment(OFFLINE_RETRY_MS - 3000);
    await flush();
    expect(checks).toBe(2);
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    online = true;
    actor.send({ type: 'session.retry' });
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('a user load still unanswered when the 3000 ms guard comes: offline, not logged out', async () => {
    const { actor, clock, spies } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
      loadUser: unanswered,
    });
    await flush();
    for (let t = 0; t < 3000; t += USER_RETRY_MS) {
      clock.increment(USER_RETRY_MS);
      await flush();
    }
    expect(actor.getSnapshot().matches('offline')).toBe(true);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('after a sign-in, a user load with no answer returns to the form without revoking', async () => {
    const { actor, spies } = start({ location: { pathname: '/login', search: '' } });
    await flush();
    spies.loadUser.mockImplementation(unanswered);
    actor.send({ type: 'session.signIn', email: 'a@b.mx', password: 'x' });
    await flush();
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(actor.getSnapshot().context.error).not.toBeNull();
    expect(spies.signOut).not.toHaveBeenCalled();
  });
});
