import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { isPriceVisible, statusInfo } from '../../core/status';
import type { Corporate, Development, Prototype, StatusColors, Unit } from '../../core/types';
import type { Db } from '../store/db';
import { ApiError, parse } from './errors';
import { findCorporate, type Env } from './context';
import { loadClusters, loadDevelopmentBySlug, loadPrototypes, loadUnits } from './catalogue.routes';

const slug = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9-]+$/);

/** The status colours that apply in a development: its own when it has them, else the corporate's. */
export function effectiveStatusColors(
  corporate: Corporate,
  development: Development,
): StatusColors {
  return development.coloresStatus && Object.keys(development.coloresStatus).length > 0
    ? development.coloresStatus
    : corporate.coloresStatus;
}

/** What a visitor may see of a unit: no hidden price, no internal references beyond the page's needs. */
export function publicUnit(unit: Unit, colors: StatusColors) {
  const visible = isPriceVisible(unit, colors);
  const info = statusInfo(unit.status, colors);
  return {
    id: unit.id,
    idCluster: unit.idCluster,
    idPrototipo: unit.idPrototipo,
    nombre: unit.nombre,
    nivel: unit.nivel,
    posicion: unit.posicion,
    status: unit.status ?? null,
    disponibilidad: info.disponibilidad,
    color: info.hexColor,
    esCotizable: info.esCotizable,
    caracteristicas: unit.caracteristicas,
    metrajes: unit.metrajes,
    divisa: unit.divisa ?? 'MXN',
    ...(visible
      ? {
          precio: unit.precio,
          ...(unit.precioRenta != null ? { precioRenta: unit.precioRenta } : {}),
        }
      : {}),
  };
}

export function publicCorporate(c: Corporate) {
  return {
    slug: c.slug,
    nombre: c.nombre,
    multiIdioma: c.multiIdioma,
    imagen: c.imagen,
    colores: c.colores,
    divisa: c.divisa,
    coloresStatus: c.coloresStatus,
  };
}

function publicDevelopment(d: Development) {
  return {
    id: d.id,
    slug: d.slug,
    nombre: d.nombre,
    nombreCorto: d.nombreCorto,
    ubicacion: d.ubicacion,
    divisa: d.divisa,
    imagenPortada: d.imagenPortada,
    imagenLogo: d.imagenLogo,
    presentacion: d.presentacion,
    amenidades: d.amenidades,
    tagsEtapaEntrega: d.tagsEtapaEntrega,
    galeria: d.galeria,
    fechaEntrega: d.fechaEntrega,
    esquemasPago: d.esquemasPago,
    opcionales: d.opcionales,
  };
}

function publicPrototype(p: Prototype) {
  return {
    id: p.id,
    nombre: p.nombre,
    activo: p.activo,
    caracteristicas: p.caracteristicas,
    metrajes: p.metrajes,
    imagen: p.imagen,
  };
}

/** A development visitors may see: it exists, belongs to the corporate and is published on the web. */
async function publicTarget(db: Db, corpSlug: string, devSlug: string) {
  const corporate = await findCorporate(db, { slug: corpSlug });
  if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
  const development = await loadDevelopmentBySlug(db, corporate.id, devSlug);
  if (!development || !development.enWeb)
    throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
  return { corporate, development, colors: effectiveStatusColors(corporate, development) };
}

const params = (c: { req: { param(name: string): string } }) => ({
  corp: parse(slug, c.req.param('c')),
  dev: parse(slug, c.req.param('d')),
});

export const publicRoutes = new Hono<Env>()
  .get('/corporativos/:c', async (c) => {
    const corporate = await findCorporate(c.get('deps').db, {
      slug: parse(slug, c.req.param('c')),
    });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    return c.json(publicCorporate(corporate));
  })
  .get('/corporativos/:c/desarrollos/:d', async (c) => {
    const { corp, dev } = params(c);
    const { corporate, development } = await publicTarget(c.get('deps').db, corp, dev);
    return c.json({
      corporativo: publicCorporate(corporate),
      desarrollo: publicDevelopment(development),
    });
  })
  .get('/corporativos/:c/desarrollos/:d/disponibilidad', async (c) => {
    const { corp, dev } = params(c);
    const db = c.get('deps').db;
    const { corporate, development, colors } = await publicTarget(db, corp, dev);
    const [clusters, prototypes, units] = await Promise.all([
      loadClusters(db, corporate.id, development.id),
      loadPrototypes(db, corporate.id, development.id),
      loadUnits(db, corporate.id, development.id),
    ]);
    c.header('Cache-Control', 'public, max-age=5');
    return c.json({
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
        unidades: units.filter((u) => u.idCluster === cl.id).map((u) => publicUnit(u, colors)),
      })),
    });
  })
  .get('/corporativos/:c/desarrollos/:d/stream', async (c) => {
    const { corp, dev } = params(c);
    const deps = c.get('deps');
    const { corporate, development, colors } = await publicTarget(deps.db, corp, dev);
    return streamSSE(c, async (stream) => {
      const pending: string[] = [];
      let wake: (() => void) | undefined;
      const unsubscribe = deps.live.subscribe((event) => {
        if (event.corporateId !== corporate.id || !event.type.startsWith('Unit')) return;
        const data = (event.data ?? {}) as { idUnidad?: string; unit?: Unit };
        const id = data.idUnidad ?? data.unit?.id;
        if (id) pending.push(id);
        wake?.();
      });
      stream.onAbort(() => {
        unsubscribe();
        wake?.();
      });
      await stream.writeSSE({ event: 'ready', data: '{}', retry: 2000 });
      while (!stream.aborted) {
        const ids = pending.splice(0);
        if (ids.length > 0) {
          // Re-read the units so a visitor gets exactly the public view, hidden prices included.
          const { rows } = await deps.db.query<{ doc: Unit }>(
            'SELECT doc FROM rm_units WHERE corporate_id = $1 AND development_id = $2 AND id = ANY($3::text[])',
            [corporate.id, development.id, ids],
          );
          for (const { doc } of rows) {
            await stream.writeSSE({ event: 'unit', data: JSON.stringify(publicUnit(doc, colors)) });
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
    });
  });
