/**
 * The check-in area's read models: `rm_check_ins` (one row per check-in, folded with the core's
 * `endedCheckIn` on check-out) and `rm_showroom_guests` (one row per guest not removed).
 */
import { endedCheckIn, type CheckIn, type CheckInEvent } from '../../core/check-in';
import type { GuestEvent } from '../../core/showroom-guests';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

const secondsToIso = (seconds: number) => new Date(seconds * 1000).toISOString();

export const checkInsProjection: Projection = {
  name: 'check-ins',
  tables: ['rm_check_ins', 'rm_showroom_guests'],
  handles: ['CheckedIn', 'CheckedOut', 'GuestInvited', 'GuestRemoved', 'GuestArrived'],
  async apply(tx: Queryable, stored: StoredEvent) {
    const event = { type: stored.type, data: stored.data } as CheckInEvent | GuestEvent;
    switch (event.type) {
      case 'CheckedIn': {
        const c = event.data.checkIn;
        await tx.query(
          `INSERT INTO rm_check_ins (id, corporate_id, user_id, showroom_id, activo, fecha_alta, fecha_salida, doc)
           VALUES ($1, $2, $3, $4, true, $5, NULL, $6)
           ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc, activo = true, fecha_salida = NULL`,
          [
            c.id,
            c.idCorporativo,
            c.idUsuario,
            c.idShowroom,
            secondsToIso(c.fechaAlta._seconds),
            JSON.stringify(c),
          ],
        );
        return;
      }
      case 'CheckedOut': {
        const { rows } = await tx.query<{ doc: CheckIn }>(
          'SELECT doc FROM rm_check_ins WHERE id = $1',
          [event.data.id],
        );
        const current = rows[0]?.doc;
        if (!current) return;
        const ended = endedCheckIn(current, event.data);
        await tx.query(
          'UPDATE rm_check_ins SET activo = false, fecha_salida = $2, doc = $3 WHERE id = $1',
          [event.data.id, secondsToIso(event.data.fechaSalida._seconds), JSON.stringify(ended)],
        );
        return;
      }
      case 'GuestInvited': {
        const g = event.data.invitado;
        await tx.query(
          `INSERT INTO rm_showroom_guests (id, corporate_id, showroom_id, fecha_visita, doc)
           VALUES ($1, $2, $3, $4, $5) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc,
           fecha_visita = EXCLUDED.fecha_visita`,
          [g.id, stored.corporateId, g.idShowroom, g.fechaVisita, JSON.stringify(g)],
        );
        return;
      }
      case 'GuestRemoved':
        await tx.query('DELETE FROM rm_showroom_guests WHERE id = $1', [event.data.id]);
        return;
      case 'GuestArrived':
        await tx.query(
          `UPDATE rm_showroom_guests SET doc = jsonb_set(doc, '{llegada}', $2::jsonb) WHERE id = $1`,
          [event.data.id, JSON.stringify(event.data.llegada)],
        );
        return;
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  },
};
