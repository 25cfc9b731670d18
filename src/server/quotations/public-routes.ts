/**
 * The signed-out side of quotations (issue 7): the buyer's read-only quotation behind a share
 * link, and the visitors' quotation simulator. Mounted under `/api/public`; nothing here reveals
 * an adviser's or a lead's data beyond what a shared quotation prints (the names, and the
 * adviser's work e-mail and phone so the buyer can reach them), and nothing here writes.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  priceQuotation,
  quotationInCents,
  type PricedQuotation,
  type Quotation,
} from '../../core/quotation';
import type { Unit } from '../../core/types';
import { loadDevelopmentBySlug } from '../catalogue/queries';
import { cachedCorporate, type Env } from '../http/context';
import { ApiError, jsonBody, parse } from '../http/errors';
import { effectiveStatusColors } from '../public/views';
import { quotationErrorToApi, unitNotFound } from './errors';
import { findUnit, quotationForToken } from './queries';

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

/** The buyer's view of a quotation: names and figures, no ids, no contact data. */
export function publicQuotation(q: Quotation) {
  const { id: _i, idCluster: _c, ...scheme } = q.esquemasPago;
  return {
    fechaAlta: q.fechaAlta,
    nombreDesarrolloInteres: q.nombreDesarrolloInteres,
    nombreCluster: q.nombreCluster,
    nombreUnidad: q.nombreUnidad,
    nombrePrototipe: q.nombrePrototipe,
    nombreAsesor: q.nombreAsesor,
    nombreCliente: q.nombreCliente,
    precioEnCotizacion: q.precioEnCotizacion,
    divisaUnidad: { codigo: q.divisaUnidad.codigo, nombre: q.divisaUnidad.nombre },
    divisa: { codigo: q.divisa.codigo, nombre: q.divisa.nombre },
    esquemasPago: scheme,
    adicionales: q.adicionales.map((a) => ({ tipo: a.tipo, nombre: a.nombre, monto: a.monto })),
    figuras: q.figuras,
    unidad: q.unidad,
    fechaEntrega: q.fechaEntrega,
    zonaHoraria: q.zonaHoraria,
    numero: q.numero ?? null,
    // Decided from the prices as entered, which this view leaves out.
    conCentavos: quotationInCents(q),
  };
}

/** The figures of a priced quotation without anything of an adviser or a lead. */
export function publicSimulation(priced: PricedQuotation, unit: Unit) {
  const { id: idEsquema, idCluster: _c, ...scheme } = priced.esquemasPago;
  return {
    unidad: { id: unit.id, nombre: unit.nombre, idCluster: unit.idCluster },
    idEsquema,
    esquemasPago: scheme,
    precioEnCotizacion: priced.precioEnCotizacion,
    divisaUnidad: { codigo: priced.divisaUnidad.codigo, nombre: priced.divisaUnidad.nombre },
    divisa: { codigo: priced.divisa.codigo, nombre: priced.divisa.nombre },
    adicionales: priced.adicionales,
    figuras: priced.figuras,
    conCentavos: quotationInCents(priced),
  };
}

export const quotationPublicRoutes = new Hono<Env>()
  /**
   * `GET /api/public/cotizaciones/:token` → `{ cotizacion, corporativo, expiraEn }` where
   * `cotizacion` = `{ fechaAlta, nombreDesarrolloInteres, nombreCluster, nombreUnidad,
   * nombrePrototipe, nombreAsesor, nombreCliente, precioEnCotizacion, divisaUnidad {codigo,
   * nombre}, divisa {codigo, nombre}, esquemasPago (scheme as quoted, without ids), adicionales
   * [{ tipo, nombre, monto }], figuras (cents, see the create call), unidad { nivel, metrajes,
   * caracteristicas }, fechaEntrega, zonaHoraria, numero (the corporate's quotation number),
   * asesor { email, telefono } (the adviser's current work contact, null when unknown),
   * conCentavos (every amount shown to the cent, core `quotationInCents`) }` and
   * `corporativo` = `{ nombre, slug, imagen: { imagenLogo } (media id), colores, razonSocial,
   * domicilio (the developer's legal name and address, null when not set) }`. 404 SHARE_INVALID for a modified, malformed or
   * unknown token; 410 SHARE_EXPIRED after its expiry, SHARE_REVOKED once the adviser revoked
   * it (`DELETE …/cotizaciones/:qid/compartidos/:nonce`). No session needed.
   */
  .get('/cotizaciones/:token', async (c) => {
    const deps = c.get('deps');
    const token = c.req.param('token');
    const { quotation, corporate, expiraEn, adviserContact } = await quotationForToken(
      deps.db,
      deps.shareKeys,
      token.length > 700 ? '' : token,
      deps.clock(),
    );
    c.header('X-Robots-Tag', 'noindex, nofollow');
    return c.json({
      cotizacion: { ...publicQuotation(quotation), asesor: adviserContact },
      corporativo: {
        nombre: corporate.nombre,
        slug: corporate.slug,
        imagen: { imagenLogo: corporate.imagen.imagenLogo ?? null },
        colores: corporate.colores,
        razonSocial: corporate.razonSocial ?? null,
        domicilio: corporate.domicilio ?? null,
        multiIdioma: corporate.multiIdioma === true,
      },
      expiraEn,
    });
  })

  /**
   * `POST /api/public/corporativos/:c/desarrollos/:d/simular` (corporate and development slugs;
   * the development must be published on the web) body `{ idUnidad, idEsquema, opcionales?:
   * string[], divisa? }` → `{ unidad { id, nombre, idCluster }, idEsquema, esquemasPago,
   * precioEnCotizacion, divisaUnidad, divisa, adicionales, figuras, conCentavos }`, computed
   * by the core for a unit whose price is visible; nothing is saved. 404 UNIT_NOT_FOUND, 403 PRICE_NOT_VISIBLE
   * (the price is not public), 400 SCHEME_NOT_FOUND / SCHEME_INVALID / OPTIONAL_NOT_FOUND /
   * CURRENCY_NOT_FOUND.
   */
  .post('/corporativos/:c/desarrollos/:d/simular', async (c) => {
    const corpSlug = parse(slug, c.req.param('c'));
    const devSlug = parse(slug, c.req.param('d'));
    const body = parse(simulateBody, await jsonBody(c));
    const deps = c.get('deps');
    const corporate = await cachedCorporate(deps, { slug: corpSlug });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    const development = await loadDevelopmentBySlug(deps.db, corporate.id, devSlug);
    if (!development || !development.enWeb) {
      throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    }
    const unit = await findUnit(deps.db, corporate.id, body.idUnidad);
    if (!unit || unit.idDesarrollo !== development.id) throw unitNotFound(404);
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
