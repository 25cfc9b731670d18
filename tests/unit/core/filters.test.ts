import { describe, expect, it } from 'vitest';
import {
  bathroomCount,
  developmentsForApp,
  emptyUnitFilters,
  filterContextFor,
  filterUnits,
  isUnitListedForSignedInUser,
  priceFrom,
  recomputePricesFromPrototypes,
  rentPrice,
  unitMatchesFilters,
} from '../../../src/core/filters';
import type { FilterContext, UnitFilters } from '../../../src/core/filters';
import { defaultStatusColors } from '../../../src/core/status';
import { makeUnit } from '../../fixtures/units';

const ctx: FilterContext = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
const hiding: FilterContext = { ...ctx, hideUnavailablePrices: true };
const f = (over: Partial<UnitFilters>): UnitFilters => ({ ...emptyUnitFilters(), ...over });
const withFeatures = (recamaras: number, banios: number, baniosMedios: number, cajones: number) =>
  makeUnit({ caracteristicas: { recamaras, banios, baniosMedios, cajones } });

describe('unit filters (spec §5)', () => {
  it('no filters: every unit matches', () => {
    const units = [makeUnit({ precio: 0, status: 'Vendido' }), makeUnit({ categoria: 'Fraction' })];
    expect(filterUnits(units, emptyUnitFilters(), ctx)).toEqual(units);
  });

  it('bedrooms: an empty selection or an equal item; 4 means 4 or more', () => {
    expect(unitMatchesFilters(withFeatures(2, 1, 0, 0), f({ recamaras: [2, 3] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(3, 1, 0, 0), f({ recamaras: [2] }), ctx)).toBe(false);
    expect(unitMatchesFilters(withFeatures(4, 1, 0, 0), f({ recamaras: [4] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(6, 1, 0, 0), f({ recamaras: [4] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(5, 1, 0, 0), f({ recamaras: [5] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(3, 1, 0, 0), f({ recamaras: [4] }), ctx)).toBe(false);
  });

  it('bathrooms count banios + 0.5 × baniosMedios', () => {
    expect(bathroomCount({ recamaras: 1, banios: 2, baniosMedios: 1, cajones: 0 })).toBe(2.5);
    expect(unitMatchesFilters(withFeatures(1, 2, 1, 0), f({ banios: [2.5] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(1, 2, 1, 0), f({ banios: [2] }), ctx)).toBe(false);
    expect(unitMatchesFilters(withFeatures(1, 3, 2, 0), f({ banios: [4] }), ctx)).toBe(true);
  });

  it('parking: 4 means 4 or more', () => {
    expect(unitMatchesFilters(withFeatures(1, 1, 0, 7), f({ cajones: [4] }), ctx)).toBe(true);
    expect(unitMatchesFilters(withFeatures(1, 1, 0, 1), f({ cajones: [2] }), ctx)).toBe(false);
  });

  it('price within min and max inclusive', () => {
    const unit = makeUnit({ precio: 2_000_000 });
    expect(unitMatchesFilters(unit, f({ precioMin: 2_000_000, precioMax: 2_000_000 }), ctx)).toBe(
      true,
    );
    expect(unitMatchesFilters(unit, f({ precioMin: 2_000_001 }), ctx)).toBe(false);
    expect(unitMatchesFilters(unit, f({ precioMax: 1_999_999 }), ctx)).toBe(false);
  });

  it('area: min equal to max matches every area; otherwise the range is inclusive', () => {
    const unit = makeUnit({ metrajes: { areaTotal: 80 } });
    expect(unitMatchesFilters(unit, f({ areaMin: 120, areaMax: 120 }), ctx)).toBe(true);
    expect(unitMatchesFilters(unit, f({ areaMin: 80, areaMax: 100 }), ctx)).toBe(true);
    expect(unitMatchesFilters(unit, f({ areaMin: 81, areaMax: 100 }), ctx)).toBe(false);
    expect(unitMatchesFilters(unit, f({ areaMax: 79 }), ctx)).toBe(false);
  });

  it('with a price criterion an unpriced unit does not match, unless it is fractional', () => {
    const unpriced = makeUnit({ precio: 0 });
    expect(unitMatchesFilters(unpriced, f({ precioMin: 0, precioMax: 10 }), ctx)).toBe(false);
    const fraction = makeUnit({ precio: 0, categoria: 'Fraction' });
    expect(unitMatchesFilters(fraction, f({ precioMin: 0, precioMax: 10 }), ctx)).toBe(true);
  });

  it('when prices of unavailable units are hidden, range filters skip hidden-price units', () => {
    const sold = makeUnit({ status: 'Vendido', precio: 9_000_000, metrajes: { areaTotal: 300 } });
    const filters = f({ precioMax: 1_000_000, areaMin: 10, areaMax: 50 });
    expect(unitMatchesFilters(sold, filters, ctx)).toBe(false);
    expect(unitMatchesFilters(sold, filters, hiding)).toBe(true);
    // Count criteria still apply to them.
    expect(unitMatchesFilters(sold, { ...filters, recamaras: [1] }, hiding)).toBe(false);
    // A visible-price unit still goes through the ranges.
    const available = makeUnit({ status: 'Disponible', precio: 9_000_000 });
    expect(unitMatchesFilters(available, filters, hiding)).toBe(false);
  });

  it('filters by prototype and status lists', () => {
    const unit = makeUnit({ idPrototipo: 'p2', status: 'Apartado' });
    expect(unitMatchesFilters(unit, f({ idPrototipo: ['p1'] }), ctx)).toBe(false);
    expect(unitMatchesFilters(unit, f({ idPrototipo: ['p1', 'p2'] }), ctx)).toBe(true);
    expect(unitMatchesFilters(unit, f({ status: ['Disponible'] }), ctx)).toBe(false);
    expect(unitMatchesFilters(unit, f({ status: [] }), ctx)).toBe(true);
  });

  it('takes the context from the corporate, preferring the development colours', () => {
    const corporate = {
      coloresStatus: defaultStatusColors(),
      configFiltros: { ocultarPrecioUnidadesNoDisponibles: true },
    };
    expect(filterContextFor(corporate)).toEqual({
      statusColors: corporate.coloresStatus,
      hideUnavailablePrices: true,
    });
    expect(filterContextFor(corporate, { coloresStatus: {} }).statusColors).toEqual({});
  });
});

describe('listing rules (spec §5)', () => {
  it('a signed-in user sees units with no status, or Disponible and not fractional', () => {
    expect(isUnitListedForSignedInUser({})).toBe(true);
    expect(isUnitListedForSignedInUser({ status: 'Disponible' })).toBe(true);
    expect(isUnitListedForSignedInUser({ status: 'Disponible', categoria: 'Fraction' })).toBe(
      false,
    );
    expect(isUnitListedForSignedInUser({ status: 'Vendido' })).toBe(false);
    expect(isUnitListedForSignedInUser({ status: 'FRACTIONAL' })).toBe(false);
  });

  it('developments: enApp only, sorted by orden', () => {
    const devs = [
      { id: 'c', enApp: true, orden: 3 },
      { id: 'x', enApp: false, orden: 0 },
      { id: 'a', enApp: true, orden: 1 },
      { id: 'b', enApp: true, orden: 2 },
    ];
    expect(developmentsForApp(devs).map((d) => d.id)).toEqual(['a', 'b', 'c']);
  });

  it('rent price is the minimum numeric precioRenta', () => {
    expect(
      rentPrice([
        { precioRenta: 18_000 },
        { precioRenta: '9000' },
        { precioRenta: null },
        {},
        { precioRenta: 15_500 },
      ]),
    ).toBe(15_500);
    expect(rentPrice([{ precioRenta: null }])).toBeUndefined();
  });

  it("spec §4: prices of units are recomputed from the matching prototype when clusters load — a unit without its own price (0 or absent) takes its prototype's, one with its own keeps it", () => {
    const withoutPrice = makeUnit({ id: 'c', idPrototipo: 'p1' });
    delete (withoutPrice as { precio?: number }).precio;
    const units = [
      makeUnit({ id: 'a', idPrototipo: 'p1', precio: 0 }),
      makeUnit({ id: 'b', idPrototipo: 'p1', precio: 3_350_000 }),
      withoutPrice,
      makeUnit({ id: 'd', idPrototipo: 'p9', precio: 0 }),
      makeUnit({ id: 'e', idPrototipo: 'p2', precio: 0 }),
    ];
    const out = recomputePricesFromPrototypes(units, [
      { id: 'p1', precio: 3_100_000 },
      { id: 'p2', precio: 0 },
    ]);
    // a: 0 → the prototype's; b: its own premium kept; c: absent → the prototype's;
    // d: no such prototype, e: a prototype without a price — both keep 0.
    expect(out.map((u) => u.precio)).toEqual([3_100_000, 3_350_000, 3_100_000, 0, 0]);
    expect(units[0]!.precio).toBe(0);
    expect(out[1]).toBe(units[1]);
  });

  it('price from: the lowest visible price above 0', () => {
    const colors = defaultStatusColors();
    expect(
      priceFrom(
        [
          { status: 'Vendido', precio: 100 },
          { status: 'Disponible', precio: 0 },
          { status: 'Disponible', precio: 2_000 },
          { status: 'Disponible', precio: 1_500 },
        ],
        colors,
      ),
    ).toBe(1_500);
    expect(priceFrom([{ status: 'Vendido', precio: 100 }], colors)).toBeUndefined();
  });
});
