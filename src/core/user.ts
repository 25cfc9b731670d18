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
import type { User } from './types';

/** The profile fields a user changes on their own record. */
export type UserProfileChanges = Partial<Pick<User, 'nombre' | 'apellidos' | 'email' | 'perfil'>>;

export type UserEvent =
  /** `passwordHash` is the caller's hash; it never enters the state. */
  | { type: 'UserRegistered'; data: { user: User; passwordHash: string } }
  | {
      type: 'MembershipGranted';
      data: { idUsuario: string; idCorporativo: string; idRol: string; aprobado: boolean };
    }
  /** Seconds since the epoch. */
  | { type: 'LastSessionRecorded'; data: { sesionUltima: number } }
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
];

/** The user document (null before registration), as the read model holds it. */
export interface UserState {
  user: User | null;
}

export const initialUserState: UserState = { user: null };

export type UserCommand =
  | { type: 'RegisterUser'; user: User; passwordHash: string }
  /** Give the user a role in a corporate, approved or pending ('Falta aprobación'). */
  | { type: 'GrantMembership'; idCorporativo: string; idRol: string; aprobado: boolean }
  | { type: 'RecordLastSession'; now: Date }
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
  | { type: 'ToggleDevelopmentFavourite'; idCorporativo: string; idDesarrollo: string };

export type UserProfileField = keyof UserProfileChanges;

export type UserError =
  | { code: 'USER_NOT_FOUND' }
  | { code: 'USER_EXISTS' }
  /** Fields that break a rule: a blank name, an invalid e-mail, a profile that is not a whole number. */
  | { code: 'USER_INVALID'; campos: UserProfileField[] }
  /** The corporate is not one of the user's approved corporates (`corporativos`). */
  | { code: 'CORPORATE_NOT_MEMBER'; idCorporativo: string };

export type UserDecision = Decision<UserEvent, UserError>;

/** The profile fields that break a rule, in a fixed order. */
function invalidProfileFields(fields: UserProfileChanges): UserProfileField[] {
  const bad: UserProfileField[] = [];
  if (fields.nombre !== undefined && fields.nombre.trim() === '') bad.push('nombre');
  if (fields.email !== undefined && !isValidEmail(fields.email)) bad.push('email');
  if (fields.perfil !== undefined && !Number.isInteger(fields.perfil)) bad.push('perfil');
  return bad;
}

/** Names and e-mail trimmed; absent fields stay absent. */
function normalizeProfile(changes: UserProfileChanges): UserProfileChanges {
  const out: UserProfileChanges = {};
  if (changes.nombre !== undefined) out.nombre = changes.nombre.trim();
  if (changes.apellidos !== undefined) out.apellidos = changes.apellidos.trim();
  if (changes.email !== undefined) out.email = changes.email.trim();
  if (changes.perfil !== undefined) out.perfil = changes.perfil;
  return out;
}

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
      if (user.sesionUltima === sesionUltima) return accept();
      return accept({ type: 'LastSessionRecorded', data: { sesionUltima } });
    }
    case 'UpdateUserProfile': {
      const next = normalizeProfile(command.changes);
      const campos = invalidProfileFields(next);
      if (campos.length > 0) return reject({ code: 'USER_INVALID', campos });
      const changes: UserProfileChanges = {};
      if (next.nombre !== undefined && next.nombre !== user.nombre) changes.nombre = next.nombre;
      if (next.apellidos !== undefined && next.apellidos !== user.apellidos)
        changes.apellidos = next.apellidos;
      if (next.email !== undefined && next.email !== user.email) changes.email = next.email;
      if (next.perfil !== undefined && next.perfil !== user.perfil) changes.perfil = next.perfil;
      if (Object.keys(changes).length === 0) return accept();
      return accept({ type: 'UserProfileUpdated', data: { changes } });
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
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

const withItem = (list: readonly string[], item: string) =>
  list.includes(item) ? [...list] : [...list, item];

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
      return { user: { ...user, sesionUltima: event.data.sesionUltima } };
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
