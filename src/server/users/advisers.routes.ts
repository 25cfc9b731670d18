/**
 * The people a lead can belong to (issue 6, client side): the clients page's adviser filter and
 * the reassign action need names for `idVendedor`. Only users who may assign leads
 * (`mayListAdvisers` in core/permissions) may list them; anyone else gets 403, so an adviser
 * who sees only their own leads learns nothing about colleagues.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { isHostAdmin, mayListAdvisers } from '../../core/permissions';
import { forbidden, parse } from '../http/errors';
import { requireMember, type Env } from '../http/context';

const query = z.strictObject({ idCorporativo: z.string().min(1).max(64) });

/** One entry of `wsObtenerAsesores`: no email, no role, only what a name list needs. */
export interface AdviserSummary {
  id: string;
  nombre: string;
  apellidos: string;
}

export const adviserRoutes = new Hono<Env>()
  /**
   * `GET /api/wsObtenerAsesores?idCorporativo` → {@link AdviserSummary}[] of the approved members
   * of the corporate whose role is not `adminHostes`, ordered by name. 403 for roles that
   * neither see all leads nor assign them.
   */
  .get('/wsObtenerAsesores', async (c) => {
    const q = parse(query, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    if (!mayListAdvisers(m.role)) throw forbidden();
    const { rows } = await c.get('deps').db.query<{
      id: string;
      doc: { nombre: string; apellidos?: string; roles: Record<string, string> };
    }>(
      `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text)
       ORDER BY doc->>'nombre', doc->>'apellidos', id`,
      [m.corporate.id],
    );
    const hostRoles = new Set(m.corporate.roles.filter((r) => isHostAdmin(r)).map((r) => r.id));
    return c.json(
      rows
        .filter(({ doc }) => !hostRoles.has(doc.roles[m.corporate.id] ?? ''))
        .map(({ id, doc }): AdviserSummary => ({
          id,
          nombre: doc.nombre,
          apellidos: doc.apellidos ?? '',
        })),
    );
  });
