/**
 * The appointments' read model: `rm_appointments`, one row per appointment (cancelled ones
 * included, `activo` false), the document folded with the core's `applyAppointmentEvent`.
 */
import {
  APPOINTMENT_EVENT_TYPES,
  applyAppointmentEvent,
  type AppointmentEvent,
  type Cita,
} from '../../core/appointment';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

async function write(tx: Queryable, cita: Cita) {
  await tx.query(
    `INSERT INTO rm_appointments (id, corporate_id, adviser_id, lead_id, showroom_id,
       development_id, activo, fecha_inicio, fecha_fin, doc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (id) DO UPDATE SET adviser_id = EXCLUDED.adviser_id, lead_id = EXCLUDED.lead_id,
       showroom_id = EXCLUDED.showroom_id, development_id = EXCLUDED.development_id,
       activo = EXCLUDED.activo, fecha_inicio = EXCLUDED.fecha_inicio,
       fecha_fin = EXCLUDED.fecha_fin, doc = EXCLUDED.doc`,
    [
      cita.id,
      cita.idCorporativo,
      cita.idAsesor,
      cita.idLead,
      cita.idShowroom,
      cita.idDesarrollo,
      cita.activo,
      cita.fechaInicio,
      cita.fechaFin,
      JSON.stringify(cita),
    ],
  );
}

export const appointmentsProjection: Projection = {
  name: 'appointments',
  tables: ['rm_appointments'],
  handles: APPOINTMENT_EVENT_TYPES,
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as AppointmentEvent;
    if (event.type === 'AppointmentScheduled') {
      await write(tx, event.data.cita);
      return;
    }
    const { rows } = await tx.query<{ doc: Cita }>(
      'SELECT doc FROM rm_appointments WHERE id = $1',
      [event.data.id],
    );
    const current = rows[0]?.doc;
    if (!current) return;
    await write(tx, applyAppointmentEvent(current, event));
  },
};
