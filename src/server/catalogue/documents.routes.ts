import { Hono } from 'hono';
import { z } from 'zod';
import { ApiError, parse } from '../http/errors';
import { requireMember, type Env } from '../http/context';
import { loadDevelopmentById } from './queries';

const id = z.string().min(1).max(64);
const documentQuery = z.strictObject({ idCorporativo: id, idDesarrollo: id, idDocumento: id });

/**
 * Spec §7 `wsObtenerDocumento`: one document of a development (its metadata and where to read
 * it). Members of the corporate only; the bytes themselves come from `/api/media/:id`.
 */
export const documentRoutes = new Hono<Env>().get('/wsObtenerDocumento', async (c) => {
  const q = parse(documentQuery, c.req.query());
  const { corporate } = await requireMember(c, { id: q.idCorporativo });
  const db = c.get('deps').db;
  const development = await loadDevelopmentById(db, corporate.id, q.idDesarrollo);
  if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
  const document = (development.documentos ?? []).find((d) => d.id === q.idDocumento);
  if (!document) throw new ApiError(404, 'DOCUMENT_NOT_FOUND', 'document_not_found');
  const { rows } = await db.query<{ content_type: string; nombre: string | null }>(
    "SELECT content_type, doc->>'nombre' AS nombre FROM rm_media WHERE id = $1",
    [document.idMedia],
  );
  const media = rows[0];
  return c.json({
    id: document.id,
    titulo: document.titulo,
    idMedia: document.idMedia,
    idDesarrollo: development.id,
    contentType: media?.content_type ?? null,
    nombre: media?.nombre ?? document.titulo,
    url: `/api/media/${document.idMedia}`,
  });
});
