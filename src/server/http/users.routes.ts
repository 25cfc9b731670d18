import { Hono } from 'hono';
import { z } from 'zod';
import type { User } from '../../core/types';
import { streams } from '../domain/catalogue-events';
import { ApiError, forbidden, jsonBody, notFound, parse } from './errors';
import { loadDevelopmentById } from './catalogue.routes';
import { findUser, requireMember, requireUser, type Env } from './context';

/** A user as the client may see it: the document, never the password hash. */
export function publicUser(user: User): User {
  return user;
}

const idQuery = z.strictObject({
  id: z.string().min(1).max(64),
  actualizarUltimaSesion: z.enum(['si', 'no']).optional(),
});

/** Fields a user may change on their own record; roles and corporates are never among them. */
const userUpdate = z
  .object({
    id: z.string().max(64).optional(),
    nombre: z.string().trim().min(1).max(120).optional(),
    apellidos: z.string().trim().max(120).optional(),
    perfil: z.number().int().min(0).max(10).optional(),
    corporativoFavorito: z.string().max(64).nullable().optional(),
    // Stripped as the spec says: the server owns these.
    fechaAlta: z.unknown().optional(),
    sesionUltima: z.unknown().optional(),
    // Refused when they differ from the stored value.
    roles: z.record(z.string(), z.string()).optional(),
    roles2: z.unknown().optional(),
    corporativos: z.array(z.string()).optional(),
    corporativosRegistro: z.array(z.string()).optional(),
    esAdmin: z.boolean().optional(),
    aprobarRegistro: z.boolean().optional(),
  })
  .strict();

const favouriteBody = z.strictObject({ corporativoFavorito: z.string().min(1).max(64) });
const favouriteDevelopmentBody = z.strictObject({
  idCorporativo: z.string().min(1).max(64),
  idDesarrollo: z.string().min(1).max(64),
});

export const userRoutes = new Hono<Env>()
  .get('/wsObtenerUsuario', async (c) => {
    const { id, actualizarUltimaSesion } = parse(idQuery, c.req.query());
    const me = await requireUser(c);
    if (id !== me.id) throw forbidden();
    if (actualizarUltimaSesion === 'si') {
      const deps = c.get('deps');
      const now = deps.clock();
      await deps.store.append(streams.user(me.id), 'any', [
        {
          id: deps.newId(),
          type: 'LastSessionRecorded',
          data: { sesionUltima: Math.floor(now.getTime() / 1000) },
          actorId: me.id,
          occurredAt: now,
        },
      ]);
      return c.json(publicUser((await findUser(deps.db, me.id))!));
    }
    return c.json(publicUser(me));
  })
  .get('/users/:id', async (c) => {
    const me = await requireUser(c);
    const id = c.req.param('id');
    if (id !== me.id) {
      // Others' records only for someone who manages users in a shared corporate.
      const other = await findUser(c.get('deps').db, id);
      if (!other || !(await canManageUsers(c.get('deps'), me, other))) throw notFound();
      return c.json(publicUser(other));
    }
    return c.json(publicUser(me));
  })
  .put('/users/:id', async (c) => {
    const me = await requireUser(c);
    const body = parse(userUpdate, await jsonBody(c));
    if (!body.id) throw new ApiError(400, 'USER_WITHOUT_ID', 'user_without_id');
    const id = c.req.param('id');
    if (body.id !== id) throw new ApiError(400, 'VALIDATION', 'validation');
    if (id !== me.id) throw forbidden();
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
    if (
      (body.roles !== undefined && !same(body.roles, me.roles)) ||
      (body.corporativos !== undefined && !same(body.corporativos, me.corporativos)) ||
      (body.corporativosRegistro !== undefined &&
        !same(body.corporativosRegistro, me.corporativosRegistro)) ||
      (body.esAdmin !== undefined && body.esAdmin !== me.esAdmin) ||
      (body.aprobarRegistro !== undefined && body.aprobarRegistro !== me.aprobarRegistro) ||
      body.roles2 !== undefined
    ) {
      throw new ApiError(403, 'FORBIDDEN', 'own_roles');
    }
    const deps = c.get('deps');
    const now = deps.clock();
    const changes: Record<string, unknown> = {};
    for (const key of ['nombre', 'apellidos', 'perfil'] as const) {
      if (body[key] !== undefined && body[key] !== me[key]) changes[key] = body[key];
    }
    const events = [];
    if (Object.keys(changes).length > 0) {
      events.push({
        id: deps.newId(),
        type: 'UserProfileUpdated',
        data: { changes },
        actorId: me.id,
        occurredAt: now,
      });
    }
    if (body.corporativoFavorito && body.corporativoFavorito !== me.corporativoFavorito) {
      if (!me.corporativos.includes(body.corporativoFavorito))
        throw forbidden('forbidden_corporate');
      events.push({
        id: deps.newId(),
        type: 'FavouriteCorporateChosen',
        data: { corporativoFavorito: body.corporativoFavorito },
        actorId: me.id,
        occurredAt: now,
      });
    }
    if (events.length > 0) await deps.store.append(streams.user(me.id), 'any', events);
    return c.json(publicUser((await findUser(deps.db, me.id))!));
  })
  .put('/users/:id/corporativo-favorito', async (c) => {
    const me = await requireUser(c);
    if (c.req.param('id') !== me.id) throw forbidden();
    const { corporativoFavorito } = parse(favouriteBody, await jsonBody(c));
    if (!me.corporativos.includes(corporativoFavorito)) throw forbidden('forbidden_corporate');
    const deps = c.get('deps');
    await deps.store.append(streams.user(me.id), 'any', [
      {
        id: deps.newId(),
        type: 'FavouriteCorporateChosen',
        data: { corporativoFavorito },
        actorId: me.id,
        occurredAt: deps.clock(),
      },
    ]);
    return c.json(publicUser((await findUser(deps.db, me.id))!));
  })
  // Spec §4: the favourite development toggles — added, or removed when already present.
  .put('/users/:id/desarrollos-favoritos', async (c) => {
    const me = await requireUser(c);
    if (c.req.param('id') !== me.id) throw forbidden();
    const { idCorporativo, idDesarrollo } = parse(favouriteDevelopmentBody, await jsonBody(c));
    const { corporate } = await requireMember(c, { id: idCorporativo });
    const deps = c.get('deps');
    const development = await loadDevelopmentById(deps.db, corporate.id, idDesarrollo);
    if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    const isFavourite = me.desarrollosFavoritos?.[corporate.id]?.[development.id] === true;
    await deps.store.append(streams.user(me.id), 'any', [
      {
        id: deps.newId(),
        type: isFavourite ? 'DevelopmentUnfavourited' : 'DevelopmentFavourited',
        data: { idCorporativo: corporate.id, idDesarrollo: development.id },
        corporateId: corporate.id,
        actorId: me.id,
        occurredAt: deps.clock(),
      },
    ]);
    return c.json(publicUser((await findUser(deps.db, me.id))!));
  });

async function canManageUsers(
  deps: Env['Variables']['deps'],
  me: User,
  other: User,
): Promise<boolean> {
  for (const corpId of me.corporativos) {
    if (!other.corporativosRegistro.includes(corpId) && !other.corporativos.includes(corpId))
      continue;
    const { rows } = await deps.db.query<{
      doc: {
        roles: {
          id: string;
          permisosUsuarios: { crearUsuarios?: boolean; editarUsuarios?: boolean };
        }[];
      };
    }>('SELECT doc FROM rm_corporates WHERE id = $1', [corpId]);
    const role = rows[0]?.doc.roles.find((r) => r.id === me.roles[corpId]);
    if (role?.permisosUsuarios.crearUsuarios || role?.permisosUsuarios.editarUsuarios) return true;
  }
  return false;
}
