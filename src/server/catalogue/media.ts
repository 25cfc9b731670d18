/**
 * Who may read a stored media item (issue 13, defect 3). Media a public page shows is served to
 * anyone: a corporate's logo, and the cover, logo and gallery images of a development published
 * on the web and the images of its active prototypes (public/views.ts shows exactly these).
 * Everything else (documents such as price lists, other images) only to approved members of the
 * corporate that owns it. The reference must be the owner's own: another corporate cannot make a
 * document public by pointing at it.
 */
import { isApprovedMember } from '../../core/permissions';
import type { Queryable } from '../store/db';
import { findUser } from '../http/context';
import type { Db } from '../store/db';

export interface MediaRow {
  id: string;
  corporate_id: string;
  content_type: string;
  nombre: string | null;
}

/** Whether a public page of the media's own corporate shows it. */
export async function isPublicMedia(db: Queryable, media: Pick<MediaRow, 'id' | 'corporate_id'>) {
  const { rows } = await db.query<{ public: boolean }>(
    `SELECT EXISTS (
              SELECT 1 FROM rm_corporates
               WHERE id = $2 AND doc->'imagen'->>'imagenLogo' = $1)
         OR EXISTS (
              SELECT 1 FROM rm_developments
               WHERE corporate_id = $2 AND (doc->>'enWeb')::boolean IS TRUE
                 AND (doc->>'imagenPortada' = $1 OR doc->>'imagenLogo' = $1
                      OR coalesce(doc->'galeria'->'items', '[]'::jsonb)
                         @> jsonb_build_array(jsonb_build_object('imagenRef', jsonb_build_object('idMedia', $1::text)))))
         OR EXISTS (
              SELECT 1 FROM rm_prototypes p JOIN rm_developments d ON d.id = p.development_id
               WHERE p.corporate_id = $2 AND d.corporate_id = $2
                 AND (d.doc->>'enWeb')::boolean IS TRUE AND (p.doc->>'activo')::boolean IS TRUE
                 AND p.doc->>'imagen' = $1) AS public`,
    [media.id, media.corporate_id],
  );
  return rows[0]?.public === true;
}

/**
 * Whether the caller (`userId`, null when signed out) may read the media: public media to
 * anyone, the rest to approved members of its corporate.
 */
export async function mayReadMedia(
  db: Db,
  media: Pick<MediaRow, 'id' | 'corporate_id'>,
  userId: string | null,
): Promise<{ allowed: boolean; public: boolean }> {
  if (await isPublicMedia(db, media)) return { allowed: true, public: true };
  if (!userId) return { allowed: false, public: false };
  const user = await findUser(db, userId);
  return { allowed: !!user && isApprovedMember(user, media.corporate_id), public: false };
}
