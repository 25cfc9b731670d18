/** The appointments' calls (issue 23): the calendar's range, booking, changing, cancelling. */

import type { Cita } from '../../../../core/appointment';
import { api, apiQuery, apiUrl } from '../../../lib/api';

/**
 * An appointment as the calendar reads it (server appointments/queries.ts CitaView): `titulo` is
 * the typed title, or, with `tituloAutomatico`, the automatic one in the language the request
 * asked for; screens write that one in their own language (utils/title.ts `citaTitle`).
 */
export interface CitaView extends Omit<Cita, 'titulo'> {
  titulo: string;
  tituloAutomatico: boolean;
  nombreLead: string;
  nombreAsesor: string;
  nombreShowroom: string;
}

export interface Conflict {
  id: string;
  titulo: string;
  fechaInicio: string;
  fechaFin: string;
  nombreAsesor: string;
  nombreShowroom: string;
  nombreLead: string;
  por: ('asesor' | 'showroom')[];
}

export interface BookableLead {
  id: string;
  nombre: string;
  email: string;
  desarrollo: string | null;
  idVendedor: string | null;
  nombreVendedor: string;
}

export const appointmentsQuery = (
  idCorporativo: string,
  range: { fechaInicio: string; fechaFin: string },
  filters: { idShowroom?: string; idAsesor?: string; idDesarrollo?: string },
) =>
  apiQuery<CitaView[]>('wsObtenerCitas', {
    idCorporativo,
    ...range,
    idShowroom: filters.idShowroom,
    idAsesor: filters.idAsesor,
    idDesarrollo: filters.idDesarrollo,
  });

export const bookableLeadsQuery = (corporateId: string, q: string) =>
  apiQuery<BookableLead[]>(`/api/corporativos/${corporateId}/citas/clientes`, { q });

export const bookableAdvisersQuery = (corporateId: string) =>
  apiQuery<{ id: string; nombre: string }[]>(`/api/corporativos/${corporateId}/citas/asesores`, {});

export const conflictsQuery = (
  corporateId: string,
  slot: {
    idAsesor: string;
    idShowroom: string;
    fechaInicio: string;
    fechaFin: string;
    excluir?: string;
  },
) => apiQuery<Conflict[]>(`/api/corporativos/${corporateId}/citas/conflictos`, slot);

export type AppointmentInput = Pick<
  Cita,
  | 'idDesarrollo'
  | 'idShowroom'
  | 'fechaInicio'
  | 'fechaFin'
  | 'titulo'
  | 'tipo'
  | 'idLead'
  | 'idAsesor'
  | 'enviarRecordatorio'
  | 'enviarAntesDe'
>;

export const bookAppointment = (corporateId: string, input: AppointmentInput) =>
  api<CitaView & { conflictos: Conflict[] }>(`/api/corporativos/${corporateId}/citas`, {
    method: 'POST',
    body: { ...input, activo: true },
  });

export const changeAppointment = (
  corporateId: string,
  id: string,
  change: Partial<AppointmentInput> & { activo?: boolean; asistencia?: 'asistio' | 'no_asistio' },
) =>
  api<CitaView & { conflictos: Conflict[] }>(`/api/corporativos/${corporateId}/citas/${id}`, {
    method: 'PUT',
    body: change,
  });

export const cancelAppointment = (corporateId: string, id: string) =>
  api<CitaView>(`/api/corporativos/${corporateId}/citas/${id}`, { method: 'DELETE' });

/** The appointment's `.ics`, an automatic title in `idioma` (a download sends no app language). */
export const icsUrl = (corporateId: string, id: string, idioma: string) =>
  apiUrl(`/api/corporativos/${corporateId}/citas/${id}/cita.ics`, { idioma });

export const subscriptionQuery = (corporateId: string) =>
  apiQuery<{ activa: boolean }>(`/api/corporativos/${corporateId}/calendario/suscripcion`, {});

export const subscribe = (corporateId: string) =>
  api<{ url: string; activa: boolean }>(`/api/corporativos/${corporateId}/calendario/suscripcion`, {
    method: 'POST',
    body: {},
  });

export const unsubscribe = (corporateId: string) =>
  api<{ activa: boolean }>(`/api/corporativos/${corporateId}/calendario/suscripcion`, {
    method: 'DELETE',
  });
