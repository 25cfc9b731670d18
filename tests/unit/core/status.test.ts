import { describe, expect, it } from 'vitest';
import {
  ABSENT_STATUS_INFO,
  STATUS_DEFAULTS,
  defaultStatusColors,
  isFractionalUnit,
  isPriceVisible,
  isUnitPriced,
  isUnitQuotable,
  statusInfo,
} from '../../../src/core/status';
import { UNIT_STATUSES } from '../../../src/core/types';
import type { StatusColors } from '../../../src/core/types';

const colors: StatusColors = {
  Disponible: {
    color: { hexColor: '#00AA00' },
    disponibilidad: 'Disponible',
    esCotizable: true,
    esPrecioVisible: true,
  },
  Apartado: {
    color: { hexColor: '#FFFF00' },
    disponibilidad: 'Apartado',
    esCotizable: false,
    esPrecioVisible: true,
  },
};

describe('status rules (spec §4)', () => {
  it('has the eight statuses with the table colours', () => {
    expect(Object.keys(STATUS_DEFAULTS)).toEqual([...UNIT_STATUSES]);
    expect(UNIT_STATUSES).toHaveLength(8);
    expect(
      Object.fromEntries(Object.entries(STATUS_DEFAULTS).map(([s, d]) => [s, d.colorName])),
    ).toEqual({
      Disponible: 'green',
      Apartado: 'yellow',
      Bloqueado: 'gray',
      Reservado: 'red',
      Vendido: 'red',
      'No Disponible': 'red',
      Incompleto: 'yellow-green',
      'Sin Estatus': 'dark gray',
    });
  });

  it('only Disponible is quotable and shows its price by default', () => {
    const defaults = defaultStatusColors();
    for (const status of UNIT_STATUSES) {
      const expected = status === 'Disponible';
      expect(isUnitQuotable({ status }, defaults), status).toBe(expected);
      expect(isPriceVisible({ status }, defaults), status).toBe(expected);
    }
  });

  it("reads the corporate's entry for the unit's status", () => {
    expect(statusInfo('Apartado', colors)).toEqual({
      hexColor: '#FFFF00',
      disponibilidad: 'Apartado',
      esCotizable: false,
      esPrecioVisible: true,
    });
    expect(isPriceVisible({ status: 'Apartado' }, colors)).toBe(true);
    expect(isUnitQuotable({ status: 'Apartado' }, colors)).toBe(false);
  });

  it("an absent entry gives white, 'Sin estatus', not quotable, price hidden", () => {
    const expected = {
      hexColor: '#FFFFFF',
      disponibilidad: 'Sin estatus',
      esCotizable: false,
      esPrecioVisible: false,
    };
    expect(statusInfo('Vendido', colors)).toEqual(expected);
    expect(statusInfo(undefined, colors)).toEqual(expected);
    expect(statusInfo('constructor', colors)).toEqual(expected);
    expect(ABSENT_STATUS_INFO).toEqual(expected);
    expect(isUnitQuotable({ status: 'Vendido' }, colors)).toBe(false);
    expect(isPriceVisible({}, colors)).toBe(false);
  });

  it('a unit is priced when precio > 0, or its price is visible when prices are hidden', () => {
    expect(isUnitPriced({ status: 'Vendido', precio: 1 }, colors, false)).toBe(true);
    expect(isUnitPriced({ status: 'Disponible', precio: 0 }, colors, false)).toBe(false);
    expect(isUnitPriced({ status: 'Disponible', precio: 0 }, colors, true)).toBe(true);
    expect(isUnitPriced({ status: 'Vendido', precio: 0 }, colors, true)).toBe(false);
  });

  it("detects fractional units by categoria 'Fraction' or status 'FRACTIONAL'", () => {
    expect(isFractionalUnit({ categoria: 'Fraction' })).toBe(true);
    expect(isFractionalUnit({ status: 'FRACTIONAL' })).toBe(true);
    expect(isFractionalUnit({ status: 'Disponible', categoria: 'Departamento' })).toBe(false);
  });
});
