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
import { requireMember, type Env } from '../http/context';
import { forbidden, jsonBody, parse } from '../http/errors';
import { setFeatured, setTutorials } from './commands';

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

export const contentRoutes = new Hono<Env>()
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
