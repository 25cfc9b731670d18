import { Hono } from 'hono';
import { z } from 'zod';
import {
  corporateView,
  developmentFigures,
  loadClusters,
  loadDevelopmentById,
  loadDevelopmentBySlug,
  loadDevelopments,
  loadPrototypes,
  loadUnitsPriced,
  type CorporateDoc,
} from './queries';
import { ApiError, notFound, parse } from '../http/errors';
import { findCorporate, requireMember, requireUser, type Ctx, type Env } from '../http/context';
import { mayReadMedia, type MediaRow } from './media';
import { mediaBody, mediaFile } from './uploads';
import { unitsAsSeen } from './unit-views';
import { catalogueRevisionFor, respondReady } from './ready-json';
import { clusterPage, selectPage, unitsByCluster, type ClusterPage } from './cluster-pages';
import { seesHiddenPrices } from '../../core/visibility';
import { langFrom } from '../http/messages';
import type { Corporate, Role } from '../../core/types';
import type { Queryable } from '../store/db';
import { chatOptionsFromEnv } from '../chat/webhook';

const id = z.string().min(1).max(64);
const corpQuery = z.strictObject({ idCorporativo: id });
const slug = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9-]+$/);

export const APP_VERSION = '0.1.0';

/** Revalidated on every use: a signed-in catalogue read is never served from a cache unchecked. */
const PRIVATE_REVALIDATE = 'private, no-cache';

/** What a signed-in catalogue read's ETag is made of besides the revision (issue 21). */
function signedInVariant(c: Ctx, corporate: Corporate, role: Role, query: unknown): unknown[] {
  return [
    APP_VERSION,
    c.req.path,
    query,
    corporate.id,
    role.id,
    langFrom(c.req.header('accept-language')),
  ];
}

// Each read's query schema, built once (a schema built per request cost 6–8 % of a read's CPU).
const noQuery = z.strictObject({});
const corporateQuery = z
  .strictObject({ slug: slug.optional(), id: id.optional() })
  .refine((v) => v.slug ?? v.id);
const developmentsQuery = z.strictObject({
  idCorporativo: id,
  ocultarDesarrollosSinUnidades: z.enum(['si', 'no']).optional(),
});
const developmentQuery = z.strictObject({ idCorporativo: id, slug });
const clustersQuery = z.strictObject({ idCorporativo: id, idDesarrollo: id, ...clusterPage });
const prototypesQuery = z.strictObject({ idCorporativo: id, idDesarrollo: id });
const mediaQuery = z.strictObject({ id });

/** Clusters with their units as `role` may see them; only the page's units are read. */
async function clustersWithUnits(
  db: Queryable,
  corporate: Corporate,
  role: Role,
  devId: string,
  page: ClusterPage,
) {
  const dev = await loadDevelopmentById(db, corporate.id, devId);
  if (!dev) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
  const { clusters, unitsOf } = selectPage(await loadClusters(db, corporate.id, dev.id), page);
  const byCluster = unitsByCluster(
    unitsAsSeen(corporate, dev, await loadUnitsPriced(db, corporate.id, dev.id, unitsOf), role),
  );
  return clusters.map((cl) => ({ ...cl, unidades: byCluster.get(cl.id) ?? [] }));
}

async function corporateConfig(c: Parameters<typeof requireMember>[0]) {
  const { idCorporativo } = parse(corpQuery, c.req.query());
  const { corporate } = await requireMember(c, { id: idCorporativo });
  return corporate as CorporateDoc;
}

export const catalogueRoutes = new Hono<Env>()
  .get('/wsObtenerConfiguracionesGenerales', (c) => {
    // The chat's URL is our own route (chat/routes.ts): the webhook's stays on the server.
    const chatOn = (c.get('deps').chat ?? chatOptionsFromEnv()).enabled;
    return c.json({
      urlMappenChat: chatOn ? '/api/chat' : '',
      mostrarMappenChat: chatOn,
      version: APP_VERSION,
    });
  })
  .get('/wsObtenerCorporativos', async (c) => {
    parse(noQuery, c.req.query());
    const user = await requireUser(c);
    const ids = [...new Set([...user.corporativos, ...user.corporativosRegistro])];
    const { rows } = await c
      .get('deps')
      .db.query<{ doc: CorporateDoc }>(
        "SELECT doc FROM rm_corporates WHERE id = ANY($1::text[]) ORDER BY doc->>'nombre'",
        [ids],
      );
    return c.json(
      rows.map(({ doc }) => ({
        id: doc.id,
        slug: doc.slug,
        nombre: doc.nombre,
        imagen: doc.imagen,
        multiIdioma: doc.multiIdioma,
        colores: doc.colores,
        aprobado: user.corporativos.includes(doc.id),
      })),
    );
  })
  .get('/wsObtenerCorporativo', async (c) => {
    const q = parse(corporateQuery, c.req.query());
    const { corporate } = await requireMember(c, q.slug ? { slug: q.slug } : { id: q.id! });
    return c.json(corporateView(corporate as CorporateDoc));
  })
  .get('/wsObtenerColoresCorporativo', async (c) => {
    const corporate = await corporateConfig(c);
    return c.json({
      colores: corporate.colores,
      coloresStatus: corporate.coloresStatus,
      coloresStatusGeneral: corporate.coloresStatusGeneral ?? corporate.coloresStatus,
    });
  })
  .get('/wsObtenerShowrooms', async (c) => c.json((await corporateConfig(c)).showrooms))
  .get('/wsObtenerStatusLeads', async (c) => c.json((await corporateConfig(c)).statusLeads))
  .get('/wsObtenerTagsBusqueda', async (c) => c.json((await corporateConfig(c)).tagsBusqueda))
  .get('/wsObtenerTagsBusquedaCategoria', async (c) =>
    c.json((await corporateConfig(c)).categoriasBusqueda),
  )
  .get('/wsObtenerDesarrollos', async (c) => {
    const q = parse(developmentsQuery, c.req.query());
    const { corporate, role } = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: signedInVariant(c, corporate, role, q),
      // The list is the same for every role of the corporate.
      shared: [c.req.path, corporate.id, q.ocultarDesarrollosSinUnidades ?? 'no'],
      cacheControl: PRIVATE_REVALIDATE,
      build: async () => {
        const developments = await loadDevelopments(db, corporate.id);
        // Per-development counters kept by the projection (catalogue/figures.ts).
        const figures = await developmentFigures(db, corporate, developments);
        return developments
          .filter((d) => d.enApp)
          .filter(
            (d) => q.ocultarDesarrollosSinUnidades !== 'si' || (figures.get(d.id)?.units ?? 0) > 0,
          )
          .sort((a, b) => a.orden - b.orden)
          .map((d) => {
            const f = figures.get(d.id);
            return {
              ...d,
              precioDesde: f?.desde ? Number(f.desde) : null,
              precioRentaDesde: f?.renta ? Number(f.renta) : null,
              totalUnidades: f?.units ?? 0,
              unidadesDisponibles: f?.disponibles ?? 0,
            };
          });
      },
    });
  })
  .get('/wsObtenerDesarrollo', async (c) => {
    const q = parse(developmentQuery, c.req.query());
    const { corporate, role } = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: signedInVariant(c, corporate, role, q),
      shared: [c.req.path, corporate.id, q.slug],
      cacheControl: PRIVATE_REVALIDATE,
      build: async () => {
        const dev = await loadDevelopmentBySlug(db, corporate.id, q.slug);
        if (!dev) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
        return dev;
      },
    });
  })
  /**
   * The development's clusters with their units, priced from their prototypes where they have no
   * price of their own (spec §4, `loadUnitsPriced`); a hidden price only for inventory
   * administrators. Without paging parameters, every cluster (the spec's call); with `idCluster`
   * one, with `limite`/`despuesDe` a page of clusters in the same order (issue 21).
   */
  .get('/wsObtenerClusters', async (c) => {
    const q = parse(clustersQuery, c.req.query());
    const { corporate, role } = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: signedInVariant(c, corporate, role, q),
      // Roles that see the same prices get the same bytes.
      shared: [c.req.path, corporate.id, q, seesHiddenPrices(role)],
      cacheControl: PRIVATE_REVALIDATE,
      build: () => clustersWithUnits(db, corporate, role, q.idDesarrollo, q),
    });
  })
  .get('/wsObtenerPrototipos', async (c) => {
    const q = parse(prototypesQuery, c.req.query());
    const { corporate, role } = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: signedInVariant(c, corporate, role, q),
      shared: [c.req.path, corporate.id, q.idDesarrollo],
      cacheControl: PRIVATE_REVALIDATE,
      build: () => loadPrototypes(db, corporate.id, q.idDesarrollo),
    });
  })
  .get('/corporativos/:c/desarrollos/:d/clusters/:cl', async (c) => {
    const { corporate, role } = await requireMember(c, { id: c.req.param('c') });
    const db = c.get('deps').db;
    const page = { idDesarrollo: c.req.param('d'), idCluster: c.req.param('cl') };
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, corporate.id),
      variant: signedInVariant(c, corporate, role, page),
      shared: [c.req.path, corporate.id, seesHiddenPrices(role)],
      cacheControl: PRIVATE_REVALIDATE,
      build: async () => {
        const clusters = await loadClusters(db, corporate.id, page.idDesarrollo);
        if (!clusters.some((cl) => cl.id === page.idCluster)) throw notFound();
        const [cluster] = await clustersWithUnits(db, corporate, role, page.idDesarrollo, page);
        if (!cluster) throw notFound();
        return cluster;
      },
    });
  })
  /**
   * `GET /api/wsObtenerMedias?id` → `{ id, nombre, contentType, url }`, and `GET /api/media/:id`
   * → the bytes: media a public page shows to anyone, the rest only to approved members of the
   * corporate that owns it (catalogue/media.ts); 404 to anyone else, as for an unknown id.
   */
  .get('/wsObtenerMedias', async (c) => {
    const q = parse(mediaQuery, c.req.query());
    const media = await readableMedia(c, q.id);
    const db = c.get('deps').db;
    return respondReady(c, db, {
      revision: await catalogueRevisionFor(c, media.corporate_id),
      // The same answer for everyone who may read it (readableMedia decided that above).
      variant: [APP_VERSION, c.req.path, media.id, media.public],
      cacheControl: PRIVATE_REVALIDATE,
      build: () =>
        Promise.resolve({
          id: media.id,
          nombre: media.nombre,
          contentType: media.content_type,
          url: `/api/media/${media.id}`,
        }),
    });
  })
  .get('/media/:id', async (c) => {
    const mediaId = parse(id, c.req.param('id'));
    const media = await readableMedia(c, mediaId);
    const { rows } = await c
      .get('deps')
      .db.query<{ bytes: string | null; archivo: string | null }>(
        "SELECT doc->>'bytesBase64' AS bytes, doc->>'archivo' AS archivo FROM rm_media WHERE id = $1",
        [mediaId],
      );
    const row = rows[0];
    if (!row) throw notFound();
    // Uploads (catalogue/uploads.ts) are files in the media directory; the seed's media
    // carry their bytes in the event. Both answer Range requests (a video seeks with them).
    const dir = c.get('deps').mediaDir;
    const source = row.archivo
      ? dir
        ? { file: mediaFile(dir, row.archivo) }
        : null
      : { buffer: Buffer.from(row.bytes ?? '', 'base64') };
    if (!source) throw notFound();
    return mediaBody(c, source, {
      'Content-Type': media.content_type === 'image/svg+xml' ? 'image/svg+xml' : media.content_type,
      // Members-only media must not sit in a shared cache.
      'Cache-Control': media.public ? 'public, max-age=86400, immutable' : 'private, max-age=3600',
      ETag: `"${mediaId}"`,
      // SVGs are served as images; a script inside one must never run.
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    });
  });

/** The media row if the caller may read it (catalogue/media.ts), else 404. */
async function readableMedia(c: Ctx, mediaId: string) {
  const db = c.get('deps').db;
  const { rows } = await db.query<MediaRow>(
    "SELECT id, corporate_id, content_type, doc->>'nombre' AS nombre FROM rm_media WHERE id = $1",
    [mediaId],
  );
  const media = rows[0];
  if (!media) throw notFound();
  const access = await mayReadMedia(db, media, c.get('userId'));
  if (!access.allowed) throw notFound();
  return { ...media, public: access.public };
}

export { findCorporate };
