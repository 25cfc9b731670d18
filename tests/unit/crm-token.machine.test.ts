import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import {
  CrmReconnectError,
  crmTokenMachine,
  retryOnceAfterRefresh,
  type CrmConnected,
  type CrmPopup,
  type CrmStatus,
} from '../../src/machines/crm-token.machine';
import { deferred, flush } from './support/async';

const T0 = Date.UTC(2026, 10, 26, 10, 0, 0);
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const info = { user_id: '42', email: 'sofia@vitrina.demo', name: 'Sofía Navarro' };

class FakePopup implements CrmPopup {
  closed = false;
  close() {
    this.closed = true;
  }
}

interface Setup {
  status?: () => Promise<CrmStatus>;
  authorise?: (popup: CrmPopup) => Promise<CrmConnected>;
  refresh?: () => Promise<{ expira: string }>;
  disconnect?: () => Promise<void>;
}

function start(setup: Setup = {}) {
  const clock = new SimulatedClock();
  clock.set(T0);
  const spies = {
    loadStatus: vi.fn(
      setup.status ??
        (() => Promise.resolve<CrmStatus>({ estado: 'desconectado', tipo: 'Hubspot' })),
    ),
    authorise: vi.fn(
      setup.authorise ??
        (() => Promise.resolve<CrmConnected>({ info, expira: iso(clock.now() + HOUR / 2) })),
    ),
    refresh: vi.fn(setup.refresh ?? (() => Promise.resolve({ expira: iso(clock.now() + HOUR) }))),
    disconnect: vi.fn(setup.disconnect ?? (() => Promise.resolve())),
    clearCrmState: vi.fn(),
    broadcast: vi.fn(),
  };
  const machine = crmTokenMachine.provide({
    actors: {
      loadStatus: fromPromise(() => spies.loadStatus()),
      authorise: fromPromise(({ input }) => spies.authorise(input.popup)),
      refresh: fromPromise(() => spies.refresh()),
      disconnect: fromPromise(() => spies.disconnect()),
    },
    actions: { clearCrmState: spies.clearCrmState, broadcast: spies.broadcast },
  });
  const actor = createActor(machine, {
    input: { corporateId: 'c1', now: () => clock.now() },
    clock,
  });
  actor.start();
  return { actor, clock, spies };
}

const conectado = (tipo: CrmStatus['tipo'], expiraMs: number): CrmStatus => ({
  estado: 'conectado',
  tipo,
  info,
  expira: iso(expiraMs),
});

const reauthorise = Object.assign(new Error('reautorizar'), {
  status: 409,
  errorCode: 'CRM_REAUTORIZAR',
});
/** An API-like error: an Error carrying the fields the client reads. */
const failure = (fields: { message?: string; [key: string]: unknown }) =>
  Object.assign(new Error(fields.message ?? ''), fields);
const unauthorised = (e: unknown) =>
  !!e && typeof e === 'object' && (e as { errorCode?: unknown }).errorCode === 'CRM_REAUTORIZAR';

describe('crm-token machine: status on start', () => {
  it('without credentials the adviser is disconnected (own lead list)', async () => {
    const { actor, spies } = start();
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(actor.getSnapshot().value).toBe('disconnected');
    expect(actor.getSnapshot().hasTag('crmSource')).toBe(false);
    expect(actor.getSnapshot().context.tipo).toBe('Hubspot');
    expect(spies.loadStatus).toHaveBeenCalledTimes(1);
  });

  it('a connection the server knows is connected until its expira', async () => {
    const { actor } = start({ status: () => Promise.resolve(conectado('Hubspot', T0 + HOUR)) });
    await flush();
    const s = actor.getSnapshot();
    expect(s.value).toBe('connected');
    expect(s.hasTag('crmSource')).toBe(true);
    expect(s.context.info).toEqual(info);
    expect(s.context.expira).toBe(T0 + HOUR);
  });

  it('estado expirado for Zoho refreshes at once; reautorizar shows the reconnect prompt', async () => {
    const zoho = start({
      status: () => Promise.resolve({ estado: 'expirado', tipo: 'Zoho', info }),
    });
    await flush();
    expect(zoho.spies.refresh).toHaveBeenCalledTimes(1);
    expect(zoho.actor.getSnapshot().value).toBe('connected');

    const sf = start({
      status: () => Promise.resolve({ estado: 'reautorizar', tipo: 'Salesforce', info }),
    });
    await flush();
    expect(sf.actor.getSnapshot().value).toEqual({ reauthorising: 'prompt' });
    expect(sf.actor.getSnapshot().hasTag('reconnectPrompt')).toBe(true);
    expect(sf.spies.refresh).not.toHaveBeenCalled();
  });

  it('a status call that fails ends in failed, and crm.retry asks again', async () => {
    let fail = true;
    const { actor, spies } = start({
      status: () =>
        fail
          ? Promise.reject(Object.assign(new Error('x'), { message: 'Sin red' }))
          : Promise.resolve({ estado: 'desconectado', tipo: null }),
    });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({ reason: 'other', message: 'Sin red' });
    fail = false;
    actor.send({ type: 'crm.retry' });
    await flush();
    expect(actor.getSnapshot().value).toBe('disconnected');
    expect(spies.loadStatus).toHaveBeenCalledTimes(2);
  });
});

describe('crm-token machine: the authorisation window', () => {
  it('connect → authorising with the clicked popup → connected, other tabs told', async () => {
    const popup = new FakePopup();
    const done = deferred<CrmConnected>();
    const { actor, spies, clock } = start({ authorise: () => done.promise });
    await flush();
    actor.send({ type: 'crm.connect', popup });
    expect(actor.getSnapshot().value).toBe('authorising');
    expect(spies.authorise).toHaveBeenCalledWith(popup);
    done.resolve({ info, expira: iso(clock.now() + 1800_000) });
    await flush();
    const s = actor.getSnapshot();
    expect(s.value).toBe('connected');
    expect(s.context.info).toEqual(info);
    expect(s.context.expira).toBe(T0 + 1800_000);
    expect(spies.broadcast).toHaveBeenCalledTimes(1);
  });

  it('a blocked popup fails at once without calling the server', async () => {
    const { actor, spies } = start();
    await flush();
    actor.send({ type: 'crm.connect', popup: null });
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure?.reason).toBe('popupBlocked');
    expect(spies.authorise).not.toHaveBeenCalled();
    // Blocked again from failed: still failed, still no call; a real popup then connects.
    actor.send({ type: 'crm.connect', popup: null });
    expect(actor.getSnapshot().context.failure?.reason).toBe('popupBlocked');
    actor.send({ type: 'crm.connect', popup: new FakePopup() });
    await flush();
    expect(actor.getSnapshot().value).toBe('connected');
  });

  it('the user closing the popup fails with popupClosed', async () => {
    const { actor } = start({
      authorise: () => Promise.reject(failure({ reason: 'popupClosed', message: '' })),
    });
    await flush();
    actor.send({ type: 'crm.connect', popup: new FakePopup() });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure?.reason).toBe('popupClosed');
    expect(actor.getSnapshot().context.info).toBeNull();
  });

  it('a wrong or reused state fails with the server message', async () => {
    const { actor } = start({
      authorise: () =>
        Promise.reject(
          failure({ reason: 'state', message: 'La autorización no es válida o ya se usó' }),
        ),
    });
    await flush();
    actor.send({ type: 'crm.connect', popup: new FakePopup() });
    await flush();
    expect(actor.getSnapshot().context.failure).toEqual({
      reason: 'state',
      message: 'La autorización no es válida o ya se usó',
    });
  });
});

describe('crm-token machine: expiry on the machine clock', () => {
  it('HubSpot stays connected until expira, then asks to re-authorise (no refresh)', async () => {
    const { actor, clock, spies } = start({
      status: () => Promise.resolve(conectado('Hubspot', T0 + 1800_000)),
    });
    await flush();
    clock.increment(1800_000 - 1);
    expect(actor.getSnapshot().value).toBe('connected');
    clock.increment(1);
    expect(actor.getSnapshot().value).toEqual({ reauthorising: 'prompt' });
    expect(actor.getSnapshot().hasTag('reconnectPrompt')).toBe(true);
    expect(actor.getSnapshot().hasTag('crmSource')).toBe(true);
    expect(spies.refresh).not.toHaveBeenCalled();

    // Reconnect through the window again.
    actor.send({ type: 'crm.connect', popup: new FakePopup() });
    expect(actor.getSnapshot().value).toEqual({ reauthorising: 'window' });
    await flush();
    expect(actor.getSnapshot().value).toBe('connected');
    expect(actor.getSnapshot().context.expira).toBe(clock.now() + HOUR / 2);
  });

  it('Salesforce re-authorising: a closed window fails, a blocked one too', async () => {
    const { actor, clock } = start({
      status: () => Promise.resolve(conectado('Salesforce', T0 + HOUR)),
      authorise: () => Promise.reject(failure({ reason: 'popupClosed', message: '' })),
    });
    await flush();
    clock.increment(HOUR);
    expect(actor.getSnapshot().value).toEqual({ reauthorising: 'prompt' });
    actor.send({ type: 'crm.connect', popup: null });
    expect(actor.getSnapshot().context.failure?.reason).toBe('popupBlocked');
    actor.send({ type: 'crm.connect', popup: new FakePopup() });
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure?.reason).toBe('popupClosed');
  });

  it('Zoho refreshes on the server at expira and stays connected (info kept, expira merged)', async () => {
    const { actor, clock, spies } = start({
      status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)),
    });
    await flush();
    clock.increment(HOUR);
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(actor.getSnapshot().hasTag('crmSource')).toBe(true);
    await flush();
    expect(actor.getSnapshot().value).toBe('connected');
    expect(actor.getSnapshot().context.expira).toBe(T0 + 2 * HOUR);
    expect(actor.getSnapshot().context.info).toEqual(info);
    expect(spies.refresh).toHaveBeenCalledTimes(1);
    // The new expiry arms a new timer.
    clock.increment(HOUR);
    await flush();
    expect(spies.refresh).toHaveBeenCalledTimes(2);
  });

  it('Zoho: a refresh the server cannot do (409 CRM_REAUTORIZAR) asks to re-authorise', async () => {
    const { actor, clock } = start({
      status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)),
      refresh: () => Promise.reject(reauthorise),
    });
    await flush();
    clock.increment(HOUR);
    await flush();
    expect(actor.getSnapshot().value).toEqual({ reauthorising: 'prompt' });
  });

  it('Zoho: any other refresh failure ends in failed (refresh)', async () => {
    const { actor, clock } = start({
      status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)),
      refresh: () =>
        Promise.reject(failure({ status: 502, errorCode: 'CRM_ERROR', message: 'Zoho caído' })),
    });
    await flush();
    clock.increment(HOUR);
    await flush();
    expect(actor.getSnapshot().value).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({
      reason: 'refresh',
      message: 'Zoho caído',
    });
  });
});

describe('crm-token machine: one 401 → one refresh → one retry', () => {
  it('concurrent calls that fail share one refresh and each retries once', async () => {
    const refresh = deferred<{ expira: string }>();
    const { actor, spies } = start({
      status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)),
      refresh: () => refresh.promise,
    });
    await flush();
    let tokenGood = false;
    const calls = vi.fn(() => (tokenGood ? Promise.resolve('leads') : Promise.reject(reauthorise)));
    const a = retryOnceAfterRefresh(actor, calls, unauthorised);
    const b = retryOnceAfterRefresh(actor, calls, unauthorised);
    const c = retryOnceAfterRefresh(actor, calls, unauthorised);
    await flush();
    expect(actor.getSnapshot().value).toBe('refreshing');
    expect(spies.refresh).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.refreshes).toBe(1);
    tokenGood = true;
    refresh.resolve({ expira: iso(T0 + 2 * HOUR) });
    await expect(Promise.all([a, b, c])).resolves.toEqual(['leads', 'leads', 'leads']);
    expect(calls).toHaveBeenCalledTimes(6);
    expect(spies.refresh).toHaveBeenCalledTimes(1);
  });

  it('a retry that fails again is not retried a second time', async () => {
    const { actor, spies } = start({
      status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)),
    });
    await flush();
    const calls = vi.fn(() => Promise.reject(reauthorise));
    await expect(retryOnceAfterRefresh(actor, calls, unauthorised)).rejects.toBe(reauthorise);
    expect(calls).toHaveBeenCalledTimes(2);
    expect(spies.refresh).toHaveBeenCalledTimes(1);
  });

  it('HubSpot: an unauthorised list call shows the reconnect prompt without a retry', async () => {
    const { actor, spies } = start({
      status: () => Promise.resolve(conectado('Hubspot', T0 + HOUR)),
    });
    await flush();
    const calls = vi.fn(() => Promise.reject(reauthorise));
    await expect(retryOnceAfterRefresh(actor, calls, unauthorised)).rejects.toBeInstanceOf(
      CrmReconnectError,
    );
    expect(calls).toHaveBeenCalledTimes(1);
    expect(spies.refresh).not.toHaveBeenCalled();
    expect(actor.getSnapshot().hasTag('reconnectPrompt')).toBe(true);
  });

  it('other errors pass through untouched and do not expire the connection', async () => {
    const { actor } = start({ status: () => Promise.resolve(conectado('Zoho', T0 + HOUR)) });
    await flush();
    const boom = failure({ status: 500, errorCode: 'INTERNAL' });
    await expect(
      retryOnceAfterRefresh(actor, () => Promise.reject(boom), unauthorised),
    ).rejects.toBe(boom);
    expect(actor.getSnapshot().value).toBe('connected');
  });
});

describe('crm-token machine: disconnect and other tabs', () => {
  it('disconnect empties the credentials and clears the local CRM state', async () => {
    const { actor, spies, clock } = start({
      status: () => Promise.resolve(conectado('Hubspot', T0 + HOUR)),
    });
    await flush();
    actor.send({ type: 'crm.disconnect' });
    expect(actor.getSnapshot().value).toBe('disconnecting');
    await flush();
    const s = actor.getSnapshot();
    expect(s.value).toBe('disconnected');
    expect(s.context.info).toBeNull();
    expect(spies.clearCrmState).toHaveBeenCalledTimes(1);
    expect(spies.disconnect).toHaveBeenCalledTimes(1);
    // No expiry timer left behind.
    clock.increment(2 * HOUR);
    expect(actor.getSnapshot().value).toBe('disconnected');
  });

  it('disconnect from the reconnect prompt, and a failing disconnect', async () => {
    const { actor, clock, spies } = start({
      status: () => Promise.resolve(conectado('Salesforce', T0 + HOUR)),
    });
    await flush();
    clock.increment(HOUR);
    await flush();
    expect(actor.getSnapshot().hasTag('reconnectPrompt')).toBe(true);
    actor.send({ type: 'crm.disconnect' });
    // The same disconnecting state as from a connection (the strip says "disconnecting").
    expect(actor.getSnapshot().value).toBe('disconnecting');
    await flush();
    expect(actor.getSnapshot().value).toBe('disconnected');
    expect(spies.clearCrmState).toHaveBeenCalledTimes(1);

    const failing = start({
      status: () => Promise.resolve(conectado('Salesforce', T0 + HOUR)),
      disconnect: () => Promise.reject(failure({ message: 'No se pudo' })),
    });
    await flush();
    failing.actor.send({ type: 'crm.disconnect' });
    await flush();
    expect(failing.actor.getSnapshot().value).toBe('failed');
    expect(failing.spies.clearCrmState).not.toHaveBeenCalled();
  });

  it('crm.changed (another tab connected) asks the server again', async () => {
    let status: CrmStatus = { estado: 'desconectado', tipo: 'Hubspot' };
    const { actor, spies } = start({ status: () => Promise.resolve(status) });
    await flush();
    status = conectado('Hubspot', T0 + HOUR);
    actor.send({ type: 'crm.changed' });
    await flush();
    expect(actor.getSnapshot().value).toBe('connected');
    expect(spies.loadStatus).toHaveBeenCalledTimes(2);
  });
});
