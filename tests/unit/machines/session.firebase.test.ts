/**
 * The session machine with a hosted sign-in service (issue 22): the state listener is an invoked
 * callback actor; the 3000 ms guard and the logout rules are those of the built-in provider,
 * driven here by a simulated clock. The built-in provider (no listener) is
 * session.machine.test.ts, unchanged, plus the first case below.
 */
import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromCallback, fromPromise } from 'xstate';
import type { User } from '../../../src/core/types';
import {
  sessionMachine,
  type SessionCorporate,
  type SessionEvent,
  type SessionLocation,
} from '../../../src/machines/session.machine';
import { deferred, flush } from '../support/async';

const horizonte: SessionCorporate = {
  id: 'c1',
  slug: 'grupo-horizonte',
  nombre: 'Grupo Horizonte',
  multiIdioma: false,
  aprobado: true,
  roles: [
    {
      id: 'a',
      nombre: 'Asesor',
      permisos: {},
      permisosLeads: { alcanceLeads: 'Propios' },
      permisosUsuarios: {},
    },
  ],
};
const user: User = {
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
};

const loaded: { user: User | null; corporates: SessionCorporate[] } = {
  user,
  corporates: [horizonte],
};

interface Setup {
  location?: SessionLocation;
  /** Our server's session (the cookie). */
  checkSession?: () => Promise<{ id: string } | null>;
  exchangeToken?: () => Promise<{ id: string }>;
  signIn?: () => Promise<{ id: string }>;
  /** false: the built-in provider (no listener is provided). */
  hosted?: boolean;
}

function start(setup: Setup = {}) {
  const clock = new SimulatedClock();
  let report: ((e: SessionEvent) => void) | null = null;
  const spies = {
    navigate: vi.fn<(to: string, replace?: boolean) => void>(),
    signOut: vi.fn(() => Promise.resolve()),
    exchangeToken: vi.fn(setup.exchangeToken ?? (() => Promise.resolve({ id: 'u1' }))),
    signIn: vi.fn(setup.signIn ?? (() => Promise.resolve({ id: 'u1' }))),
    listenerStopped: vi.fn(),
  };
  let location = setup.location ?? { pathname: '/corporativos/grupo-horizonte', search: '' };
  const machine = sessionMachine.provide({
    actors: {
      checkSession: fromPromise(setup.checkSession ?? (() => Promise.resolve(null))),
      loadUser: fromPromise(() => Promise.resolve(loaded)),
      signIn: fromPromise(() => spies.signIn()),
      signOut: fromPromise(() => spies.signOut()),
      exchangeToken: fromPromise(() => spies.exchangeToken()),
      ...(setup.hosted === false
        ? {}
        : {
            authListener: fromCallback<SessionEvent>(({ sendBack }) => {
              report = sendBack;
              return () => spies.listenerStopped();
            }),
          }),
    },
    actions: {
      navigate: (_, params) => {
        spies.navigate(params.to, params.replace);
        const url = new URL(params.to, 'http://x');
        location = { pathname: url.pathname, search: url.search };
      },
      storeAuthItem: () => {},
      removeAuthItem: () => {},
      clearFeatureState: () => {},
    },
  });
  const actor = createActor(machine, { clock, input: { location: () => location } });
  actor.start();
  const hosted = (signedIn: boolean) => {
    if (!report) throw new Error('no listener');
    report({ type: 'session.authChanged', signedIn });
  };
  return { actor, clock, spies, hosted, hasListener: () => report !== null };
}

describe('session machine with a hosted sign-in service (issue 22)', () => {
  it('built-in provider: no listener reports anything, and nobody found is logged out at 3000 ms as before', async () => {
    const { actor, clock, spies, hasListener } = start({ hosted: false });
    await flush();
    expect(hasListener()).toBe(false);
    clock.increment(2999);
    expect(actor.getSnapshot().matches('loggingOut')).toBe(false);
    clock.increment(1);
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.exchangeToken).not.toHaveBeenCalled();
  });

  it('signed in to the service but without our session: the token is exchanged once and the user loaded', async () => {
    const { actor, spies, hosted } = start({ location: { pathname: '/', search: '' } });
    hosted(true);
    await flush();
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches('signedIn')).toBe(true);
    expect(snap.context.user?.id).toBe('u1');
    expect(spies.exchangeToken).toHaveBeenCalledTimes(1);
    // The root behaviour on arrival, as with a session found on the server.
    expect(spies.navigate).toHaveBeenCalledWith('/corporativos/grupo-horizonte', true);
  });

  it('the listener reporting before the server answers is remembered: the exchange follows the answer', async () => {
    const answer = deferred<{ id: string } | null>();
    const { actor, spies, hosted } = start({ checkSession: () => answer.promise });
    hosted(true);
    await flush();
    expect(spies.exchangeToken).not.toHaveBeenCalled();
    answer.resolve(null);
    await flush();
    await flush();
    expect(spies.exchangeToken).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
  });

  it('a refused exchange (no access) on /login: the error stays for the form, no retry, and the guard signs out quietly at 3000 ms', async () => {
    const { actor, clock, spies, hosted } = start({
      location: { pathname: '/login', search: '' },
      exchangeToken: () =>
        Promise.reject(
          Object.assign(new Error('Tu cuenta no tiene acceso'), {
            errorCode: 'FIREBASE_NO_ACCESS',
          }),
        ),
    });
    hosted(true);
    await flush();
    await flush();
    expect(actor.getSnapshot().matches({ resolving: 'awaitingUser' })).toBe(true);
    expect(actor.getSnapshot().context.error?.errorCode).toBe('FIREBASE_NO_ACCESS');
    expect(spies.exchangeToken).toHaveBeenCalledTimes(1);
    clock.increment(3000);
    await flush();
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.error?.errorCode).toBe('FIREBASE_NO_ACCESS');
  });

  it('an exchange still out at 3000 ms is waited for; refused later on a private page, the guard logs out then', async () => {
    const slow = deferred<{ id: string }>();
    const { actor, clock, spies, hosted } = start({ exchangeToken: () => slow.promise });
    hosted(true);
    await flush();
    expect(actor.getSnapshot().hasTag('checking')).toBe(true);
    clock.increment(3000);
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(false);
    expect(spies.signOut).not.toHaveBeenCalled();
    slow.reject(
      Object.assign(new Error('Tu cuenta no tiene acceso'), { errorCode: 'FIREBASE_NO_ACCESS' }),
    );
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte',
      true,
    );
    clock.increment(1000);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('an exchange still out at 3000 ms that then succeeds signs in', async () => {
    const slow = deferred<{ id: string }>();
    const { actor, clock, spies, hosted } = start({ exchangeToken: () => slow.promise });
    hosted(true);
    await flush();
    clock.increment(3000);
    await flush();
    slow.resolve({ id: 'u1' });
    await flush();
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('signed in, then signed out of the service elsewhere: logged out here, with the 1000 ms flag', async () => {
    const { actor, clock, spies, hosted } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
    });
    hosted(true);
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.exchangeToken).not.toHaveBeenCalled();
    hosted(false);
    await flush();
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    expect(spies.signOut).toHaveBeenCalledTimes(1);
    expect(spies.navigate).toHaveBeenCalledWith(
      '/login?redirect=%2Fcorporativos%2Fgrupo-horizonte',
      true,
    );
    clock.increment(999);
    expect(actor.getSnapshot().hasTag('logoutLoading')).toBe(true);
    clock.increment(1);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
  });

  it('a session of ours the service never knew (opened with the built-in sign-in) keeps working', async () => {
    const { actor, clock, spies, hosted } = start({
      checkSession: () => Promise.resolve({ id: 'u1' }),
    });
    await flush();
    hosted(false);
    clock.increment(10_000);
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signOut).not.toHaveBeenCalled();
  });

  it('the sign-in form: one sign-in (the service and the exchange in the signIn actor), no second exchange from the listener', async () => {
    const signing = deferred<{ id: string }>();
    const { actor, clock, spies, hosted } = start({
      location: { pathname: '/login', search: '' },
      signIn: () => signing.promise,
    });
    await flush();
    clock.increment(3000);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    actor.send({ type: 'session.signIn', email: 'asesor@vitrina.demo', password: 'x' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    hosted(true);
    signing.resolve({ id: 'u1' });
    await flush();
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.signIn).toHaveBeenCalledTimes(1);
    expect(spies.exchangeToken).not.toHaveBeenCalled();
    expect(spies.navigate).toHaveBeenCalledWith('/corporativos/grupo-horizonte', true);
  });

  it('signed out, then signed in to the service in another tab: signed in here too', async () => {
    const { actor, clock, spies, hosted } = start({ location: { pathname: '/login', search: '' } });
    await flush();
    clock.increment(3000);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    hosted(false);
    expect(actor.getSnapshot().matches('signedOut')).toBe(true);
    hosted(true);
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    await flush();
    expect(actor.getSnapshot().matches('signedIn')).toBe(true);
    expect(spies.exchangeToken).toHaveBeenCalledTimes(1);
  });

  it('the listener runs for the whole life of the session and stops with it', async () => {
    const { actor, spies } = start();
    await flush();
    actor.stop();
    expect(spies.listenerStopped).toHaveBeenCalledTimes(1);
  });
});
