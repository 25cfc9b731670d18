import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/core/decider';
import type { Unit } from '../../../src/core/types';
import {
  decideUnit,
  evolveUnit,
  isValidUnitPrice,
  UNIT_EVENT_TYPES,
  unitDecider,
  validUnitStatuses,
  type UnitCommand,
  type UnitDecision,
  type UnitEvent,
} from '../../../src/core/unit';

const unit: Unit = {
  id: 'uni-1602',
  idDesarrollo: 'des-1',
  idCluster: 'clu-a',
  idPrototipo: 'pro-doble',
  nombre: 'A1602',
  nivel: 16,
  posicion: 2,
  status: 'Disponible',
  categoria: 'Departamento',
  precio: 4_900_000,
  divisa: 'MXN',
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 86 },
};

const listed: UnitEvent[] = [{ type: 'UnitListed', data: { unit } }];

/** given these events, when this command, then… */
function given(events: UnitEvent[]) {
  return { when: (command: UnitCommand) => decideUnit(command, fold(unitDecider, events)) };
}

function eventsOf(decision: UnitDecision): UnitEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

const toStatus = (
  to: string,
  seen: string | null,
): Extract<UnitCommand, { type: 'ChangeUnitStatus' }> => ({
  type: 'ChangeUnitStatus',
  to,
  seen,
});

describe('unit decider: listing', () => {
  it('given nothing, when listing a unit, then UnitListed with the unit as it is', () => {
    expect(given([]).when({ type: 'ListUnit', unit })).toEqual({
      ok: true,
      events: [{ type: 'UnitListed', data: { unit } }],
    });
    expect(UNIT_EVENT_TYPES).toEqual([
      'UnitListed',
      'UnitStatusChanged',
      'UnitPriceChanged',
      'UnitHeld',
      'UnitHoldExtended',
      'UnitHoldReleased',
    ]);
  });

  it('given a listed unit, when listing it again, then UNIT_EXISTS', () => {
    expect(given(listed).when({ type: 'ListUnit', unit })).toEqual({
      ok: false,
      error: { code: 'UNIT_EXISTS' },
    });
  });

  it('given nothing, when listing with an unknown status or a bad price, then invalid', () => {
    expect(given([]).when({ type: 'ListUnit', unit: { ...unit, status: 'Perdido' } })).toEqual({
      ok: false,
      error: { code: 'UNIT_STATUS_INVALID', status: 'Perdido' },
    });
    expect(given([]).when({ type: 'ListUnit', unit: { ...unit, precio: -1 } })).toEqual({
      ok: false,
      error: { code: 'UNIT_PRICE_INVALID', precio: -1 },
    });
    const fractional = { ...unit, status: 'FRACTIONAL' };
    expect(
      given([]).when({ type: 'ListUnit', unit: fractional, validStatuses: ['FRACTIONAL'] }).ok,
    ).toBe(true);
  });
});

describe('unit decider: status (spec §4)', () => {
  it('given nothing, when changing the status, then UNIT_NOT_FOUND', () => {
    expect(given([]).when(toStatus('Vendido', 'Disponible'))).toEqual({
      ok: false,
      error: { code: 'UNIT_NOT_FOUND' },
    });
  });

  it('given an available unit, when the user who saw Disponible marks it Vendido, then UnitStatusChanged from → to', () => {
    const events = eventsOf(given(listed).when(toStatus('Vendido', 'Disponible')));
    expect(events).toEqual([
      {
        type: 'UnitStatusChanged',
        data: { idUnidad: 'uni-1602', from: 'Disponible', to: 'Vendido' },
      },
    ]);
    expect(fold(unitDecider, [...listed, ...events]).unit?.status).toBe('Vendido');
  });

  it('given an available unit, when setting Disponible again, then no events', () => {
    expect(given(listed).when(toStatus('Disponible', 'Disponible'))).toEqual({
      ok: true,
      events: [],
    });
  });

  it('given an available unit, when two users decide on the same state, then the second, re-decided after the first, is stale', () => {
    const state = fold(unitDecider, listed);
    const first = eventsOf(decideUnit(toStatus('Apartado', 'Disponible'), state));
    const second = toStatus('Bloqueado', 'Disponible');
    expect(decideUnit(second, state).ok).toBe(true);
    const after = first.reduce(evolveUnit, state);
    expect(decideUnit(second, after)).toEqual({
      ok: false,
      error: { code: 'UNIT_STALE', current: { ...unit, status: 'Apartado' } },
    });
  });

  it('given a unit that already took the wanted status, when a retried change arrives, then no events rather than stale', () => {
    const sold = [...listed, ...eventsOf(given(listed).when(toStatus('Vendido', 'Disponible')))];
    expect(given(sold).when(toStatus('Vendido', 'Disponible'))).toEqual({ ok: true, events: [] });
  });

  it('given a series of changes, then each history entry starts where the previous ended', () => {
    let events = listed;
    for (const [to, seen] of [
      ['Apartado', 'Disponible'],
      ['Reservado', 'Apartado'],
      ['Vendido', 'Reservado'],
    ] as const) {
      events = [...events, ...eventsOf(given(events).when(toStatus(to, seen)))];
    }
    const changes = events.flatMap((e) => (e.type === 'UnitStatusChanged' ? [e.data] : []));
    expect(changes.map((c) => [c.from, c.to])).toEqual([
      ['Disponible', 'Apartado'],
      ['Apartado', 'Reservado'],
      ['Reservado', 'Vendido'],
    ]);
    changes.slice(1).forEach((c, i) => expect(c.from).toBe(changes[i]!.to));
  });

  it('given a unit listed without status, when the user who saw none sets one, then from is null', () => {
    const bare = { ...unit };
    delete bare.status;
    const events: UnitEvent[] = [{ type: 'UnitListed', data: { unit: bare } }];
    expect(eventsOf(given(events).when(toStatus('Disponible', null)))).toEqual([
      { type: 'UnitStatusChanged', data: { idUnidad: 'uni-1602', from: null, to: 'Disponible' } },
    ]);
  });

  it('given a unit, when the target is not a valid status, then UNIT_STATUS_INVALID; the corporate’s own statuses are valid', () => {
    expect(given(listed).when(toStatus('FRACTIONAL', 'Disponible'))).toEqual({
      ok: false,
      error: { code: 'UNIT_STATUS_INVALID', status: 'FRACTIONAL' },
    });
    const validStatuses = validUnitStatuses({
      FRACTIONAL: {
        color: { hexColor: '#000000' },
        disponibilidad: 'Fraccional',
        esCotizable: false,
        esPrecioVisible: false,
      },
    });
    expect(validStatuses).toContain('Vendido');
    expect(given(listed).when({ ...toStatus('FRACTIONAL', 'Disponible'), validStatuses }).ok).toBe(
      true,
    );
  });
});

describe('unit decider: price', () => {
  const toPrice = (to: number, seen: number): UnitCommand => ({
    type: 'ChangeUnitPrice',
    to,
    seen,
  });

  it('given a unit, when the user who saw its price changes it, then UnitPriceChanged from → to', () => {
    expect(given(listed).when(toPrice(5_100_000, 4_900_000))).toEqual({
      ok: true,
      events: [
        {
          type: 'UnitPriceChanged',
          data: { idUnidad: 'uni-1602', from: 4_900_000, to: 5_100_000 },
        },
      ],
    });
  });

  it('given a unit, when setting the same price, then no events', () => {
    expect(given(listed).when(toPrice(4_900_000, 4_900_000))).toEqual({ ok: true, events: [] });
  });

  it('given a repriced unit, when a change decided on the old price arrives, then UNIT_STALE with the current unit', () => {
    const repriced: UnitEvent[] = [
      ...listed,
      { type: 'UnitPriceChanged', data: { idUnidad: 'uni-1602', from: 4_900_000, to: 5_000_000 } },
    ];
    expect(given(repriced).when(toPrice(5_100_000, 4_900_000))).toEqual({
      ok: false,
      error: { code: 'UNIT_STALE', current: { ...unit, precio: 5_000_000 } },
    });
  });

  it('given a unit, when the price is negative, finer than a cent or too large, then UNIT_PRICE_INVALID', () => {
    for (const bad of [-1, 4_900_000.505, 10_000_000_001, Number.NaN]) {
      expect(given(listed).when(toPrice(bad, 4_900_000))).toEqual({
        ok: false,
        error: { code: 'UNIT_PRICE_INVALID', precio: bad },
      });
    }
    expect(isValidUnitPrice(0)).toBe(true);
    expect(isValidUnitPrice(4_350_000.5)).toBe(true);
  });

  it('given nothing, when changing the price, then UNIT_NOT_FOUND', () => {
    expect(given([]).when(toPrice(1, 0))).toEqual({
      ok: false,
      error: { code: 'UNIT_NOT_FOUND' },
    });
  });
});

describe('unit decider: holds ("apartado")', () => {
  const now = new Date('2026-11-22T10:00:00.000Z');
  const in48h = new Date('2026-11-24T10:00:00.000Z');
  const hold = (over: Partial<Extract<UnitCommand, { type: 'HoldUnit' }>> = {}): UnitCommand => ({
    type: 'HoldUnit',
    idLead: 'lead-1',
    idVendedor: 'asesor-1',
    now,
    hastaEn: in48h,
    seen: 'Disponible',
    ...over,
  });
  const held: UnitEvent[] = [
    ...listed,
    {
      type: 'UnitHeld',
      data: {
        idUnidad: 'uni-1602',
        idLead: 'lead-1',
        idVendedor: 'asesor-1',
        desde: now.toISOString(),
        hastaEn: in48h.toISOString(),
        from: 'Disponible',
        to: 'Apartado',
      },
    },
  ];
  const release = (motivo: 'manual' | 'expired', at: Date): UnitCommand => ({
    type: 'ReleaseHold',
    now: at,
    motivo,
  });

  it('given an available unit, when an adviser holds it for a lead, then UnitHeld Disponible → Apartado and the state keeps the hold', () => {
    const events = eventsOf(given(listed).when(hold()));
    expect(events).toEqual([held[1]]);
    const state = fold(unitDecider, [...listed, ...events]);
    expect(state.unit?.status).toBe('Apartado');
    expect(state.hold).toEqual({
      idLead: 'lead-1',
      idVendedor: 'asesor-1',
      desde: '2026-11-22T10:00:00.000Z',
      hastaEn: '2026-11-24T10:00:00.000Z',
    });
  });

  it('given a held unit, when another hold arrives, then UNIT_NOT_AVAILABLE with the unit as it is; the same hold retried is no events', () => {
    expect(given(held).when(hold({ idLead: 'lead-2', idVendedor: 'asesor-2' }))).toEqual({
      ok: false,
      error: { code: 'UNIT_NOT_AVAILABLE', current: { ...unit, status: 'Apartado' } },
    });
    expect(given(held).when(hold())).toEqual({ ok: true, events: [] });
  });

  it('given a sold unit, when holding it, then UNIT_NOT_AVAILABLE; given an available unit seen as something else, then UNIT_STALE', () => {
    const sold = [...listed, ...eventsOf(given(listed).when(toStatus('Vendido', 'Disponible')))];
    expect(given(sold).when(hold({ seen: 'Vendido' }))).toMatchObject({
      ok: false,
      error: { code: 'UNIT_NOT_AVAILABLE' },
    });
    expect(given(listed).when(hold({ seen: 'Bloqueado' }))).toMatchObject({
      ok: false,
      error: { code: 'UNIT_STALE' },
    });
  });

  it('given an available unit, when the hold would end before it starts, then UNIT_HOLD_INVALID', () => {
    expect(given(listed).when(hold({ hastaEn: now }))).toEqual({
      ok: false,
      error: { code: 'UNIT_HOLD_INVALID' },
    });
  });

  it('given a held unit, when released by hand, then UnitHoldReleased Apartado → Disponible; released again, no events', () => {
    const events = eventsOf(given(held).when(release('manual', now)));
    expect(events).toEqual([
      {
        type: 'UnitHoldReleased',
        data: {
          idUnidad: 'uni-1602',
          idLead: 'lead-1',
          idVendedor: 'asesor-1',
          motivo: 'manual',
          from: 'Apartado',
          to: 'Disponible',
        },
      },
    ]);
    const after = [...held, ...events];
    expect(fold(unitDecider, after)).toEqual({
      unit: { ...unit, status: 'Disponible' },
      hold: null,
    });
    expect(given(after).when(release('manual', now))).toEqual({ ok: true, events: [] });
    expect(given(after).when(release('expired', in48h))).toEqual({ ok: true, events: [] });
  });

  it('given a held unit, when its timer fires at or after hastaEn, then released as expired; before it, no events', () => {
    expect(eventsOf(given(held).when(release('expired', in48h)))[0]?.data).toMatchObject({
      motivo: 'expired',
      to: 'Disponible',
    });
    expect(given(held).when(release('expired', new Date(in48h.getTime() - 1)))).toEqual({
      ok: true,
      events: [],
    });
  });

  it('given a held unit that was extended, when the old timer fires, then no events; at the new time it expires', () => {
    const later = new Date('2026-11-25T10:00:00.000Z');
    const extended = eventsOf(given(held).when({ type: 'ExtendHold', hastaEn: later, now }));
    expect(extended).toEqual([
      {
        type: 'UnitHoldExtended',
        data: {
          idUnidad: 'uni-1602',
          idLead: 'lead-1',
          hastaAnterior: in48h.toISOString(),
          hastaEn: later.toISOString(),
        },
      },
    ]);
    const after = [...held, ...extended];
    expect(given(after).when(release('expired', in48h))).toEqual({ ok: true, events: [] });
    expect(eventsOf(given(after).when(release('expired', later)))).toHaveLength(1);
  });

  it('given no hold, when extending, then UNIT_NOT_HELD', () => {
    expect(given(listed).when({ type: 'ExtendHold', hastaEn: in48h, now })).toEqual({
      ok: false,
      error: { code: 'UNIT_NOT_HELD' },
    });
  });

  it('given a held unit, when it is sold or reserved, then the hold is cleared and its timer releases nothing', () => {
    for (const to of ['Vendido', 'Reservado']) {
      const events = [...held, ...eventsOf(given(held).when(toStatus(to, 'Apartado')))];
      expect(fold(unitDecider, events)).toEqual({ unit: { ...unit, status: to }, hold: null });
      expect(given(events).when(release('expired', in48h))).toEqual({ ok: true, events: [] });
    }
  });
});
