/**
 * The check-in calls (issue 14; spec §7 Check-in and the showroom PUT) and the browser's
 * geolocation, as the banner's machine and the host administrator's pages use them.
 */
import type { CheckIn } from '../../../../core/check-in';
import type { CheckInHistoryRow } from '../../../../core/check-in-history';
import type { DevicePosition } from '../../../../core/geo';
import type { Guest } from '../../../../core/showroom-guests';
import type { Showroom } from '../../../../core/types';
import {
  CheckInSaveError,
  LocateError,
  type SaveCheckInInput,
} from '../../../../machines/check-in.machine';
import { api, apiQuery, ApiRequestError } from '../../../lib/api';
import { errorMessage } from '../../../lib/errors';

const corp = (idCorporativo: string) => `/api/corporativos/${encodeURIComponent(idCorporativo)}`;
const showroomBase = (idCorporativo: string, idShowroom: string) =>
  `${corp(idCorporativo)}/showrooms/${encodeURIComponent(idShowroom)}`;

/** The corporate's showrooms (`wsObtenerShowrooms`). */
export const showroomsQuery = (idCorporativo: string) =>
  apiQuery<Showroom[]>('wsObtenerShowrooms', { idCorporativo });

/** The user's check-in in effect, or null (`wsObtenerCheckIn`). */
export const loadCheckIn = (idCorporativo: string, idUsuario: string) =>
  api<CheckIn | null>('wsObtenerCheckIn', { query: { idCorporativo, idUsuario } });

/** The API's refusal, in the machine's terms: too far (with the server's figures) or a message. */
function saveError(error: unknown): CheckInSaveError {
  if (error instanceof ApiRequestError && error.errorCode === 'CHECK_IN_TOO_FAR') {
    const first = (Array.isArray(error.body) ? error.body[0] : null) as {
      distanciaKm?: unknown;
      radioKm?: unknown;
    } | null;
    if (typeof first?.distanciaKm === 'number' && typeof first.radioKm === 'number') {
      return new CheckInSaveError({
        kind: 'tooFar',
        distanciaKm: first.distanciaKm,
        radioKm: first.radioKm,
        message: error.message,
      });
    }
  }
  return new CheckInSaveError({ kind: 'failed', message: errorMessage(error) });
}

/** Saves a check-in (spec: `check, idShowroom, nombreShowroom, coordenadas, tipoRegistro?`). */
export function saveCheckIn(idCorporativo: string, input: SaveCheckInInput): Promise<CheckIn> {
  const body =
    input.tipoRegistro === 'QR'
      ? { check: true, tipoRegistro: 'QR', folio: input.folio }
      : {
          check: true,
          idShowroom: input.showroom.id,
          nombreShowroom: input.showroom.nombre,
          coordenadas: {
            _latitude: input.position.latitude,
            _longitude: input.position.longitude,
            _accuracy: input.position.accuracy,
          },
        };
  return api<CheckIn>(`${corp(idCorporativo)}/check-ins`, { method: 'POST', body }).catch(
    (error: unknown) => {
      throw saveError(error);
    },
  );
}

/** Checks a check-in out (`…/check-ins/{id}/check-out/{idUsuario}`, using `checkInActivo`). */
export function checkOut(checkIn: Pick<CheckIn, 'id' | 'idUsuario' | 'idCorporativo'>) {
  return api<CheckIn>(
    `${corp(checkIn.idCorporativo)}/check-ins/${encodeURIComponent(checkIn.id)}/check-out/${encodeURIComponent(checkIn.idUsuario)}`,
    { method: 'POST', body: { checkInActivo: false } },
  ).catch((error: unknown) => {
    throw saveError(error);
  });
}

/** The device's position (browser geolocation), high accuracy, within 15 s. */
export function locateDevice(): Promise<DevicePosition> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      reject(new LocateError('unavailable'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      (p) =>
        resolve({
          latitude: p.coords.latitude,
          longitude: p.coords.longitude,
          accuracy: p.coords.accuracy,
        }),
      (e) =>
        reject(
          new LocateError(
            e.code === e.PERMISSION_DENIED
              ? 'denied'
              : e.code === e.TIMEOUT
                ? 'timeout'
                : 'unavailable',
          ),
        ),
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 0 },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Host administrators

/** A guest as listed: with the name of the adviser who hosts them. */
export type GuestView = Guest & { nombreAsesor: string };

export interface AdviserOption {
  id: string;
  nombre: string;
  apellidos: string;
}

export interface ShowroomFolio {
  folio: string;
  url: string;
  dia: string;
  idShowroom: string;
  nombreShowroom: string;
  activo: boolean;
}

export const onDutyQuery = (idCorporativo: string, idShowroom: string) => ({
  queryKey: ['api', 'showroomEnTurno', { idCorporativo, idShowroom }] as const,
  queryFn: () => api<CheckInHistoryRow[]>(`${showroomBase(idCorporativo, idShowroom)}/en-turno`),
});

export const historyQuery = (idCorporativo: string, idShowroom: string, fecha: string) => ({
  queryKey: ['api', 'showroomCheckIns', { idCorporativo, idShowroom, fecha }] as const,
  queryFn: () =>
    api<CheckInHistoryRow[]>(`${showroomBase(idCorporativo, idShowroom)}/check-ins`, {
      query: { fecha },
    }),
});

export const guestsQuery = (idCorporativo: string, idShowroom: string, desde: string) => ({
  queryKey: ['api', 'showroomInvitados', { idCorporativo, idShowroom, desde }] as const,
  queryFn: () =>
    api<GuestView[]>(`${showroomBase(idCorporativo, idShowroom)}/invitados`, {
      query: { desde },
    }),
});

export const hostAdvisersQuery = (idCorporativo: string) => ({
  queryKey: ['api', 'showroomAsesores', { idCorporativo }] as const,
  queryFn: () => api<AdviserOption[]>(`${corp(idCorporativo)}/showrooms/asesores`),
  staleTime: 5 * 60_000,
});

export const folioQuery = (idCorporativo: string, idShowroom: string) => ({
  queryKey: ['api', 'showroomFolio', { idCorporativo, idShowroom }] as const,
  queryFn: () => api<ShowroomFolio>(`${showroomBase(idCorporativo, idShowroom)}/folio`),
});

/** The poster's QR code (an SVG the server draws). */
export const qrImageUrl = (idCorporativo: string, idShowroom: string, dia: string) =>
  `${showroomBase(idCorporativo, idShowroom)}/qr.svg?dia=${encodeURIComponent(dia)}`;

export function putShowroom(
  idCorporativo: string,
  showroom: Pick<Showroom, 'id' | 'nombre' | 'activo' | 'coordenadas'>,
) {
  const { id, ...body } = showroom;
  return api<Showroom>(
    `${corp(idCorporativo)}/config-corporativo/showroom/${encodeURIComponent(id)}`,
    { method: 'PUT', body },
  );
}

export function inviteGuest(
  idCorporativo: string,
  idShowroom: string,
  guest: Pick<Guest, 'nombre' | 'contacto' | 'fechaVisita' | 'idAsesor'>,
) {
  return api<Guest>(`${showroomBase(idCorporativo, idShowroom)}/invitados`, {
    method: 'POST',
    body: guest,
  });
}

/** The guest came in: their appointment of the day is marked attended and its adviser told. */
export function markGuestArrived(idCorporativo: string, idShowroom: string, id: string) {
  return api<Guest>(
    `${showroomBase(idCorporativo, idShowroom)}/invitados/${encodeURIComponent(id)}/llegada`,
    { method: 'POST', body: {} },
  );
}

export function removeGuest(idCorporativo: string, idShowroom: string, id: string) {
  return api<{ id: string }>(
    `${showroomBase(idCorporativo, idShowroom)}/invitados/${encodeURIComponent(id)}`,
    { method: 'DELETE' },
  );
}
