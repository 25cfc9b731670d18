/**
 * The availability grid draws its cells in parts (issue 19: no single task commits every unit of
 * a large building): whole levels from the top of the first building down, about
 * DRAW_STEP_CELLS a part, the last part everything.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { Unit } from '../../src/core/types';
import {
  AvailabilityGrid,
  DRAW_STEP_CELLS,
  drawPlan,
} from '../../src/ui/features/inventory/components/availability-grid';

vi.mock('styled-system/css', () => ({ css: () => '' }));

const building = (levels: number[]) => ({
  levels: levels.map((n) => ({ cells: Array.from({ length: n }) })),
  streets: null,
});

describe('drawPlan', () => {
  it('draws whole levels in page order, at most the step a part (or one level), everything last', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 30 }), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.integer({ min: 1, max: 120 }),
        (buildings, step) => {
          const models = buildings.map(building);
          const plan = drawPlan(models, step);
          expect(plan.at(-1)).toEqual(buildings.map((b) => b.length));
          let before = buildings.map(() => 0);
          for (const part of plan) {
            // Page order: a building's levels start only once every earlier building is whole.
            part.forEach((n, b) => {
              expect(n).toBeGreaterThanOrEqual(before[b]!);
              if (n > 0) for (let e = 0; e < b; e++) expect(part[e]).toBe(buildings[e]!.length);
            });
            // (An empty level costs nothing: it may join any part.)
            const added = part
              .flatMap((n, b) => buildings[b]!.slice(before[b], n))
              .filter((c) => c > 0);
            if (added.length > 1)
              expect(added.reduce((a, c) => a + c, 0)).toBeLessThanOrEqual(step);
            before = part;
          }
        },
      ),
    );
  });

  it('a 248-unit tower of 16 units a level: 6 levels a part, 3 parts', () => {
    const tower = building([...Array.from({ length: 15 }, () => 16), 8]);
    const plan = drawPlan([tower], DRAW_STEP_CELLS);
    expect(plan).toEqual([[6], [12], [16]]);
  });

  it('a site plan is drawn whole in the first part', () => {
    const houses = { levels: [], streets: [] };
    expect(drawPlan([houses, building([50, 50])], 96)).toEqual([
      [1, 1],
      [1, 2],
    ]);
  });
});

describe('AvailabilityGrid, first render', () => {
  const unit = (nivel: number, posicion: number): Unit => ({
    id: `u-${nivel}-${posicion}`,
    idDesarrollo: 'd',
    idCluster: 'c',
    idPrototipo: 'p',
    nombre: `A${nivel}${String(posicion).padStart(2, '0')}`,
    nivel,
    posicion,
    status: 'Disponible',
    precio: 1_000_000,
    caracteristicas: { recamaras: 2, banios: 2, baniosMedios: 0, cajones: 1 },
    metrajes: { areaTotal: 80 },
  });

  it('draws the top levels of a large tower, holds its height, and is not ready yet', () => {
    const units = Array.from({ length: 16 }, (_, l) =>
      Array.from({ length: 16 }, (_, p) => unit(l + 1, p + 1)),
    ).flat();
    const html = renderToStaticMarkup(
      <QueryClientProvider client={new QueryClient()}>
        <AvailabilityGrid
          clusters={[{ id: 'c', nombre: 'Torre', niveles: 16, unidadesPorNivel: 16 }]}
          units={units}
          rows={new Map()}
          matching={null}
          appliedKey=""
          selectedId={undefined}
          onSelect={() => {}}
        />
      </QueryClientProvider>,
    );
    const drawn = html.match(/data-unit-id="([^"]+)"/g)!.map((m) => m.slice(14, -1));
    expect(drawn).toHaveLength(96);
    // The top six levels, 16 down to 11.
    expect(new Set(drawn.map((id) => id.split('-')[1]))).toEqual(
      new Set(['16', '15', '14', '13', '12', '11']),
    );
    expect(html).toContain('aria-busy="true"');
    // The other ten levels are rows of their height, so the card has its final size already.
    expect(html.match(/role="listitem"/g)).toHaveLength(6);
    // (Ten, and the roof above the levels.)
    expect(html.match(/<div aria-hidden="true" class=""><\/div>/g)).toHaveLength(11);
    expect(html).toContain('data-ready="false"');
  });
});
