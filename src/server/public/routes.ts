import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import {
  effectiveStatusColors,
  publicCorporate,
  publicDevelopment,
  publicPrototype,
  publicUnit,
} from './views';
import { recomputePricesFromPrototypes } from '../../core/filters';
import type { Unit } from '../../core/types';
import { ApiError, parse } from '../http/errors';
import { cachedCorporate, type AppDeps, type Env } from '../http/context';
import { clientAddress } from '../http/rate-limit';
import {
  loadClusters,
  loadDevelopmentBySlug,
  loadPrototypes,
  loadUnits,
} from '../catalogue/queries';
import { catalogueRevisionFor, respondReady } from '../catalogue/ready-json';
import { clusterPage, selectPage, unitsByCluster } from '../catalogue/cluster-pages';
import { APP_VERSION } from '../catalogue/routes';
import { langFrom } from '../http/messages';

const slug = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9-]+$/);

/** A development visitors may see: it exists, belongs to the corporate and is published on the web. */
async function publicTarget(deps: AppDeps, corpSlug: string, devSlug: string) {
  const corporate = await cachedCorporate(deps, { slug: corpSlug });
  if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
  const development = await loadDevelopmentBySlug(deps.db, corporate.id, devSlug);
  if (!development || !development.enWeb)
    throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
  return { corporate, development, colors: effectiveStatusColors(corporate, development) };
}

/** The availability's paging parameters, as `wsObtenerClusters` takes them (issue 21). */
const availabilityQuery = z.strictObject(clusterPage);

const params = (c: { req: { param(name: string): string } }) => ({
  corp: parse(slug, c.req.param('c')),
  dev: parse(slug, c.req.param('d')),
});

export const publicRoutes = new Hono<Env>()
  .get('/corporativos/:c', async (c) => {
    const corporate = await cachedCorporate(c.get('deps'), {
      slug: parse(slug, c.req.param('c')),
    });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    return c.json(publicCorporate(corporate));
  })
  .get('/corporativos/:c/desarrollos/:d', async (c) => {
    const { corp, dev } = params(c);
    const { corporate, development } = await publicTarget(c.get('deps'), corp, dev);
    return c.json({
      corporativo: publicCorporate(corporate),
      desarrollo: publicDevelopment(development),
    });
  })
  /**
   * The development's public availability. Without parameters, every cluster (the spec's call);
   * with `idCluster` one, with `limite`/`despuesDe` a page of clusters in the same order, under
   * the same header (issue 21): only the page's units are read.
   */
  .get('/corporativos/:c/desarrollos/:d/disponibilidad', async (c) => {
    const { corp, dev } = params(c);
    const page = parse(availabilityQuery, c.req.query());
    const deps = c.get('deps');
    const db = deps.db;
    const { corporate, development, colors } = await publicTarget(deps, corp, dev);
    // Ready JSON with an ETag from the corporate's catalogue revision (issue 21): the same
    // bytes for every visitor, built once per revision; each page its own.
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: [
        APP_VERSION,
        c.req.path,
        page,
        corporate.id,
        development.id,
        langFrom(c.req.header('accept-language')),
      ],
      shared: [c.req.path, page, corporate.id, development.id],
      cacheControl: 'public, max-age=5',
      build: async () => {
        const { clusters, unitsOf } = selectPage(
          await loadClusters(db, corporate.id, development.id),
          page,
        );
        const [prototypes, stored] = await Promise.all([
          loadPrototypes(db, corporate.id, development.id),
          // A page reads its clusters' units only.
          loadUnits(db, corporate.id, development.id, unitsOf),
        ]);
        // Spec §4: a unit without its own price shows its prototype's (catalogue/queries.ts).
        const byCluster = unitsByCluster(recomputePricesFromPrototypes(stored, prototypes));
        return {
          corporativo: publicCorporate(corporate),
          desarrollo: publicDevelopment(development),
          coloresStatus: colors,
          prototipos: prototypes.filter((p) => p.activo).map(publicPrototype),
          clusters: clusters.map((cl) => ({
            id: cl.id,
            nombre: cl.nombre,
            niveles: cl.niveles,
            unidadesPorNivel: cl.unidadesPorNivel,
            etapa: cl.etapa ?? null,
            calles: cl.calles ?? null,
            unidades: (byCluster.get(cl.id) ?? []).map((u) => publicUnit(u, colors)),
          })),
        };
      },
    });
  })
  .get('/corporativos/:c/desarrollos/:d/stream', async (c) => {
    const { corp, dev } = params(c);
    const deps = c.get('deps');
    const { corporate, development, colors } = await publicTarget(deps, corp, dev);
    const release = deps.live.admitStream({ userId: null, address: clientAddress(c) });
    return streamSSE(c, async (stream) => {
      const pending: string[] = [];
      let wake: (() => void) | undefined;
      // Changes may have been missed (the feed's listener reconnected): another `ready` makes the
      // page read the availability again.
      let resyncDue = false;
      const unsubscribe = deps.live.subscribe(
        (event) => {
          if (event.corporateId !== corporate.id || !event.type.startsWith('Unit')) return;
          const data = (event.data ?? {}) as { idUnidad?: string; unit?: Unit };
          const id = data.idUnidad ?? data.unit?.id;
          if (id) pending.push(id);
          wake?.();
        },
        () => {
          resyncDue = true;
          wake?.();
        },
      );
      const end = () => {
        unsubscribe();
        release();
        wake?.();
      };
      stream.onAbort(end);
      try {
        await stream.writeSSE({ event: 'ready', data: '{}', retry: 2000 });
        while (!stream.aborted) {
          if (resyncDue) {
            resyncDue = false;
            await stream.writeSSE({ event: 'ready', data: '{"resync":true}' });
            continue;
          }
          const ids = pending.splice(0);
          if (ids.length > 0) {
            // Re-read the units so a visitor gets exactly the public view, hidden prices included.
            const { rows } = await deps.db.query<{ doc: Unit }>(
              'SELECT doc FROM rm_units WHERE corporate_id = $1 AND development_id = $2 AND id = ANY($3::text[])',
              [corporate.id, development.id, ids],
            );
            // Priced as the availability read prices them (spec §4).
            const prototypes = await loadPrototypes(deps.db, corporate.id, development.id);
            for (const doc of recomputePricesFromPrototypes(
              rows.map((r) => r.doc),
              prototypes,
            )) {
              await stream.writeSSE({
                event: 'unit',
                data: JSON.stringify(publicUnit(doc, colors)),
              });
            }
            continue;
          }
          await new Promise<void>((resolve) => {
            wake = resolve;
            setTimeout(resolve, 25_000);
          });
          wake = undefined;
          if (pending.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
        }
      } finally {
        end();
      }
    });
  });
