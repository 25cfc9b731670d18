import { describe, expect, it } from 'vitest';
import { isHouse, isSitePlan, streetsOf, unitPlace } from '../../../src/core/site-plan';

const lot = (nivel: number, posicion: number, categoria = 'Casa') => ({
  nombre: `1${nivel}${String(posicion).padStart(2, '0')}`,
  nivel,
  posicion,
  categoria,
});

describe('site plan of a stage of houses (issue 19, defect 10)', () => {
  it('a cluster is a site plan only when it has units and all are houses', () => {
    expect(isHouse({ categoria: 'Casa' })).toBe(true);
    expect(isHouse({ categoria: ' casa ' })).toBe(true);
    expect(isHouse({ categoria: 'Departamento' })).toBe(false);
    expect(isHouse({})).toBe(false);
    expect(isSitePlan([lot(1, 1), lot(1, 2)])).toBe(true);
    expect(isSitePlan([lot(1, 1), lot(1, 2, 'Departamento')])).toBe(false);
    expect(isSitePlan([])).toBe(false);
  });

  it('groups lots by street in street order, odd lots facing even ones, named by the cluster', () => {
    const units = [lot(2, 4), lot(1, 3), lot(2, 1), lot(1, 1), lot(1, 2), lot(2, 2), lot(2, 3)];
    const streets = streetsOf({ calles: ['Calle Olivo', ' '] }, units);
    expect(streets.map((s) => [s.numero, s.nombre])).toEqual([
      [1, 'Calle Olivo'],
      // A blank name is no name: the screen says "Street 2".
      [2, null],
    ]);
    expect(streets[0]!.north.map((u) => u.posicion)).toEqual([1, 3]);
    expect(streets[0]!.south.map((u) => u.posicion)).toEqual([2]);
    expect(streets[0]!.columns).toBe(2);
    expect(streets[1]!.north.map((u) => u.posicion)).toEqual([1, 3]);
    expect(streets[1]!.south.map((u) => u.posicion)).toEqual([2, 4]);
    // Every lot drawn exactly once.
    const drawn = streets.flatMap((s) => [...s.north, ...s.south]);
    expect(drawn).toHaveLength(units.length);
    expect(new Set(drawn).size).toBe(units.length);
  });

  it('a stage without street names still has its streets', () => {
    expect(streetsOf({}, [lot(3, 1)]).map((s) => s.nombre)).toEqual([null]);
    expect(streetsOf({ calles: null }, [lot(1, 2)])[0]!.south).toHaveLength(1);
  });
});

describe('where a unit stands (its detail, quotation and simulator)', () => {
  const stage = { calles: ['Calle Encino', '  ', 'Calle Olmo'] };
  it('a house is on its street, named by its stage when the stage names it', () => {
    expect(unitPlace({ categoria: 'Casa', nivel: 1 }, stage)).toEqual({
      kind: 'street',
      numero: 1,
      nombre: 'Calle Encino',
    });
    expect(unitPlace({ categoria: 'casa', nivel: 3 }, stage)).toMatchObject({
      nombre: 'Calle Olmo',
    });
    // A blank name, a street past the list, or no stage at hand: the number only.
    expect(unitPlace({ categoria: 'Casa', nivel: 2 }, stage)).toMatchObject({ nombre: null });
    expect(unitPlace({ categoria: 'Casa', nivel: 4 }, stage)).toMatchObject({ nombre: null });
    expect(unitPlace({ categoria: 'Casa', nivel: 2 })).toEqual({
      kind: 'street',
      numero: 2,
      nombre: null,
    });
  });
  it('any other unit is on its level, whatever its stage says', () => {
    expect(unitPlace({ categoria: 'Departamento', nivel: 16 }, stage)).toEqual({
      kind: 'level',
      nivel: 16,
    });
    expect(unitPlace({ nivel: 3 }, null)).toEqual({
      kind: 'level',
      nivel: 3,
    });
  });
});
