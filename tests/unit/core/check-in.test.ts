import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CHECK_IN_EVENT_TYPES,
  MAX_CHECK_IN_ACCURACY_METERS,
  checkInCandidate,
  checkInDecider,
  checkInExpiresAt,
  checkInSecondsLeft,
  dayBounds,
  decideCheckIn,
  folioDay,
  isCalendarDay,
  isCheckInCurrent,
  positionProblems,
  type CheckIn,
  type CheckInCommand,
  type CheckInDecision,
  type CheckInEvent,
} from '../../../src/core/check-in';
import { fold } from '../../../src/core/decider';
import type { Showroom } from '../../../src/core/types';

// One degree of latitude on a 6371 km sphere.
const KM_PER_DEGREE = (Math.PI * 6371) / 180;
const alameda: Showroom = {
  id: 'sr-alameda',
  nombre: 'Showroom Alameda',
  activo: true,
  coordenadas: { _latitude: 19.4349, _longitude: -99.1442, _accuracy: 30 },
};
const olivos: Showroom = {
  id: 'sr-olivos',
  nombre: 'Showroom Los Olivos',
  activo: true,
  coordenadas: { _latitude: 20.6601, _longitude: -100.3921 },
};
/** A position `km` north of the Alameda showroom. */
const north = (km: number, accuracy: number) => ({
  latitude: 19.4349 + km / KM_PER_DEGREE,
  longitude: -99.1442,
  accuracy,
});

const t0 = new Date('2026-11-22T15:00:00.000Z');
const t0s = t0.getTime() / 1000;
const at = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

const checkIn = (
  over: Partial<Extract<CheckInCommand, { type: 'CheckIn' }>> = {},
): CheckInCommand => ({
  type: 'CheckIn',
  id: 'ci-1',
  idCorporativo: 'corp-1',
  idUsuario: 'u-1',
  showroom: alameda,
  via: { tipoRegistro: 'Geolocalizacion', position: north(0.05, 20) },
  now: t0,
  ...over,
});

const checkOut = (
  over: Partial<Extract<CheckInCommand, { type: 'CheckOut' }>> = {},
): CheckInCommand => ({
  type: 'CheckOut',
  id: 'ci-1',
  motivo: 'manual',
  by: 'u-1',
  now: at(3600),
  ...over,
});

/** given these events, when this command, then… */
function given(events: CheckInEvent[]) {
  return {
    when: (command: CheckInCommand) => decideCheckIn(command, fold(checkInDecider, events)),
  };
}

function eventsOf(decision: CheckInDecision): CheckInEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

const active: CheckIn = {
  id: 'ci-1',
  idCorporativo: 'corp-1',
  idUsuario: 'u-1',
  check: true,
  idShowroom: 'sr-alameda',
  nombreShowroom: 'Showroom Alameda',
  coordenadas: { _latitude: north(0.05, 20).latitude, _longitude: -99.1442, _accuracy: 20 },
  tipoRegistro: 'Geolocalizacion',
  fechaAlta: { _seconds: t0s },
  checkInActivo: true,
  distanciaKm: expect.closeTo(0.05, 9),
};
const checkedIn: CheckInEvent[] = eventsOf(given([]).when(checkIn()));

describe('check-in decider: checking in', () => {
  it('given nothing, when checking in within the radius, then CheckedIn with the spec fields (check, showroom, coordinates, type, fechaAlta, active)', () => {
    expect(checkedIn).toEqual([{ type: 'CheckedIn', data: { checkIn: active } }]);
    expect(CHECK_IN_EVENT_TYPES).toEqual(['CheckedIn', 'CheckedOut']);
    expect(fold(checkInDecider, checkedIn).active?.id).toBe('ci-1');
  });

  it('given nothing, when the showroom is unknown or inactive, then SHOWROOM_NOT_FOUND / SHOWROOM_INACTIVE', () => {
    expect(given([]).when(checkIn({ showroom: null }))).toEqual({
      ok: false,
      error: { code: 'SHOWROOM_NOT_FOUND' },
    });
    expect(given([]).when(checkIn({ showroom: { ...alameda, activo: false } }))).toEqual({
      ok: false,
      error: { code: 'SHOWROOM_INACTIVE' },
    });
  });

  it('given nothing, when the position is outside the radius, then CHECK_IN_TOO_FAR with the distance and the radius', () => {
    const decision = given([]).when(
      checkIn({ via: { tipoRegistro: 'Geolocalizacion', position: north(0.2, 20) } }),
    );
    expect(decision.ok).toBe(false);
    if (decision.ok) return;
    expect(decision.error).toEqual({
      code: 'CHECK_IN_TOO_FAR',
      distanciaKm: expect.closeTo(0.2, 9),
      radioKm: expect.closeTo(0.12, 12),
    });
  });

  it('given nothing, when the accuracy is impossible (negative, NaN, over the maximum) or a coordinate is out of range, then POSITION_INVALID naming them', () => {
    for (const accuracy of [-1, Number.NaN, Infinity, MAX_CHECK_IN_ACCURACY_METERS + 1]) {
      expect(
        given([]).when(
          checkIn({ via: { tipoRegistro: 'Geolocalizacion', position: north(0, accuracy) } }),
        ),
      ).toEqual({ ok: false, error: { code: 'POSITION_INVALID', campos: ['accuracy'] } });
    }
    expect(
      given([]).when(
        checkIn({
          via: {
            tipoRegistro: 'Geolocalizacion',
            position: { latitude: 95, longitude: 190, accuracy: 10 },
          },
        }),
      ),
    ).toEqual({
      ok: false,
      error: { code: 'POSITION_INVALID', campos: ['latitude', 'longitude'] },
    });
  });

  it('given nothing, when checking in by QR (folio verified by the server), then CheckedIn of type QR with no position needed', () => {
    const [event] = eventsOf(
      given([]).when(checkIn({ via: { tipoRegistro: 'QR', position: null } })),
    );
    expect(event).toEqual({
      type: 'CheckedIn',
      data: {
        checkIn: {
          ...active,
          coordenadas: null,
          tipoRegistro: 'QR',
          distanciaKm: undefined,
        },
      },
    });
    expect(event && 'distanciaKm' in (event.data as { checkIn: object }).checkIn).toBe(false);
  });

  it('given an active check-in, when checking in again (anywhere), then nothing is written: the active one stands', () => {
    expect(given(checkedIn).when(checkIn({ id: 'ci-2', now: at(60) }))).toEqual({
      ok: true,
      events: [],
    });
    expect(
      given(checkedIn).when(checkIn({ id: 'ci-2', showroom: olivos, now: at(43200) })),
    ).toEqual({ ok: true, events: [] });
  });

  it('given an active check-in, when checking in at an unknown (or another corporate’s) or inactive showroom, then it is refused, not answered with the active one', () => {
    expect(given(checkedIn).when(checkIn({ id: 'ci-2', showroom: null, now: at(60) }))).toEqual({
      ok: false,
      error: { code: 'SHOWROOM_NOT_FOUND' },
    });
    expect(
      given(checkedIn).when(
        checkIn({ id: 'ci-2', showroom: { ...olivos, activo: false }, now: at(60) }),
      ),
    ).toEqual({ ok: false, error: { code: 'SHOWROOM_INACTIVE' } });
  });

  it('given a check-in older than 43200 s whose timer has not run, when checking in, then it ends by Sistema at its expiry, then the new one', () => {
    const events = eventsOf(given(checkedIn).when(checkIn({ id: 'ci-2', now: at(43201) })));
    expect(events.map((e) => e.type)).toEqual(['CheckedOut', 'CheckedIn']);
    expect(events[0]!.data).toEqual({
      id: 'ci-1',
      idUsuario: 'u-1',
      idShowroom: 'sr-alameda',
      fechaSalida: { _seconds: t0s + 43200 },
      motivo: 'expirado',
      idUsuarioSalida: null,
    });
    const state = fold(checkInDecider, [...checkedIn, ...events]);
    expect(state.active?.id).toBe('ci-2');
    expect(state.ended).toEqual(['ci-1']);
  });
});

describe('check-in decider: checking out', () => {
  it('given an active check-in, when the adviser checks out, then CheckedOut manual by them', () => {
    const events = eventsOf(given(checkedIn).when(checkOut()));
    expect(events).toEqual([
      {
        type: 'CheckedOut',
        data: {
          id: 'ci-1',
          idUsuario: 'u-1',
          idShowroom: 'sr-alameda',
          fechaSalida: { _seconds: t0s + 3600 },
          motivo: 'manual',
          idUsuarioSalida: 'u-1',
        },
      },
    ]);
    expect(fold(checkInDecider, [...checkedIn, ...events])).toEqual({
      active: null,
      ended: ['ci-1'],
    });
  });

  it('given a check-in that ended, when checking it out again (by hand or by the timer), then nothing is written', () => {
    const ended = [...checkedIn, ...eventsOf(given(checkedIn).when(checkOut()))];
    expect(given(ended).when(checkOut({ now: at(7200) }))).toEqual({ ok: true, events: [] });
    expect(given(ended).when(checkOut({ motivo: 'expirado', by: null, now: at(50000) }))).toEqual({
      ok: true,
      events: [],
    });
  });

  it('given an unknown check-in id, when checking out, then CHECK_IN_NOT_FOUND', () => {
    expect(given(checkedIn).when(checkOut({ id: 'ci-x' }))).toEqual({
      ok: false,
      error: { code: 'CHECK_IN_NOT_FOUND' },
    });
    expect(given([]).when(checkOut())).toEqual({
      ok: false,
      error: { code: 'CHECK_IN_NOT_FOUND' },
    });
  });

  it('given an active check-in, when the expiry timer runs at 43200 s, then nothing; just after, CheckedOut by Sistema at the expiry instant', () => {
    expect(
      given(checkedIn).when(checkOut({ motivo: 'expirado', by: null, now: at(43200) })),
    ).toEqual({
      ok: true,
      events: [],
    });
    const events = eventsOf(
      given(checkedIn).when(checkOut({ motivo: 'expirado', by: null, now: at(43200.001) })),
    );
    expect(events).toEqual([
      {
        type: 'CheckedOut',
        data: {
          id: 'ci-1',
          idUsuario: 'u-1',
          idShowroom: 'sr-alameda',
          fechaSalida: { _seconds: t0s + 43200 },
          motivo: 'expirado',
          idUsuarioSalida: null,
        },
      },
    ]);
  });
});

describe('check-in time', () => {
  it('expires at the first millisecond after 43200 s; the countdown reaches 0 there', () => {
    expect(checkInExpiresAt(t0s).getTime()).toBe(t0.getTime() + 43_200_000 + 1);
    expect(checkInSecondsLeft(t0s, t0)).toBe(43200);
    expect(checkInSecondsLeft(t0s, at(43199.5))).toBe(1);
    expect(checkInSecondsLeft(t0s, at(43200))).toBe(0);
    expect(isCheckInCurrent(active, at(43200))).toBe(true);
    expect(isCheckInCurrent(active, at(43200.001))).toBe(false);
    expect(isCheckInCurrent({ ...active, checkInActivo: false }, t0)).toBe(false);
  });

  it("the folio's day and a day's bounds are the corporate's calendar day", () => {
    // 05:59 UTC is 23:59 of the day before in Mexico City (UTC-6).
    expect(folioDay(new Date('2026-11-23T05:59:00Z'), 'America/Mexico_City')).toBe('2026-11-22');
    expect(folioDay(new Date('2026-11-23T06:00:00Z'), 'America/Mexico_City')).toBe('2026-11-23');
    expect(dayBounds('2026-11-22', 'America/Mexico_City')).toEqual({
      start: new Date('2026-11-22T06:00:00Z'),
      end: new Date('2026-11-23T06:00:00Z'),
    });
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-13-01')).toBe(false);
    expect(isCalendarDay('22/11/2026')).toBe(false);
  });

  it('every day it accepts starts and ends before the year 10000 in any time zone (the database reads no later instant)', () => {
    expect(isCalendarDay('9999-12-31')).toBe(false);
    expect(isCalendarDay('9998-12-31')).toBe(true);
    const zones = ['Etc/GMT+12', 'America/Mexico_City', 'UTC', 'Asia/Tokyo', 'Pacific/Kiritimati'];
    const limit = Date.UTC(10000, 0, 1);
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.constantFrom(...zones),
        (y, m, d, zone) => {
          const day = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
          if (!isCalendarDay(day)) return;
          const { start, end } = dayBounds(day, zone);
          expect(end.getTime()).toBeLessThan(limit);
          expect(start.getTime()).toBeLessThan(end.getTime());
        },
      ),
      { examples: [[9998, 12, 31, 'Etc/GMT+12']] },
    );
  });
});

describe('check-in candidate (the worker asks it before saving)', () => {
  it('inside: the nearest active showroom within the radius', () => {
    const c = checkInCandidate([olivos, alameda], north(0.05, 20));
    expect(c).toMatchObject({ kind: 'inside', showroom: { id: 'sr-alameda' } });
  });

  it('too far: the nearest active showroom, the distance and the allowed radius (1200 m accuracy: 0.25 + 1.2 km)', () => {
    const c = checkInCandidate([olivos, alameda], north(2, 1200));
    expect(c).toEqual({
      kind: 'tooFar',
      showroom: alameda,
      distanciaKm: expect.closeTo(2, 9),
      radioKm: expect.closeTo(1.45, 12),
    });
    expect(checkInCandidate([olivos, alameda], north(1.4, 1200)).kind).toBe('inside');
  });

  it('an inactive showroom is neither inside nor nearest; none active: noShowrooms', () => {
    const off = { ...alameda, activo: false };
    expect(checkInCandidate([off, olivos], north(0, 10))).toMatchObject({
      kind: 'tooFar',
      showroom: { id: 'sr-olivos' },
    });
    expect(checkInCandidate([off], north(0, 10))).toEqual({ kind: 'noShowrooms' });
  });

  it('a position too rough (over 5000 m) is inaccurate', () => {
    expect(checkInCandidate([alameda], north(0, 5001))).toEqual({
      kind: 'inaccurate',
      accuracy: 5001,
      maxAccuracy: 5000,
    });
    expect(positionProblems(north(0, 5000))).toEqual([]);
    expect(positionProblems(north(0, 0))).toEqual([]);
  });
});
