/**
 * The display rows the core worker builds (issue 20, the card's worker): status colour and label,
 * quotable, the visible price converted to the chosen currency, areas in the chosen unit
 * (1 m² = 10.7639 ft²), rent, and the development's price from and rent, in one pass — and the
 * worker's API answers the same rows for the units loaded under a key.
 */
import { describe, expect, it } from 'vitest';
import {
  buildChatUnitFigures,
  buildDevelopmentFigures,
  buildDisplayRows,
} from '../../../src/core/display-rows';
import { makeDisplay } from '../../../src/core/display';
import { defaultStatusColors } from '../../../src/core/status';
import type { Currency } from '../../../src/core/types';
import { createCoreApi } from '../../../src/workers/core-api';
import { makeUnit, makeUnits } from '../../fixtures/units';

const currencies: Currency[] = [
  { codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 },
  { codigo: 'USD', activo: true, nombre: 'Dólares', tipoCambio: 20 },
];
const colors = defaultStatusColors();

describe('display rows', () => {
  const units = [
    makeUnit({
      id: 'a',
      precio: 4_000_000,
      precioRenta: 30_000,
      metrajes: { areaTotal: 100, terraza: 12 },
    }),
    makeUnit({ id: 'b', status: 'Vendido', precio: 1_000_000, precioRenta: 5_000 }),
    makeUnit({ id: 'c', status: 'Inventado', precio: 900_000 }),
    makeUnit({ id: 'd', precio: 2_000_000, metrajes: { areaTotal: 50 } }),
  ];

  it('shows status, quotable and hidden prices by the status rules, in MXN and m²', () => {
    const out = buildDisplayRows(units, colors, makeDisplay(currencies, 'MXN', 'm2'));
    const [a, b, c] = out.rows;
    expect(a).toMatchObject({
      id: 'a',
      statusLabel: 'Disponible',
      statusKnown: true,
      quotable: true,
      priceVisible: true,
      price: 4_000_000,
      priceText: '$4,000,000 MXN',
      areaText: '100.00 m²',
      terraceText: '12.00 m²',
      interiorText: null,
      rentText: '$30,000 MXN',
    });
    expect(a!.hexColor).toBe(colors.Disponible!.color.hexColor);
    // Vendido hides the price and its rent; an unknown status is 'Sin estatus', never quotable.
    expect(b).toMatchObject({ priceVisible: false, price: null, priceText: null, rentText: null });
    expect(c).toMatchObject({
      statusLabel: 'Sin estatus',
      statusKnown: false,
      quotable: false,
      priceText: null,
    });
    // priceFrom: the lowest visible price (the sold unit's 1,000,000 is hidden); rent the same.
    expect(out.priceFromText).toBe('$2,000,000 MXN');
    expect(out.rentText).toBe('$30,000 MXN');
  });

  it('converts to the chosen currency and area unit', () => {
    const out = buildDisplayRows(units, colors, makeDisplay(currencies, 'USD', 'ft2'));
    expect(out.currency).toBe('USD');
    expect(out.rows[0]).toMatchObject({
      price: 200_000,
      priceText: '$200,000 USD',
      areaText: `${(100 * 10.7639).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ft²`,
    });
    expect(out.priceFromText).toBe('$100,000 USD');
  });

  it('is what the worker API answers (as JSON text) for the units loaded under a key', () => {
    const api = createCoreApi();
    const many = makeUnits(2000);
    api.loadUnits('dev:x', many);
    const display = makeDisplay(currencies, 'USD', 'm2');
    expect(JSON.parse(api.displayRowsText('dev:x', colors, display, 'MXN'))).toEqual(
      buildDisplayRows(many, colors, display, 'MXN'),
    );
    expect(() => api.displayRowsText('dev:none', colors, display)).toThrow(/no units loaded/);
  });
});

describe('status summaries, development cards and chat cards', () => {
  it('summarises the statuses in the spec order, unknown ones and units without one last', () => {
    const units = [
      makeUnit({ id: 'a', status: 'Vendido' }),
      makeUnit({ id: 'b', status: 'Disponible' }),
      makeUnit({ id: 'c', status: 'Inventado' }),
      makeUnit({ id: 'd', status: undefined }),
    ];
    const { statuses } = buildDisplayRows(units, colors, makeDisplay(currencies, 'MXN', 'm2'));
    expect(statuses[0]).toMatchObject({ status: 'Disponible', label: 'Disponible', total: 1 });
    expect(statuses.find((s) => s.status === 'Vendido')).toMatchObject({ known: true, total: 1 });
    // Coloured statuses no unit has are listed with 0 (the legend shows them).
    expect(statuses.find((s) => s.status === 'Apartado')).toMatchObject({ total: 0 });
    expect(statuses.slice(-2).map((s) => [s.status, s.known, s.total])).toEqual([
      ['Inventado', false, 1],
      ['', false, 1],
    ]);
  });

  it("shows a development card's price from and rent in the chosen currency", () => {
    const [withPrice, without] = buildDevelopmentFigures(
      [
        {
          id: 'alameda',
          precioDesde: 2_600_000,
          precioRentaDesde: 20_000,
          divisa: 'MXN',
          statusCounts: { Disponible: 3, Vendido: 1, Inventado: 2 },
        },
        { id: 'nueva', precioDesde: null },
      ],
      colors,
      makeDisplay(currencies, 'USD', 'm2'),
    );
    expect(withPrice).toMatchObject({
      priceFromText: '$130,000 USD',
      rentText: '$1,000 USD',
    });
    // Only the statuses some unit has, in the spec order.
    expect(withPrice!.statuses!.map((s) => [s.status, s.total])).toEqual([
      ['Disponible', 3],
      ['Vendido', 1],
      ['Inventado', 2],
    ]);
    expect(without).toEqual({ id: 'nueva', priceFromText: null, rentText: null, statuses: null });
  });

  it("shows a chat card's price (hidden when absent) and areas in the chosen unit", () => {
    const display = makeDisplay(currencies, 'MXN', 'ft2');
    expect(
      buildChatUnitFigures(
        [
          { id: 'a', precio: 4_000_000, divisa: 'MXN', areaTotal: 100, terraza: 10 },
          { id: 'b', areaTotal: 50 },
        ],
        display,
      ),
    ).toEqual([
      {
        id: 'a',
        priceText: '$4,000,000 MXN',
        areaText: '1,076.39 ft²',
        terraceText: '107.64 ft²',
      },
      { id: 'b', priceText: null, areaText: '538.19 ft²', terraceText: null },
    ]);
  });
});
