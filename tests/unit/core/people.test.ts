/**
 * Issue 16 in the core: the role-assignment rule of spec §6 over the demo tenant's own roles
 * (every demo role assigning every role), the password helper of §5, and the user decider's
 * invitation, registration, approval, password and deactivation commands (given / when / then).
 */
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/core/decider';
import {
  assignableRoles,
  mayApproveRegistrations,
  mayAssignRole,
  mayEditMember,
  mayInviteWithRole,
  maySetAssignableRoles,
  roleExceeds,
} from '../../../src/core/permissions';
import type { Corporate, Role, User } from '../../../src/core/types';
import {
  decideUser,
  isStrongPassword,
  maySignIn,
  passwordChecks,
  userDecider,
  userStatus,
  type UserCommand,
  type UserEvent,
} from '../../../src/core/user';
import { DEMO_MANAGER_ASSIGNS, demoRoles } from '../../../src/server/seed/demo';

const CORP = 'corp-h';
const roles = demoRoles('h');
const byName = (suffix: string): Role => roles.find((r) => r.id === `h-${suffix}`)!;
const corporate: Pick<Corporate, 'id' | 'roles'> = { id: CORP, roles };

/** The demo accounts' rolesAsignacion, as the seed gives them. */
const rolesAsignacion: Record<string, string[] | undefined> = {
  admin: undefined,
  gerente: DEMO_MANAGER_ASSIGNS.map((r) => `h-${r}`),
  asesor: undefined,
  hostes: undefined,
  broker: undefined,
};
const assigner = (suffix: string) => ({
  user: { rolesAsignacion: { [CORP]: rolesAsignacion[suffix] ?? [] } },
  corporate,
  role: byName(suffix),
});

const ROLES = ['admin', 'gerente', 'asesor', 'hostes', 'broker'] as const;

describe('role assignment (spec §6) over the demo roles', () => {
  // Rows: the assigner's role; columns: the role given. The administrator has
  // activarAdminUsuarios (any role of the corporate); the manager only their rolesAsignacion
  // (asesor, broker, hostes) that are not above their own role (hostes is: adminHostes);
  // nobody else has a list.
  const expected: Record<(typeof ROLES)[number], (typeof ROLES)[number][]> = {
    admin: ['admin', 'gerente', 'asesor', 'hostes', 'broker'],
    gerente: ['asesor', 'broker'],
    asesor: [],
    hostes: [],
    broker: [],
  };
  for (const from of ROLES)
    for (const to of ROLES) {
      const yes = expected[from].includes(to);
      it(`${from} ${yes ? 'may' : 'may not'} assign ${to}`, () => {
        expect(mayAssignRole(assigner(from), `h-${to}`)).toBe(yes);
      });
    }

  it('assignableRoles lists the same roles, in the corporate’s order', () => {
    for (const from of ROLES)
      expect(assignableRoles(assigner(from)).map((r) => r.id)).toEqual(
        ROLES.filter((r) => expected[from].includes(r)).map((r) => `h-${r}`),
      );
  });

  it('a role of another corporate is nobody’s to assign, not even with activarAdminUsuarios', () => {
    for (const from of ROLES) expect(mayAssignRole(assigner(from), 'p-asesor')).toBe(false);
  });

  it('rolesAsignacion never lifts anyone above their own role', () => {
    const everything = ROLES.map((r) => `h-${r}`);
    const wide = (suffix: string) => ({
      user: { rolesAsignacion: { [CORP]: everything } },
      corporate,
      role: byName(suffix),
    });
    expect(assignableRoles(wide('gerente')).map((r) => r.id)).toEqual([
      'h-gerente',
      'h-asesor',
      'h-broker',
    ]);
    expect(assignableRoles(wide('asesor')).map((r) => r.id)).toEqual(['h-asesor', 'h-broker']);
    expect(assignableRoles(wide('hostes')).map((r) => r.id)).toEqual([
      'h-asesor',
      'h-hostes',
      'h-broker',
    ]);
    // The list of another corporate does not count here.
    expect(
      assignableRoles({
        user: { rolesAsignacion: { other: everything } },
        corporate,
        role: byName('gerente'),
      }),
    ).toEqual([]);
  });

  it('roleExceeds: a role with a power the other lacks is above it; never above itself', () => {
    for (const r of roles) expect(roleExceeds(r, r)).toBe(false);
    expect(roleExceeds(byName('admin'), byName('gerente'))).toBe(true);
    expect(roleExceeds(byName('gerente'), byName('asesor'))).toBe(true);
    expect(roleExceeds(byName('asesor'), byName('gerente'))).toBe(false);
    expect(roleExceeds(byName('hostes'), byName('gerente'))).toBe(true);
    expect(roleExceeds(byName('broker'), byName('asesor'))).toBe(false);
  });

  // Inviting needs crearUsuarios (only the administrator's role has it) and the role rule.
  for (const from of ROLES)
    it(`${from} ${from === 'admin' ? 'invites with every role' : 'invites nobody'}`, () => {
      for (const to of ROLES)
        expect(mayInviteWithRole(assigner(from), `h-${to}`)).toBe(from === 'admin');
    });

  it('editing a member needs editarUsuarios and a current role one may assign', () => {
    // The manager edits advisers and brokers, not a host administrator, a manager or an admin.
    for (const to of ROLES)
      expect(mayEditMember(assigner('gerente'), `h-${to}`)).toBe(
        to === 'asesor' || to === 'broker',
      );
    for (const to of ROLES) expect(mayEditMember(assigner('admin'), `h-${to}`)).toBe(true);
    for (const from of ['asesor', 'hostes', 'broker'])
      expect(mayEditMember(assigner(from), 'h-asesor')).toBe(false);
    // A pending broker has no role in the corporate yet: anyone who edits users may act on them.
    expect(mayEditMember(assigner('gerente'), undefined)).toBe(true);
    expect(mayEditMember(assigner('asesor'), undefined)).toBe(false);
  });

  it('only activarAdminUsuarios sets rolesAsignacion', () => {
    expect(ROLES.filter((r) => maySetAssignableRoles(byName(r)))).toEqual(['admin']);
  });

  it('approvers: aprobarRegistro, active, and a role that manages users', () => {
    const u = (aprobarRegistro: boolean, estatus = 'activo') => ({
      aprobarRegistro,
      info: { estatus },
    });
    expect(
      ROLES.filter((r) => mayApproveRegistrations({ user: u(true), role: byName(r) })),
    ).toEqual(['admin', 'gerente']);
    expect(mayApproveRegistrations({ user: u(false), role: byName('admin') })).toBe(false);
    expect(mayApproveRegistrations({ user: u(true, 'inactivo'), role: byName('admin') })).toBe(
      false,
    );
  });
});

describe('password helper (spec §5)', () => {
  it('an uppercase letter, a digit and more than 8 characters', () => {
    expect(passwordChecks('')).toEqual({ mayuscula: false, digito: false, longitud: false });
    expect(passwordChecks('abcdefgh1')).toEqual({ mayuscula: false, digito: true, longitud: true });
    expect(passwordChecks('Abcdefgh')).toEqual({ mayuscula: true, digito: false, longitud: false });
    expect(isStrongPassword('Abcdefg1')).toBe(false); // 8 characters: not more than 8
    expect(isStrongPassword('Abcdefgh1')).toBe(true);
    expect(isStrongPassword('Vitrina2026!')).toBe(true);
    expect(isStrongPassword('ÁRBOL12345')).toBe(true);
    expect(isStrongPassword('abcdefgh12')).toBe(false);
    expect(isStrongPassword('ABCDEFGHI')).toBe(false);
  });

  it('counts characters, not UTF-16 units, and bounds the length', () => {
    expect(passwordChecks('A1😀😀😀😀😀😀').longitud).toBe(false); // 8 characters
    expect(passwordChecks('A1😀😀😀😀😀😀😀').longitud).toBe(true);
    expect(isStrongPassword(`A1${'x'.repeat(126)}`)).toBe(true);
    expect(isStrongPassword(`A1${'x'.repeat(127)}`)).toBe(false);
  });
});

const person: User = {
  id: 'usr-9',
  email: 'nuevo@example.com',
  nombre: 'Nora',
  apellidos: 'Vega',
  corporativos: [],
  corporativosRegistro: [],
  corporativoFavorito: null,
  desarrollosFavoritos: {},
  roles: {},
  fechaAlta: 1_767_571_200,
  sesionUltima: null,
  esAdmin: false,
  info: { estatus: 'invitado' },
};
const invited: UserEvent[] = [
  { type: 'UserRegistered', data: { user: person, passwordHash: null } },
  {
    type: 'MembershipGranted',
    data: { idUsuario: 'usr-9', idCorporativo: CORP, idRol: 'h-asesor', aprobado: true },
  },
];
const given = (events: UserEvent[]) => ({
  when: (command: UserCommand) => decideUser(command, fold(userDecider, events)),
});
const after = (events: UserEvent[]) => fold(userDecider, events).user!;

describe('user decider: invitations, passwords and deactivation', () => {
  it('given an invited user, they may not sign in; when a password is set, then PasswordSet and active', () => {
    expect(maySignIn(after(invited))).toBe(false);
    const d = given(invited).when({ type: 'SetPassword', passwordHash: 'h', motivo: 'invitacion' });
    expect(d).toEqual({
      ok: true,
      events: [{ type: 'PasswordSet', data: { passwordHash: 'h', motivo: 'invitacion' } }],
    });
    const u = after([...invited, ...(d.ok ? d.events : [])]);
    expect(userStatus(u)).toBe('activo');
    expect(maySignIn(u)).toBe(true);
    expect(JSON.stringify(u)).not.toContain('"h"');
  });

  it('given a revoked invitation, the corporate and its role are gone', () => {
    const d = given(invited).when({ type: 'RevokeMembership', idCorporativo: CORP });
    expect(d.ok && d.events.map((e) => e.type)).toEqual(['MembershipRevoked']);
    const u = after([...invited, ...(d.ok ? d.events : [])]);
    expect(u.corporativos).toEqual([]);
    expect(u.roles).toEqual({});
    expect(
      given([...invited, ...(d.ok ? d.events : [])]).when({
        type: 'RevokeMembership',
        idCorporativo: CORP,
      }),
    ).toEqual({ ok: true, events: [] });
  });

  it('given an active user, when deactivated, then inactive, no sign-in, no new password; reactivated, active again', () => {
    const active: UserEvent[] = [
      ...invited,
      { type: 'PasswordSet', data: { passwordHash: 'h', motivo: 'invitacion' } },
    ];
    const d = given(active).when({ type: 'Deactivate', idCorporativo: CORP, reasignadoA: 'usr-1' });
    expect(d).toEqual({
      ok: true,
      events: [
        {
          type: 'UserDeactivated',
          data: { idUsuario: 'usr-9', idCorporativo: CORP, reasignadoA: 'usr-1' },
        },
      ],
    });
    const off = [...active, ...(d.ok ? d.events : [])];
    expect(maySignIn(after(off))).toBe(false);
    expect(given(off).when({ type: 'Deactivate', idCorporativo: CORP, reasignadoA: null })).toEqual(
      {
        ok: true,
        events: [],
      },
    );
    expect(
      given(off).when({ type: 'SetPassword', passwordHash: 'x', motivo: 'recuperacion' }),
    ).toEqual({ ok: false, error: { code: 'USER_INACTIVE' } });
    const r = given(off).when({ type: 'Reactivate', idCorporativo: CORP });
    expect(maySignIn(after([...off, ...(r.ok ? r.events : [])]))).toBe(true);
  });

  it('rolesAsignacion and aprobarRegistro are set by events, and unchanged values write nothing', () => {
    const d = given(invited).when({
      type: 'SetAssignableRoles',
      idCorporativo: CORP,
      roles: ['h-asesor', 'h-asesor'],
    });
    const u = after([...invited, ...(d.ok ? d.events : [])]);
    expect(u.rolesAsignacion).toEqual({ [CORP]: ['h-asesor'] });
    expect(
      given([...invited, ...(d.ok ? d.events : [])]).when({
        type: 'SetAssignableRoles',
        idCorporativo: CORP,
        roles: ['h-asesor'],
      }),
    ).toEqual({ ok: true, events: [] });
    const a = given(invited).when({ type: 'SetRegistrationApprover', aprobarRegistro: true });
    expect(after([...invited, ...(a.ok ? a.events : [])]).aprobarRegistro).toBe(true);
  });
});

describe('user decider: broker registration and approval', () => {
  const broker: User = {
    ...person,
    id: 'usr-b',
    tipo: 'Broker',
    perfil: 1,
    info: { estatus: 'activo' },
  };
  const registered: UserEvent[] = [
    { type: 'UserRegistered', data: { user: broker, passwordHash: 'h' } },
    { type: 'RegistrationRequested', data: { idUsuario: 'usr-b', idCorporativo: CORP } },
  ];

  it('given a registration, the corporate is pending (corporativosRegistro only)', () => {
    const u = after(registered);
    expect(u.corporativosRegistro).toEqual([CORP]);
    expect(u.corporativos).toEqual([]);
    expect(given(registered).when({ type: 'RequestRegistration', idCorporativo: CORP })).toEqual({
      ok: false,
      error: { code: 'REGISTRATION_EXISTS', idCorporativo: CORP },
    });
  });

  it('when approved with a role, the corporate moves to corporativos; approving again is refused', () => {
    const d = given(registered).when({
      type: 'ApproveRegistration',
      idCorporativo: CORP,
      idRol: 'h-broker',
    });
    const events = [...registered, ...(d.ok ? d.events : [])];
    expect(after(events)).toMatchObject({ corporativos: [CORP], roles: { [CORP]: 'h-broker' } });
    expect(
      given(events).when({ type: 'ApproveRegistration', idCorporativo: CORP, idRol: 'h-broker' }),
    ).toEqual({ ok: false, error: { code: 'REGISTRATION_NOT_PENDING', idCorporativo: CORP } });
  });

  it('when rejected, the corporate leaves corporativosRegistro with the reason', () => {
    const d = given(registered).when({
      type: 'RejectRegistration',
      idCorporativo: CORP,
      motivo: '  Sin contrato  ',
    });
    expect(d).toEqual({
      ok: true,
      events: [
        {
          type: 'RegistrationRejected',
          data: { idUsuario: 'usr-b', idCorporativo: CORP, motivo: 'Sin contrato' },
        },
      ],
    });
    expect(after([...registered, ...(d.ok ? d.events : [])]).corporativosRegistro).toEqual([]);
    expect(
      given([]).when({ type: 'RejectRegistration', idCorporativo: CORP, motivo: 'x' }),
    ).toEqual({ ok: false, error: { code: 'USER_NOT_FOUND' } });
  });
});
