import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { defaultStatusColors } from '../../src/core/status';
import type { Unit } from '../../src/core/types';
import { EMPTY_FORM, toUnitFilters } from '../../src/ui/components/inventory/filter-form';
import { formatPrice, makeDisplay } from '../../src/ui/components/inventory/inventory-data';
import { applyLiveChange } from '../../src/ui/components/inventory/live-inventory';
import { statusCounts } from '../../src/ui/components/inventory/status-counts';
import {
  selectUnitSearch,
  validateUnitSearch,
} from '../../src/ui/components/inventory/unit-search';

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
    expect(f.precioMin).toBe(1_850_000);
    expect(f.precioMax).toBe(3_700_000);
    expect(f.areaMin).toBe(100);
    expect(f.areaMax).toBeUndefined();
    expect(f.cajones).toEqual([4]);
  });

  it('counts units per status in the spec order, with the matching ones', () => {
    const counts = statusCounts(
      [unit('a', 'Vendido'), unit('b', 'Disponible'), unit('c', 'Disponible')],
      defaultStatusColors(),
      new Set(['b']),
    );
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
});
