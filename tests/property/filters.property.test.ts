import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyUnitFilters, filterUnits, unitMatchesFilters } from '../../src/core/filters';
import type { FilterContext, UnitFilters } from '../../src/core/filters';
import { defaultStatusColors } from '../../src/core/status';
import type { Unit } from '../../src/core/types';
import { makeUnit } from '../fixtures/units';

const statuses = ['Disponible', 'Apartado', 'Vendido', 'FRACTIONAL', undefined];

const unit = fc
  .record({
    status: fc.constantFrom(...statuses),
    categoria: fc.constantFrom('Departamento', 'Fraction', undefined),
    precio: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 20_000_000 })),
    recamaras: fc.integer({ min: 0, max: 7 }),
    banios: fc.integer({ min: 0, max: 6 }),
    baniosMedios: fc.integer({ min: 0, max: 2 }),
    cajones: fc.integer({ min: 0, max: 6 }),
    areaTotal: fc.integer({ min: 20, max: 600 }),
    idPrototipo: fc.constantFrom('p1', 'p2', 'p3'),
  })
  .map((u): Unit => {
    const made = makeUnit({
      ...(u.status === undefined ? {} : { status: u.status }),
      ...(u.categoria === undefined ? {} : { categoria: u.categoria }),
      precio: u.precio,
      idPrototipo: u.idPrototipo,
      caracteristicas: {
        recamaras: u.recamaras,
        banios: u.banios,
        baniosMedios: u.baniosMedios,
        cajones: u.cajones,
      },
      metrajes: { areaTotal: u.areaTotal },
    });
    // makeUnit has a default status; a generated "no status" removes it.
    if (u.status === undefined) delete made.status;
    return made;
  });
const units = fc.array(unit, { maxLength: 40 });
const counts = fc.uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 3 });
const ctx = fc.boolean().map((hide): FilterContext => ({
  statusColors: defaultStatusColors(),
  hideUnavailablePrices: hide,
}));

/** One criterion, as a patch on the filters. A range is added as a whole (min and max). */
const criterion: fc.Arbitrary<Partial<UnitFilters>> = fc.oneof(
  counts.map((recamaras) => ({ recamaras })),
  counts.map((banios) => ({ banios })),
  counts.map((cajones) => ({ cajones })),
  fc
    .tuple(fc.integer({ min: 0, max: 20_000_000 }), fc.integer({ min: 0, max: 20_000_000 }))
    .map(([a, b]) => ({ precioMin: Math.min(a, b), precioMax: Math.max(a, b) })),
  fc
    .tuple(fc.integer({ min: 20, max: 600 }), fc.integer({ min: 20, max: 600 }))
    .map(([a, b]) => ({ areaMin: Math.min(a, b), areaMax: Math.max(a, b) })),
  fc.uniqueArray(fc.constantFrom('p1', 'p2', 'p3'), { minLength: 1 }).map((idPrototipo) => ({
    idPrototipo,
  })),
  fc
    .uniqueArray(fc.constantFrom('Disponible', 'Apartado', 'Vendido'), { minLength: 1 })
    .map((status) => ({ status })),
);

/** Filters made of distinct criteria (later patches of the same kind are skipped). */
const filters = fc.array(criterion, { maxLength: 4 }).map((patches) => {
  const f: UnitFilters = emptyUnitFilters();
  for (const p of patches) {
    const keys = Object.keys(p) as (keyof UnitFilters)[];
    const taken = keys.some((k) => {
      const v = f[k];
      return Array.isArray(v) ? v.length > 0 : v !== undefined;
    });
    if (!taken) Object.assign(f, p);
  }
  return f;
});

describe('filter properties', () => {
  it('a filter with no criteria returns every unit', () => {
    fc.assert(
      fc.property(units, ctx, (us, c) => {
        expect(filterUnits(us, emptyUnitFilters(), c)).toEqual(us);
      }),
    );
  });

  it('adding a criterion never adds units', () => {
    fc.assert(
      fc.property(units, ctx, filters, criterion, (us, c, base, extra) => {
        const keys = Object.keys(extra) as (keyof UnitFilters)[];
        fc.pre(
          keys.every((k) => {
            const v = base[k];
            return Array.isArray(v) ? v.length === 0 : v === undefined;
          }),
        );
        const before = new Set(filterUnits(us, base, c));
        const after = filterUnits(us, { ...base, ...extra }, c);
        for (const u of after) expect(before.has(u)).toBe(true);
      }),
    );
  });

  it('a selected 4 matches 4 or more; any other count matches only itself', () => {
    fc.assert(
      fc.property(
        unit,
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom('recamaras', 'cajones'),
        (u, selected, key) => {
          const f = { ...emptyUnitFilters(), [key]: [selected] };
          const value = u.caracteristicas[key];
          const expected = selected === 4 ? value >= 4 : value === selected;
          const c = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
          expect(unitMatchesFilters(u, f, c)).toBe(expected);
        },
      ),
    );
  });

  it('a selected 4 bathrooms matches 4 or more, half-baths counting 0.5', () => {
    fc.assert(
      fc.property(unit, (u) => {
        const c = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
        const count = u.caracteristicas.banios + 0.5 * u.caracteristicas.baniosMedios;
        expect(unitMatchesFilters(u, { ...emptyUnitFilters(), banios: [4] }, c)).toBe(count >= 4);
      }),
    );
  });
});
