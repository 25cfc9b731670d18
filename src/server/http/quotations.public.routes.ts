/**
 * The signed-out side of quotations (issue 7): the buyer's read-only quotation behind a share
 * link, and the visitors' quotation simulator. Mounted under `/api/public`; nothing here reveals
 * an adviser's or a lead's data beyond the display names printed on a shared quotation, and
 * nothing here writes.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { priceQuotation } from '../../core/quotation';
import { loadDevelopmentBySlug } from './catalogue.routes';
import { findCorporate, type Env } from './context';
import { ApiError, jsonBody, parse } from './errors';
import { effectiveStatusColors } from './public.routes';
import {
  findUnit,
  publicQuotation,
  publicSimulation,
  quotationErrorToApi,
  quotationForToken,
} from './quotations.routes';

const slug = z
  .string()
  .min(1)
  .max(120)
  .regex(/^[a-z0-9-]+$/);
const id = z.string().min(1).max(64);

const simulateBody = z.strictObject({
  idUnidad: id,
  idEsquema: id,
  opcionales: z.array(id).max(50).default([]),
  /** Defaults to the unit's currency. */
  divisa: z.string().min(1).max(10).optional(),
});

export const quotationPublicRoutes = new Hono<Env>()
  /**
   * `GET /api/public/cotizaciones/:token` → `{ cotizacion, corporativo, expiraEn }` where
   * `cotizacion` = `{ fechaAlta, nombreDesarrolloInteres, nombreCluster, nombreUnidad,
   * nombrePrototipe, nombreAsesor, nombreCliente, precioEnCotizacion, divisaUnidad {codigo,
   * nombre}, divisa {codigo, nombre}, esquemasPago (scheme as quoted, without ids), adicionales
   * [{ tipo, nombre, monto }], figuras (cents, see the create call), unidad { nivel, metrajes,
   * caracteristicas }, fechaEntrega, zonaHoraria }` and `corporativo` = `{ nombre, slug, imagen:
   * { imagenLogo } (media id), colores }`. 404 SHARE_INVALID for a modified, malformed or
   * unknown token; 410 SHARE_EXPIRED after its expiry, SHARE_REVOKED once the adviser revoked
   * it (`DELETE …/cotizaciones/:qid/compartidos/:nonce`). No session needed.
   */
  .get('/cotizaciones/:token', async (c) => {
    const deps = c.get('deps');
    const token = c.req.param('token');
    const { quotation, corporate, expiraEn } = await quotationForToken(
      deps.db,
      deps.secret,
      token.length > 700 ? '' : token,
      deps.clock(),
    );
    c.header('X-Robots-Tag', 'noindex, nofollow');
    return c.json({
      cotizacion: publicQuotation(quotation),
      corporativo: {
        nombre: corporate.nombre,
        slug: corporate.slug,
        imagen: { imagenLogo: corporate.imagen.imagenLogo ?? null },
        colores: corporate.colores,
      },
      expiraEn,
    });
  })

  /**
   * `POST /api/public/corporativos/:c/desarrollos/:d/simular` (corporate and development slugs;
   * the development must be published on the web) body `{ idUnidad, idEsquema, opcionales?:
   * string[], divisa? }` → `{ unidad { id, nombre, idCluster }, idEsquema, esquemasPago,
   * precioEnCotizacion, divisaUnidad, divisa, adicionales, figuras }`, computed by the core for
   * a unit whose price is visible; nothing is saved. 404 UNIT_NOT_FOUND, 403 PRICE_NOT_VISIBLE
   * (the price is not public), 400 SCHEME_NOT_FOUND / SCHEME_INVALID / OPTIONAL_NOT_FOUND /
   * CURRENCY_NOT_FOUND.
   */
  .post('/corporativos/:c/desarrollos/:d/simular', async (c) => {
    const corpSlug = parse(slug, c.req.param('c'));
    const devSlug = parse(slug, c.req.param('d'));
    const body = parse(simulateBody, await jsonBody(c));
    const deps = c.get('deps');
    const corporate = await findCorporate(deps.db, { slug: corpSlug });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    const development = await loadDevelopmentBySlug(deps.db, corporate.id, devSlug);
    if (!development || !development.enWeb) {
      throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    }
    const unit = await findUnit(deps.db, corporate.id, body.idUnidad);
    if (!unit || unit.idDesarrollo !== development.id) {
      throw new ApiError(404, 'UNIT_NOT_FOUND', 'unit_not_found');
    }
    const pricing = priceQuotation({
      corporate,
      development,
      unit,
      statusColors: effectiveStatusColors(corporate, development),
      rule: 'priceVisible',
      idEsquema: body.idEsquema,
      idsOpcionales: body.opcionales,
      extras: [],
      divisa: body.divisa ?? unit.divisa ?? development.divisa ?? 'MXN',
      now: deps.clock(),
    });
    if (!pricing.ok) throw quotationErrorToApi(pricing.error);
    return c.json(publicSimulation(pricing.priced, unit));
  });
