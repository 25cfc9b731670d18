/**
 * The user aggregate (spec §3 User, §4 favourite development toggle, §6 memberships): a pure
 * decider over one user's stream (`user:<id>`). It folds the user document as the read model
 * does and decides profile changes, the favourite corporate and developments, the last session
 * and memberships. What needs other records stays with the caller: e-mail uniqueness across
 * users, whether a development or a role exists, who may grant a role (`./permissions`).
 *
 * The events' `data` are the wire format of the user streams (projections and seeded logs read
 * them).
 */

import { accept, reject, type Decider, type Decision } from './decider';
import { isValidEmail } from './lead';
import type { BrowserName } from './misc';
import type { User, UserStatus } from './types';

/** The profile fields a user changes on their own record (a manager too, on a member's). */
export type UserProfileChanges = Partial<
  Pick<User, 'nombre' | 'apellidos' | 'email' | 'perfil' | 'telefono' | 'idioma'>
>;

/** Why a password was set: the invitation accepted, a recovery, a change by its owner. */
/** How a user stands in one corporate, as the users page shows and filters it (in that order). */
export type MemberStatus = 'activo' | 'inactivo' | 'invitado' | 'pendiente';
export const MEMBER_STATUSES: readonly MemberStatus[] = [
  'activo',
  'invitado',
  'pendiente',
  'inactivo',
];

export type PasswordReason = 'invitacion' | 'recuperacion' | 'cambio';

/**
 * The spec's password helper (§5): an uppercase letter, a digit, and more than 8 characters.
 * Each check by name, so a form shows them live as the person types.
 */
export interface PasswordChecks {
  mayuscula: boolean;
  digito: boolean;
  longitud: boolean;
}

/** The longest password accepted (argon2 hashes any length; this bounds the work). */
export const PASSWORD_MAX_LENGTH = 128;

/** Which of the spec's password checks `password` passes (§5 password helper). */
export function passwordChecks(password: string): PasswordChecks {
  return {
    mayuscula: /\p{Lu}/u.test(password),
    digito: /\p{Nd}/u.test(password),
    longitud: [...password].length > 8,
  };
}

/** The password passes every check of {@link passwordChecks} and is at most {@link PASSWORD_MAX_LENGTH} long. */
export function isStrongPassword(password: string): boolean {
  const c = passwordChecks(password);
  return c.mayuscula && c.digito && c.longitud && password.length <= PASSWORD_MAX_LENGTH;
}

/** The user's `info.estatus` (active when absent). */
export function userStatus(user: Pick<User, 'info'>): UserStatus {
  const s = user.info?.estatus;
  return s === 'inactivo' || s === 'invitado' ? s : 'activo';
}

/** The user may sign in: active (not invited without a password yet, not deactivated). */
export function maySignIn(user: Pick<User, 'info'>): boolean {
  return userStatus(user) === 'activo';
}

export type UserEvent =
  /** `passwordHash` is the caller's hash (null: invited, no password yet); never in the state. */
  | { type: 'UserRegistered'; data: { user: User; passwordHash: string | null } }
  | {
      type: 'MembershipGranted';
      data: { idUsuario: string; idCorporativo: string; idRol: string; aprobado: boolean };
    }
  /** The corporate leaves `corporativos`, `corporativosRegistro` and `roles` (a revoked invitation). */
  | { type: 'MembershipRevoked'; data: { idUsuario: string; idCorporativo: string } }
  /** A broker's self-registration: the corporate joins `corporativosRegistro` ('Falta aprobación'). */
  | { type: 'RegistrationRequested'; data: { idUsuario: string; idCorporativo: string } }
  /** The request is refused: the corporate leaves `corporativosRegistro`. */
  | {
      type: 'RegistrationRejected';
      data: { idUsuario: string; idCorporativo: string; motivo: string };
    }
  /** A new password (its hash, never in the state); an invited user becomes active. */
  | { type: 'PasswordSet'; data: { passwordHash: string; motivo: PasswordReason } }
  /** Deactivated from `idCorporativo`: cannot sign in; leads and appointments went to `reasignadoA`. */
  | {
      type: 'UserDeactivated';
      data: { idUsuario: string; idCorporativo: string; reasignadoA: string | null };
    }
  | { type: 'UserReactivated'; data: { idUsuario: string; idCorporativo: string } }
  | { type: 'AssignableRolesSet'; data: { idCorporativo: string; roles: string[] } }
  | { type: 'RegistrationApproverSet'; data: { aprobarRegistro: boolean } }
  /**
   * Seconds since the epoch, and the browser the session was opened in (misc.ts `detectBrowser`;
   * absent on events recorded before the browser was kept).
   */
  | { type: 'LastSessionRecorded'; data: { sesionUltima: number; navegador?: BrowserName } }
  | { type: 'UserProfileUpdated'; data: { changes: UserProfileChanges } }
  | { type: 'FavouriteCorporateChosen'; data: { corporativoFavorito: string } }
  | { type: 'DevelopmentFavourited'; data: { idCorporativo: string; idDesarrollo: string } }
  | { type: 'DevelopmentUnfavourited'; data: { idCorporativo: string; idDesarrollo: string } };

export type UserEventType = UserEvent['type'];

export const USER_EVENT_TYPES: readonly UserEventType[] = [
  'UserRegistered',
  'MembershipGranted',
  'LastSessionRecorded',
  'UserProfileUpdated',
  'FavouriteCorporateChosen',
  'DevelopmentFavourited',
  'DevelopmentUnfavourited',
  'MembershipRevoked',
  'RegistrationRequested',
  'RegistrationRejected',
  'PasswordSet',
  'UserDeactivated',
  'UserReactivated',
  'AssignableRolesSet',
  'RegistrationApproverSet',
];

/** The user document (null before registration), as the read model holds it. */
export interface UserState {
  user: User | null;
}

export const initialUserState: UserState = { user: null };

export type UserCommand =
  | { type: 'RegisterUser'; user: User; passwordHash: string | null }
  /** Give the user a role in a corporate, approved or pending ('Falta aprobación'). */
  | { type: 'GrantMembership'; idCorporativo: string; idRol: string; aprobado: boolean }
  /** `navegador`: misc.ts `detectBrowser` of the request's user agent. */
  | { type: 'RecordLastSession'; now: Date; navegador: BrowserName }
  | { type: 'UpdateUserProfile'; changes: UserProfileChanges }
  | { type: 'ChooseFavouriteCorporate'; idCorporativo: string }
  /** Mark (`favorito: true`) or unmark a development of one of the user's corporates. */
  | {
      type: 'SetDevelopmentFavourite';
      idCorporativo: string;
      idDesarrollo: string;
      favorito: boolean;
    }
  /** Spec §4: added, or removed when already a favourite. */
  | { type: 'ToggleDevelopmentFavourite'; idCorporativo: string; idDesarrollo: string }
  /** Take the corporate away (a revoked invitation): nothing when the user is not in it. */
  | { type: 'RevokeMembership'; idCorporativo: string }
  /** A broker asks to join the corporate (spec §1): pending until approved. */
  | { type: 'RequestRegistration'; idCorporativo: string }
  /** Approve a pending registration with role `idRol`: the corporate moves to `corporativos`. */
  | { type: 'ApproveRegistration'; idCorporativo: string; idRol: string }
  | { type: 'RejectRegistration'; idCorporativo: string; motivo: string }
  | { type: 'SetPassword'; passwordHash: string; motivo: PasswordReason }
  | { type: 'Deactivate'; idCorporativo: string; reasignadoA: string | null }
  | { type: 'Reactivate'; idCorporativo: string }
  | { type: 'SetAssignableRoles'; idCorporativo: string; roles: readonly string[] }
  | { type: 'SetRegistrationApprover'; aprobarRegistro: boolean };

export type UserProfileField = keyof UserProfileChanges;

export type UserError =
  | { code: 'USER_NOT_FOUND' }
  | { code: 'USER_EXISTS' }
  /** Fields that break a rule: a blank name, an invalid e-mail, a profile that is not a whole number. */
  | { code: 'USER_INVALID'; campos: UserProfileField[] }
  /** The corporate is not one of the user's approved corporates (`corporativos`). */
  | { code: 'CORPORATE_NOT_MEMBER'; idCorporativo: string }
  /** A registration asked for a corporate the user is already in, approved or pending. */
  | { code: 'REGISTRATION_EXISTS'; idCorporativo: string }
  /** Approving or rejecting a corporate the user has no pending request for. */
  | { code: 'REGISTRATION_NOT_PENDING'; idCorporativo: string }
  /** A deactivated user's password is not set (reactivate first). */
  | { code: 'USER_INACTIVE' };

export type UserDecision = Decision<UserEvent, UserError>;

/** The profile fields that break a rule, in a fixed order. */
function invalidProfileFields(fields: UserProfileChanges): UserProfileField[] {
  const bad: UserProfileField[] = [];
  if (fields.nombre !== undefined && fields.nombre.trim() === '') bad.push('nombre');
  if (fields.email !== undefined && !isValidEmail(fields.email)) bad.push('email');
  if (fields.perfil !== undefined && !Number.isInteger(fields.perfil)) bad.push('perfil');
  if (fields.idioma !== undefined && fields.idioma !== 'es' && fields.idioma !== 'en')
    bad.push('idioma');
  return bad;
}

/** Names and e-mail trimmed; absent fields stay absent. */
function normalizeProfile(changes: UserProfileChanges): UserProfileChanges {
  const out: UserProfileChanges = {};
  if (changes.nombre !== undefined) out.nombre = changes.nombre.trim();
  if (changes.apellidos !== undefined) out.apellidos = changes.apellidos.trim();
  if (changes.email !== undefined) out.email = changes.email.trim();
  if (changes.perfil !== undefined) out.perfil = changes.perfil;
  if (changes.telefono !== undefined) out.telefono = changes.telefono.trim();
  if (changes.idioma !== undefined) out.idioma = changes.idioma;
  return out;
}

const PROFILE_FIELDS = ['nombre', 'apellidos', 'email', 'perfil', 'telefono', 'idioma'] as const;

const withStatus = (user: User, estatus: UserStatus): User => ({
  ...user,
  info: { ...user.info, estatus },
});

/** Whether the development is among the user's favourites of that corporate. */
export function isFavouriteDevelopment(
  user: Pick<User, 'desarrollosFavoritos'>,
  idCorporativo: string,
  idDesarrollo: string,
): boolean {
  return user.desarrollosFavoritos?.[idCorporativo]?.[idDesarrollo] === true;
}

function favouriteEvent(
  user: User,
  idCorporativo: string,
  idDesarrollo: string,
  favorito: boolean,
): UserDecision {
  if (!user.corporativos.includes(idCorporativo))
    return reject({ code: 'CORPORATE_NOT_MEMBER', idCorporativo });
  if (isFavouriteDevelopment(user, idCorporativo, idDesarrollo) === favorito) return accept();
  return accept({
    type: favorito ? 'DevelopmentFavourited' : 'DevelopmentUnfavourited',
    data: { idCorporativo, idDesarrollo },
  });
}

/** What a command produces given the user's state: events, or why it cannot happen. */
export function decideUser(command: UserCommand, state: UserState): UserDecision {
  if (command.type === 'RegisterUser') {
    if (state.user) return reject({ code: 'USER_EXISTS' });
    const campos = invalidProfileFields(command.user);
    if (campos.length > 0) return reject({ code: 'USER_INVALID', campos });
    return accept({
      type: 'UserRegistered',
      data: { user: command.user, passwordHash: command.passwordHash },
    });
  }
  const user = state.user;
  if (!user) return reject({ code: 'USER_NOT_FOUND' });
  switch (command.type) {
    case 'GrantMembership': {
      const { idCorporativo, idRol, aprobado } = command;
      const same =
        user.roles[idCorporativo] === idRol &&
        user.corporativosRegistro.includes(idCorporativo) &&
        user.corporativos.includes(idCorporativo) === aprobado;
      if (same) return accept();
      return accept({
        type: 'MembershipGranted',
        data: { idUsuario: user.id, idCorporativo, idRol, aprobado },
      });
    }
    case 'RecordLastSession': {
      const sesionUltima = Math.floor(command.now.getTime() / 1000);
      const { navegador } = command;
      if (user.sesionUltima === sesionUltima && user.navegador === navegador) return accept();
      return accept({ type: 'LastSessionRecorded', data: { sesionUltima, navegador } });
    }
    case 'UpdateUserProfile': {
      const next = normalizeProfile(command.changes);
      const campos = invalidProfileFields(next);
      if (campos.length > 0) return reject({ code: 'USER_INVALID', campos });
      const changes: Record<string, unknown> = {};
      for (const key of PROFILE_FIELDS)
        if (next[key] !== undefined && next[key] !== user[key]) changes[key] = next[key];
      if (Object.keys(changes).length === 0) return accept();
      return accept({
        type: 'UserProfileUpdated',
        data: { changes: changes },
      });
    }
    case 'ChooseFavouriteCorporate': {
      const { idCorporativo } = command;
      if (!user.corporativos.includes(idCorporativo))
        return reject({ code: 'CORPORATE_NOT_MEMBER', idCorporativo });
      if (user.corporativoFavorito === idCorporativo) return accept();
      return accept({
        type: 'FavouriteCorporateChosen',
        data: { corporativoFavorito: idCorporativo },
      });
    }
    case 'SetDevelopmentFavourite':
      return favouriteEvent(user, command.idCorporativo, command.idDesarrollo, command.favorito);
    case 'ToggleDevelopmentFavourite': {
      const { idCorporativo, idDesarrollo } = command;
      const favorito = !isFavouriteDevelopment(user, idCorporativo, idDesarrollo);
      return favouriteEvent(user, idCorporativo, idDesarrollo, favorito);
    }
    case 'RevokeMembership': {
      const { idCorporativo } = command;
      const inIt =
        user.corporativos.includes(idCorporativo) ||
        user.corporativosRegistro.includes(idCorporativo) ||
        user.roles[idCorporativo] !== undefined;
      if (!inIt) return accept();
      return accept({ type: 'MembershipRevoked', data: { idUsuario: user.id, idCorporativo } });
    }
    case 'RequestRegistration': {
      const { idCorporativo } = command;
      if (
        user.corporativos.includes(idCorporativo) ||
        user.corporativosRegistro.includes(idCorporativo)
      )
        return reject({ code: 'REGISTRATION_EXISTS', idCorporativo });
      return accept({
        type: 'RegistrationRequested',
        data: { idUsuario: user.id, idCorporativo },
      });
    }
    case 'ApproveRegistration': {
      const { idCorporativo, idRol } = command;
      if (!isPendingIn(user, idCorporativo))
        return reject({ code: 'REGISTRATION_NOT_PENDING', idCorporativo });
      return accept({
        type: 'MembershipGranted',
        data: { idUsuario: user.id, idCorporativo, idRol, aprobado: true },
      });
    }
    case 'RejectRegistration': {
      const { idCorporativo, motivo } = command;
      if (!isPendingIn(user, idCorporativo))
        return reject({ code: 'REGISTRATION_NOT_PENDING', idCorporativo });
      return accept({
        type: 'RegistrationRejected',
        data: { idUsuario: user.id, idCorporativo, motivo: motivo.trim() },
      });
    }
    case 'SetPassword': {
      if (userStatus(user) === 'inactivo') return reject({ code: 'USER_INACTIVE' });
      return accept({
        type: 'PasswordSet',
        data: { passwordHash: command.passwordHash, motivo: command.motivo },
      });
    }
    case 'Deactivate': {
      if (userStatus(user) === 'inactivo') return accept();
      return accept({
        type: 'UserDeactivated',
        data: {
          idUsuario: user.id,
          idCorporativo: command.idCorporativo,
          reasignadoA: command.reasignadoA,
        },
      });
    }
    case 'Reactivate': {
      if (userStatus(user) !== 'inactivo') return accept();
      return accept({
        type: 'UserReactivated',
        data: { idUsuario: user.id, idCorporativo: command.idCorporativo },
      });
    }
    case 'SetAssignableRoles': {
      const roles = [...new Set(command.roles)];
      const current = user.rolesAsignacion?.[command.idCorporativo] ?? [];
      if (current.length === roles.length && roles.every((r) => current.includes(r)))
        return accept();
      return accept({
        type: 'AssignableRolesSet',
        data: { idCorporativo: command.idCorporativo, roles },
      });
    }
    case 'SetRegistrationApprover': {
      if ((user.aprobarRegistro ?? false) === command.aprobarRegistro) return accept();
      return accept({
        type: 'RegistrationApproverSet',
        data: { aprobarRegistro: command.aprobarRegistro },
      });
    }
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

const withItem = (list: readonly string[], item: string) =>
  list.includes(item) ? [...list] : [...list, item];

/** A registration of the user waits for approval in the corporate ('Falta aprobación'). */
export function isPendingIn(
  user: Pick<User, 'corporativos' | 'corporativosRegistro'>,
  idCorporativo: string,
): boolean {
  return (
    user.corporativosRegistro.includes(idCorporativo) && !user.corporativos.includes(idCorporativo)
  );
}

/** The user after one event (never mutated), as the read model folds it. */
export function evolveUserState(state: UserState, event: UserEvent): UserState {
  if (event.type === 'UserRegistered') return { user: { ...event.data.user } };
  const user = state.user;
  if (!user) return state;
  switch (event.type) {
    case 'MembershipGranted': {
      const { idCorporativo, idRol, aprobado } = event.data;
      return {
        user: {
          ...user,
          corporativosRegistro: withItem(user.corporativosRegistro, idCorporativo),
          corporativos: aprobado
            ? withItem(user.corporativos, idCorporativo)
            : user.corporativos.filter((c) => c !== idCorporativo),
          roles: { ...user.roles, [idCorporativo]: idRol },
        },
      };
    }
    case 'LastSessionRecorded':
      return {
        user: {
          ...user,
          sesionUltima: event.data.sesionUltima,
          ...(event.data.navegador ? { navegador: event.data.navegador } : {}),
        },
      };
    case 'UserProfileUpdated':
      return { user: { ...user, ...event.data.changes } };
    case 'FavouriteCorporateChosen':
      return { user: { ...user, corporativoFavorito: event.data.corporativoFavorito } };
    case 'DevelopmentFavourited': {
      const { idCorporativo, idDesarrollo } = event.data;
      const all = user.desarrollosFavoritos ?? {};
      return {
        user: {
          ...user,
          desarrollosFavoritos: {
            ...all,
            [idCorporativo]: { ...all[idCorporativo], [idDesarrollo]: true },
          },
        },
      };
    }
    case 'DevelopmentUnfavourited': {
      const { idCorporativo, idDesarrollo } = event.data;
      const all = user.desarrollosFavoritos ?? {};
      const mine = all[idCorporativo];
      if (!mine) return state;
      const { [idDesarrollo]: _removed, ...rest } = mine;
      return { user: { ...user, desarrollosFavoritos: { ...all, [idCorporativo]: rest } } };
    }
    case 'MembershipRevoked': {
      const { idCorporativo } = event.data;
      const { [idCorporativo]: _role, ...roles } = user.roles;
      return {
        user: {
          ...user,
          corporativos: user.corporativos.filter((c) => c !== idCorporativo),
          corporativosRegistro: user.corporativosRegistro.filter((c) => c !== idCorporativo),
          roles,
        },
      };
    }
    case 'RegistrationRequested':
      return {
        user: {
          ...user,
          corporativosRegistro: withItem(user.corporativosRegistro, event.data.idCorporativo),
        },
      };
    case 'RegistrationRejected':
      return {
        user: {
          ...user,
          corporativosRegistro: user.corporativosRegistro.filter(
            (c) => c !== event.data.idCorporativo,
          ),
        },
      };
    case 'PasswordSet':
      return userStatus(user) === 'invitado' ? { user: withStatus(user, 'activo') } : state;
    case 'UserDeactivated':
      return { user: withStatus(user, 'inactivo') };
    case 'UserReactivated':
      return { user: withStatus(user, 'activo') };
    case 'AssignableRolesSet':
      return {
        user: {
          ...user,
          rolesAsignacion: {
            ...user.rolesAsignacion,
            [event.data.idCorporativo]: [...event.data.roles],
          },
        },
      };
    case 'RegistrationApproverSet':
      return { user: { ...user, aprobarRegistro: event.data.aprobarRegistro } };
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The user aggregate as a {@link Decider}. */
export const userDecider: Decider<UserCommand, UserState, UserEvent, UserError> = {
  initialState: initialUserState,
  decide: decideUser,
  evolve: evolveUserState,
};
