/**
 * The public availability by pages (issue 21), client side: which page follows the first, the
 * URLs the page reads (and the server preloads), two pages put together, a live unit put into
 * every cached read, and the simulator's whole answer from the availability's cached pages.
 */
import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  FIRST_CLUSTERS,
  FIRST_PAGE,
  publicAvailabilityUrl,
  restAfter,
} from '../../src/core/availability-pages';
import {
  joinPublicPages,
  publicAvailabilityKey,
  publicAvailabilityPageQuery,
  publicAvailabilityQuery,
  publicPagesInCache,
  type PublicAvailability,
  type PublicCluster,
  type PublicUnit,
} from '../../src/ui/lib/public-catalogue';
import { cachePublicUnit } from '../../src/ui/features/inventory/api/public-live';

const unit = (id: string, idCluster: string, status = 'Disponible'): PublicUnit => ({
  id,
  idCluster,
  idPrototipo: 'p1',
  nombre: id,
  nivel: 1,
  posicion: 1,
  status,
  disponibilidad: status,
  color: '#00aa00',
  esCotizable: true,
  caracteristicas: {} as PublicUnit['caracteristicas'],
  metrajes: {} as PublicUnit['metrajes'],
  divisa: 'MXN',
  precio: 1_000_000,
});
const cluster = (id: string, units: string[]): PublicCluster => ({
  id,
  nombre: id,
  niveles: 1,
  unidadesPorNivel: units.length,
  etapa: null,
  unidades: units.map((u) => unit(u, id)),
});
const answer = (clusters: PublicCluster[]): PublicAvailability => ({
  corporativo: { slug: 'c' } as PublicAvailability['corporativo'],
  desarrollo: { id: 'dev', slug: 'd' } as PublicAvailability['desarrollo'],
  coloresStatus: {},
  prototipos: [],
  clusters,
});
const [a, b, c] = [cluster('a', ['a1', 'a2']), cluster('b', ['b1']), cluster('c', ['c1', 'c2'])];

describe('public availability pages', () => {
  it('reads the rest after the first page only when the first page was full', () => {
    expect(FIRST_PAGE).toEqual({ limite: FIRST_CLUSTERS });
    expect(restAfter([a, b])).toEqual({ despuesDe: 'b' });
    expect(restAfter([a])).toBeNull();
    expect(restAfter([])).toBeNull();
  });

  it("builds the pages' URLs from the slugs, encoded", () => {
    expect(publicAvailabilityUrl('grupo-h', 'torre a')).toBe(
      '/api/public/corporativos/grupo-h/desarrollos/torre%20a/disponibilidad',
    );
    expect(publicAvailabilityUrl('grupo-h', 'torre-a', FIRST_PAGE)).toBe(
      '/api/public/corporativos/grupo-h/desarrollos/torre-a/disponibilidad?limite=2',
    );
    expect(publicAvailabilityUrl('g', 'd', { despuesDe: 'clu/1 2' })).toBe(
      '/api/public/corporativos/g/desarrollos/d/disponibilidad?despuesDe=clu%2F1%202',
    );
  });

  it("puts the rest behind the first page under the first page's header", () => {
    const first = answer([a, b]);
    const rest = {
      ...answer([c]),
      prototipos: [{ id: 'other' }] as PublicAvailability['prototipos'],
    };
    const whole = joinPublicPages(first, rest);
    expect(whole.clusters).toEqual([a, b, c]);
    expect(whole.prototipos).toBe(first.prototipos);
  });

  it("keys every read under the development's key, so the live stream finds them all", () => {
    const key = publicAvailabilityKey('c', 'd');
    expect(publicAvailabilityQuery('c', 'd').queryKey).toEqual(key);
    expect(publicAvailabilityPageQuery('c', 'd', FIRST_PAGE).queryKey.slice(0, key.length)).toEqual(
      key,
    );
  });

  it('a live unit replaces its copy in the whole answer and in the page that holds its cluster', () => {
    const client = new QueryClient();
    const firstKey = publicAvailabilityPageQuery('c', 'd', FIRST_PAGE).queryKey;
    const restKey = publicAvailabilityPageQuery('c', 'd', { despuesDe: 'b' }).queryKey;
    const wholeKey = publicAvailabilityQuery('c', 'd').queryKey;
    const otherKey = publicAvailabilityQuery('c', 'other').queryKey;
    client.setQueryData(firstKey, answer([a, b]));
    client.setQueryData(restKey, answer([c]));
    client.setQueryData(wholeKey, answer([a, b, c]));
    client.setQueryData(otherKey, answer([c]));
    const firstBefore = client.getQueryData(firstKey);
    const sold = { ...unit('c2', 'c', 'Vendido'), precio: undefined };
    cachePublicUnit(client, 'c', 'd', sold);
    // The first page has no cluster 'c': left as it was.
    expect(client.getQueryData(firstKey)).toBe(firstBefore);
    expect(client.getQueryData(restKey)?.clusters[0]!.unidades[1]).toEqual(sold);
    expect(client.getQueryData(wholeKey)?.clusters[2]!.unidades[1]).toEqual(sold);
    // Another development's answer is not touched.
    expect(client.getQueryData(otherKey)?.clusters[0]!.unidades[1]!.status).toBe('Disponible');
  });

  it("gives the simulator every cluster from the availability's pages, only when all are in", () => {
    const client = new QueryClient();
    expect(publicPagesInCache(client, 'c', 'd')).toBeUndefined();
    client.setQueryData(
      publicAvailabilityPageQuery('c', 'd', FIRST_PAGE).queryKey,
      answer([a, b]),
      {
        updatedAt: 2000,
      },
    );
    // The rest is not in yet.
    expect(publicPagesInCache(client, 'c', 'd')).toBeUndefined();
    client.setQueryData(
      publicAvailabilityPageQuery('c', 'd', { despuesDe: 'b' }).queryKey,
      answer([c]),
      { updatedAt: 1000 },
    );
    const whole = publicPagesInCache(client, 'c', 'd')!;
    expect(whole.data.clusters.map((cl) => cl.id)).toEqual(['a', 'b', 'c']);
    expect(whole.updatedAt).toBe(1000);
    // A first page with fewer clusters than asked for is every cluster.
    client.setQueryData(publicAvailabilityPageQuery('c', 'e', FIRST_PAGE).queryKey, answer([a]), {
      updatedAt: 3000,
    });
    expect(publicPagesInCache(client, 'c', 'e')).toEqual({ data: answer([a]), updatedAt: 3000 });
  });
});
