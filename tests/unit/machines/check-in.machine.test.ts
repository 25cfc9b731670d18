import { describe, expect, it, vi } from 'vitest';
import { SimulatedClock, createActor, fromPromise } from 'xstate';
import type { CheckIn } from '../../../src/core/check-in';
import type { DevicePosition } from '../../../src/core/geo';
import type { Showroom } from '../../../src/core/types';
import {
  CheckInSaveError,
  LocateError,
  checkInMachine,
  type Candidate,
  type SaveCheckInInput,
} from '../../../src/machines/check-in.machine';

// One degree of latitude on a 6371 km sphere.
const KM_PER_DEGREE = (Math.PI * 6371) / 180;
const alameda: Showroom = {
  id: 'sr-alameda',
  nombre: 'Showroom Alameda',
  activo: true,
  coordenadas: { _latitude: 19.4349, _longitude: -99.1442 },
};
const north = (km: number, accuracy: number): DevicePosition => ({
  latitude: 19.4349 + km / KM_PER_DEGREE,
  longitude: -99.1442,
  accuracy,
});

const T0 = Date.parse('2026-11-22T15:00:00.000Z');
const checkInAt = (ms: number, over: Partial<CheckIn> = {}): CheckIn => ({
  id: 'ci-1',
  idCorporativo: 'corp-1',
  idUsuario: 'u-1',
  check: true,
  idShowroom: alameda.id,
  nombreShowroom: alameda.nombre,
  coordenadas: null,
  tipoRegistro: 'Geolocalizacion',
  fechaAlta: { _seconds: Math.floor(ms / 1000) },
  checkInActivo: true,
  ...over,
});

/** A promise the test settles by hand, so the test decides what happens first. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const flush = () => new Promise<void>((r) => setTimeout(r, 0));

interface Setup {
  folio?: string | null;
  showrooms?: Showroom[];
  loadCheckIn?: () => Promise<CheckIn | null>;
  locate?: () => Promise<DevicePosition>;
  evaluate?: (input: { showrooms: Showroom[]; position: DevicePosition }) => Promise<Candidate>;
  saveCheckIn?: (input: SaveCheckInInput) => Promise<CheckIn>;
  checkOut?: (checkIn: CheckIn) => Promise<CheckIn>;
}

function start(setup: Setup = {}) {
  const clock = new SimulatedClock();
  clock.set(T0);
  const spies = {
    log: vi.fn<(message: string) => void>(),
    folioDone: vi.fn(),
    loadCheckIn: vi.fn(setup.loadCheckIn ?? (() => Promise.resolve(null))),
    locate: vi.fn(setup.locate ?? (() => Promise.resolve(north(0.05, 20)))),
    saveCheckIn: vi.fn(
      setup.saveCheckIn ?? ((_: SaveCheckInInput) => Promise.resolve(checkInAt(clock.now()))),
    ),
    checkOut: vi.fn(
      setup.checkOut ?? ((c: CheckIn) => Promise.resolve({ ...c, checkInActivo: false })),
    ),
  };
  const machine = checkInMachine.provide({
    actors: {
      loadCheckIn: fromPromise(() => spies.loadCheckIn()),
      locate: fromPromise(() => spies.locate()),
      saveCheckIn: fromPromise(({ input }) => spies.saveCheckIn(input)),
      checkOut: fromPromise(({ input }) => spies.checkOut(input)),
      ...(setup.evaluate ? { evaluate: fromPromise(({ input }) => setup.evaluate!(input)) } : {}),
    },
    actions: {
      log: (_, message) => spies.log(message),
      folioDone: () => spies.folioDone(),
    },
  });
  const actor = createActor(machine, {
    clock,
    input: {
      showrooms: setup.showrooms ?? [alameda],
      folio: setup.folio ?? null,
      now: () => clock.now(),
    },
  });
  actor.start();
  return { actor, clock, spies };
}

const state = (actor: ReturnType<typeof start>['actor']) => actor.getSnapshot().value;

describe('check-in machine: loading', () => {
  it('no check-in: idle, and the spec logs "sin checkin"', async () => {
    const { actor, spies } = start();
    expect(state(actor)).toBe('loading');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    await flush();
    expect(state(actor)).toBe('idle');
    expect(spies.log).toHaveBeenCalledWith('sin checkin');
    expect(spies.locate).not.toHaveBeenCalled();
  });

  it('an active check-in: checkedIn, then idle (expired) exactly 43200 s after fechaAlta', async () => {
    // Made 2 hours ago: 10 hours left.
    const active = checkInAt(T0 - 2 * 3_600_000);
    const { actor, clock } = start({ loadCheckIn: () => Promise.resolve(active) });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(actor.getSnapshot().context.checkIn).toEqual(active);
    clock.increment(10 * 3_600_000);
    expect(state(actor)).toBe('checkedIn');
    clock.increment(1);
    expect(state(actor)).toBe('idle');
    expect(actor.getSnapshot().context).toMatchObject({ checkIn: null, expired: true });
  });

  it('a lookup that fails: idle, logged', async () => {
    const { actor, spies } = start({ loadCheckIn: () => Promise.reject(new Error('offline')) });
    await flush();
    expect(state(actor)).toBe('idle');
    expect(spies.log).toHaveBeenCalledWith(expect.stringContaining('offline'));
  });
});

describe('check-in machine: by position', () => {
  it('idle → locating → evaluating (worker) → saving → checkedIn, sending the showroom and the position; expires after 43200 s', async () => {
    const located = deferred<DevicePosition>();
    const { actor, clock, spies } = start({ locate: () => located.promise });
    await flush();
    actor.send({ type: 'checkIn.start' });
    expect(state(actor)).toBe('locating');
    // A second tap while busy does nothing: one tap, one check-in.
    actor.send({ type: 'checkIn.start' });
    expect(spies.locate).toHaveBeenCalledTimes(1);
    located.resolve(north(0.05, 20));
    await flush();
    expect(spies.saveCheckIn).toHaveBeenCalledTimes(1);
    expect(spies.saveCheckIn).toHaveBeenCalledWith({
      tipoRegistro: 'Geolocalizacion',
      showroom: alameda,
      position: north(0.05, 20),
    });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(spies.folioDone).toHaveBeenCalled();
    // The 43200 s delay on the simulated clock: still in at 43200 s, out 1 ms later.
    clock.increment(43_200_000);
    expect(state(actor)).toBe('checkedIn');
    clock.increment(1);
    expect(state(actor)).toBe('idle');
    expect(actor.getSnapshot().context.expired).toBe(true);
  });

  it('the evaluation runs in the provided actor (the worker) with the showrooms and the position', async () => {
    const evaluate = vi.fn((input: { showrooms: Showroom[]; position: DevicePosition }) =>
      Promise.resolve<Candidate>({
        kind: 'inside',
        showroom: input.showrooms[0]!,
        distanciaKm: 0.01 as never,
        radioKm: 0.12 as never,
      }),
    );
    const { actor } = start({ evaluate });
    await flush();
    actor.send({ type: 'checkIn.sync', showrooms: [alameda, { ...alameda, id: 'sr-2' }] });
    actor.send({ type: 'checkIn.start' });
    await flush();
    await flush();
    expect(evaluate).toHaveBeenCalledWith({
      showrooms: [alameda, { ...alameda, id: 'sr-2' }],
      position: north(0.05, 20),
    });
    expect(state(actor)).toBe('checkedIn');
  });

  it('low accuracy (1200 m): inside 1.3 km away (radius 1.45 km), too far 1.5 km away', async () => {
    const near = start({ locate: () => Promise.resolve(north(1.3, 1200)) });
    await flush();
    near.actor.send({ type: 'checkIn.start' });
    await flush();
    await flush();
    expect(state(near.actor)).toBe('checkedIn');

    const far = start({ locate: () => Promise.resolve(north(1.5, 1200)) });
    await flush();
    far.actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(far.actor)).toBe('tooFar');
    expect(far.actor.getSnapshot().context.candidate).toMatchObject({
      kind: 'tooFar',
      distanciaKm: expect.closeTo(1.5, 9),
      radioKm: expect.closeTo(1.45, 12),
    });
    expect(far.spies.saveCheckIn).not.toHaveBeenCalled();
  });

  it('too far: shows the distance and radius; retry locates again; cancel goes idle', async () => {
    const { actor, spies } = start({ locate: () => Promise.resolve(north(2, 20)) });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(actor)).toBe('tooFar');
    expect(actor.getSnapshot().context.candidate).toMatchObject({
      distanciaKm: expect.closeTo(2, 9),
      radioKm: expect.closeTo(0.12, 12),
    });
    actor.send({ type: 'checkIn.start' });
    expect(state(actor)).toBe('locating');
    expect(spies.locate).toHaveBeenCalledTimes(2);
    await flush();
    actor.send({ type: 'checkIn.cancel' });
    expect(state(actor)).toBe('idle');
  });

  it('geolocation denied: permissionDenied, logged; the QR alternative checks in by folio', async () => {
    const { actor, spies } = start({ locate: () => Promise.reject(new LocateError('denied')) });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(actor)).toBe('permissionDenied');
    expect(spies.log).toHaveBeenCalledWith('geolocation denied');
    actor.send({ type: 'checkIn.qr', folio: 'k1.body.sig' });
    expect(state(actor)).toBe('saving');
    expect(spies.saveCheckIn).toHaveBeenCalledWith({ tipoRegistro: 'QR', folio: 'k1.body.sig' });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(actor.getSnapshot().context.folio).toBeNull();
  });

  it('no position (unavailable, timeout): unavailable, logged; retry locates again', async () => {
    const { actor, spies } = start({ locate: () => Promise.reject(new LocateError('timeout')) });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(actor)).toBe('unavailable');
    expect(spies.log).toHaveBeenCalledWith(expect.stringContaining('geolocation unavailable'));
    actor.send({ type: 'checkIn.start' });
    expect(state(actor)).toBe('locating');
  });

  it('a position too rough (over 5000 m): inaccurate, nothing sent', async () => {
    const { actor, spies } = start({ locate: () => Promise.resolve(north(0, 6000)) });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(actor)).toBe('inaccurate');
    expect(actor.getSnapshot().context.candidate).toEqual({
      kind: 'inaccurate',
      accuracy: 6000,
      maxAccuracy: 5000,
    });
    expect(spies.saveCheckIn).not.toHaveBeenCalled();
  });

  it('no active showroom: noShowrooms', async () => {
    const { actor } = start({ showrooms: [{ ...alameda, activo: false }] });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    expect(state(actor)).toBe('noShowrooms');
    actor.send({ type: 'checkIn.cancel' });
    expect(state(actor)).toBe('idle');
  });

  it("the server measures it too far (422): tooFar with the server's distance and radius", async () => {
    const { actor } = start({
      saveCheckIn: () =>
        Promise.reject(
          new CheckInSaveError({
            kind: 'tooFar',
            distanciaKm: 0.3,
            radioKm: 0.12,
            message: 'Estás a 300 m del showroom; el radio permitido es de 120 m',
          }),
        ),
    });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    await flush();
    expect(state(actor)).toBe('tooFar');
    expect(actor.getSnapshot().context.candidate).toMatchObject({
      kind: 'tooFar',
      showroom: alameda,
      distanciaKm: 0.3,
      radioKm: 0.12,
    });
  });

  it('the server refuses for another reason: failed with its message, logged; retry starts over', async () => {
    const { actor, spies } = start({
      saveCheckIn: () =>
        Promise.reject(
          new CheckInSaveError({ kind: 'failed', message: 'El showroom no está activo' }),
        ),
    });
    await flush();
    actor.send({ type: 'checkIn.start' });
    await flush();
    await flush();
    expect(state(actor)).toBe('failed');
    expect(actor.getSnapshot().context.failure).toEqual({
      kind: 'failed',
      message: 'El showroom no está activo',
    });
    expect(spies.log).toHaveBeenCalledWith('check-in failed: El showroom no está activo');
    actor.send({ type: 'checkIn.start' });
    expect(state(actor)).toBe('locating');
    expect(actor.getSnapshot().context.failure).toBeNull();
  });

  it('cancel while locating goes back to idle', async () => {
    const { actor } = start({ locate: () => new Promise(() => undefined) });
    await flush();
    actor.send({ type: 'checkIn.start' });
    actor.send({ type: 'checkIn.cancel' });
    expect(state(actor)).toBe('idle');
  });
});

describe('check-in machine: QR link (?folio=)', () => {
  it('not checked in: saves with tipoRegistro QR and the folio, then drops the folio from the address', async () => {
    const { actor, spies } = start({ folio: 'k1.body.sig' });
    await flush();
    expect(spies.saveCheckIn).toHaveBeenCalledWith({ tipoRegistro: 'QR', folio: 'k1.body.sig' });
    expect(spies.locate).not.toHaveBeenCalled();
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(spies.folioDone).toHaveBeenCalled();
  });

  it('already checked in: the active check-in stands, nothing is sent', async () => {
    const { actor, spies } = start({
      folio: 'k1.body.sig',
      loadCheckIn: () => Promise.resolve(checkInAt(T0)),
    });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(spies.saveCheckIn).not.toHaveBeenCalled();
    expect(spies.folioDone).toHaveBeenCalled();
  });

  it('an expired folio: failed with the message, and the folio is dropped', async () => {
    const { actor, spies } = start({
      folio: 'old',
      saveCheckIn: () =>
        Promise.reject(
          new CheckInSaveError({ kind: 'failed', message: 'El código QR ya no es válido' }),
        ),
    });
    await flush();
    await flush();
    expect(state(actor)).toBe('failed');
    expect(actor.getSnapshot().context.folio).toBeNull();
    expect(spies.folioDone).toHaveBeenCalled();
  });
});

describe('check-in machine: checking out and refreshing', () => {
  it('checkedIn → checkingOut → idle; the expiry timer no longer runs', async () => {
    const out = deferred<CheckIn>();
    const { actor, clock, spies } = start({
      loadCheckIn: () => Promise.resolve(checkInAt(T0)),
      checkOut: () => out.promise,
    });
    await flush();
    actor.send({ type: 'checkIn.checkOut' });
    expect(state(actor)).toBe('checkingOut');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    actor.send({ type: 'checkIn.checkOut' });
    expect(spies.checkOut).toHaveBeenCalledTimes(1);
    out.resolve({ ...checkInAt(T0), checkInActivo: false });
    await flush();
    expect(state(actor)).toBe('idle');
    expect(actor.getSnapshot().context.checkIn).toBeNull();
    clock.increment(43_200_001);
    expect(actor.getSnapshot().context.expired).toBe(false);
  });

  it('a check-out that fails: back to checkedIn with the failure, logged', async () => {
    const { actor, spies } = start({
      loadCheckIn: () => Promise.resolve(checkInAt(T0)),
      checkOut: () => Promise.reject(new CheckInSaveError({ kind: 'failed', message: 'offline' })),
    });
    await flush();
    actor.send({ type: 'checkIn.checkOut' });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    expect(actor.getSnapshot().context.failure).toEqual({ kind: 'failed', message: 'offline' });
    expect(spies.log).toHaveBeenCalledWith('check-out failed: offline');
  });

  it('refresh (live stream): idle reads the server again and finds the check-in; checkedIn finds none', async () => {
    let answer: CheckIn | null = null;
    const { actor, spies } = start({ loadCheckIn: () => Promise.resolve(answer) });
    await flush();
    expect(state(actor)).toBe('idle');
    answer = checkInAt(T0);
    actor.send({ type: 'checkIn.refresh' });
    await flush();
    expect(state(actor)).toBe('checkedIn');
    answer = null;
    actor.send({ type: 'checkIn.refresh' });
    await flush();
    expect(state(actor)).toBe('idle');
    expect(spies.loadCheckIn).toHaveBeenCalledTimes(3);
  });
});
