/**
 * The light sign-in page's flow (src/ui/lib/sign-in-flow.ts): the session machine's sign-in
 * rules without XState. Every server call and browser effect is a fake the test settles.
 */
import { describe, expect, it, vi } from 'vitest';
import type { User } from '../../src/core/types';
import type { SessionCorporate } from '../../src/machines/session.machine';
import { createSignInFlow, type SignInCalls } from '../../src/ui/lib/sign-in-flow';
import { deferred, flush } from './support/async';

const role = (id: string, adminHostes = false) => ({
  id,
  nombre: id,
  permisos: { adminHostes },
  permisosLeads: { alcanceLeads: 'Propios' as const },
  permisosUsuarios: {},
});
const horizonte: SessionCorporate = {
  id: 'c1',
  slug: 'grupo-horizonte',
  nombre: 'Grupo Horizonte',
  multiIdioma: false,
  aprobado: true,
  roles: [role('a'), role('h', true)],
};
const pacifico: SessionCorporate = { ...horizonte, id: 'c2', slug: 'desarrollos-pacifico' };

const user = (over: Partial<User> = {}): User => ({
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

const unanswered = () => Object.assign(new Error('network'), { status: 0, errorCode: 'NETWORK' });

function fakeCalls(over: Partial<SignInCalls> = {}) {
  let hostedListener: ((signedIn: boolean) => void) | null = null;
  const mocks = {
    sessionUser: vi.fn<SignInCalls['sessionUser']>(() => Promise.resolve(null)),
    corporates: vi.fn<SignInCalls['corporates']>(() => Promise.resolve([horizonte])),
    signIn: vi.fn<SignInCalls['signIn']>(() => Promise.resolve({ id: 'u1' })),
    signOut: vi.fn<SignInCalls['signOut']>(() => Promise.resolve()),
    exchange: vi.fn<SignInCalls['exchange']>(() => Promise.resolve({ id: 'u1' })),
    listenHosted: vi.fn<SignInCalls['listenHosted']>((listener) => {
      hostedListener = listener;
      return () => (hostedListener = null);
    }),
    leave: vi.fn<SignInCalls['leave']>(),
    storeAuthItem: vi.fn<SignInCalls['storeAuthItem']>(),
    forgetSession: vi.fn<SignInCalls['forgetSession']>(),
  };
  // A test drives by hand only the mocks it did not replace.
  const calls = { ...mocks, ...over } as typeof mocks;
  return { calls, hosted: (signedIn: boolean) => hostedListener?.(signedIn) };
}

describe('sign-in flow', () => {
  it('a visitor without a session gets the form; the device forgets any old session', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, null);
    flow.start();
    expect(flow.getState().phase).toBe('checking');
    await flush();
    expect(flow.getState()).toEqual({ phase: 'form', error: null });
    expect(calls.forgetSession).toHaveBeenCalledOnce();
    expect(calls.leave).not.toHaveBeenCalled();
  });

  it('an already signed-in visitor is sent on by the root behaviour, the redirect ignored', async () => {
    const { calls } = fakeCalls({
      sessionUser: () => Promise.resolve(user({ corporativos: ['c1', 'c2'] })),
      corporates: () => Promise.resolve([horizonte, pacifico]),
    });
    const flow = createSignInFlow(calls, '/corporativos/desarrollos-pacifico/usuarios');
    flow.start();
    await flush();
    expect(calls.leave).toHaveBeenCalledWith('/corporativos');
    expect(flow.getState().phase).toBe('leaving');
    // Not a sign-in: the auth item is written by a sign-in only.
    expect(calls.storeAuthItem).not.toHaveBeenCalled();
  });

  it('a sign-in follows the redirect query, and stores the auth item', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, '/corporativos/grupo-horizonte/desarrollos');
    flow.start();
    await flush();
    calls.sessionUser.mockResolvedValue(user());
    flow.signIn({ email: 'asesor@vitrina.demo', password: 'x' });
    expect(flow.getState().phase).toBe('busy');
    await flush();
    expect(calls.signIn).toHaveBeenCalledWith({ email: 'asesor@vitrina.demo', password: 'x' });
    expect(calls.storeAuthItem).toHaveBeenCalledWith('u1');
    expect(calls.leave).toHaveBeenCalledWith('/corporativos/grupo-horizonte/desarrollos');
  });

  it('without a redirect the role decides: a host administrator lands on the events page', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, null);
    flow.start();
    await flush();
    calls.sessionUser.mockResolvedValue(user({ roles: { c1: 'h' } }));
    flow.signIn({ email: 'hostess@vitrina.demo', password: 'x' });
    await flush();
    expect(calls.leave).toHaveBeenCalledWith('/corporativos/grupo-horizonte/eventos');
  });

  it('a redirect outside the application (or back to /login) is not followed', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, '//evil.example/phish');
    flow.start();
    await flush();
    calls.sessionUser.mockResolvedValue(user());
    flow.signIn({ email: 'a', password: 'b' });
    await flush();
    expect(calls.leave).toHaveBeenCalledWith('/corporativos/grupo-horizonte');
  });

  it('a refused sign-in shows the error in the spec shape and keeps the form', async () => {
    const { calls } = fakeCalls({
      signIn: () =>
        Promise.reject(Object.assign(new Error('x'), { errorCode: 'AUTH_INVALID', message: 'm' })),
    });
    const flow = createSignInFlow(calls, null);
    flow.start();
    await flush();
    flow.signIn({ email: 'a', password: 'b' });
    await flush();
    expect(flow.getState()).toEqual({
      phase: 'form',
      error: { errorCode: 'AUTH_INVALID', message: 'm' },
    });
    expect(calls.leave).not.toHaveBeenCalled();
  });

  it('a second sign-in while one runs is ignored', async () => {
    const pending = deferred<{ id: string }>();
    const { calls } = fakeCalls({ signIn: vi.fn(() => pending.promise) });
    const flow = createSignInFlow(calls, null);
    flow.start();
    await flush();
    flow.signIn({ email: 'a', password: 'b' });
    flow.signIn({ email: 'a', password: 'b' });
    expect(calls.signIn).toHaveBeenCalledOnce();
  });

  it('signed in but the user never answered: the form says so and the session is kept', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, null);
    flow.start();
    await flush();
    calls.sessionUser.mockRejectedValue(unanswered());
    flow.signIn({ email: 'a', password: 'b' });
    await flush();
    expect(flow.getState()).toEqual({
      phase: 'form',
      error: { errorCode: 'NETWORK', message: 'network' },
    });
    expect(calls.signOut).not.toHaveBeenCalled();
  });

  it('a session whose user record is gone is ended, back to the form', async () => {
    const { calls } = fakeCalls();
    const flow = createSignInFlow(calls, null);
    flow.start();
    await flush();
    calls.forgetSession.mockClear();
    flow.signIn({ email: 'a', password: 'b' });
    await flush();
    expect(calls.signOut).toHaveBeenCalledOnce();
    expect(calls.forgetSession).toHaveBeenCalledOnce();
    expect(flow.getState()).toEqual({ phase: 'form', error: null });
  });

  it('the hosted service signed in without our session: its token is exchanged once', async () => {
    const { calls, hosted } = fakeCalls({
      exchange: vi.fn(() =>
        Promise.reject(Object.assign(new Error('x'), { errorCode: 'FIREBASE_NO_ACCESS' })),
      ),
    });
    const flow = createSignInFlow(calls, null);
    flow.start();
    // Reported before the session check answered: exchanged once the visitor is known signed out.
    hosted(true);
    expect(calls.exchange).not.toHaveBeenCalled();
    await flush();
    expect(calls.exchange).toHaveBeenCalledOnce();
    expect(flow.getState().error?.errorCode).toBe('FIREBASE_NO_ACCESS');
    hosted(true);
    await flush();
    expect(calls.exchange).toHaveBeenCalledOnce();
  });

  it('an exchanged hosted sign-in lands like any sign-in', async () => {
    const { calls, hosted } = fakeCalls();
    const flow = createSignInFlow(calls, '/corporativos/grupo-horizonte/clientes');
    flow.start();
    await flush();
    calls.sessionUser.mockResolvedValue(user());
    hosted(true);
    await flush();
    expect(calls.leave).toHaveBeenCalledWith('/corporativos/grupo-horizonte/clientes');
    expect(calls.storeAuthItem).toHaveBeenCalledWith('u1');
  });
});
