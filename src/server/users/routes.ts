import { Hono } from 'hono';
import { z } from 'zod';
import type { User } from '../../core/types';
import { detectBrowser } from '../../core/misc';
import type { UserCommand, UserProfileChanges } from '../../core/user';
import { runUserCommands } from './commands';
import { updateMember } from './people.routes';
import {
  applyPushTokens,
  planPushTokens,
  pushTokensBody,
  pushTokensOf,
} from '../notifications/push-tokens';
import { ApiError, forbidden, jsonBody, notFound, parse } from '../http/errors';
import { loadDevelopmentById } from '../catalogue/queries';
import { mayManageUsers, roleInCorporate } from '../../core/permissions';
import { userRecordFor } from '../../core/visibility';
import { findCorporate, findUser, requireMember, requireUser, type Env } from '../http/context';

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
    // Spec §7 "Update user for push": { tokens: { pushToken: true } } (notifications/push-tokens.ts).
    tokens: pushTokensBody.optional(),
    // Stripped as the spec says: the server owns these.
    fechaAlta: z.unknown().optional(),
    sesionUltima: z.unknown().optional(),
    navegador: z.unknown().optional(),
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
  /**
   * `GET /api/wsObtenerUsuario?id[&actualizarUltimaSesion=si]` → the caller's own record (403 for
   * anyone else's). A read only: `actualizarUltimaSesion` is accepted as the spec sends it but
   * writes nothing (a GET can be triggered by a cross-site navigation); the last session is
   * recorded by `POST /api/users/:id/ultima-sesion`.
   */
  .get('/wsObtenerUsuario', async (c) => {
    const { id } = parse(idQuery, c.req.query());
    const me = await requireUser(c);
    if (id !== me.id) throw forbidden();
    // The spec's tokens: this user's push subscriptions (notifications/push-tokens.ts).
    return c.json({ ...publicUser(me), tokens: await pushTokensOf(c.get('deps').db, me.id) });
  })
  /**
   * `POST /api/users/:id/ultima-sesion` (no body) records the caller's last session
   * (`sesionUltima`, seconds, and `navegador`, the browser named from the User-Agent header by
   * core/misc.ts `detectBrowser`, in a `LastSessionRecorded` event) → the caller's record. Own record
   * only (403 otherwise); CSRF-guarded like every write.
   */
  .post('/users/:id/ultima-sesion', async (c) => {
    const me = await requireUser(c);
    if (c.req.param('id') !== me.id) throw forbidden();
    const deps = c.get('deps');
    const user = await runUserCommands(deps, me.id, [
      {
        type: 'RecordLastSession',
        now: deps.clock(),
        navegador: detectBrowser(c.req.header('user-agent') ?? ''),
      },
    ]);
    return c.json(publicUser(user));
  })
  /**
   * `GET /api/users/:id` → the caller's own record in full; another user's only to someone who
   * manages users in a corporate they share (else 404), and then only what belongs to the
   * corporates both share (core/visibility.ts `userRecordFor`).
   */
  .get('/users/:id', async (c) => {
    const me = await requireUser(c);
    const id = c.req.param('id');
    if (id !== me.id) {
      const other = await findUser(c.get('deps').db, id);
      if (!other || !(await canManageUsers(c.get('deps'), me, other))) throw notFound();
      return c.json(userRecordFor(me, other));
    }
    // The spec's tokens: this user's push subscriptions (notifications/push-tokens.ts).
    return c.json({ ...publicUser(me), tokens: await pushTokensOf(c.get('deps').db, me.id) });
  })
  .put('/users/:id', async (c) => {
    const me = await requireUser(c);
    const raw = await jsonBody(c);
    // Another user's record: a manager's edit (issue 16, users/people.routes.ts).
    if (c.req.param('id') !== me.id)
      return c.json(await updateMember(c, me, c.req.param('id'), raw));
    const body = parse(userUpdate, raw);
    if (!body.id) throw new ApiError(400, 'USER_WITHOUT_ID', 'user_without_id');
    const id = c.req.param('id');
    if (body.id !== id) throw new ApiError(400, 'VALIDATION', 'validation');
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
    // Push tokens are checked before anything is written, and written once the profile is.
    const tokens = body.tokens && (await planPushTokens(deps.db, me.id, body.tokens, deps.push));
    const commands: UserCommand[] = [];
    const changes: UserProfileChanges = {};
    for (const key of ['nombre', 'apellidos', 'perfil'] as const) {
      if (body[key] !== undefined) Object.assign(changes, { [key]: body[key] });
    }
    if (Object.keys(changes).length > 0) commands.push({ type: 'UpdateUserProfile', changes });
    if (body.corporativoFavorito && body.corporativoFavorito !== me.corporativoFavorito)
      commands.push({ type: 'ChooseFavouriteCorporate', idCorporativo: body.corporativoFavorito });
    const user = publicUser(await runUserCommands(deps, me.id, commands));
    if (!tokens) return c.json(user);
    await applyPushTokens(deps.db, me.id, tokens);
    return c.json({ ...user, tokens: await pushTokensOf(deps.db, me.id) });
  })
  .put('/users/:id/corporativo-favorito', async (c) => {
    const me = await requireUser(c);
    if (c.req.param('id') !== me.id) throw forbidden();
    const { corporativoFavorito } = parse(favouriteBody, await jsonBody(c));
    const user = await runUserCommands(c.get('deps'), me.id, [
      { type: 'ChooseFavouriteCorporate', idCorporativo: corporativoFavorito },
    ]);
    return c.json(publicUser(user));
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
    const user = await runUserCommands(
      deps,
      me.id,
      [
        {
          type: 'ToggleDevelopmentFavourite',
          idCorporativo: corporate.id,
          idDesarrollo: development.id,
        },
      ],
      corporate.id,
    );
    return c.json(publicUser(user));
  });

/** Whether `me` manages users in a corporate `other` belongs to or applied to. */
async function canManageUsers(
  deps: Env['Variables']['deps'],
  me: User,
  other: User,
): Promise<boolean> {
  for (const corpId of me.corporativos) {
    if (!other.corporativosRegistro.includes(corpId) && !other.corporativos.includes(corpId))
      continue;
    const corporate = await findCorporate(deps.db, { id: corpId });
    if (corporate && mayManageUsers(roleInCorporate(me, corporate))) return true;
  }
  return false;
}
