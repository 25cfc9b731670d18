/**
 * Spec §3 Development: `configVistaNivel.mostrarColorIndependienteFachada` (true when absent).
 * True: the façade (the availability grid) colours each unit by its own status; false: one façade
 * colour for every unit, the status told by the cell's mark and accessible name.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import {
  FACADE_COLOUR,
  facadeCellColour,
  showsFacadeColour,
} from '../../src/core/development-settings';
import { buildDisplayRows } from '../../src/core/display-rows';
import { defaultStatusColors } from '../../src/core/status';
import type { Unit } from '../../src/core/types';
import { makeDisplay } from '../../src/ui/lib/figures';
import { AvailabilityGrid } from '../../src/ui/features/inventory/components/availability-grid';
import { contrastRatio, relativeLuminance, textOn } from '../../src/ui/theme/contrast';

// Panda's generated classes are not what this test reads (the cells' inline colours are).
vi.mock('styled-system/css', () => ({ css: () => '' }));

const unit = (id: string, status: string, posicion: number): Unit => ({
  id,
  idDesarrollo: 'd',
  idCluster: 'c',
  idPrototipo: 'p',
  nombre: id,
  nivel: 1,
  posicion,
  status,
  precio: 1_000_000,
  caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
  metrajes: { areaTotal: 80 },
});

describe('configVistaNivel.mostrarColorIndependienteFachada', () => {
  it('is true when absent; a unit keeps its own status colour unless it is false', () => {
    expect(showsFacadeColour({})).toBe(true);
    expect(facadeCellColour('#2e7d32', showsFacadeColour({}))).toBe('#2e7d32');
    const off = { configVistaNivel: { mostrarColorIndependienteFachada: false } };
    expect(facadeCellColour('#2e7d32', showsFacadeColour(off))).toBe(FACADE_COLOUR);
    expect(facadeCellColour('#c62828', showsFacadeColour(off))).toBe(FACADE_COLOUR);
    // The cell's text stays legible on the one façade colour (WCAG AA, 4.5:1).
    expect(
      contrastRatio(relativeLuminance(textOn(FACADE_COLOUR))!, relativeLuminance(FACADE_COLOUR)!),
    ).toBeGreaterThanOrEqual(4.5);
  });

  it('the availability grid paints every unit in the façade colour when it is false', () => {
    const units = [unit('A101', 'Disponible', 1), unit('A102', 'Vendido', 2)];
    const colors = defaultStatusColors();
    const display = makeDisplay(
      [{ codigo: 'MXN', activo: true, nombre: 'Pesos', tipoCambio: 1 }],
      'MXN',
      'm2',
    );
    const built = buildDisplayRows(units, colors, display, 'MXN');
    const rows = new Map(built.rows.map((r) => [r.id, r]));
    const render = (independentColours: boolean | undefined) =>
      renderToStaticMarkup(
        <QueryClientProvider client={new QueryClient()}>
          <AvailabilityGrid
            clusters={[{ id: 'c', nombre: 'Torre', niveles: 1, unidadesPorNivel: 2 }]}
            units={units}
            rows={rows}
            matching={null}
            appliedKey=""
            selectedId={undefined}
            onSelect={() => {}}
            independentColours={independentColours}
          />
        </QueryClientProvider>,
      );
    const own = render(undefined);
    expect(own).toContain(`background:${rows.get('A101')!.hexColor}`);
    expect(own).toContain(`background:${rows.get('A102')!.hexColor}`);
    expect(own).not.toContain(`background:${FACADE_COLOUR}`);
    const one = render(false);
    expect(one.split(`background:${FACADE_COLOUR}`).length - 1).toBe(2);
    expect(one).not.toContain(`background:${rows.get('A101')!.hexColor}`);
    expect(one).toContain('data-facade-colours="one"');
  });
});
