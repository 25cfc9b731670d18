/**
 * Spec §3 Development `caracteristicasUnidad`: the development's unit features, listed in the
 * detail of each of its units; nothing listed when it has none.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { unitFeaturesOf } from '../../src/core/development-settings';
import { defaultStatusColors } from '../../src/core/status';
import type { Unit } from '../../src/core/types';
import { makeDisplay } from '../../src/ui/lib/figures';
import { UnitDetail } from '../../src/ui/features/inventory/components/unit-detail';

// Panda's generated classes are not what this test reads (the listed features are).
vi.mock('styled-system/css', () => ({ css: () => '' }));

const unit: Unit = {
  id: 'A101',
  idDesarrollo: 'd',
  idCluster: 'c',
  idPrototipo: 'p',
  nombre: 'A101',
  nivel: 1,
  posicion: 1,
  status: 'Disponible',
  precio: 1_000_000,
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 80 },
};

const render = (features: readonly string[] | undefined) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <UnitDetail
        unit={unit}
        colors={defaultStatusColors()}
        display={makeDisplay(
          [{ codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 }],
          'MXN',
          'm2',
        )}
        developmentName="Torre Alameda"
        shareUrl="https://vitrina.example.com/x"
        features={features}
        onClose={() => {}}
      />
    </QueryClientProvider>,
  );

describe('caracteristicasUnidad', () => {
  it("the development's features, trimmed, without blanks or repeats, in their order", () => {
    expect(unitFeaturesOf({})).toEqual([]);
    expect(
      unitFeaturesOf({
        caracteristicasUnidad: [' Balcón ', 'Cuarto de servicio', '', 'Balcón'],
      }),
    ).toEqual(['Balcón', 'Cuarto de servicio']);
  });

  it("a unit's detail lists them, and shows no list when there are none", () => {
    const html = render(
      unitFeaturesOf({ caracteristicasUnidad: ['Balcón', 'Cuarto de servicio'] }),
    );
    expect(html).toContain('data-testid="unit-features"');
    expect(html).toContain('<li class="">Balcón</li><li class="">Cuarto de servicio</li>');
    expect(render([])).not.toContain('unit-features');
    expect(render(undefined)).not.toContain('unit-features');
  });
});
