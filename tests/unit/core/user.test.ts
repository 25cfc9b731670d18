import { describe, expect, it } from 'vitest';
import { fold } from '../../../src/core/decider';
import type { User } from '../../../src/core/types';
import {
  decideUser,
  isFavouriteDevelopment,
  USER_EVENT_TYPES,
  userDecider,
  type UserCommand,
  type UserDecision,
  type UserEvent,
} from '../../../src/core/user';

const sofia: User = {
  id: 'usr-1',
  email: 'asesor@vitrina.demo',
  nombre: 'Sofía',
  apellidos: 'Navarro',
  corporativos: [],
  corporativosRegistro: [],
  corporativoFavorito: null,
  desarrollosFavoritos: {},
  roles: {},
  fechaAlta: 1_767_571_200,
  sesionUltima: null,
  esAdmin: false,
  perfil: 2,
  tipo: 'Asesor',
  aprobarRegistro: true,
  info: { estatus: 'activo' },
};

const registered: UserEvent[] = [
  { type: 'UserRegistered', data: { user: sofia, passwordHash: 'hash' } },
];
const grant = (idCorporativo: string, idRol: string, aprobado: boolean): UserEvent => ({
  type: 'MembershipGranted',
  data: { idUsuario: 'usr-1', idCorporativo, idRol, aprobado },
});
const member: UserEvent[] = [
  ...registered,
  grant('corp-1', 'asesor', true),
  grant('corp-2', 'broker', false),
];

/** given these events, when this command, then… */
function given(events: UserEvent[]) {
  return { when: (command: UserCommand) => decideUser(command, fold(userDecider, events)) };
}

function eventsOf(decision: UserDecision): UserEvent[] {
  if (!decision.ok) throw new Error(`expected events, got ${decision.error.code}`);
  return decision.events;
}

const stateAfter = (events: UserEvent[]) => fold(userDecider, events).user;

describe('user decider: registration and memberships', () => {
  it('given nothing, when registering, then UserRegistered with the user and the hash (the state keeps no hash)', () => {
    expect(given([]).when({ type: 'RegisterUser', user: sofia, passwordHash: 'hash' })).toEqual({
      ok: true,
      events: registered,
    });
    expect(fold(userDecider, registered)).toEqual({ user: sofia });
    expect(USER_EVENT_TYPES).toHaveLength(15);
  });

  it('given a user, when registering again, then USER_EXISTS; a bad e-mail is USER_INVALID', () => {
    expect(
      given(registered).when({ type: 'RegisterUser', user: sofia, passwordHash: 'h' }),
    ).toEqual({ ok: false, error: { code: 'USER_EXISTS' } });
    expect(
      given([]).when({
        type: 'RegisterUser',
        user: { ...sofia, email: 'nope' },
        passwordHash: 'h',
      }),
    ).toEqual({ ok: false, error: { code: 'USER_INVALID', campos: ['email'] } });
  });

  it('given nothing, when acting on the user, then USER_NOT_FOUND', () => {
    expect(
      given([]).when({ type: 'RecordLastSession', now: new Date(), navegador: 'Firefox' }),
    ).toEqual({
      ok: false,
      error: { code: 'USER_NOT_FOUND' },
    });
  });

  it('given a user, when granting an approved and a pending membership, then corporativos holds only the approved one', () => {
    const events = eventsOf(
      given(registered).when({
        type: 'GrantMembership',
        idCorporativo: 'corp-1',
        idRol: 'asesor',
        aprobado: true,
      }),
    );
    expect(events).toEqual([grant('corp-1', 'asesor', true)]);
    expect(stateAfter(member)).toMatchObject({
      corporativos: ['corp-1'],
      corporativosRegistro: ['corp-1', 'corp-2'],
      roles: { 'corp-1': 'asesor', 'corp-2': 'broker' },
    });
  });

  it('given a member, when granting the same role and approval again, then no events; approving a pending one grants it', () => {
    expect(
      given(member).when({
        type: 'GrantMembership',
        idCorporativo: 'corp-1',
        idRol: 'asesor',
        aprobado: true,
      }),
    ).toEqual({ ok: true, events: [] });
    const approved = eventsOf(
      given(member).when({
        type: 'GrantMembership',
        idCorporativo: 'corp-2',
        idRol: 'broker',
        aprobado: true,
      }),
    );
    expect(stateAfter([...member, ...approved])?.corporativos).toEqual(['corp-1', 'corp-2']);
  });
});

describe('user decider: profile and session', () => {
  it('given a user, when updating the profile, then UserProfileUpdated names only the changed fields', () => {
    expect(
      given(registered).when({
        type: 'UpdateUserProfile',
        changes: { nombre: 'Sofía', apellidos: ' Navarro Paz ', perfil: 2 },
      }),
    ).toEqual({
      ok: true,
      events: [{ type: 'UserProfileUpdated', data: { changes: { apellidos: 'Navarro Paz' } } }],
    });
  });

  it('given a user, when nothing changes, then no events; a blank name is USER_INVALID', () => {
    expect(
      given(registered).when({ type: 'UpdateUserProfile', changes: { nombre: 'Sofía' } }),
    ).toEqual({ ok: true, events: [] });
    expect(
      given(registered).when({ type: 'UpdateUserProfile', changes: { nombre: '  ' } }),
    ).toEqual({ ok: false, error: { code: 'USER_INVALID', campos: ['nombre'] } });
  });

  it('given a user, when recording the session, then LastSessionRecorded in seconds with the browser', () => {
    const now = new Date(1_790_000_000_500);
    const events = eventsOf(
      given(registered).when({ type: 'RecordLastSession', now, navegador: 'Edge' }),
    );
    expect(events).toEqual([
      { type: 'LastSessionRecorded', data: { sesionUltima: 1_790_000_000, navegador: 'Edge' } },
    ]);
    const after = stateAfter([...registered, ...events]);
    expect(after?.sesionUltima).toBe(1_790_000_000);
    expect(after?.navegador).toBe('Edge');
    // The same second and browser again: nothing new; another browser in that second: recorded.
    const again = [...registered, ...events];
    expect(
      eventsOf(given(again).when({ type: 'RecordLastSession', now, navegador: 'Edge' })),
    ).toEqual([]);
    expect(
      eventsOf(given(again).when({ type: 'RecordLastSession', now, navegador: 'Desconocido' })),
    ).toEqual([
      {
        type: 'LastSessionRecorded',
        data: { sesionUltima: 1_790_000_000, navegador: 'Desconocido' },
      },
    ]);
  });
});

describe('user decider: favourites', () => {
  it('given a member, when choosing an approved corporate as favourite, then FavouriteCorporateChosen; again, no events', () => {
    const events = eventsOf(
      given(member).when({ type: 'ChooseFavouriteCorporate', idCorporativo: 'corp-1' }),
    );
    expect(events).toEqual([
      { type: 'FavouriteCorporateChosen', data: { corporativoFavorito: 'corp-1' } },
    ]);
    expect(
      given([...member, ...events]).when({
        type: 'ChooseFavouriteCorporate',
        idCorporativo: 'corp-1',
      }),
    ).toEqual({ ok: true, events: [] });
  });

  it('given a member, when choosing a pending or foreign corporate, then CORPORATE_NOT_MEMBER', () => {
    expect(
      given(member).when({ type: 'ChooseFavouriteCorporate', idCorporativo: 'corp-2' }),
    ).toEqual({ ok: false, error: { code: 'CORPORATE_NOT_MEMBER', idCorporativo: 'corp-2' } });
  });

  it('given a member, when toggling a development twice (spec §4), then it is added then removed', () => {
    const toggle: UserCommand = {
      type: 'ToggleDevelopmentFavourite',
      idCorporativo: 'corp-1',
      idDesarrollo: 'des-1',
    };
    const added = [...member, ...eventsOf(given(member).when(toggle))];
    expect(added.at(-1)).toEqual({
      type: 'DevelopmentFavourited',
      data: { idCorporativo: 'corp-1', idDesarrollo: 'des-1' },
    });
    expect(isFavouriteDevelopment(stateAfter(added)!, 'corp-1', 'des-1')).toBe(true);
    const removed = [...added, ...eventsOf(given(added).when(toggle))];
    expect(removed.at(-1)?.type).toBe('DevelopmentUnfavourited');
    expect(stateAfter(removed)?.desarrollosFavoritos).toEqual({ 'corp-1': {} });
  });

  it('given a favourite development, when favouriting it again, then no events; unfavouriting a non-favourite too', () => {
    const favourite: UserEvent[] = [
      ...member,
      { type: 'DevelopmentFavourited', data: { idCorporativo: 'corp-1', idDesarrollo: 'des-1' } },
    ];
    const set = (favorito: boolean, idDesarrollo = 'des-1'): UserCommand => ({
      type: 'SetDevelopmentFavourite',
      idCorporativo: 'corp-1',
      idDesarrollo,
      favorito,
    });
    expect(given(favourite).when(set(true))).toEqual({ ok: true, events: [] });
    expect(given(favourite).when(set(false, 'des-2'))).toEqual({ ok: true, events: [] });
    expect(eventsOf(given(favourite).when(set(false)))).toEqual([
      { type: 'DevelopmentUnfavourited', data: { idCorporativo: 'corp-1', idDesarrollo: 'des-1' } },
    ]);
  });

  it('given a member, when favouriting a development of a corporate they are not approved in, then CORPORATE_NOT_MEMBER', () => {
    expect(
      given(member).when({
        type: 'SetDevelopmentFavourite',
        idCorporativo: 'corp-2',
        idDesarrollo: 'des-9',
        favorito: true,
      }),
    ).toEqual({ ok: false, error: { code: 'CORPORATE_NOT_MEMBER', idCorporativo: 'corp-2' } });
  });
});
