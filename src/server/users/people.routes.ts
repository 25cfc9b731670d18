/**
 * The users page's calls (issue 16): the corporate's users, create and invite, a manager's edit
 * of a member (`PUT /users/:id` for someone else: users/routes.ts hands it here), deactivate and
 * reactivate, resend and revoke an invitation, and the approvers' pending registrations.
 * Parse → authorise (core/permissions.ts) → command (people.ts) → respond.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { queryInt } from '../http/query';
import {
  isApprovedMember,
  mayApproveRegistrations,
  mayAssignRole,
  mayCreateUsers,
  mayEditMember,
  mayEditUsers,
  mayInviteWithRole,
  mayManageUsers,
  maySetAssignableRoles,
  PRIVILEGED_USER_FIELDS,
  roleInCorporate,
  type Membership,
} from '../../core/permissions';
import { isValidPhone } from '../../core/lead';
import type { Corporate, User } from '../../core/types';
import { isStrongPassword, PASSWORD_MAX_LENGTH, type UserCommand } from '../../core/user';
import { hashPassword } from '../auth/passwords';
import { inviteToFirebase } from '../auth/firebase';
import { streams } from '../catalogue/events';
import { ApiError, badRequest, forbidden, jsonBody, lang, notFound, parse } from '../http/errors';
import {
  findCorporate,
  findUser,
  requireMember,
  requireUser,
  type Ctx,
  type Env,
} from '../http/context';
import { runCommand } from '../store/command-handler';
import {
  approveRegistration,
  deactivateMember,
  decideUserIn,
  inviteMember,
  createMember,
  listItem,
  listUsers,
  MEMBER_STATUSES,
  pendingRegistrations,
  reactivateMember,
  rejectRegistration,
  resendInvitation,
  revokeInvitation,
  roleNotAssignable,
  type NewMember,
} from './people';

const id = z.string().min(1).max(64);
const name = z.string().trim().min(1).max(120);

const usersQuery = z.strictObject({
  corporateId: id,
  q: z.string().max(120).optional(),
  rol: id.optional(),
  estatus: z.enum(MEMBER_STATUSES as [string, ...string[]]).optional(),
  pagina: queryInt(1, 100_000).default(1),
  porPagina: queryInt(1, 100).default(25),
});

/** A member's phone: empty (none), or a phone as a lead's must be (core `isValidPhone`). */
const phone = z
  .string()
  .trim()
  .max(40)
  .refine((value) => value === '' || isValidPhone(value), { message: 'a phone number' });

/** A new member's fields. Anything else (esAdmin, roles, corporativos, …) is a 400. */
const memberFields = {
  idCorporativo: id,
  email: z.string().trim().toLowerCase().email().max(320),
  nombre: name,
  apellidos: z.string().trim().max(120).default(''),
  telefono: phone.optional(),
  perfil: z.number().int().min(0).max(10).optional(),
  idioma: z.enum(['es', 'en']).optional(),
  idRol: id,
  aprobarRegistro: z.boolean().optional(),
  rolesAsignacion: z.array(id).max(50).optional(),
};
const createBody = z.strictObject({
  ...memberFields,
  password: z.string().max(PASSWORD_MAX_LENGTH * 4),
});
const inviteBody = z.strictObject(memberFields);

const deactivateBody = z.strictObject({ reasignarA: id.nullable().optional() });
const approveBody = z.strictObject({ idRol: id.optional() });
const rejectBody = z.strictObject({ motivo: z.string().trim().min(1).max(500) });

/** A manager's edit of another user (`PUT /users/:id`). */
export const memberUpdate = z
  .object({
    id: z.string().max(64).optional(),
    nombre: name.optional(),
    apellidos: z.string().trim().max(120).optional(),
    telefono: phone.optional(),
    perfil: z.number().int().min(0).max(10).optional(),
    // Stripped as the spec says: the server owns these.
    fechaAlta: z.unknown().optional(),
    sesionUltima: z.unknown().optional(),
    navegador: z.unknown().optional(),
    /** Role changes, per corporate. */
    roles: z.record(id, id).optional(),
    rolesAsignacion: z.record(id, z.array(id).max(50)).optional(),
    aprobarRegistro: z.boolean().optional(),
    // Refused when they differ from the stored value (403): nobody changes them here.
    email: z.string().max(320).optional(),
    esAdmin: z.boolean().optional(),
    corporativos: z.array(z.string()).optional(),
    corporativosRegistro: z.array(z.string()).optional(),
    roles2: z.unknown().optional(),
  })
  .strict();

const privileged = () => new ApiError(403, 'FORBIDDEN', 'privileged_fields');

/** The extras of a new member the creator may give: approver flag, assignable roles. */
function checkExtras(m: Membership, input: NewMember) {
  if (!mayInviteWithRole(m, input.idRol)) throw roleNotAssignable();
  if (input.aprobarRegistro && !mayApproveRegistrations(m)) throw privileged();
  if (input.rolesAsignacion) {
    if (!maySetAssignableRoles(m.role)) throw privileged();
    if (!input.rolesAsignacion.every((r) => m.corporate.roles.some((x) => x.id === r)))
      throw badRequest([{ path: 'rolesAsignacion', code: 'unknown_value' }]);
  }
}

async function memberFor(c: Ctx, corporateId: string, check: (m: Membership) => boolean) {
  const m = await requireMember(c, { id: corporateId });
  if (!check(m)) throw forbidden();
  return m;
}

const corporateLoader = (c: Ctx) => (corpId: string) =>
  findCorporate(c.get('deps').db, { id: corpId });

/**
 * `PUT /api/users/:id` by a manager on another user's record: the profile (nombre, apellidos,
 * telefono, perfil), the role per corporate, `rolesAsignacion` and `aprobarRegistro`, each only
 * where the manager may (core/permissions.ts). `fechaAlta` and `sesionUltima` are stripped; the
 * e-mail, `esAdmin`, the memberships and `roles2` are refused when they differ (403); a user the
 * caller does not manage is 404, as for `GET /users/:id`.
 */
export async function updateMember(c: Ctx, me: User, targetId: string, raw: unknown) {
  const body = parse(memberUpdate, raw);
  if (!body.id) throw new ApiError(400, 'USER_WITHOUT_ID', 'user_without_id');
  if (body.id !== targetId) throw new ApiError(400, 'VALIDATION', 'validation');
  const deps = c.get('deps');
  // Someone who manages users nowhere may change only their own record (403, as before issue 16).
  let managesSomewhere = false;
  for (const corpId of me.corporativos) {
    const corporate = await findCorporate(deps.db, { id: corpId });
    if (corporate && mayManageUsers(roleInCorporate(me, corporate))) managesSomewhere = true;
  }
  if (!managesSomewhere) throw forbidden();
  const target = await findUser(deps.db, targetId);
  if (!target) throw notFound();
  // The corporates both share where the caller edits this user.
  const editable: Membership[] = [];
  let managesAny = false;
  for (const corpId of me.corporativos) {
    if (!target.corporativos.includes(corpId) && !target.corporativosRegistro.includes(corpId))
      continue;
    const corporate = await findCorporate(deps.db, { id: corpId });
    const role = corporate ? roleInCorporate(me, corporate) : undefined;
    if (!corporate || !role) continue;
    if (mayManageUsers(role)) managesAny = true;
    const m = { user: me, corporate, role };
    if (mayEditMember(m, target.roles[corpId])) editable.push(m);
  }
  if (!managesAny) throw notFound();
  if (editable.length === 0) throw roleNotAssignable();
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  for (const key of PRIVILEGED_USER_FIELDS)
    if (body[key] !== undefined && !same(body[key], target[key] ?? undefined)) throw privileged();
  if (body.email !== undefined && body.email.trim().toLowerCase() !== target.email)
    throw privileged();
  const commands: UserCommand[] = [];
  const changes: Record<string, unknown> = {};
  for (const key of ['nombre', 'apellidos', 'telefono', 'perfil'] as const)
    if (body[key] !== undefined) changes[key] = body[key];
  if (Object.keys(changes).length > 0) commands.push({ type: 'UpdateUserProfile', changes });
  const editableIn = (corpId: string) => editable.find((m) => m.corporate.id === corpId);
  for (const [corpId, idRol] of Object.entries(body.roles ?? {})) {
    if (target.roles[corpId] === idRol) continue;
    const m = editableIn(corpId);
    if (!m || !isApprovedMember(target, corpId) || !mayAssignRole(m, idRol))
      throw roleNotAssignable();
    commands.push({ type: 'GrantMembership', idCorporativo: corpId, idRol, aprobado: true });
  }
  for (const [corpId, roles] of Object.entries(body.rolesAsignacion ?? {})) {
    if (same([...roles].sort(), [...(target.rolesAsignacion?.[corpId] ?? [])].sort())) continue;
    const m = editableIn(corpId);
    if (!m || !maySetAssignableRoles(m.role)) throw privileged();
    if (!roles.every((r) => m.corporate.roles.some((x) => x.id === r)))
      throw badRequest([{ path: 'rolesAsignacion', code: 'unknown_value' }]);
    commands.push({ type: 'SetAssignableRoles', idCorporativo: corpId, roles });
  }
  if (
    body.aprobarRegistro !== undefined &&
    body.aprobarRegistro !== (target.aprobarRegistro ?? false)
  ) {
    if (!editable.some((m) => mayApproveRegistrations(m))) throw privileged();
    commands.push({ type: 'SetRegistrationApprover', aprobarRegistro: body.aprobarRegistro });
  }
  const corporateId = editable[0]!.corporate.id;
  const user = await runCommand(deps, { actorId: me.id, corporateId }, async (scope) => {
    await scope.lock([streams.user(targetId)]);
    return decideUserIn(scope, targetId, commands);
  });
  return listItem(user!, corporateId);
}

export const peopleRoutes = new Hono<Env>()
  /**
   * `GET /api/users/indices/users?corporateId[&q&rol&estatus&pagina&porPagina]` → a page of the
   * corporate's users `{ usuarios, total, pagina, porPagina }` (approved, invited, deactivated
   * and pending registrations), for a role that creates or edits users (403 otherwise).
   */
  .get('/users/indices/users', async (c) => {
    const q = parse(usersQuery, c.req.query());
    const m = await memberFor(c, q.corporateId, (m) => mayManageUsers(m.role));
    return c.json(
      await listUsers(c.get('deps').db, m.corporate.id, {
        ...(q.q ? { q: q.q } : {}),
        ...(q.rol ? { rol: q.rol } : {}),
        ...(q.estatus ? { estatus: q.estatus as (typeof MEMBER_STATUSES)[number] } : {}),
        pagina: q.pagina,
        porPagina: q.porPagina,
      }),
    );
  })
  /**
   * `GET /api/users/indices/users-register-approver/:id` → the brokers' registrations waiting in
   * the corporates where user `:id` (the caller only) approves them (`?corporateId` narrows to one).
   */
  .get('/users/indices/users-register-approver/:id', async (c) => {
    const me = await requireUser(c);
    if (c.req.param('id') !== me.id) throw forbidden();
    const { corporateId } = parse(z.strictObject({ corporateId: id.optional() }), c.req.query());
    const deps = c.get('deps');
    const corporates: string[] = [];
    for (const corpId of me.corporativos) {
      if (corporateId && corpId !== corporateId) continue;
      const corporate = await findCorporate(deps.db, { id: corpId });
      const role = corporate ? roleInCorporate(me, corporate) : undefined;
      if (role && mayApproveRegistrations({ user: me, role })) corporates.push(corpId);
    }
    return c.json(await pendingRegistrations(deps.db, corporates));
  })
  /** `POST /api/auth/create-user` → 201 a new active member with the password given. */
  .post('/auth/create-user', async (c) => {
    const body = parse(createBody, await jsonBody(c));
    const m = await memberFor(c, body.idCorporativo, (m) => mayCreateUsers(m.role));
    checkExtras(m, body);
    if (!isStrongPassword(body.password)) throw new ApiError(400, 'WEAK_PASSWORD', 'weak_password');
    const user = await createMember(c.get('deps'), m, body, await hashPassword(body.password));
    return c.json(listItem(user, m.corporate.id), 201);
  })
  /**
   * `POST /api/usuarios/invitar` → 201 `{ usuario, existente, invitacionVence }`: a new person is
   * invited by e-mail (a single-use link to set a password); an existing account gets the corporate.
   */
  .post('/usuarios/invitar', async (c) => {
    const body = parse(inviteBody, await jsonBody(c));
    const m = await memberFor(c, body.idCorporativo, (m) => mayCreateUsers(m.role));
    checkExtras(m, body);
    const language = body.idioma ?? (m.corporate.multiIdioma ? lang(c) : 'es');
    const invited = await inviteMember(c.get('deps'), m, body, language);
    // Under Firebase (issue 22) the person's Firebase account is made too, and Firebase mails
    // its own link to choose a password: `firebase` says how that went.
    const firebase = await inviteToFirebase(c.get('deps'), body.email);
    return c.json(firebase ? { ...invited, firebase } : invited, 201);
  })
  .post('/corporativos/:id/invitaciones/:userId/reenviar', async (c) => {
    const m = await memberFor(c, c.req.param('id'), (m) => mayCreateUsers(m.role));
    const target = await findUser(c.get('deps').db, c.req.param('userId'));
    if (
      target &&
      target.roles[m.corporate.id] &&
      !mayInviteWithRole(m, target.roles[m.corporate.id]!)
    )
      throw roleNotAssignable();
    return c.json(
      await resendInvitation(
        c.get('deps'),
        m,
        c.req.param('userId'),
        m.corporate.multiIdioma ? lang(c) : 'es',
      ),
    );
  })
  .post('/corporativos/:id/invitaciones/:userId/revocar', async (c) => {
    const m = await memberFor(c, c.req.param('id'), (m) => mayCreateUsers(m.role));
    const target = await findUser(c.get('deps').db, c.req.param('userId'));
    if (
      target &&
      target.roles[m.corporate.id] &&
      !mayInviteWithRole(m, target.roles[m.corporate.id]!)
    )
      throw roleNotAssignable();
    await revokeInvitation(c.get('deps'), m, c.req.param('userId'));
    return c.json({ ok: true });
  })
  /**
   * `POST /api/corporativos/:id/usuarios/:userId/desactivar { reasignarA? }` → the user cannot
   * sign in, their sessions end, their leads and upcoming appointments go to `reasignarA`.
   */
  .post('/corporativos/:id/usuarios/:userId/desactivar', async (c) => {
    const body = parse(deactivateBody, await jsonBody(c));
    const m = await memberFor(c, c.req.param('id'), (m) => mayEditUsers(m.role));
    return c.json(
      await deactivateMember(
        c.get('deps'),
        m,
        c.req.param('userId'),
        body.reasignarA ?? null,
        corporateLoader(c),
      ),
    );
  })
  .post('/corporativos/:id/usuarios/:userId/reactivar', async (c) => {
    const m = await memberFor(c, c.req.param('id'), (m) => mayEditUsers(m.role));
    return c.json(await reactivateMember(c.get('deps'), m, c.req.param('userId')));
  })
  /** `POST …/solicitudes/:userId/aprobar { idRol? }`: the broker's role (default: the corporate's 'Broker'). */
  .post('/corporativos/:id/solicitudes/:userId/aprobar', async (c) => {
    const body = parse(approveBody, await jsonBody(c));
    const m = await memberFor(c, c.req.param('id'), (m) => mayApproveRegistrations(m));
    const idRol = body.idRol ?? brokerRole(m.corporate);
    if (!idRol || !mayAssignRole(m, idRol)) throw roleNotAssignable();
    return c.json(await approveRegistration(c.get('deps'), m, c.req.param('userId'), idRol));
  })
  .post('/corporativos/:id/solicitudes/:userId/rechazar', async (c) => {
    const body = parse(rejectBody, await jsonBody(c));
    const m = await memberFor(c, c.req.param('id'), (m) => mayApproveRegistrations(m));
    await rejectRegistration(c.get('deps'), m, c.req.param('userId'), body.motivo);
    return c.json({ ok: true });
  });

/** The corporate's broker role: the one named 'Broker'. */
export function brokerRole(corporate: Corporate): string | undefined {
  return corporate.roles.find((r) => r.nombre.trim().toLowerCase() === 'broker')?.id;
}
