import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryClient } from '@tanstack/react-query';
import { defaultStringifySearch } from '@tanstack/react-router';
import fc from 'fast-check';
import i18next, { type TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { OR_MORE_VALUE, unitMatchesFilters } from '../../src/core/filters';
import { defaultStatusColors } from '../../src/core/status';
import type { Unit } from '../../src/core/types';
import { buildDisplayRows } from '../../src/core/display-rows';
import { specStatusColors } from '../../src/server/seed/demo';
import { parseAdminPrice, UNIT_PRICE_MAX } from '../../src/ui/features/inventory/utils/admin-price';
import {
  boundText,
  EMPTY_FORM,
  figureUnitsOf,
  formFromSearch,
  searchFromForm,
  searchInDisplay,
  toUnitFilters,
} from '../../src/ui/features/inventory/utils/filter-form';
import {
  BATHROOM_OPTIONS,
  BEDROOM_OPTIONS,
  filterSearchKey,
  PARKING_OPTIONS,
  validateFilterSearch,
  type FilterSearch,
} from '../../src/ui/features/inventory/utils/filter-search';
import {
  contrastRatio,
  DARK_TEXT,
  LIGHT_TEXT,
  relativeLuminance,
  textOn,
} from '../../src/ui/theme/contrast';
import { formatPrice, makeDisplay, priceFromDisplay } from '../../src/ui/lib/figures';
import { applyLiveChange } from '../../src/ui/lib/live-stream';
import { PATCH_LIMIT, patchedRows } from '../../src/ui/features/inventory/hooks/use-display-rows';
import { statusCounts } from '../../src/ui/features/inventory/utils/status-counts';
import {
  selectUnitSearch,
  validateUnitSearch,
  type UnitSearch,
} from '../../src/ui/features/inventory/utils/unit-search';
import { sortUnits, type Column } from '../../src/ui/features/inventory/utils/units-sort';
import { developmentPageRouter } from './support/development-router';

const currencies = [
  { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 },
  { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 18.5 },
];

const unit = (id: string, status: string, precio = 1_000_000): Unit => ({
  id,
  idDesarrollo: 'd',
  idCluster: 'c',
  idPrototipo: 'p',
  nombre: id,
  nivel: 1,
  posicion: 1,
  status,
  precio,
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 80 },
});

describe('inventory display and filters', () => {
  it('shows prices in the chosen currency by the ratio of rates, spec §9 format', () => {
    expect(formatPrice(4_350_000, makeDisplay(currencies, 'USD', 'm2'))).toBe('$235,135 USD');
    expect(formatPrice(4_350_000, makeDisplay(currencies, 'MXN', 'm2'))).toBe('$4,350,000 MXN');
    // A currency the corporate does not offer falls back to MXN.
    expect(formatPrice(100, makeDisplay(currencies, 'EUR', 'm2'))).toBe('$100 MXN');
  });

  it('turns bounds typed in USD and ft² into the core filters in MXN and m²', () => {
    const f = toUnitFilters(
      {
        ...EMPTY_FORM,
        precioMin: '100,000',
        precioMax: '200000',
        areaMin: '1076.39',
        cajones: [4],
      },
      makeDisplay(currencies, 'USD', 'ft2'),
      'MXN',
    );
    // The bounds reach every price shown at them: converted to the cent, then to whole dollars,
    // $100,000 USD starts at 99,999.495 USD and $200,000 USD ends just below 200,000.495 USD.
    expect(f.precioMin).toBeCloseTo(99_999.495 * 18.5, 2);
    expect(f.precioMax).toBeCloseTo(200_000.495 * 18.5, 2);
    expect(f.areaMin).toBe(100);
    expect(f.areaMax).toBeUndefined();
    expect(f.cajones).toEqual([4]);
  });

  it('counts units per status in the spec order, with the matching ones', () => {
    const units = [unit('a', 'Vendido'), unit('b', 'Disponible'), unit('c', 'Disponible')];
    // The statuses, labels and totals are the display rows' (built in the core worker).
    const { statuses } = buildDisplayRows(
      units,
      defaultStatusColors(),
      makeDisplay(undefined, 'MXN', 'm2'),
    );
    const counts = statusCounts(units, statuses, new Set(['b']));
    expect(counts[0]).toMatchObject({ status: 'Disponible', total: 2, matching: 1 });
    expect(counts.find((c) => c.status === 'Vendido')).toMatchObject({ total: 1, matching: 0 });
  });
});

describe('unit selection search', () => {
  it('keeps unidad with s=caracteristicas and carries mostrarFondo along', () => {
    expect(validateUnitSearch({ unidad: 'uni-1', s: 'x', mostrarFondo: false, other: 1 })).toEqual({
      unidad: 'uni-1',
      s: 'caracteristicas',
      mostrarFondo: false,
    });
    expect(validateUnitSearch({ unidad: '<script>' })).toEqual({});
    expect(selectUnitSearch({ mostrarFondo: 'si' }, 'uni-2')).toEqual({
      unidad: 'uni-2',
      s: 'caracteristicas',
      mostrarFondo: 'si',
    });
    expect(
      selectUnitSearch({ unidad: 'uni-2', s: 'caracteristicas', mostrarFondo: 'si' }, undefined),
    ).toEqual({
      mostrarFondo: 'si',
    });
  });
});

describe('availability filters in the URL', () => {
  it('keeps the filters a search names and drops malformed values, never throwing', () => {
    expect(
      validateFilterSearch({
        recamaras: [4, 2, 9, 'x', 2],
        banios: 1.5,
        cajones: '3',
        precioMin: '2000000',
        precioMax: -5,
        areaMin: 'mucho',
        areaMax: 120.5,
        idPrototipo: ['pro-1', '<script>', 'pro-1'],
        status: 'Disponible',
        divisa: 'USD',
        unidadArea: 'yd2',
      }),
    ).toEqual({
      recamaras: [2, 4],
      banios: [1.5],
      cajones: [3],
      precioMin: 2_000_000,
      areaMax: 120.5,
      idPrototipo: ['pro-1'],
      status: ['Disponible'],
      divisa: 'USD',
    });
    expect(validateFilterSearch({ divisa: 'usd; drop', unidadArea: 'ft2' })).toMatchObject({
      divisa: undefined,
      unidadArea: 'ft2',
    });
    // Every key is there (undefined when dropped): the router spreads it over the raw search.
    expect(Object.keys(validateFilterSearch({ recamaras: { a: 1 }, status: [[]] })).sort()).toEqual(
      [
        'areaMax',
        'areaMin',
        'banios',
        'cajones',
        'divisa',
        'idPrototipo',
        'precioMax',
        'precioMin',
        'recamaras',
        'status',
        'unidadArea',
      ],
    );
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (search) => {
        const f = validateUnitSearch(search);
        for (const key of ['recamaras', 'banios', 'cajones'] as const)
          expect(f[key] === undefined || f[key].length > 0).toBe(true);
        for (const key of ['precioMin', 'precioMax', 'areaMin', 'areaMax'] as const)
          expect(f[key] === undefined || (Number.isFinite(f[key]) && f[key] >= 0)).toBe(true);
      }),
    );
  });

  it('offers the counts the panel shows, 4 meaning 4 or more', () => {
    for (const options of [BEDROOM_OPTIONS, BATHROOM_OPTIONS, PARKING_OPTIONS])
      expect(options.at(-1)).toBe(OR_MORE_VALUE);
  });

  it('the form and the search say the same filters; typed text is read as a number', () => {
    const form = {
      ...EMPTY_FORM,
      recamaras: [3, 2],
      precioMax: '$3,000,000',
      areaMin: 'abc',
      status: ['Disponible'],
    };
    const search = searchFromForm(form);
    expect(search).toEqual({ recamaras: [3, 2], precioMax: 3_000_000, status: ['Disponible'] });
    // The same filters whatever the order of the clicks.
    expect(filterSearchKey(search)).toBe(
      filterSearchKey({ status: ['Disponible'], precioMax: 3_000_000, recamaras: [2, 3] }),
    );
    // A reloaded bound reads as it was typed: grouped by thousands.
    expect(formFromSearch(validateFilterSearch({ ...search }))).toEqual({
      ...EMPTY_FORM,
      recamaras: [2, 3],
      precioMax: '3,000,000',
      status: ['Disponible'],
    });
    expect(searchFromForm(EMPTY_FORM)).toEqual({});
    // With the page's units, a bound is written with its currency or area unit, and only then.
    const units = { divisa: 'USD', unidadArea: 'ft2' } as const;
    expect(searchFromForm(form, units)).toMatchObject({ precioMax: 3_000_000, divisa: 'USD' });
    expect(searchFromForm(form, units).unidadArea).toBeUndefined();
    expect(searchFromForm({ ...EMPTY_FORM, areaMax: '1,000' }, units)).toMatchObject({
      areaMax: 1000,
      unidadArea: 'ft2',
      divisa: undefined,
    });
  });

  it('a bound shows grouped by thousands and reads back as the same number', () => {
    expect(boundText(undefined)).toBe('');
    expect(boundText(0)).toBe('0');
    expect(boundText(999)).toBe('999');
    expect(boundText(1000)).toBe('1,000');
    expect(boundText(12_345_678.5)).toBe('12,345,678.5');
    expect(boundText(1e21)).toBe('1e+21');
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e25, noNaN: true }), (n) => {
        const form = formFromSearch({ precioMin: n, areaMax: n });
        expect(searchFromForm(form)).toMatchObject({ precioMin: n, areaMax: n });
      }),
    );
  });

  it('a link’s bounds in another currency or area unit are converted to the ones shown, keeping every unit it matched', () => {
    const mxnM2 = makeDisplay(currencies, 'MXN', 'm2');
    const usdFt2 = makeDisplay(currencies, 'USD', 'ft2');
    // 3,000,000 MXN at 18.5 = 162,162.16 USD, shown as $162,162 USD.
    expect(
      searchInDisplay(
        {
          precioMin: 3_000_000,
          precioMax: 3_000_000,
          divisa: 'MXN',
          areaMax: 90,
          unidadArea: 'm2',
        },
        usdFt2,
      ),
    ).toEqual({
      search: {
        precioMin: 162_162,
        precioMax: 162_162,
        divisa: 'USD',
        areaMax: 968.75,
        unidadArea: 'ft2',
      },
      converted: true,
    });
    // Whole dollars are coarser than whole pesos: $10,000 USD let through up to 185,009.24 MXN.
    expect(searchInDisplay({ precioMax: 10_000, divisa: 'USD' }, mxnM2, 'MXN').search).toEqual({
      precioMax: 185_009,
      divisa: 'MXN',
      unidadArea: undefined,
    });
    // In the units shown: nothing changes but the names.
    expect(searchInDisplay({ precioMax: 5_000_000, divisa: 'MXN' }, mxnM2)).toEqual({
      search: { precioMax: 5_000_000, divisa: 'MXN', unidadArea: undefined },
      converted: false,
    });
    // A link without them (before they were written) is in the viewer's units.
    expect(searchInDisplay({ precioMax: 200_000, areaMin: 1000 }, usdFt2)).toEqual({
      search: { precioMax: 200_000, areaMin: 1000, divisa: 'USD', unidadArea: 'ft2' },
      converted: false,
    });
    // A currency the corporate does not offer cannot be converted: taken as the one shown.
    expect(searchInDisplay({ precioMax: 200_000, divisa: 'EUR' }, usdFt2).search.precioMax).toBe(
      200_000,
    );
    // No bound: no currency or unit is named.
    expect(searchInDisplay({ recamaras: [2], divisa: 'USD', unidadArea: 'ft2' }, mxnM2)).toEqual({
      search: { recamaras: [2], divisa: undefined, unidadArea: undefined },
      converted: false,
    });
    expect(figureUnitsOf(usdFt2)).toEqual({ divisa: 'USD', unidadArea: 'ft2' });
  });

  /** The availability page in the app's route shape. */
  const router = (url: string) =>
    developmentPageRouter('disponibilidad', validateUnitSearch, url).router;
  const pageSearch = (url: string) => {
    const r = router(url);
    return r.matchRoutes(r.state.location).at(-1)!.search as UnitSearch;
  };

  it('the filters go into the address and come back from it; invalid ones never reach the page', () => {
    const path = '/corporativos/c/desarrollos/d/disponibilidad';
    const filters = validateFilterSearch({
      recamaras: [2, 4],
      precioMax: 3_000_000,
      idPrototipo: ['pro-1'],
      status: ['No Disponible'],
    });
    const href = `${path}${defaultStringifySearch({ unidad: 'uni-1', s: 'caracteristicas', ...filters })}`;
    expect(filterSearchKey(pageSearch(href))).toBe(filterSearchKey(filters));
    expect(pageSearch(href).unidad).toBe('uni-1');
    const bad = pageSearch(
      `${path}?recamaras=${encodeURIComponent('[9,"x"]')}&precioMin=abc&status=${encodeURIComponent('{"a":1}')}&banios=%5B`,
    );
    expect(filterSearchKey(bad)).toBe(filterSearchKey({}));
    expect(bad.recamaras).toBeUndefined();
    expect(bad.precioMin).toBeUndefined();
  });

  it('selecting or closing a unit keeps the filters', () => {
    const filters = { recamaras: [2], precioMax: 3_000_000 };
    expect(selectUnitSearch({ ...filters, mostrarFondo: 'si' }, 'uni-2')).toEqual({
      unidad: 'uni-2',
      s: 'caracteristicas',
      mostrarFondo: 'si',
      ...filters,
    });
    expect(
      selectUnitSearch({ unidad: 'uni-2', s: 'caracteristicas', ...filters }, undefined),
    ).toEqual(filters);
  });

  it('a converted link matches at least the units the link matched (property)', () => {
    const ctx = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
    const displays = [
      makeDisplay(currencies, 'MXN', 'm2'),
      makeDisplay(currencies, 'USD', 'm2'),
      makeDisplay(currencies, 'USD', 'ft2'),
      makeDisplay(currencies, 'MXN', 'ft2'),
    ];
    const filtersOf = (search: FilterSearch, display: (typeof displays)[number]) =>
      toUnitFilters(formFromSearch(search), display, 'MXN');
    fc.assert(
      fc.property(
        fc.integer({ min: 10_000, max: 20_000_000 }),
        fc.integer({ min: 10_000, max: 20_000_000 }),
        fc.boolean(),
        fc.integer({ min: -40, max: 40 }),
        fc.constantFrom(0, 1, 2, 3),
        fc.constantFrom(0, 1, 2, 3),
        (a, b, nearMax, delta, from, to) => {
          const linkDisplay = displays[from]!;
          const viewer = displays[to]!;
          const link = searchInDisplay(
            { precioMin: Math.min(a, b), precioMax: Math.max(a, b) },
            linkDisplay,
            'MXN',
          ).search;
          // A unit priced (in MXN) just around one of the link's bounds, where rounding bites.
          const bound = nearMax ? link.precioMax! : link.precioMin!;
          const price = Math.max(
            0,
            Math.round(priceFromDisplay(bound, linkDisplay, 'MXN')) + delta,
          );
          const u = unit('u', 'Disponible', price);
          if (!unitMatchesFilters(u, filtersOf(link, linkDisplay), ctx)) return;
          const opened = searchInDisplay(link, viewer, 'MXN').search;
          expect(unitMatchesFilters(u, filtersOf(opened, viewer), ctx)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('live changes', () => {
  it('patch the unit in every cached clusters answer', () => {
    const client = new QueryClient();
    const key = ['api', 'wsObtenerClusters', { idCorporativo: 'k', idDesarrollo: 'd' }];
    client.setQueryData(key, [
      { id: 'c', unidades: [unit('a', 'Disponible'), unit('b', 'Disponible')] },
    ]);
    applyLiveChange(client, {
      type: 'UnitStatusChanged',
      corporateId: 'k',
      idUnidad: 'b',
      status: 'Vendido',
    });
    applyLiveChange(client, {
      type: 'UnitPriceChanged',
      corporateId: 'k',
      idUnidad: 'a',
      precio: 5,
    });
    const data = client.getQueryData<{ unidades: Unit[] }[]>(key)!;
    expect(data[0]!.unidades.map((u) => [u.id, u.status, u.precio])).toEqual([
      ['a', 'Disponible', 5],
      ['b', 'Vendido', 1_000_000],
    ]);
  });

  it('a changed unit’s display row is built at once, without waiting for the worker’s whole answer', () => {
    const colors = specStatusColors();
    const display = makeDisplay(currencies, 'MXN', 'm2');
    const build = (us: readonly Unit[]) => buildDisplayRows(us, colors, display).rows;
    const before = Array.from({ length: 100 }, (_, i) => unit(`u${i}`, 'Disponible'));
    const byId = new Map(build(before).map((r) => [r.id, r]));
    const built: string[][] = [];
    const counting = (us: readonly Unit[]) => {
      built.push(us.map((u) => u.id));
      return build(us);
    };
    // A live status change replaces one unit's object: only it is built, and its row says so.
    const after = before.map((u) => (u.id === 'u7' ? { ...u, status: 'Vendido' } : u));
    const patched = patchedRows(before, byId, after, counting)!;
    expect(built).toEqual([['u7']]);
    expect(patched.get('u7')!.statusLabel).toBe('Vendido');
    expect(patched.get('u7')!.hexColor).toBe(build([after[7]!])[0]!.hexColor);
    expect(patched.get('u8')).toBe(byId.get('u8'));
    expect(byId.get('u7')!.statusLabel).toBe('Disponible');
    // The same units: nothing to do. Too many changed: the worker's answer is awaited.
    expect(patchedRows(before, byId, before, counting)).toBeNull();
    const all = before.map((u) => ({ ...u, status: 'Vendido' }));
    expect(patchedRows(before, byId, all, counting)).toBeNull();
    expect(PATCH_LIMIT).toBeLessThan(all.length);
    // A new unit gets its row.
    const added = [...before, unit('nueva', 'Apartado')];
    expect(patchedRows(before, byId, added, build)!.get('nueva')!.statusLabel).toBe('Apartado');
  });
});

describe('price bounds typed in the chosen currency', () => {
  const usd = makeDisplay(currencies, 'USD', 'm2');
  const mxn = makeDisplay(currencies, 'MXN', 'm2');
  const ctx = { statusColors: defaultStatusColors(), hideUnavailablePrices: false };
  const matches = (precio: number, form: Partial<typeof EMPTY_FORM>, display = usd) =>
    unitMatchesFilters(
      unit('u', 'Disponible', precio),
      toUnitFilters({ ...EMPTY_FORM, ...form }, display, 'MXN'),
      ctx,
    );

  it('match a unit shown at exactly the bound, as min and as max (USD at 18.5)', () => {
    // 2,650,000 MXN / 18.5 = 143,243.24 USD, shown as $143,243 USD.
    expect(formatPrice(2_650_000, usd)).toBe('$143,243 USD');
    expect(matches(2_650_000, { precioMax: '143,243' })).toBe(true);
    expect(matches(2_650_000, { precioMin: '143,243' })).toBe(true);
    expect(matches(2_650_000, { precioMin: '143243', precioMax: '143243' })).toBe(true);
    expect(matches(2_650_000, { precioMax: '143,242' })).toBe(false);
    expect(matches(2_650_000, { precioMin: '143,244' })).toBe(false);
  });

  it('draw the line where the shown price changes, to the cent', () => {
    // Shown prices are converted to the cent, then to whole dollars: $143,244 USD starts at
    // 143,243.495 USD = 2,650,004.6575 MXN.
    expect(formatPrice(2_650_004.65, usd)).toBe('$143,243 USD');
    expect(formatPrice(2_650_004.66, usd)).toBe('$143,244 USD');
    expect(matches(2_650_004.65, { precioMax: '143243' })).toBe(true);
    expect(matches(2_650_004.66, { precioMax: '143243' })).toBe(false);
    expect(matches(2_650_004.66, { precioMin: '143244' })).toBe(true);
    expect(matches(2_650_004.65, { precioMin: '143244' })).toBe(false);
    // …and $143,243 USD starts at 143,242.495 USD = 2,649,986.1575 MXN.
    expect(formatPrice(2_649_986.16, usd)).toBe('$143,243 USD');
    expect(formatPrice(2_649_986.15, usd)).toBe('$143,242 USD');
    expect(matches(2_649_986.16, { precioMin: '143243' })).toBe(true);
    expect(matches(2_649_986.15, { precioMin: '143243' })).toBe(false);
  });

  it('in the unit currency, compare with the whole pesos shown', () => {
    expect(formatPrice(2_650_000.4, mxn)).toBe('$2,650,000 MXN');
    expect(matches(2_650_000.4, { precioMax: '2,650,000' }, mxn)).toBe(true);
    expect(matches(2_650_000.5, { precioMax: '2,650,000' }, mxn)).toBe(false);
    expect(matches(2_649_999.5, { precioMin: '2650000' }, mxn)).toBe(true);
  });

  it('keep bounds of 0 and below meaningful', () => {
    expect(matches(1_000, { precioMin: '0' })).toBe(true);
    expect(matches(1_000, { precioMax: '0' })).toBe(false);
    expect(matches(1_000, { precioMin: '-5' })).toBe(true);
    expect(matches(1_000, { precioMax: '-5' })).toBe(false);
  });
});

describe('text on status colours', () => {
  const seed = specStatusColors();
  const hex = (status: string) => seed[status]!.color.hexColor;
  const ratio = (bg: string, fg: string) =>
    contrastRatio(relativeLuminance(bg)!, relativeLuminance(fg)!);

  it('takes the text colour with the higher WCAG contrast ratio', () => {
    for (const status of Object.keys(seed)) {
      const bg = hex(status);
      const text = textOn(bg);
      const other = text === DARK_TEXT ? LIGHT_TEXT : DARK_TEXT;
      expect(ratio(bg, text), status).toBeGreaterThanOrEqual(ratio(bg, other));
    }
  });

  it('puts dark text on the seed’s Disponible, Bloqueado and No Disponible', () => {
    for (const status of ['Disponible', 'Bloqueado', 'No Disponible']) {
      expect(textOn(hex(status)), status).toBe(DARK_TEXT);
      expect(ratio(hex(status), DARK_TEXT), status).toBeGreaterThan(4.5);
    }
    // …and white where white reads better.
    expect(textOn(hex('Vendido'))).toBe(LIGHT_TEXT);
    expect(textOn(hex('Sin Estatus'))).toBe(LIGHT_TEXT);
    expect(textOn('#000')).toBe(LIGHT_TEXT);
    expect(textOn('#fff')).toBe(DARK_TEXT);
    expect(ratio('#000000', '#ffffff')).toBeCloseTo(21);
  });

  it('gives every colour text at 4.5:1 or more (WCAG AA), mid reds such as #d64545 included', () => {
    expect(ratio('#D64545', textOn('#D64545'))).toBeGreaterThanOrEqual(4.5);
    for (let r = 0; r < 256; r += 15)
      for (let g = 0; g < 256; g += 15)
        for (let b = 0; b < 256; b += 15) {
          const bg = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
          expect(ratio(bg, textOn(bg)), bg).toBeGreaterThanOrEqual(4.5);
        }
  });
});

describe('units table order', () => {
  const colors = defaultStatusColors();
  const display = makeDisplay([], 'MXN', 'm2');
  // The table sorts by the display rows the core worker builds (core/display-rows.ts).
  const lookups = (list: Unit[]) => ({
    rows: new Map(buildDisplayRows(list, colors, display).rows.map((r) => [r.id, r])),
    clusterNames: new Map([['c', 'Torre A']]),
    prototypeNames: new Map<string, string>(),
  });
  const units = [
    unit('hidden-1', 'Vendido', 9_000_000),
    unit('cheap', 'Disponible', 1_000_000),
    unit('hidden-2', 'Apartado', 500_000),
    unit('dear', 'Disponible', 5_000_000),
    unit('zero', 'Disponible', 0),
  ];
  const order = (column: Column, dir: 1 | -1) =>
    sortUnits(units, { column, dir }, lookups(units)).map((u) => u.id);

  it('puts hidden prices after every visible price, ascending and descending', () => {
    expect(order('precio', 1)).toEqual(['cheap', 'dear', 'hidden-1', 'hidden-2', 'zero']);
    expect(order('precio', -1)).toEqual(['dear', 'cheap', 'hidden-1', 'hidden-2', 'zero']);
  });

  it('puts units without a tower, type or known status last in both directions', () => {
    const mixed = [
      { ...unit('b', 'Disponible'), idCluster: 'none' },
      unit('a', 'Disponible'),
      { ...unit('c', 'Disponible'), status: 'Inventado' },
    ];
    const names = lookups(mixed);
    for (const dir of [1, -1] as const) {
      expect(sortUnits(mixed, { column: 'cluster', dir }, names).map((u) => u.id)).toEqual([
        'a',
        'c',
        'b',
      ]);
      expect(sortUnits(mixed, { column: 'prototipo', dir }, names).map((u) => u.id)).toEqual([
        'a',
        'b',
        'c',
      ]);
      expect(sortUnits(mixed, { column: 'status', dir }, names).at(-1)!.id).toBe('c');
    }
  });
});

describe('plurals of the inventory texts', () => {
  const load = (lng: string) =>
    JSON.parse(
      readFileSync(
        join(import.meta.dirname, `../../src/ui/i18n/locales/${lng}/inventory.json`),
        'utf8',
      ),
    ) as Record<string, unknown>;
  const instance = async (lng: string) => {
    const i18n = i18next.createInstance();
    await i18n.init({
      lng,
      resources: { [lng]: { inventory: load(lng) } },
      defaultNS: 'inventory',
    });
    return i18n;
  };
  const summary = (t: TFunction, r: number, b: number, p: number) =>
    t('prototypes.summary', {
      bedrooms: t('prototypes.bedrooms', { count: r }),
      bathrooms: t('prototypes.bathrooms', { count: b }),
      parking: t('prototypes.parking', { count: p }),
    });
  const baths = (t: TFunction, full: number, half: number) =>
    t('detail.bathroomsWithHalf', {
      full: t('detail.fullBathrooms', { count: full }),
      half: t('detail.halfBathrooms', { count: half }),
    });

  it('agree in Spanish with each count', async () => {
    const { t } = await instance('es');
    expect(summary(t, 1, 1, 1)).toBe('1 recámara · 1 baño · 1 cajón');
    expect(summary(t, 2, 2.5, 2)).toBe('2 recámaras · 2.5 baños · 2 cajones');
    expect(summary(t, 3, 1.5, 0)).toBe('3 recámaras · 1.5 baños · 0 cajones');
    expect(baths(t, 1, 1)).toBe('1 completo y 1 medio');
    expect(baths(t, 2, 1)).toBe('2 completos y 1 medio');
    expect(baths(t, 1, 2)).toBe('1 completo y 2 medios');
    expect(t('table.caption', { count: 1 })).toBe('1 unidad');
    expect(t('filters.matching', { count: 1, total: 248 })).toBe('1 de 248 unidades coincide');
    // Spanish "many" (exact millions) finds its form too.
    expect(t('table.caption', { count: 1_000_000 })).toBe('1000000 unidades');
  });

  it('agree in English with each count', async () => {
    const { t } = await instance('en');
    expect(summary(t, 1, 1, 1)).toBe('1 bedroom · 1 bathroom · 1 parking space');
    expect(summary(t, 2, 2.5, 2)).toBe('2 bedrooms · 2.5 bathrooms · 2 parking spaces');
    expect(baths(t, 1, 1)).toBe('1 full bath and 1 half bath');
    expect(baths(t, 2, 2)).toBe('2 full baths and 2 half baths');
    expect(
      t('grid.levelsAndUnits', {
        levels: t('grid.levels', { count: 1 }),
        units: t('grid.units', { count: 10 }),
      }),
    ).toBe('1 level · 10 units');
  });
});

describe('admin price', () => {
  it('accepts what the server accepts, up to 10,000,000,000', () => {
    expect(parseAdminPrice('4,350,000')).toEqual({ ok: true, precio: 4_350_000 });
    expect(parseAdminPrice('$ 4350000.50')).toEqual({ ok: true, precio: 4_350_000.5 });
    expect(parseAdminPrice('10,000,000,000')).toEqual({ ok: true, precio: UNIT_PRICE_MAX });
    expect(parseAdminPrice('0')).toEqual({ ok: true, precio: 0 });
  });

  it('rejects above the server’s maximum and what is not a number', () => {
    expect(parseAdminPrice('10000000000.01')).toEqual({ ok: false, reason: 'max', max: 1e10 });
    expect(parseAdminPrice('99999999999999999999')).toMatchObject({ ok: false, reason: 'max' });
    for (const text of ['', 'abc', '-5', '1e5', '1.2.3']) {
      expect(parseAdminPrice(text), text).toEqual({ ok: false, reason: 'format' });
    }
  });
});
