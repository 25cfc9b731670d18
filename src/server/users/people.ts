/**
 * The people area's queries and writes (issue 16): a corporate's users list, creating and
 * inviting users, a manager's edit of a member, deactivation with the reassignment of leads and
 * appointments, invitations (resend, revoke), and the approval of brokers' registrations. Every
 * write is events on the user's stream through the one command handler and the core's User
 * decider; who may do what is core/permissions.ts.
 */
import {
  isAdviserRole,
  isApprovedMember,
  mayApproveRegistrations,
  mayAssignLeads,
  mayEditMember,
  mayManageUsers,
  roleInCorporate,
  type Membership,
} from '../../core/permissions';
import type { BrowserName } from '../../core/misc';
import type { Corporate, User } from '../../core/types';
import { appointmentDecider } from '../../core/appointment';
import { leadDecider } from '../../core/lead';
import { isPendingIn, userDecider, userStatus, type UserCommand } from '../../core/user';
import { appointmentErrorToApi } from '../appointments/commands';
import { appointmentStream } from '../appointments/streams';
import { endSessions, issueToken, revokeTokens } from '../auth/people-tokens';
import { streams } from '../catalogue/events';
import { ApiError } from '../http/errors';
import { lockKeys } from '../http/rate-limit';
import { leadErrorToApi } from '../leads/errors';
import { leadStream } from '../leads/streams';
import { enqueueMail } from '../mail/outbox';
import type { MailLang } from '../mail/templates';
import { notify } from '../notifications/notify';
import { runCommand, type CommandEnv, type CommandScope } from '../store/command-handler';
import type { Queryable } from '../store/db';
import { userErrorToApi } from './commands';

import type { MemberStatus } from '../../core/user';
export { MEMBER_STATUSES, type MemberStatus } from '../../core/user';

/** One row of the users page: what belongs to the corporate asked for, nothing of others. */
export interface UserListItem {
  id: string;
  email: string;
  nombre: string;
  apellidos: string;
  /** The role id in this corporate (null for a pending registration). */
  idRol: string | null;
  estatus: MemberStatus;
  fechaAlta: number;
  sesionUltima: number | null;
  /** The browser of the last session (core/misc.ts `detectBrowser`), null when not known. */
  navegador: BrowserName | null;
  tipo: string | null;
  telefono: string | null;
  inmobiliaria: string | null;
  aprobarRegistro: boolean;
  rolesAsignacion: string[];
  /** A pending invitation's expiry (ISO), for `invitado`. */
  invitacionVence: string | null;
}

export function memberStatus(user: User, corporateId: string): MemberStatus {
  if (isPendingIn(user, corporateId)) return 'pendiente';
  return userStatus(user);
}

export function listItem(user: User, corporateId: string, invitacionVence: string | null = null) {
  const item: UserListItem = {
    id: user.id,
    email: user.email,
    nombre: user.nombre,
    apellidos: user.apellidos ?? '',
    idRol: isApprovedMember(user, corporateId) ? (user.roles[corporateId] ?? null) : null,
    estatus: memberStatus(user, corporateId),
    fechaAlta: user.fechaAlta,
    sesionUltima: user.sesionUltima ?? null,
    navegador: user.navegador ?? null,
    tipo: user.tipo ?? null,
    telefono: user.telefono ?? null,
    inmobiliaria: user.inmobiliaria ?? null,
    aprobarRegistro: user.aprobarRegistro === true,
    rolesAsignacion: user.rolesAsignacion?.[corporateId] ?? [],
    invitacionVence,
  };
  return item;
}

export interface UsersQuery {
  q?: string;
  rol?: string;
  estatus?: MemberStatus;
  pagina: number;
  porPagina: number;
}

const STATUS_SQL = `CASE WHEN NOT (doc->'corporativos' @> jsonb_build_array($1::text)) THEN 'pendiente'
  WHEN doc->'info'->>'estatus' IN ('inactivo', 'invitado') THEN doc->'info'->>'estatus'
  ELSE 'activo' END`;

/**
 * A page of the corporate's users (approved or with a pending registration), by name, with the
 * total: search in name, surnames and e-mail (case-insensitive, anywhere), the role, the status.
 */
export async function listUsers(
  q: Queryable,
  corporateId: string,
  query: UsersQuery,
): Promise<{ usuarios: UserListItem[]; total: number; pagina: number; porPagina: number }> {
  const search = (query.q ?? '').trim().toLowerCase();
  const like = search ? `%${search.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%` : null;
  const { rows } = await q.query<{ doc: User; total: number; vence: string | Date | null }>(
    `SELECT u.doc, count(*) OVER ()::int AS total,
            (SELECT max(t.expires_at) FROM user_tokens t
              WHERE t.user_id = u.id AND t.kind = 'invitacion' AND t.corporate_id = $1
                AND t.used_at IS NULL AND t.revoked_at IS NULL) AS vence
       FROM rm_users u
      WHERE (u.doc->'corporativos' @> jsonb_build_array($1::text)
             OR u.doc->'corporativosRegistro' @> jsonb_build_array($1::text))
        AND ($2::text IS NULL OR lower(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos', u.email)) LIKE $2)
        AND ($3::text IS NULL OR (u.doc->'corporativos' @> jsonb_build_array($1::text) AND u.doc->'roles'->>$1 = $3))
        AND ($4::text IS NULL OR (${STATUS_SQL.replaceAll('doc->', 'u.doc->')}) = $4)
      ORDER BY lower(u.doc->>'nombre'), lower(u.doc->>'apellidos'), u.id
      LIMIT $5 OFFSET $6`,
    [
      corporateId,
      like,
      query.rol ?? null,
      query.estatus ?? null,
      query.porPagina,
      (query.pagina - 1) * query.porPagina,
    ],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && query.pagina > 1) {
    // Past the last page: the total still tells the client where the pages end.
    const count = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM rm_users u
        WHERE (u.doc->'corporativos' @> jsonb_build_array($1::text)
               OR u.doc->'corporativosRegistro' @> jsonb_build_array($1::text))
          AND ($2::text IS NULL OR lower(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos', u.email)) LIKE $2)
          AND ($3::text IS NULL OR (u.doc->'corporativos' @> jsonb_build_array($1::text) AND u.doc->'roles'->>$1 = $3))
          AND ($4::text IS NULL OR (${STATUS_SQL.replaceAll('doc->', 'u.doc->')}) = $4)`,
      [corporateId, like, query.rol ?? null, query.estatus ?? null],
    );
    total = count.rows[0]?.n ?? 0;
  }
  return {
    usuarios: rows.map((r) =>
      listItem(r.doc, corporateId, r.vence ? new Date(r.vence).toISOString() : null),
    ),
    total,
    pagina: query.pagina,
    porPagina: query.porPagina,
  };
}

export async function findUserByEmail(q: Queryable, email: string): Promise<User | null> {
  const { rows } = await q.query<{ doc: User }>('SELECT doc FROM rm_users WHERE email = $1', [
    email.trim().toLowerCase(),
  ]);
  return rows[0]?.doc ?? null;
}

async function userIn(q: Queryable, id: string): Promise<User | null> {
  const { rows } = await q.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [id]);
  return rows[0]?.doc ?? null;
}

const actorOf = (m: Pick<Membership, 'user' | 'corporate'>) => ({
  actorId: m.user.id,
  corporateId: m.corporate.id,
});

const fullName = (u: Pick<User, 'nombre' | 'apellidos'>) =>
  [u.nombre, u.apellidos].filter(Boolean).join(' ').trim();

/** The language a mail to `user` is written in: theirs, else the one given, else es. */
export const mailLang = (user: Pick<User, 'idioma'> | null, fallback: MailLang = 'es'): MailLang =>
  user?.idioma ?? fallback;

/** Runs user commands on `userId`'s stream inside `scope` (all or nothing with the rest). */
export async function decideUserIn(
  scope: CommandScope,
  userId: string,
  commands: readonly UserCommand[],
): Promise<User | null> {
  const loaded = await scope.load(userDecider, streams.user(userId));
  const events = scope.decide(userDecider, loaded.state, commands, userErrorToApi);
  await scope.emit(loaded.streamId, events);
  return events.reduce((s, e) => userDecider.evolve(s, e), loaded.state).user;
}

export const emailTaken = () => new ApiError(409, 'EMAIL_TAKEN', 'email_taken');
export const roleNotAssignable = () => new ApiError(403, 'FORBIDDEN', 'role_not_assignable');
const userNotFound = () => new ApiError(404, 'USER_NOT_FOUND', 'user_not_found');

/** A new user's record: the spec's fields, nothing of any corporate yet. */
export function newUser(
  id: string,
  fields: {
    email: string;
    nombre: string;
    apellidos: string;
    telefono?: string | undefined;
    idioma?: MailLang | undefined;
    perfil?: number | undefined;
    tipo?: string | undefined;
    aprobarRegistro?: boolean | undefined;
    inmobiliaria?: string | undefined;
    estatus: 'activo' | 'invitado';
    /** The corporate the person comes in through (spec §3 `corporativoActual`). */
    corporativoActual?: string | undefined;
  },
  now: Date,
): User {
  return {
    id,
    email: fields.email.trim().toLowerCase(),
    nombre: fields.nombre.trim(),
    apellidos: fields.apellidos.trim(),
    corporativos: [],
    corporativosRegistro: [],
    corporativoFavorito: null,
    desarrollosFavoritos: {},
    roles: {},
    fechaAlta: Math.floor(now.getTime() / 1000),
    sesionUltima: null,
    esAdmin: false,
    perfil: fields.perfil ?? 2,
    tipo: fields.tipo ?? 'Asesor',
    aprobarRegistro: fields.aprobarRegistro ?? false,
    info: { estatus: fields.estatus },
    ...(fields.telefono ? { telefono: fields.telefono.trim() } : {}),
    ...(fields.idioma ? { idioma: fields.idioma } : {}),
    ...(fields.inmobiliaria ? { inmobiliaria: fields.inmobiliaria.trim() } : {}),
    ...(fields.corporativoActual ? { corporativoActual: fields.corporativoActual } : {}),
  };
}

/** Locks the e-mail address for the rest of the transaction (two creations of one address queue). */
export const lockEmail = (scope: Queryable, email: string) =>
  lockKeys(scope, [`user-email:${email.trim().toLowerCase()}`]);

// ---------------------------------------------------------------------------------------------
// Create and invite

export interface NewMember {
  email: string;
  nombre: string;
  apellidos: string;
  telefono?: string | undefined;
  perfil?: number | undefined;
  idioma?: MailLang | undefined;
  idRol: string;
  aprobarRegistro?: boolean | undefined;
  rolesAsignacion?: string[] | undefined;
}

/** Commands that give a new member the extras the creator may give (checked by the route). */
function extrasFor(m: Membership, input: NewMember): UserCommand[] {
  const out: UserCommand[] = [];
  if (input.aprobarRegistro)
    out.push({ type: 'SetRegistrationApprover', aprobarRegistro: input.aprobarRegistro });
  if (input.rolesAsignacion)
    out.push({
      type: 'SetAssignableRoles',
      idCorporativo: m.corporate.id,
      roles: input.rolesAsignacion,
    });
  return out;
}

/** `POST /auth/create-user`: a new active user with a password, approved in the corporate. */
export function createMember(
  env: CommandEnv,
  m: Membership,
  input: NewMember,
  passwordHash: string,
): Promise<User> {
  return runCommand(env, actorOf(m), async (scope) => {
    await lockEmail(scope, input.email);
    if (await findUserByEmail(scope, input.email)) throw emailTaken();
    const id = `usr-${scope.newId()}`;
    const user = await decideUserIn(scope, id, [
      {
        type: 'RegisterUser',
        user: newUser(
          id,
          { ...input, estatus: 'activo', corporativoActual: m.corporate.id },
          scope.now,
        ),
        passwordHash,
      },
      {
        type: 'GrantMembership',
        idCorporativo: m.corporate.id,
        idRol: input.idRol,
        aprobado: true,
      },
      ...extrasFor(m, input),
    ]);
    return user!;
  });
}

async function queueInvitation(
  scope: CommandScope,
  m: Membership,
  user: User,
  lang: MailLang,
): Promise<{ id: string; expiresAt: Date }> {
  await revokeTokens(scope, {
    userId: user.id,
    kind: 'invitacion',
    corporateId: m.corporate.id,
    now: scope.now,
  });
  const token = await issueToken(scope, {
    kind: 'invitacion',
    userId: user.id,
    corporateId: m.corporate.id,
    email: user.email,
    createdBy: m.user.id,
    now: scope.now,
  });
  await enqueueMail(scope, {
    template: 'invitacion',
    to: user.email,
    lang,
    params: {
      nombre: user.nombre,
      invitador: fullName(m.user),
      corporativo: m.corporate.nombre,
      vence: token.expiresAt.toISOString().slice(0, 10),
    },
    link: { path: '/acceso', tokenId: token.id },
  });
  return token;
}

export interface InvitationResult {
  usuario: UserListItem;
  /** An existing account got the corporate (no new user, no password to set). */
  existente: boolean;
  invitacionVence: string | null;
}

/**
 * `POST /usuarios/invitar`: a new person gets an invited account (no password) approved in the
 * corporate and a single-use link to set a password; an existing account gets the corporate
 * added (a pending registration there is approved) and is told by e-mail. 409 for someone
 * already in the corporate, or deactivated.
 */
export function inviteMember(
  env: CommandEnv,
  m: Membership,
  input: NewMember,
  lang: MailLang,
): Promise<InvitationResult> {
  return runCommand(env, actorOf(m), async (scope) => {
    await lockEmail(scope, input.email);
    const existing = await findUserByEmail(scope, input.email);
    if (existing) {
      if (isApprovedMember(existing, m.corporate.id))
        throw new ApiError(409, 'ALREADY_MEMBER', 'email_taken');
      if (userStatus(existing) === 'inactivo')
        throw new ApiError(409, 'USER_INACTIVE', 'user_inactive');
      const commands: UserCommand[] = isPendingIn(existing, m.corporate.id)
        ? [{ type: 'ApproveRegistration', idCorporativo: m.corporate.id, idRol: input.idRol }]
        : [
            {
              type: 'GrantMembership',
              idCorporativo: m.corporate.id,
              idRol: input.idRol,
              aprobado: true,
            },
          ];
      const user = (await decideUserIn(scope, existing.id, commands))!;
      let vence: string | null = null;
      if (userStatus(user) === 'invitado') {
        // Invited elsewhere and no password yet: this corporate's link sets it too.
        vence = (
          await queueInvitation(scope, m, user, mailLang(user, lang))
        ).expiresAt.toISOString();
      } else {
        await enqueueMail(scope, {
          template: 'acceso-agregado',
          to: user.email,
          lang: mailLang(user, lang),
          params: {
            nombre: user.nombre,
            invitador: fullName(m.user),
            corporativo: m.corporate.nombre,
          },
          link: { path: '/login' },
        });
      }
      return {
        usuario: listItem(user, m.corporate.id, vence),
        existente: true,
        invitacionVence: vence,
      };
    }
    const id = `usr-${scope.newId()}`;
    const user = (await decideUserIn(scope, id, [
      {
        type: 'RegisterUser',
        user: newUser(
          id,
          {
            ...input,
            idioma: input.idioma ?? lang,
            estatus: 'invitado',
            corporativoActual: m.corporate.id,
          },
          scope.now,
        ),
        passwordHash: null,
      },
      {
        type: 'GrantMembership',
        idCorporativo: m.corporate.id,
        idRol: input.idRol,
        aprobado: true,
      },
      ...extrasFor(m, input),
    ]))!;
    const token = await queueInvitation(scope, m, user, mailLang(user, lang));
    const vence = token.expiresAt.toISOString();
    return {
      usuario: listItem(user, m.corporate.id, vence),
      existente: false,
      invitacionVence: vence,
    };
  });
}

/** The member `userId` of the corporate (approved or pending there), or 404. */
async function memberOf(q: Queryable, corporate: Corporate, userId: string): Promise<User> {
  const user = await userIn(q, userId);
  if (
    !user ||
    (!user.corporativos.includes(corporate.id) && !user.corporativosRegistro.includes(corporate.id))
  )
    throw userNotFound();
  return user;
}

/** `…/invitaciones/:userId/reenviar`: a new link (the old one stops working). */
export function resendInvitation(
  env: CommandEnv,
  m: Membership,
  userId: string,
  lang: MailLang,
): Promise<UserListItem> {
  return runCommand(env, actorOf(m), async (scope) => {
    await scope.lock([streams.user(userId)]);
    const user = await memberOf(scope, m.corporate, userId);
    if (userStatus(user) !== 'invitado' || !isApprovedMember(user, m.corporate.id))
      throw new ApiError(404, 'INVITATION_NOT_FOUND', 'invitation_not_found');
    const token = await queueInvitation(scope, m, user, mailLang(user, lang));
    return listItem(user, m.corporate.id, token.expiresAt.toISOString());
  });
}

/** `…/invitaciones/:userId/revocar`: the link stops working and the corporate is taken away. */
export function revokeInvitation(env: CommandEnv, m: Membership, userId: string): Promise<void> {
  return runCommand(env, actorOf(m), async (scope) => {
    await scope.lock([streams.user(userId)]);
    const user = await memberOf(scope, m.corporate, userId);
    if (userStatus(user) !== 'invitado')
      throw new ApiError(404, 'INVITATION_NOT_FOUND', 'invitation_not_found');
    await revokeTokens(scope, {
      userId,
      kind: 'invitacion',
      corporateId: m.corporate.id,
      now: scope.now,
    });
    await decideUserIn(scope, userId, [
      { type: 'RevokeMembership', idCorporativo: m.corporate.id },
    ]);
  });
}

// ---------------------------------------------------------------------------------------------
// Deactivation

export interface DeactivationResult {
  usuario: UserListItem;
  leadsReasignados: number;
  citasReasignadas: number;
}

/**
 * Deactivates `userId` from the corporate in one transaction: the user can no longer sign in
 * (`info.estatus` inactivo), every session ends, unused links stop working, and their live leads
 * and upcoming appointments in the corporate go to `reasignarA` (needed when there are any).
 * The manager must be able to edit the user in every corporate the user is approved in (else
 * 409: deactivation is of the account); never oneself.
 */
export function deactivateMember(
  env: CommandEnv,
  m: Membership,
  userId: string,
  reasignarA: string | null,
  corporates: (id: string) => Promise<Corporate | null>,
): Promise<DeactivationResult> {
  return runCommand(env, actorOf(m), async (scope) => {
    if (userId === m.user.id)
      throw new ApiError(409, 'CANNOT_DEACTIVATE_SELF', 'cannot_deactivate_self');
    await scope.lock([streams.user(userId)]);
    const target = await memberOf(scope, m.corporate, userId);
    if (!mayEditMember(m, target.roles[m.corporate.id])) throw roleNotAssignable();
    for (const other of target.corporativos) {
      if (other === m.corporate.id) continue;
      const corporate = await corporates(other);
      const role = corporate ? roleInCorporate(m.user, corporate) : undefined;
      if (
        !corporate ||
        !role ||
        !isApprovedMember(m.user, other) ||
        !mayEditMember({ user: m.user, corporate, role }, target.roles[other])
      )
        throw new ApiError(409, 'USER_IN_OTHER_CORPORATES', 'user_in_other_corporates');
    }
    const now = scope.now;
    const leads = await scope.query<{ id: string }>(
      'SELECT id FROM rm_leads WHERE corporate_id = $1 AND id_vendedor = $2 AND NOT eliminado ORDER BY id',
      [m.corporate.id, userId],
    );
    const citas = await scope.query<{ id: string }>(
      `SELECT id FROM rm_appointments WHERE corporate_id = $1 AND adviser_id = $2 AND activo
          AND fecha_fin > $3 ORDER BY id`,
      [m.corporate.id, userId, now.toISOString()],
    );
    const toMove = leads.rows.length + citas.rows.length;
    if (toMove > 0 || reasignarA !== null) {
      if (!reasignarA || reasignarA === userId || !mayAssignLeads(m.role))
        throw new ApiError(400, 'REASSIGN_TARGET_INVALID', 'reassign_target_invalid');
      const heir = await userIn(scope, reasignarA);
      const heirRole = heir ? roleInCorporate(heir, m.corporate) : undefined;
      if (
        !heir ||
        !heirRole ||
        !isApprovedMember(heir, m.corporate.id) ||
        userStatus(heir) !== 'activo' ||
        !isAdviserRole(heirRole)
      )
        throw new ApiError(400, 'REASSIGN_TARGET_INVALID', 'reassign_target_invalid');
    }
    await scope.lock([
      ...leads.rows.map((r) => leadStream(m.corporate.id, r.id)),
      ...citas.rows.map((r) => appointmentStream(m.corporate.id, r.id)),
    ]);
    for (const { id } of leads.rows) {
      const loaded = await scope.load(leadDecider, leadStream(m.corporate.id, id));
      const events = scope.decide(
        leadDecider,
        loaded.state,
        { type: 'AssignLead', idVendedor: reasignarA! },
        leadErrorToApi,
      );
      await scope.emit(loaded.streamId, events);
    }
    for (const { id } of citas.rows) {
      const loaded = await scope.load(appointmentDecider, appointmentStream(m.corporate.id, id));
      const events = scope.decide(
        appointmentDecider,
        loaded.state,
        { type: 'ReassignAppointment', by: m, idAsesor: reasignarA!, adviserIsMember: true },
        appointmentErrorToApi,
      );
      await scope.emit(loaded.streamId, events);
    }
    const user = (await decideUserIn(scope, userId, [
      {
        type: 'Deactivate',
        idCorporativo: m.corporate.id,
        reasignadoA: toMove > 0 ? reasignarA : null,
      },
    ]))!;
    await endSessions(scope, userId, now);
    await revokeTokens(scope, { userId, kind: 'invitacion', now });
    await revokeTokens(scope, { userId, kind: 'recuperacion', now });
    return {
      usuario: listItem(user, m.corporate.id),
      leadsReasignados: leads.rows.length,
      citasReasignadas: citas.rows.length,
    };
  });
}

/** Reactivates a deactivated member (they sign in again with their password). */
export function reactivateMember(env: CommandEnv, m: Membership, userId: string) {
  return runCommand(env, actorOf(m), async (scope) => {
    await scope.lock([streams.user(userId)]);
    const target = await memberOf(scope, m.corporate, userId);
    if (!mayEditMember(m, target.roles[m.corporate.id])) throw roleNotAssignable();
    const user = (await decideUserIn(scope, userId, [
      { type: 'Reactivate', idCorporativo: m.corporate.id },
    ]))!;
    return listItem(user, m.corporate.id);
  });
}

// ---------------------------------------------------------------------------------------------
// Registration approval

/** The approvers of the corporate (spec §1): who is told of a registration and may approve it. */
export async function approversOf(q: Queryable, corporate: Corporate): Promise<string[]> {
  const { rows } = await q.query<{ doc: User }>(
    `SELECT doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text)
        AND (doc->>'aprobarRegistro')::boolean IS TRUE ORDER BY id`,
    [corporate.id],
  );
  return rows
    .map((r) => r.doc)
    .filter((u) => {
      const role = roleInCorporate(u, corporate);
      return role !== undefined && mayApproveRegistrations({ user: u, role });
    })
    .map((u) => u.id);
}

/** A pending registration, as an approver sees it. */
export interface RegistrationRequest {
  id: string;
  email: string;
  nombre: string;
  apellidos: string;
  telefono: string | null;
  inmobiliaria: string | null;
  fechaAlta: number;
  idCorporativo: string;
}

/** The pending registrations of the corporates given (`GET …/users-register-approver/:id`). */
export async function pendingRegistrations(
  q: Queryable,
  corporateIds: readonly string[],
): Promise<RegistrationRequest[]> {
  if (corporateIds.length === 0) return [];
  const { rows } = await q.query<{ doc: User; corp: string }>(
    `SELECT u.doc, c.corp FROM rm_users u
       CROSS JOIN LATERAL jsonb_array_elements_text(u.doc->'corporativosRegistro') AS c(corp)
      WHERE c.corp = ANY($1::text[]) AND NOT (u.doc->'corporativos' @> jsonb_build_array(c.corp))
      ORDER BY (u.doc->>'fechaAlta')::bigint DESC, u.id`,
    [corporateIds],
  );
  return rows.map(({ doc, corp }) => ({
    id: doc.id,
    email: doc.email,
    nombre: doc.nombre,
    apellidos: doc.apellidos ?? '',
    telefono: doc.telefono ?? null,
    inmobiliaria: doc.inmobiliaria ?? null,
    fechaAlta: doc.fechaAlta,
    idCorporativo: corp,
  }));
}

/** Approves a pending registration with role `idRol`; the broker is told by e-mail. */
export function approveRegistration(
  env: CommandEnv,
  m: Membership,
  userId: string,
  idRol: string,
): Promise<UserListItem> {
  return runCommand(env, actorOf(m), async (scope) => {
    const user = (await decideUserIn(scope, userId, [
      { type: 'ApproveRegistration', idCorporativo: m.corporate.id, idRol },
    ]))!;
    await enqueueMail(scope, {
      template: 'registro-aprobado',
      to: user.email,
      lang: mailLang(user),
      params: { nombre: user.nombre, corporativo: m.corporate.nombre },
      link: { path: '/login' },
    });
    return listItem(user, m.corporate.id);
  });
}

/** Rejects a pending registration with a reason; the broker is told by e-mail. */
export function rejectRegistration(
  env: CommandEnv,
  m: Membership,
  userId: string,
  motivo: string,
): Promise<void> {
  return runCommand(env, actorOf(m), async (scope) => {
    const user = (await decideUserIn(scope, userId, [
      { type: 'RejectRegistration', idCorporativo: m.corporate.id, motivo },
    ]))!;
    await enqueueMail(scope, {
      template: 'registro-rechazado',
      to: user.email,
      lang: mailLang(user),
      params: { nombre: user.nombre, corporativo: m.corporate.nombre, motivo: motivo.trim() },
    });
  });
}

/**
 * A broker's self-registration (`POST /solicitudes-usuarios/registrar`): the account with the
 * spec's fixed fields (perfil 1, tipo Broker, esAdmin false, aprobarRegistro false, info.estatus
 * activo) and the corporate in `corporativosRegistro`; the approvers get a notification, the
 * broker an e-mail. 409 EMAIL_TAKEN for an address that has an account.
 */
export function registerBroker(
  env: CommandEnv,
  corporate: Corporate,
  input: {
    email: string;
    nombre: string;
    apellidos: string;
    telefono: string;
    inmobiliaria: string;
    idioma: MailLang;
  },
  passwordHash: string,
): Promise<User> {
  return runCommand(env, { actorId: null, corporateId: corporate.id }, async (scope) => {
    await lockEmail(scope, input.email);
    if (await findUserByEmail(scope, input.email)) throw emailTaken();
    const id = `usr-${scope.newId()}`;
    const user = (await decideUserIn(scope, id, [
      {
        type: 'RegisterUser',
        user: newUser(
          id,
          {
            ...input,
            perfil: 1,
            tipo: 'Broker',
            aprobarRegistro: false,
            estatus: 'activo',
            corporativoActual: corporate.id,
          },
          scope.now,
        ),
        passwordHash,
      },
      { type: 'RequestRegistration', idCorporativo: corporate.id },
    ]))!;
    await notify(scope, {
      corporateId: corporate.id,
      userIds: await approversOf(scope, corporate),
      kind: 'broker.registro',
      params: { broker: fullName(user) },
      link: `/corporativos/${corporate.slug}/usuarios?estatus=pendiente`,
    });
    await enqueueMail(scope, {
      template: 'registro-recibido',
      to: user.email,
      lang: input.idioma,
      params: { nombre: user.nombre, corporativo: corporate.nombre },
    });
    return user;
  });
}

/** Whether `me` may see and manage users in the corporate (the users page). */
export const managesUsersIn = (m: Membership) => mayManageUsers(m.role);
