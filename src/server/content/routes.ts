/**
 * The corporate's content for users (issue 20): featured developments and tutorials.
 *
 * - `GET /api/wsObtenerDestacados?idCorporativo` → `{ items }` (development ids in order; empty
 *   when none are featured), to any member.
 * - `PUT /api/corporativos/:id/destacados` `{ items }` → the document as stored; the corporate's
 *   administrator only (core/featured.ts `mayAdministerContent`, 403 otherwise).
 * - `GET /api/wsObtenerTutoriales?idCorporativo` → the active tutorials by `orden` (spec §7), to
 *   any member; `GET /api/corporativos/:id/tutoriales` → all of them, for the administrator.
 * - `PUT /api/corporativos/:id/tutoriales` `{ tutoriales }` → the list as stored (create, edit,
 *   switch on or off and order in one save); the administrator only.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { FEATURED_MAX, mayAdministerContent } from '../../core/featured';
import {
  activeTutorials,
  TUTORIAL_STEP_MAX,
  TUTORIAL_STEPS_MAX,
  TUTORIAL_TITLE_MAX,
  TUTORIALS_MAX,
} from '../../core/tutorials';
import { findCorporate, requireMember, type Env } from '../http/context';
import { forbidden, jsonBody, parse } from '../http/errors';
import { setDevelopmentSettings, setFeatured, setTutorials } from './commands';
import {
  DEVELOPMENT_PAGES,
  developmentSettingsOf,
  landingRedirect,
  type DevelopmentSettings,
} from '../../core/development-settings';
import { loadDevelopmentById, loadDevelopmentBySlug } from '../catalogue/queries';
import { ApiError, notFound } from '../http/errors';

const id = z.string().min(1).max(64);
const corporateQuery = z.strictObject({ idCorporativo: id });
const featuredBody = z.strictObject({ items: z.array(id).max(FEATURED_MAX * 2) });
const text = z.strictObject({
  titulo: z.string().max(TUTORIAL_TITLE_MAX * 2),
  pasos: z.array(z.string().max(TUTORIAL_STEP_MAX * 2)).max(TUTORIAL_STEPS_MAX * 2),
});
const tutorialsBody = z.strictObject({
  tutoriales: z
    .array(
      z.strictObject({
        id,
        activo: z.boolean(),
        orden: z.number().int().min(0).max(1000).optional(),
        es: text,
        en: text,
      }),
    )
    .max(TUTORIALS_MAX * 2),
});

const listOf = z.array(z.string().max(400)).max(100);
const settingsBody = z.strictObject({
  menu: z
    .array(z.enum(DEVELOPMENT_PAGES))
    .max(DEVELOPMENT_PAGES.length * 2)
    .optional(),
  reedireccionarLandingPage: z.boolean().optional(),
  landingPage: z.string().max(2000).optional(),
  campanias: listOf.optional(),
  caracteristicasUnidad: listOf.optional(),
  subcategorias: listOf.optional(),
  proyecto: z.string().max(400).optional(),
  configVistaNivel: z.strictObject({ mostrarColorIndependienteFachada: z.boolean() }).optional(),
  plantillaMensaje: z
    .strictObject({ prospecto: z.string().max(4000), developmentId: z.string().max(64).optional() })
    .optional(),
});

const slug = z.string().min(1).max(120);

export const contentRoutes = new Hono<Env>()
  /**
   * `GET /api/public/corporativos/:c/desarrollos/:d/landing` (signed out) → `{ landingPage }`:
   * where the development's public pages send a visitor (its landing page when
   * `reedireccionarLandingPage` is on, else null); 404 as the public pages for a development
   * not on the web.
   */
  .get('/public/corporativos/:c/desarrollos/:d/landing', async (c) => {
    const db = c.get('deps').db;
    const corporate = await findCorporate(db, { slug: parse(slug, c.req.param('c')) });
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    const development = await loadDevelopmentBySlug(
      db,
      corporate.id,
      parse(slug, c.req.param('d')),
    );
    if (!development || !development.enWeb)
      throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    c.header('Cache-Control', 'public, max-age=30');
    return c.json({ landingPage: landingRedirect(development) });
  })
  /**
   * `GET`/`PUT /api/corporativos/:id/desarrollos/:d/ajustes`: a development's settings
   * (core/development-settings.ts; absent fields at their defaults), the administrator only; a
   * PUT records the changed fields (`DevelopmentSettingsChanged`) and answers them all.
   */
  .get('/corporativos/:id/desarrollos/:d/ajustes', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayAdministerContent(m.role)) throw forbidden();
    const dev = await loadDevelopmentById(
      c.get('deps').db,
      m.corporate.id,
      parse(id, c.req.param('d')),
    );
    if (!dev) throw notFound();
    return c.json(developmentSettingsOf(dev));
  })
  .put('/corporativos/:id/desarrollos/:d/ajustes', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayAdministerContent(m.role)) throw forbidden();
    const body = parse(settingsBody, await jsonBody(c));
    // The template's developmentId is the development's own, whatever was sent.
    const { plantillaMensaje, ...rest } = body;
    const input: DevelopmentSettings = plantillaMensaje
      ? { ...rest, plantillaMensaje: { prospecto: plantillaMensaje.prospecto, developmentId: '' } }
      : rest;
    return c.json(
      await setDevelopmentSettings(c.get('deps'), m, parse(id, c.req.param('d')), input),
    );
  })
  .get('/wsObtenerDestacados', async (c) => {
    const q = parse(corporateQuery, c.req.query());
    const { corporate } = await requireMember(c, { id: q.idCorporativo });
    return c.json({ items: corporate.destacados?.items ?? [] });
  })
  .put('/corporativos/:id/destacados', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayAdministerContent(m.role)) throw forbidden();
    const body = parse(featuredBody, await jsonBody(c));
    return c.json(await setFeatured(c.get('deps'), m, body.items));
  })
  .get('/wsObtenerTutoriales', async (c) => {
    const q = parse(corporateQuery, c.req.query());
    const { corporate } = await requireMember(c, { id: q.idCorporativo });
    return c.json(activeTutorials(corporate.tutoriales));
  })
  .get('/corporativos/:id/tutoriales', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayAdministerContent(m.role)) throw forbidden();
    return c.json([...(m.corporate.tutoriales ?? [])].sort((a, b) => a.orden - b.orden));
  })
  .put('/corporativos/:id/tutoriales', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayAdministerContent(m.role)) throw forbidden();
    const body = parse(tutorialsBody, await jsonBody(c));
    const list = body.tutoriales.map((t, i) => ({ ...t, orden: t.orden ?? i + 1 }));
    return c.json(await setTutorials(c.get('deps'), m, list));
  });
