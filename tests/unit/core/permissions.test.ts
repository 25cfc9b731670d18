import { describe, expect, it } from 'vitest';
import {
  administersInventory,
  assignableRoles,
  isAdviserRole,
  isApprovedMember,
  isHostAdmin,
  mayActOnAppointment,
  mayActOnCheckInOf,
  mayAdministerShowrooms,
  mayAssignLeads,
  mayAssignLeadTo,
  mayAssignRole,
  mayBookAppointmentFor,
  mayBookForLead,
  mayCheckIn,
  mayEditUserRecord,
  mayExtendHold,
  mayGenerateAllUsersReport,
  mayGenerateQuoteReport,
  mayHoldUnit,
  mayListAdvisers,
  mayManageUser,
  mayManageUsers,
  mayMergeLeads,
  mayOperate,
  mayReleaseHold,
  maySeeLead,
  maySeeQuotation,
  membershipOf,
  membershipStatus,
  receivesPublicCaptures,
  roleInCorporate,
  scopeCovers,
  seesAllAppointments,
  seesAllLeads,
  SELF_PROTECTED_USER_FIELDS,
} from '../../../src/core/permissions';
import type { Corporate, Role, User } from '../../../src/core/types';

const role = (over: Partial<Role> = {}): Role => ({
  id: 'asesor',
  nombre: 'Asesor',
  permisos: {},
  permisosLeads: { alcanceLeads: 'Propios' },
  permisosUsuarios: {},
  ...over,
});

const adviser = role();
const manager = role({
  id: 'gerente',
  nombre: 'Gerente',
  permisosLeads: { alcanceLeads: 'Todos' },
});
const userAdmin = role({ id: 'admin', nombre: 'Admin', permisos: { activarAdminUsuarios: true } });
const host = role({ id: 'hostes', nombre: 'Hostes', permisos: { adminHostes: true } });

const corporate = (over: Partial<Corporate> = {}): Corporate => ({
  id: 'corp-1',
  slug: 'horizonte',
  nombre: 'Grupo Horizonte',
  multiIdioma: false,
  coloresStatus: {},
  colores: {},
  mediosContacto: [],
  roles: [adviser, manager, userAdmin, host],
  imagen: {},
  divisa: [],
  zonaHoraria: 'America/Mexico_City',
  configFiltros: {},
  configCotizacion: { exportadorCotizaciones: {} },
  ...over,
});

const user = (over: Partial<User> = {}): User => ({
  id: 'u-1',
  email: 'ana@example.com',
  nombre: 'Ana',
  apellidos: 'Ruiz',
  corporativos: ['corp-1'],
  corporativosRegistro: ['corp-1'],
  desarrollosFavoritos: {},
  roles: { 'corp-1': 'asesor' },
  fechaAlta: 1_700_000_000,
  esAdmin: false,
  ...over,
});

const corp = corporate();
const ana = user();
const as = (r: Role) => ({ user: ana, corporate: corp, role: r });

describe('membership', () => {
  it('isApprovedMember: only corporates in corporativos', () => {
    expect(isApprovedMember(ana, 'corp-1')).toBe(true);
    expect(isApprovedMember(ana, 'corp-2')).toBe(false);
  });

  it('membershipStatus: approved, pending (Falta aprobación) or none', () => {
    const broker = user({ corporativos: ['corp-1'], corporativosRegistro: ['corp-1', 'corp-2'] });
    expect(membershipStatus(broker, 'corp-1')).toBe('approved');
    expect(membershipStatus(broker, 'corp-2')).toBe('pending');
    expect(membershipStatus(broker, 'corp-3')).toBe('none');
  });

  it('roleInCorporate resolves the role id against the corporate role list', () => {
    expect(roleInCorporate(ana, corp)).toBe(adviser);
    expect(roleInCorporate(user({ roles: { 'corp-1': 'gone' } }), corp)).toBeUndefined();
    expect(roleInCorporate(user({ roles: {} }), corp)).toBeUndefined();
  });

  it('membershipOf needs approval and a resolvable role', () => {
    expect(membershipOf(ana, corp)).toEqual({ user: ana, corporate: corp, role: adviser });
    expect(membershipOf(user({ corporativos: [] }), corp)).toBeNull();
    expect(membershipOf(user({ roles: { 'corp-1': 'gone' } }), corp)).toBeNull();
  });
});

describe('leads', () => {
  const own = { idCorporativo: 'corp-1', idVendedor: 'u-1' };
  const colleagues = { idCorporativo: 'corp-1', idVendedor: 'u-2' };

  it('seesAllLeads: alcanceLeads Todos', () => {
    expect(seesAllLeads(manager)).toBe(true);
    expect(seesAllLeads(adviser)).toBe(false);
  });

  it('scopeCovers: Propios only the own records, Todos everyone (unowned included)', () => {
    expect(scopeCovers(as(adviser), 'u-1')).toBe(true);
    expect(scopeCovers(as(adviser), 'u-2')).toBe(false);
    expect(scopeCovers(as(adviser), null)).toBe(false);
    expect(scopeCovers(as(manager), null)).toBe(true);
  });

  it('maySeeLead: same corporate and (Todos or own lead)', () => {
    expect(maySeeLead(as(adviser), own)).toBe(true);
    expect(maySeeLead(as(adviser), colleagues)).toBe(false);
    expect(maySeeLead(as(manager), colleagues)).toBe(true);
    expect(maySeeLead(as(manager), { ...own, idCorporativo: 'corp-2' })).toBe(false);
  });

  it('mayAssignLeads (and merge, adviser list): Todos or activarAdminUsuarios', () => {
    expect(mayAssignLeads(manager)).toBe(true);
    expect(mayAssignLeads(userAdmin)).toBe(true);
    expect(mayAssignLeads(adviser)).toBe(false);
    expect(mayMergeLeads(userAdmin)).toBe(true);
    expect(mayMergeLeads(adviser)).toBe(false);
    expect(mayListAdvisers(manager)).toBe(true);
    expect(mayListAdvisers(adviser)).toBe(false);
  });

  it('mayAssignLeadTo: oneself always, others only for those who may assign', () => {
    expect(mayAssignLeadTo(as(adviser), 'u-1')).toBe(true);
    expect(mayAssignLeadTo(as(adviser), 'u-2')).toBe(false);
    expect(mayAssignLeadTo(as(manager), 'u-2')).toBe(true);
  });

  it('isHostAdmin: adminHostes; isAdviserRole: anyone else', () => {
    expect(isHostAdmin(host)).toBe(true);
    expect(isHostAdmin(adviser)).toBe(false);
    expect(isHostAdmin(undefined)).toBe(false);
    expect(isAdviserRole(adviser)).toBe(true);
    expect(isAdviserRole(host)).toBe(false);
  });

  it('receivesPublicCaptures: active Propios advisers who are not hosts nor brokers, not invited ones', () => {
    expect(receivesPublicCaptures(ana, adviser)).toBe(true);
    expect(receivesPublicCaptures(ana, manager)).toBe(false);
    expect(receivesPublicCaptures(ana, host)).toBe(false);
    expect(receivesPublicCaptures(user({ tipo: 'Broker' }), adviser)).toBe(false);
    expect(receivesPublicCaptures(user({ info: { estatus: 'inactivo' } }), adviser)).toBe(false);
    // Invited and not yet signed up: cannot sign in to see the client (an outside probe's find).
    expect(receivesPublicCaptures(user({ info: { estatus: 'invitado' } }), adviser)).toBe(false);
    expect(receivesPublicCaptures(user({ info: { estatus: 'activo' } }), adviser)).toBe(true);
  });
});

describe('quotations', () => {
  const colleagues = { idCorporativo: 'corp-1', idAsesor: 'u-2' };

  it('maySeeQuotation: Todos, its adviser, or the owner of its lead', () => {
    expect(maySeeQuotation(as(adviser), { ...colleagues, idAsesor: 'u-1' })).toBe(true);
    expect(maySeeQuotation(as(adviser), colleagues)).toBe(false);
    expect(maySeeQuotation(as(adviser), colleagues, 'u-1')).toBe(true);
    expect(maySeeQuotation(as(manager), colleagues)).toBe(true);
    expect(maySeeQuotation(as(manager), { ...colleagues, idCorporativo: 'corp-2' })).toBe(false);
  });

  it('mayGenerateQuoteReport: permisos.generarReporteCotizaciones', () => {
    expect(mayGenerateQuoteReport(role({ permisos: { generarReporteCotizaciones: true } }))).toBe(
      true,
    );
    expect(mayGenerateQuoteReport(manager)).toBe(false);
  });

  it('mayGenerateAllUsersReport: alcanceLeads Todos', () => {
    expect(mayGenerateAllUsersReport(manager)).toBe(true);
    expect(mayGenerateAllUsersReport(userAdmin)).toBe(false);
  });
});

describe('inventory', () => {
  it('administersInventory: permisos.administrarInventario', () => {
    expect(administersInventory(role({ permisos: { administrarInventario: true } }))).toBe(true);
    expect(administersInventory(manager)).toBe(false);
    expect(administersInventory(null)).toBe(false);
  });

  const inventoryAdmin = role({ id: 'inv', permisos: { administrarInventario: true } });

  it('mayHoldUnit: a member who may see the lead (Propios: only their own), not a host admin', () => {
    const own = { idCorporativo: 'corp-1', idVendedor: 'u-1' };
    const others = { idCorporativo: 'corp-1', idVendedor: 'u-2' };
    expect(mayHoldUnit(as(adviser), own)).toBe(true);
    expect(mayHoldUnit(as(adviser), others)).toBe(false);
    expect(mayHoldUnit(as(manager), others)).toBe(true);
    expect(mayHoldUnit(as(manager), { ...others, idCorporativo: 'corp-2' })).toBe(false);
    expect(mayHoldUnit(as(host), own)).toBe(false);
  });

  it('mayReleaseHold: the holder, or a manager (assigns leads or administers inventory)', () => {
    expect(mayReleaseHold(as(adviser), { idVendedor: 'u-1' })).toBe(true);
    expect(mayReleaseHold(as(adviser), { idVendedor: 'u-2' })).toBe(false);
    expect(mayReleaseHold(as(manager), { idVendedor: 'u-2' })).toBe(true);
    expect(mayReleaseHold(as(userAdmin), { idVendedor: 'u-2' })).toBe(true);
    expect(mayReleaseHold(as(inventoryAdmin), { idVendedor: 'u-2' })).toBe(true);
  });

  it('mayExtendHold: managers only', () => {
    expect(mayExtendHold(adviser)).toBe(false);
    expect(mayExtendHold(manager)).toBe(true);
    expect(mayExtendHold(userAdmin)).toBe(true);
    expect(mayExtendHold(inventoryAdmin)).toBe(true);
  });
});

describe('users and roles', () => {
  const creator = role({ id: 'rrhh', permisosUsuarios: { crearUsuarios: true } });
  const editor = role({ id: 'editor', permisosUsuarios: { editarUsuarios: true } });

  it('mayManageUsers: crearUsuarios or editarUsuarios', () => {
    expect(mayManageUsers(creator)).toBe(true);
    expect(mayManageUsers(editor)).toBe(true);
    expect(mayManageUsers(manager)).toBe(false);
    expect(mayManageUsers(undefined)).toBe(false);
  });

  it('mayManageUser: a shared corporate where the manager manages users', () => {
    const withEditor = corporate({ roles: [adviser, editor] });
    const boss = user({ id: 'u-9', roles: { 'corp-1': 'editor' } });
    const pending = user({ id: 'u-2', corporativos: [], corporativosRegistro: ['corp-1'] });
    expect(mayManageUser(boss, pending, [withEditor])).toBe(true);
    expect(
      mayManageUser(boss, user({ corporativos: ['corp-2'], corporativosRegistro: [] }), [
        withEditor,
      ]),
    ).toBe(false);
    expect(mayManageUser(ana, pending, [withEditor])).toBe(false);
    expect(mayManageUser(boss, pending, [])).toBe(false);
  });

  it('mayAssignRole: activarAdminUsuarios any role of the corporate', () => {
    expect(mayAssignRole(as(userAdmin), 'hostes')).toBe(true);
    expect(mayAssignRole(as(userAdmin), 'other-corporate-role')).toBe(false);
    expect(assignableRoles(as(userAdmin))).toEqual(corp.roles);
  });

  it('mayAssignRole: otherwise only the rolesAsignacion for that corporate', () => {
    const lead = user({ rolesAsignacion: { 'corp-1': ['asesor'], 'corp-2': ['gerente'] } });
    const m = { user: lead, corporate: corp, role: manager };
    expect(mayAssignRole(m, 'asesor')).toBe(true);
    expect(mayAssignRole(m, 'gerente')).toBe(false);
    expect(mayAssignRole(as(manager), 'asesor')).toBe(false);
    expect(assignableRoles(m)).toEqual([adviser]);
  });

  it('mayEditUserRecord: only one’s own record', () => {
    expect(mayEditUserRecord(ana, 'u-1')).toBe(true);
    expect(mayEditUserRecord(ana, 'u-2')).toBe(false);
  });

  it('SELF_PROTECTED_USER_FIELDS name the roles, corporates and admin flags', () => {
    expect(SELF_PROTECTED_USER_FIELDS).toEqual([
      'roles',
      'roles2',
      'corporativos',
      'corporativosRegistro',
      'esAdmin',
      'aprobarRegistro',
    ]);
  });
});

describe('operations', () => {
  it('mayOperate: a platform administrator (esAdmin) whose account is active', () => {
    expect(mayOperate(user({ esAdmin: true }))).toBe(true);
    expect(mayOperate(user({ esAdmin: true, info: { estatus: 'activo' } }))).toBe(true);
    expect(mayOperate(user({ esAdmin: true, info: { estatus: 'inactivo' } }))).toBe(false);
  });

  it('mayOperate: no corporate role grants it, not even a corporate or host administrator', () => {
    // The role is not an argument: whatever the user holds in a corporate, esAdmin decides.
    const corporateAdmin = user({ roles: { 'corp-1': 'admin' } });
    const hostAdmin = user({ roles: { 'corp-1': 'hostes' } });
    expect(mayOperate(corporateAdmin)).toBe(false);
    expect(mayOperate(hostAdmin)).toBe(false);
    expect(mayOperate(ana)).toBe(false);
    expect(mayOperate(null)).toBe(false);
    expect(mayOperate(undefined)).toBe(false);
  });
});

describe('showrooms and check-in', () => {
  it('mayCheckIn: advisers of any scope check in; a host administrator does not', () => {
    expect(mayCheckIn(adviser)).toBe(true);
    expect(mayCheckIn(manager)).toBe(true);
    expect(mayCheckIn(host)).toBe(false);
  });

  it('mayAdministerShowrooms: adminHostes only (not a user administrator, not a manager)', () => {
    expect(mayAdministerShowrooms(host)).toBe(true);
    expect(mayAdministerShowrooms(userAdmin)).toBe(false);
    expect(mayAdministerShowrooms(manager)).toBe(false);
    expect(mayAdministerShowrooms(null)).toBe(false);
  });

  it("mayActOnCheckInOf: one's own check-in; anyone's for a host administrator", () => {
    expect(mayActOnCheckInOf(as(adviser), 'u-1')).toBe(true);
    expect(mayActOnCheckInOf(as(adviser), 'u-2')).toBe(false);
    expect(mayActOnCheckInOf(as(manager), 'u-2')).toBe(false);
    expect(mayActOnCheckInOf(as(host), 'u-2')).toBe(true);
  });
});

describe('appointments', () => {
  const lead = (idVendedor: string | null, idCorporativo = 'corp-1') => ({
    idCorporativo,
    idVendedor,
  });

  it('seesAllAppointments: managers and host administrators; not an adviser with Propios', () => {
    expect(seesAllAppointments(manager)).toBe(true);
    expect(seesAllAppointments(host)).toBe(true);
    expect(seesAllAppointments(adviser)).toBe(false);
    expect(seesAllAppointments(userAdmin)).toBe(false);
  });

  it("mayBookForLead: an adviser their own leads; a host administrator (Propios) anyone's; never another corporate's", () => {
    expect(mayBookForLead(as(adviser), lead('u-1'))).toBe(true);
    expect(mayBookForLead(as(adviser), lead('u-2'))).toBe(false);
    expect(mayBookForLead(as(adviser), lead(null))).toBe(false);
    expect(mayBookForLead(as(manager), lead('u-2'))).toBe(true);
    expect(mayBookForLead(as(host), lead('u-2'))).toBe(true);
    expect(mayBookForLead(as(host), lead(null))).toBe(true);
    expect(mayBookForLead(as(host), lead('u-2', 'corp-2'))).toBe(false);
    expect(mayBookForLead(as(manager), lead('u-1', 'corp-2'))).toBe(false);
  });

  it('mayBookAppointmentFor: oneself; any adviser for managers and host administrators', () => {
    expect(mayBookAppointmentFor(as(adviser), 'u-1')).toBe(true);
    expect(mayBookAppointmentFor(as(adviser), 'u-2')).toBe(false);
    expect(mayBookAppointmentFor(as(host), 'u-2')).toBe(true);
    expect(mayBookAppointmentFor(as(manager), 'u-2')).toBe(true);
  });

  it("mayActOnAppointment: one's own; anyone's in the corporate for managers and host administrators", () => {
    const cita = (idAsesor: string, idCorporativo = 'corp-1') => ({ idAsesor, idCorporativo });
    expect(mayActOnAppointment(as(adviser), cita('u-1'))).toBe(true);
    expect(mayActOnAppointment(as(adviser), cita('u-2'))).toBe(false);
    expect(mayActOnAppointment(as(host), cita('u-2'))).toBe(true);
    expect(mayActOnAppointment(as(manager), cita('u-2'))).toBe(true);
    expect(mayActOnAppointment(as(host), cita('u-2', 'corp-2'))).toBe(false);
  });
});
