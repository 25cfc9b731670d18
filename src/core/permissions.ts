/**
 * Who may do what (spec §6 and the product's own rules): each rule is one small function over
 * plain data — the role a user holds in a corporate, the user record, the corporate — so the
 * server's checks, the screens' guards and the tests all read the same rule. Pure: nothing here
 * reads a database or a session; callers load the records and ask.
 */

import type { Corporate, Role, User } from './types';

/** An approved user of a corporate and the role they hold there (spec §6: one role per corporate). */
export interface Membership {
  user: User;
  corporate: Corporate;
  role: Role;
}

/** What a membership rule needs of a membership (the whole records satisfy it). */
export interface MembershipRef {
  user: Pick<User, 'id'>;
  corporate: Pick<Corporate, 'id'>;
  role: Role;
}

/** How a user stands in a corporate: approved member, registered but not approved yet, or none. */
export type MembershipStatus = 'approved' | 'pending' | 'none';

// ---------------------------------------------------------------------------------------------
// Membership

/** The user is an approved member of the corporate (it is in `corporativos`). */
export function isApprovedMember(user: Pick<User, 'corporativos'>, corporateId: string): boolean {
  return user.corporativos.includes(corporateId);
}

/**
 * The user's standing in a corporate (spec §6): `approved` when in `corporativos`; `pending`
 * ('Falta aprobación', shown disabled) when only in `corporativosRegistro`; otherwise `none`
 * (the 403 page).
 */
export function membershipStatus(
  user: Pick<User, 'corporativos' | 'corporativosRegistro'>,
  corporateId: string,
): MembershipStatus {
  if (user.corporativos.includes(corporateId)) return 'approved';
  if (user.corporativosRegistro.includes(corporateId)) return 'pending';
  return 'none';
}

/**
 * The role the user holds in the corporate, resolved against the corporate's role list (spec
 * §6), whatever the approval; undefined when the user has no role there or the id is unknown.
 */
export function roleInCorporate(
  user: Pick<User, 'roles'>,
  corporate: Pick<Corporate, 'id' | 'roles'>,
): Role | undefined {
  const id = user.roles[corporate.id];
  return id === undefined ? undefined : corporate.roles.find((r) => r.id === id);
}

/**
 * The user's membership of the corporate, or null when they may not act in it: not an approved
 * member, or their role id does not resolve (the server answers 403 to both).
 */
export function membershipOf(user: User, corporate: Corporate): Membership | null {
  if (!isApprovedMember(user, corporate.id)) return null;
  const role = roleInCorporate(user, corporate);
  return role ? { user, corporate, role } : null;
}

// ---------------------------------------------------------------------------------------------
// Leads

/** The role sees every lead of the corporate (`permisosLeads.alcanceLeads` is 'Todos'). */
export function seesAllLeads(role: Role): boolean {
  return role.permisosLeads.alcanceLeads === 'Todos';
}

/**
 * The membership's lead scope covers records owned by `ownerId` (a lead's `idVendedor`, a
 * quotation's `idAsesor`): everything with 'Todos', only the user's own with 'Propios'.
 */
export function scopeCovers(
  m: Pick<MembershipRef, 'user' | 'role'>,
  ownerId: string | null | undefined,
): boolean {
  return seesAllLeads(m.role) || (ownerId != null && ownerId === m.user.id);
}

/** The user may see (and act on) the lead: it is of the membership's corporate and in scope. */
export function maySeeLead(
  m: MembershipRef,
  lead: { idCorporativo: string; idVendedor: string | null },
): boolean {
  return lead.idCorporativo === m.corporate.id && scopeCovers(m, lead.idVendedor);
}

/**
 * The role may give leads to other advisers, merge leads and list the corporate's advisers:
 * it sees all leads or has `permisos.activarAdminUsuarios`.
 */
export function mayAssignLeads(role: Role): boolean {
  return seesAllLeads(role) || role.permisos.activarAdminUsuarios === true;
}

/**
 * The user may make `idVendedor` a lead's adviser: always themselves, anyone else only with
 * {@link mayAssignLeads} (the target must still be an approved member; the caller checks that).
 */
export function mayAssignLeadTo(m: Pick<MembershipRef, 'user' | 'role'>, idVendedor: string) {
  return idVendedor === m.user.id || mayAssignLeads(m.role);
}

/** The role may merge a duplicate lead into another (managers only: {@link mayAssignLeads}). */
export function mayMergeLeads(role: Role): boolean {
  return mayAssignLeads(role);
}

/** The role may list the corporate's advisers (`wsObtenerAsesores`): {@link mayAssignLeads}. */
export function mayListAdvisers(role: Role): boolean {
  return mayAssignLeads(role);
}

/** A host administrator (`permisos.adminHostes`): lands on the events page, sees Events only. */
export function isHostAdmin(role: Role | null | undefined): boolean {
  return role?.permisos.adminHostes === true;
}

/** A holder of the role is an adviser leads can belong to (the adviser list): not a host admin. */
export function isAdviserRole(role: Role): boolean {
  return !isHostAdmin(role);
}

/**
 * The member takes part in the public-capture round robin: an adviser with 'Propios' scope, not
 * a host administrator, not a broker (`tipo` 'Broker'), whose account is active: not inactive,
 * and not an invitation still unaccepted (an adviser who cannot sign in yet would not see the
 * client).
 */
export function receivesPublicCaptures(user: Pick<User, 'tipo' | 'info'>, role: Role): boolean {
  const status = user.info?.estatus;
  return (
    role.permisosLeads.alcanceLeads === 'Propios' &&
    !isHostAdmin(role) &&
    user.tipo !== 'Broker' &&
    status !== 'inactivo' &&
    status !== 'invitado'
  );
}

// ---------------------------------------------------------------------------------------------
// Quotations

/**
 * The user may see the quotation: it is of the membership's corporate, and the user sees all
 * leads, is its adviser (`idAsesor`), or owns its lead (`leadOwnerId`, the lead's `idVendedor`,
 * null when unknown or the lead is deleted).
 */
export function maySeeQuotation(
  m: MembershipRef,
  quotation: { idCorporativo: string; idAsesor: string },
  leadOwnerId: string | null = null,
): boolean {
  return (
    quotation.idCorporativo === m.corporate.id &&
    (scopeCovers(m, quotation.idAsesor) || (leadOwnerId !== null && leadOwnerId === m.user.id))
  );
}

/** The role may generate the quotation report (`permisos.generarReporteCotizaciones`). */
export function mayGenerateQuoteReport(role: Role): boolean {
  return role.permisos.generarReporteCotizaciones === true;
}

/**
 * The role's quotation report covers every adviser's quotations (alcanceLeads 'Todos');
 * otherwise it holds only the user's own (`idAsesor`).
 */
export function mayGenerateAllUsersReport(role: Role): boolean {
  return seesAllLeads(role);
}

// ---------------------------------------------------------------------------------------------
// Inventory

/** The role may change units' status and price and import inventory (`administrarInventario`). */
export function administersInventory(role: Role | null | undefined): boolean {
  return role?.permisos.administrarInventario === true;
}

/**
 * The member may hold ("apartar") a unit for a lead: any member who may see the lead (a
 * 'Propios' adviser only their own leads; the hold is theirs), except a host administrator.
 */
export function mayHoldUnit(
  m: MembershipRef,
  lead: { idCorporativo: string; idVendedor: string | null },
): boolean {
  return !isHostAdmin(m.role) && maySeeLead(m, lead);
}

/** A manager of holds: gives leads to advisers ({@link mayAssignLeads}) or administers the inventory. */
function managesHolds(role: Role): boolean {
  return mayAssignLeads(role) || administersInventory(role);
}

/** The member may release a unit's hold: its holder (`idVendedor`) or a manager. */
export function mayReleaseHold(
  m: Pick<MembershipRef, 'user' | 'role'>,
  hold: { idVendedor: string },
): boolean {
  return hold.idVendedor === m.user.id || managesHolds(m.role);
}

/** The role may extend a unit's hold: managers only (see {@link mayReleaseHold}). */
export function mayExtendHold(role: Role): boolean {
  return managesHolds(role);
}

// ---------------------------------------------------------------------------------------------
// Chat assistant

/**
 * The role configures the corporate's chat assistant (issue 18: the switch, the welcome message,
 * who answers): the corporate's administrator (`activarAdminUsuarios`).
 */
export function mayConfigureChat(role: Role | null | undefined): boolean {
  return role?.permisos.activarAdminUsuarios === true;
}

// ---------------------------------------------------------------------------------------------
// CRM

/**
 * The role configures the corporate's CRM (issue 17: type, OAuth client, URLs, lead map, export
 * URL) and sees its sync summary: the corporate's administrator (`activarAdminUsuarios`).
 */
export function mayConfigureCrm(role: Role | null | undefined): boolean {
  return role?.permisos.activarAdminUsuarios === true;
}

// ---------------------------------------------------------------------------------------------
// Showrooms and check-in

/**
 * The member checks in at showrooms (the developments list's banner): advisers, not host
 * administrators, who run the showrooms and see who is on duty instead.
 */
export function mayCheckIn(role: Role): boolean {
  return isAdviserRole(role);
}

/**
 * The role administers the corporate's showrooms (`adminHostes`): their settings, the QR
 * poster, the guest list, who is on duty and the check-in history.
 */
export function mayAdministerShowrooms(role: Role | null | undefined): boolean {
  return isHostAdmin(role);
}

/**
 * The member may read, and check out, the check-in of user `idUsuario`: their own, or anyone's
 * for a host administrator (the on-duty board).
 */
export function mayActOnCheckInOf(m: Pick<MembershipRef, 'user' | 'role'>, idUsuario: string) {
  return idUsuario === m.user.id || mayAdministerShowrooms(m.role);
}

// ---------------------------------------------------------------------------------------------
// Appointments

/**
 * The role sees and books every appointment of the corporate: managers (leads scope 'Todos')
 * and host administrators (`adminHostes`, whose demo role is Propios), who run the showrooms'
 * agendas. Others see and book only their own.
 */
export function seesAllAppointments(role: Role): boolean {
  return seesAllLeads(role) || isHostAdmin(role);
}

/**
 * The member may book an appointment with this lead: of their corporate and in their leads
 * scope, or any lead of the corporate for a host administrator.
 */
export function mayBookForLead(
  m: MembershipRef,
  lead: { idCorporativo: string; idVendedor: string | null },
): boolean {
  return lead.idCorporativo === m.corporate.id && (isHostAdmin(m.role) || maySeeLead(m, lead));
}

/** The member may make `idAsesor` an appointment's adviser: themselves, or anyone with {@link seesAllAppointments}. */
export function mayBookAppointmentFor(m: Pick<MembershipRef, 'user' | 'role'>, idAsesor: string) {
  return idAsesor === m.user.id || seesAllAppointments(m.role);
}

/** The member may see and change the appointment: their own, or any with {@link seesAllAppointments}. */
export function mayActOnAppointment(
  m: MembershipRef,
  cita: { idCorporativo: string; idAsesor: string },
): boolean {
  return (
    cita.idCorporativo === m.corporate.id &&
    (cita.idAsesor === m.user.id || seesAllAppointments(m.role))
  );
}

// ---------------------------------------------------------------------------------------------
// Users and roles

/** The role opens the Users menu and manages users (`crearUsuarios` or `editarUsuarios`). */
export function mayManageUsers(role: Role | null | undefined): boolean {
  return (
    role?.permisosUsuarios.crearUsuarios === true || role?.permisosUsuarios.editarUsuarios === true
  );
}

/**
 * `manager` may read `other`'s record: they share a corporate — approved for the manager,
 * approved or registered for the other — where the manager's role {@link mayManageUsers}.
 * `corporates` must hold those corporates with their role lists (missing ones count as no).
 */
export function mayManageUser(
  manager: Pick<User, 'id' | 'corporativos' | 'roles'>,
  other: Pick<User, 'corporativos' | 'corporativosRegistro'>,
  corporates: readonly Pick<Corporate, 'id' | 'roles'>[],
): boolean {
  return manager.corporativos.some((id) => {
    if (!other.corporativos.includes(id) && !other.corporativosRegistro.includes(id)) return false;
    const corporate = corporates.find((c) => c.id === id);
    return corporate !== undefined && mayManageUsers(roleInCorporate(manager, corporate));
  });
}

/** The role may create and invite users (`permisosUsuarios.crearUsuarios`). */
export function mayCreateUsers(role: Role | null | undefined): boolean {
  return role?.permisosUsuarios.crearUsuarios === true;
}

/** The role may edit, deactivate and reactivate users (`permisosUsuarios.editarUsuarios`). */
export function mayEditUsers(role: Role | null | undefined): boolean {
  return role?.permisosUsuarios.editarUsuarios === true;
}

/**
 * Every power a role grants, one name each: its `permisos` and `permisosUsuarios` flags that are
 * true, and `alcanceLeads:Todos` for the 'Todos' lead scope.
 */
export function rolePowers(role: Role): Set<string> {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(role.permisos)) if (v === true) out.add(`permisos.${k}`);
  for (const [k, v] of Object.entries(role.permisosUsuarios))
    if (v === true) out.add(`permisosUsuarios.${k}`);
  if (role.permisosLeads.alcanceLeads === 'Todos') out.add('alcanceLeads:Todos');
  return out;
}

/**
 * `candidate` is above `own` (spec §6: "never a role above one's own"): it grants a power
 * ({@link rolePowers}) that `own` does not. Roles have no rank of their own, so what a role may
 * do is what orders them: a manager (report, all leads, edit users) is not above an adviser, a
 * host administrator is above a manager (it administers showrooms), and a role is never above
 * itself.
 */
export function roleExceeds(candidate: Role, own: Role): boolean {
  const mine = rolePowers(own);
  for (const power of rolePowers(candidate)) if (!mine.has(power)) return true;
  return false;
}

/** What the role-assignment rule needs of the one who assigns. */
export interface Assigner {
  user: Pick<User, 'rolesAsignacion'>;
  corporate: Pick<Corporate, 'id' | 'roles'>;
  role: Role;
}

/**
 * The roles of the corporate the user may give to others (spec §6): all of them with
 * `permisos.activarAdminUsuarios`; otherwise only those in the user's `rolesAsignacion` for that
 * corporate that are not above the user's own role ({@link roleExceeds}).
 */
export function assignableRoles(m: Assigner): Role[] {
  if (m.role.permisos.activarAdminUsuarios === true) return [...m.corporate.roles];
  const allowed = m.user.rolesAsignacion?.[m.corporate.id] ?? [];
  return m.corporate.roles.filter((r) => allowed.includes(r.id) && !roleExceeds(r, m.role));
}

/** The user may give role `roleId` of the corporate to someone: see {@link assignableRoles}. */
export function mayAssignRole(m: Assigner, roleId: string): boolean {
  return assignableRoles(m).some((r) => r.id === roleId);
}

/**
 * The member may change another member's record in the corporate (edit, change the role,
 * deactivate, reactivate): their role edits users, and the other's current role there is one
 * they may assign (so nobody changes someone above them; a user with no role there, such as a
 * pending broker, is anyone's to edit). `targetRoleId`: the other's role id in the corporate.
 */
export function mayEditMember(m: Assigner, targetRoleId: string | undefined): boolean {
  if (!mayEditUsers(m.role)) return false;
  if (targetRoleId === undefined) return true;
  if (!m.corporate.roles.some((r) => r.id === targetRoleId))
    return m.role.permisos.activarAdminUsuarios === true;
  return mayAssignRole(m, targetRoleId);
}

/**
 * The member may create or invite a user with role `roleId`: their role creates users and may
 * assign that role.
 */
export function mayInviteWithRole(m: Assigner, roleId: string): boolean {
  return mayCreateUsers(m.role) && mayAssignRole(m, roleId);
}

/**
 * The member sets which roles others may assign (`rolesAsignacion`): only with
 * `activarAdminUsuarios`, since those lists are the assignment rule itself.
 */
export function maySetAssignableRoles(role: Role): boolean {
  return role.permisos.activarAdminUsuarios === true;
}

/**
 * The member approves brokers' registrations in the corporate (spec §1, §6): the user is an
 * approver (`aprobarRegistro`), active, and their role there manages users. The same people are
 * told of a new registration and are the only ones who may make someone else an approver.
 */
export function mayApproveRegistrations(m: {
  user: Pick<User, 'aprobarRegistro' | 'info'>;
  role: Role;
}): boolean {
  return (
    m.user.aprobarRegistro === true && m.user.info?.estatus !== 'inactivo' && mayManageUsers(m.role)
  );
}

/**
 * Fields of a user record that nobody changes through `PUT /users/:id`: the platform flag, the
 * memberships (they change by invitation, approval and deactivation) and `roles2`. A body that
 * sends one with a value other than the stored one is refused (403).
 */
export const PRIVILEGED_USER_FIELDS = [
  'esAdmin',
  'corporativos',
  'corporativosRegistro',
  'roles2',
] as const;

/**
 * Fields of a user record that only an administrator changes, never the user on their own
 * record (`PUT /users/:id` refuses a differing value with 403 `own_roles`).
 */
export const SELF_PROTECTED_USER_FIELDS = [
  'roles',
  'roles2',
  'corporativos',
  'corporativosRegistro',
  'esAdmin',
  'aprobarRegistro',
] as const;

/** The user may change the user record `targetId`: only their own (`PUT /users/:id`). */
export function mayEditUserRecord(user: Pick<User, 'id'>, targetId: string): boolean {
  return user.id === targetId;
}

// ---------------------------------------------------------------------------------------------
// Operations

/**
 * The user may open the operations page and retry failed background work: a platform
 * administrator (`esAdmin`) whose account is not inactive. The page shows the work of every
 * corporate (consumers, timers, outbound messages and their errors), so no corporate role
 * grants it: not a corporate's Administrador, not a host administrator (`adminHostes`), whose
 * realm is one corporate's events. `esAdmin` is one of {@link SELF_PROTECTED_USER_FIELDS}: nobody
 * grants it to themselves.
 */
export function mayOperate(user: Pick<User, 'esAdmin' | 'info'> | null | undefined): boolean {
  return user?.esAdmin === true && user.info?.estatus !== 'inactivo';
}

// ---------------------------------------------------------------------------------------------
// Notifications

/**
 * The role may send a message to the corporate's members (issue 15: managers and administrators):
 * it sees every lead or activates users ({@link mayAssignLeads}).
 */
export function maySendNotifications(role: Role): boolean {
  return mayAssignLeads(role);
}

/** A user reads and marks only their own notifications, whatever their role. */
export function mayReadNotificationsOf(user: Pick<User, 'id'>, idUsuario: string): boolean {
  return user.id === idUsuario;
}
