/**
 * A corporate's labels per language (issue 19; core/corporate-labels.ts):
 * - `GET /api/wsObtenerIdiomas?idCorporativo&lang`: the corporate's own labels in `lang` (es,
 *   en), by its id or slug. Public, because the public availability, simulator and shared
 *   quotation show statuses, schemes, optionals, categories, tags and stages' states to a
 *   signed-out buyer; such a visitor (or anyone who is not an approved member) gets only those
 *   kinds, a member every kind (lead statuses, channels, the Clients label too).
 * - `GET /api/corporativos/:id/idiomas`: every language's labels and the corporate's values to
 *   translate, by kind (the settings page); `PUT /api/corporativos/:id/idiomas/:lang` sets one
 *   language's labels. The corporate's administrators (activarAdminUsuarios) only (403).
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  LABEL_KINDS,
  LABEL_LANGUAGES,
  LABEL_MAX,
  LABELS_PER_KIND_MAX,
  PUBLIC_LABEL_KINDS,
  labelsFor,
  type LabelKind,
} from '../../core/corporate-labels';
import { isApprovedMember, mayConfigureChat } from '../../core/permissions';
import { loadClusterStages, loadDevelopments, type CorporateDoc } from '../catalogue/queries';
import { findCorporate, findUser, requireMember, type Ctx, type Env } from '../http/context';
import { ApiError, forbidden, jsonBody, parse } from '../http/errors';
import type { Membership } from '../../core/permissions';
import { setCorporateLabels } from './commands';

const id = z.string().min(1).max(64);
const language = z.enum(LABEL_LANGUAGES);

const labelsBody = z.strictObject({
  etiquetas: z.partialRecord(
    z.enum(LABEL_KINDS),
    z
      .record(z.string().max(LABEL_MAX * 2), z.string().max(LABEL_MAX * 2))
      .refine((r) => Object.keys(r).length <= LABELS_PER_KIND_MAX),
  ),
});

async function requireLabelsAdmin(c: Ctx): Promise<Membership> {
  const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
  if (!mayConfigureChat(m.role)) throw forbidden();
  return m;
}

/** The corporate's values an administrator translates, by kind, each once, in order. */
async function valuesToTranslate(c: Ctx, corporate: CorporateDoc) {
  const db = c.get('deps').db;
  const [developments, stages] = await Promise.all([
    loadDevelopments(db, corporate.id),
    loadClusterStages(db, corporate.id),
  ]);
  const unique = (values: (string | undefined)[]) =>
    [...new Set(values.map((v) => v?.trim()).filter((v): v is string => Boolean(v)))].sort((a, b) =>
      a.localeCompare(b, 'es'),
    );
  const statuses = [
    corporate.coloresStatus,
    corporate.coloresStatusGeneral,
    ...developments.map((d) => d.coloresStatus),
  ].flatMap((colors) => Object.values(colors ?? {}).map((e) => e?.disponibilidad));
  const values: Record<LabelKind, string[]> = {
    status: unique(statuses),
    statusLead: unique((corporate.statusLeads ?? []).map((s) => s.nombre)),
    medioContacto: unique(corporate.mediosContacto ?? []),
    esquema: unique(developments.flatMap((d) => (d.esquemasPago ?? []).map((s) => s.nombre))),
    categoria: unique((corporate.categoriasBusqueda ?? []).map((s) => s.nombre)),
    tag: unique((corporate.tagsBusqueda ?? []).map((s) => s.nombre)),
    opcional: unique(developments.flatMap((d) => (d.opcionales ?? []).map((o) => o.nombre))),
    etapa: unique([...stages, ...developments.flatMap((d) => d.tagsEtapaEntrega ?? [])]),
    rol: unique((corporate.roles ?? []).map((r) => r.nombre)),
    clientes: ['Clientes'],
  };
  return values;
}

export const labelRoutes = new Hono<Env>()
  .get('/wsObtenerIdiomas', async (c) => {
    const q = parse(z.strictObject({ idCorporativo: id, lang: language }), c.req.query());
    const db = c.get('deps').db;
    const corporate =
      (await findCorporate(db, { id: q.idCorporativo })) ??
      (await findCorporate(db, { slug: q.idCorporativo }));
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    const userId = c.get('userId');
    const user = userId ? await findUser(db, userId) : null;
    const member = user ? isApprovedMember(user, corporate.id) : false;
    return c.json({
      idCorporativo: corporate.id,
      lang: q.lang,
      multiIdioma: corporate.multiIdioma === true,
      etiquetas: labelsFor(corporate.etiquetas, q.lang, member ? LABEL_KINDS : PUBLIC_LABEL_KINDS),
    });
  })
  .get('/corporativos/:id/idiomas', async (c) => {
    const m = await requireLabelsAdmin(c);
    const corporate = m.corporate as CorporateDoc;
    return c.json({
      multiIdioma: corporate.multiIdioma === true,
      etiquetas: corporate.etiquetas ?? {},
      valores: await valuesToTranslate(c, corporate),
    });
  })
  .put('/corporativos/:id/idiomas/:lang', async (c) => {
    const m = await requireLabelsAdmin(c);
    const lang = parse(language, c.req.param('lang'));
    const body = parse(labelsBody, await jsonBody(c));
    const etiquetas = await setCorporateLabels(c.get('deps'), m, lang, body.etiquetas);
    return c.json({ etiquetas });
  });
