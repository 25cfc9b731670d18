/** The check-in area's reads: from `rm_check_ins`, `rm_showroom_guests` and the corporate's showrooms. */
import { isCheckInCurrent, type CheckIn } from '../../core/check-in';
import type { CheckInHistoryRow } from '../../core/check-in-history';
import type { Guest } from '../../core/showroom-guests';
import type { Showroom } from '../../core/types';
import type { Queryable } from '../store/db';

/** The corporate's showrooms, as the corporate's configuration has them now. */
export async function loadShowrooms(db: Queryable, corporateId: string): Promise<Showroom[]> {
  const { rows } = await db.query<{ showrooms: Showroom[] | null }>(
    "SELECT doc->'showrooms' AS showrooms FROM rm_corporates WHERE id = $1",
    [corporateId],
  );
  return rows[0]?.showrooms ?? [];
}

export async function findShowroom(db: Queryable, corporateId: string, showroomId: string) {
  return (await loadShowrooms(db, corporateId)).find((s) => s.id === showroomId) ?? null;
}

/**
 * The adviser's check-in in effect at `now`: active and not older than 43200 s. One past its 12
 * hours whose timer has not run yet is not in effect (spec §4: it is expired).
 */
export async function currentCheckIn(
  db: Queryable,
  corporateId: string,
  userId: string,
  now: Date,
): Promise<CheckIn | null> {
  const { rows } = await db.query<{ doc: CheckIn }>(
    'SELECT doc FROM rm_check_ins WHERE corporate_id = $1 AND user_id = $2 AND activo',
    [corporateId, userId],
  );
  const doc = rows[0]?.doc;
  return doc && isCheckInCurrent(doc, now) ? doc : null;
}

/** A check-in of the corporate by id, ended or not. */
export async function findCheckIn(db: Queryable, corporateId: string, id: string) {
  const { rows } = await db.query<{ doc: CheckIn }>(
    'SELECT doc FROM rm_check_ins WHERE corporate_id = $1 AND id = $2',
    [corporateId, id],
  );
  return rows[0]?.doc ?? null;
}

const NAME = "trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos'))";

/** Check-ins with the names of the adviser and of who checked them out. */
async function historyRows(
  db: Queryable,
  where: string,
  params: unknown[],
): Promise<CheckInHistoryRow[]> {
  const { rows } = await db.query<{ doc: CheckIn; nombre: string | null; salida: string | null }>(
    `SELECT c.doc,
            (SELECT ${NAME} FROM rm_users u WHERE u.id = c.user_id) AS nombre,
            (SELECT ${NAME} FROM rm_users u WHERE u.id = c.doc->>'idUsuarioSalida') AS salida
       FROM rm_check_ins c WHERE ${where}
      ORDER BY c.fecha_alta, c.id`,
    params,
  );
  return rows.map((r) => ({
    ...r.doc,
    nombreUsuario: r.nombre ?? '',
    nombreUsuarioSalida: r.doc.idUsuarioSalida ? (r.salida ?? '') : null,
  }));
}

/** One check-in as a history row (`historial-check-in`). */
export async function historyRow(db: Queryable, corporateId: string, id: string) {
  const [row] = await historyRows(db, 'c.corporate_id = $1 AND c.id = $2', [corporateId, id]);
  return row ?? null;
}

/** A showroom's check-ins made in `[start, end)`, oldest first. */
export function showroomHistory(
  db: Queryable,
  corporateId: string,
  showroomId: string,
  range: { start: Date; end: Date },
) {
  return historyRows(
    db,
    'c.corporate_id = $1 AND c.showroom_id = $2 AND c.fecha_alta >= $3 AND c.fecha_alta < $4',
    [corporateId, showroomId, range.start.toISOString(), range.end.toISOString()],
  );
}

/** Who is on duty at a showroom at `now`: active check-ins not past their 12 hours, oldest first. */
export async function onDuty(db: Queryable, corporateId: string, showroomId: string, now: Date) {
  const rows = await historyRows(db, 'c.corporate_id = $1 AND c.showroom_id = $2 AND c.activo', [
    corporateId,
    showroomId,
  ]);
  return rows.filter((r) => isCheckInCurrent(r, now));
}

/** A guest with the name of the adviser who hosts them. */
export type GuestView = Guest & { nombreAsesor: string };

/** A showroom's guests (of one day, or from a day on), by visit day then name. */
export async function showroomGuests(
  db: Queryable,
  corporateId: string,
  showroomId: string,
  filter: { fecha?: string; desde?: string },
): Promise<GuestView[]> {
  const params: unknown[] = [corporateId, showroomId];
  let where = 'g.corporate_id = $1 AND g.showroom_id = $2';
  if (filter.fecha) {
    params.push(filter.fecha);
    where += ` AND g.fecha_visita = $${params.length}`;
  } else if (filter.desde) {
    params.push(filter.desde);
    where += ` AND g.fecha_visita >= $${params.length}`;
  }
  const { rows } = await db.query<{ doc: Guest; asesor: string | null }>(
    `SELECT g.doc, (SELECT ${NAME} FROM rm_users u WHERE u.id = g.doc->>'idAsesor') AS asesor
       FROM rm_showroom_guests g WHERE ${where}
      ORDER BY g.fecha_visita, g.doc->>'nombre', g.id LIMIT 500`,
    params,
  );
  return rows.map((r) => ({ ...r.doc, nombreAsesor: r.asesor ?? '' }));
}

/** Whether `userId` is an approved member of the corporate (a guest's adviser must be). */
export async function isApprovedMemberId(db: Queryable, corporateId: string, userId: string) {
  const { rows } = await db.query(
    "SELECT 1 FROM rm_users WHERE id = $1 AND doc->'corporativos' @> jsonb_build_array($2::text)",
    [userId, corporateId],
  );
  return rows.length > 0;
}
