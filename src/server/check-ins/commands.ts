/**
 * The check-in area's writes, each one command through the command handler: check in, check out,
 * configure a showroom (on the corporate's stream), invite and remove a showroom's guests. Every
 * refusal is an {@link ApiError} in the spec's shape and nothing of the command is written.
 */
import {
  checkInDecider,
  type CheckIn,
  type CheckInError,
  type CheckInVia,
} from '../../core/check-in';
import { corporateDecider } from '../../core/corporate';
import type { Membership } from '../../core/permissions';
import { guestListDecider, type Guest, type GuestError } from '../../core/showroom-guests';
import type { Showroom } from '../../core/types';
import { corporateErrorToApi } from '../catalogue/corporate-errors';
import { streams } from '../catalogue/events';
import { ApiError, badRequest } from '../http/errors';
import { runCommand, type CommandEnv } from '../store/command-handler';
import { findShowroom, isApprovedMemberId, loadShowrooms } from './queries';
import { checkInStream, guestListStream } from './streams';

export const showroomNotFound = () => new ApiError(404, 'SHOWROOM_NOT_FOUND', 'showroom_not_found');
export const checkInNotFound = () => new ApiError(404, 'CHECK_IN_NOT_FOUND', 'check_in_not_found');

export function checkInErrorToApi(error: CheckInError): ApiError {
  switch (error.code) {
    case 'SHOWROOM_NOT_FOUND':
      return showroomNotFound();
    case 'SHOWROOM_INACTIVE':
      return new ApiError(409, 'SHOWROOM_INACTIVE', 'showroom_inactive');
    case 'POSITION_INVALID':
      return new ApiError(
        400,
        'POSITION_INVALID',
        error.campos.includes('accuracy') ? 'position_accuracy_invalid' : 'position_invalid',
        {},
        {
          details: error.campos.map((c) => ({ path: `coordenadas._${c}`, code: 'invalid_value' })),
        },
      );
    case 'CHECK_IN_TOO_FAR': {
      const round = (km: number) => Math.round(km * 1000) / 1000;
      return new ApiError(
        422,
        'CHECK_IN_TOO_FAR',
        'check_in_too_far',
        {
          distancia: Math.round(error.distanciaKm * 1000),
          radio: Math.round(error.radioKm * 1000),
        },
        { distanciaKm: round(error.distanciaKm), radioKm: round(error.radioKm) },
      );
    }
    case 'CHECK_IN_NOT_FOUND':
      return checkInNotFound();
    default: {
      const unhandled: never = error;
      throw new Error(`unknown check-in error ${(unhandled as { code: string }).code}`);
    }
  }
}

/**
 * Checks the member in at the showroom: by position (re-checked here with the core's rule) or by
 * a QR folio the route verified. A check-in already active is answered as it is, and nothing is
 * written (`creado` false).
 */
export async function saveCheckIn(
  env: CommandEnv,
  m: Membership,
  idShowroom: string,
  via: CheckInVia,
): Promise<{ checkIn: CheckIn; creado: boolean }> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(checkInDecider, checkInStream(corporate.id, user.id));
    const showroom = await findShowroom(scope, corporate.id, idShowroom);
    const events = scope.decide(
      checkInDecider,
      loaded.state,
      {
        type: 'CheckIn',
        id: scope.newId(),
        idCorporativo: corporate.id,
        idUsuario: user.id,
        showroom,
        via,
        now: scope.now,
      },
      checkInErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => checkInDecider.evolve(s, e), loaded.state);
    if (!state.active) throw new Error('check-in: no active check-in after CheckIn');
    return { checkIn: state.active, creado: events.some((e) => e.type === 'CheckedIn') };
  });
}

/**
 * Checks out the check-in `id` of adviser `idUsuario` (by them or a host administrator; the
 * route checks who). A check-in that already ended writes nothing.
 */
export async function checkOut(
  env: CommandEnv,
  m: Membership,
  idUsuario: string,
  id: string,
): Promise<void> {
  await runCommand(env, { corporateId: m.corporate.id, actorId: m.user.id }, async (scope) => {
    const loaded = await scope.load(checkInDecider, checkInStream(m.corporate.id, idUsuario));
    const events = scope.decide(
      checkInDecider,
      loaded.state,
      { type: 'CheckOut', id, motivo: 'manual', by: m.user.id, now: scope.now },
      checkInErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
  });
}

/**
 * Sets a showroom's name, active flag and coordinates (adding it when the id is new) on the
 * corporate's stream. Answers the showroom as it is now, and whether it was added. A showroom
 * named a development's must name one of the corporate's (404 DEVELOPMENT_NOT_FOUND): one
 * pointing elsewhere could never be booked.
 */
export async function configureShowroom(
  env: CommandEnv,
  m: Membership,
  showroom: Showroom,
): Promise<{ showroom: Showroom; nuevo: boolean }> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(corporateDecider, streams.corporate(corporate.id));
    if (showroom.idDesarrollo !== undefined) {
      const { rows } = await scope.query(
        'SELECT 1 FROM rm_developments WHERE corporate_id = $1 AND id = $2',
        [corporate.id, showroom.idDesarrollo],
      );
      if (rows.length === 0)
        throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
    }
    const events = scope.decide(
      corporateDecider,
      loaded.state,
      { type: 'ConfigureShowroom', showroom },
      corporateErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => corporateDecider.evolve(s, e), loaded.state);
    const now = state.config?.showrooms.find((s) => s.id === showroom.id);
    if (!now) throw new Error('showroom: missing after ConfigureShowroom');
    const configured = events.find((e) => e.type === 'ShowroomConfigured');
    return {
      showroom: now,
      nuevo: configured?.type === 'ShowroomConfigured' && configured.data.nuevo,
    };
  });
}

function guestErrorToApi(error: GuestError): ApiError {
  switch (error.code) {
    case 'GUEST_INVALID':
      return badRequest(error.campos.map((c) => ({ path: c, code: 'invalid_value' })));
    case 'GUEST_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'GUEST_NOT_FOUND':
      return new ApiError(404, 'GUEST_NOT_FOUND', 'guest_not_found');
    default: {
      const unhandled: never = error;
      throw new Error(`unknown guest error ${(unhandled as { code: string }).code}`);
    }
  }
}

/** Adds a guest to a showroom's list; the hosting adviser must be an approved member. */
export async function inviteGuest(
  env: CommandEnv,
  m: Membership,
  idShowroom: string,
  fields: Pick<Guest, 'nombre' | 'contacto' | 'fechaVisita' | 'idAsesor'>,
): Promise<Guest> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const showrooms = await loadShowrooms(scope, corporate.id);
    if (!showrooms.some((s) => s.id === idShowroom)) throw showroomNotFound();
    if (!(await isApprovedMemberId(scope, corporate.id, fields.idAsesor)))
      throw new ApiError(400, 'GUEST_ADVISER_INVALID', 'lead_adviser_invalid');
    const loaded = await scope.load(guestListDecider, guestListStream(corporate.id, idShowroom));
    const guest: Guest = {
      id: scope.newId(),
      idShowroom,
      ...fields,
      fechaAlta: { _seconds: Math.floor(scope.now.getTime() / 1000) },
    };
    const events = scope.decide(
      guestListDecider,
      loaded.state,
      { type: 'InviteGuest', guest },
      guestErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => guestListDecider.evolve(s, e), loaded.state);
    const saved = state.guests[guest.id];
    if (!saved) throw new Error('guest: missing after InviteGuest');
    return saved;
  });
}

/** Removes a guest from a showroom's list (removing one already removed writes nothing). */
export async function removeGuest(
  env: CommandEnv,
  m: Membership,
  idShowroom: string,
  id: string,
): Promise<void> {
  const { corporate, user } = m;
  await runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(guestListDecider, guestListStream(corporate.id, idShowroom));
    const events = scope.decide(
      guestListDecider,
      loaded.state,
      { type: 'RemoveGuest', id },
      guestErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
  });
}

/**
 * A guest came in (the host administrator marks it on the guest list): `GuestArrived`, once; a
 * guest already marked answers as it is and writes nothing. What follows (the hosting adviser or
 * the adviser of the guest's appointment told, the appointment marked attended) is the arrivals
 * consumer's (appointments/arrivals.ts).
 */
export async function markGuestArrived(
  env: CommandEnv,
  m: Membership,
  idShowroom: string,
  id: string,
): Promise<Guest> {
  const { corporate, user } = m;
  return runCommand(env, { corporateId: corporate.id, actorId: user.id }, async (scope) => {
    const loaded = await scope.load(guestListDecider, guestListStream(corporate.id, idShowroom));
    const events = scope.decide(
      guestListDecider,
      loaded.state,
      { type: 'MarkGuestArrived', id, now: scope.now },
      guestErrorToApi,
    );
    await scope.emit(loaded.streamId, events);
    const state = events.reduce((s, e) => guestListDecider.evolve(s, e), loaded.state);
    const saved = state.guests[id];
    if (!saved) throw new Error('guest: missing after MarkGuestArrived');
    return saved;
  });
}
