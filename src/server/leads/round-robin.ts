/**
 * The public capture's round robin: each new lead from a website form goes to the next adviser
 * of the corporate's rotation (the first adviser, by id, after the one who got the last turn).
 *
 * The rotation is one counter row per corporate (`rm_lead_rotation`: turns taken and who got the
 * last one). A capture takes its turn with one atomic upsert inside its command's transaction,
 * as the last thing before its events are written: simultaneous captures, on any number of
 * processes, wait on that row only for the moments it takes another capture to commit, each
 * takes the next turn, and none conflicts (no stream that every capture appends to, no retry).
 * A rolled-back capture gives its turn back with its transaction.
 *
 * The log stays the source of truth: the turn is recorded in the lead's `LeadAssigned` event
 * (`turno`), and {@link leadRotationProjection} writes the same row from it, so a rebuild or
 * store:verify reproduces the rotation (and older logs' `LeadRoundRobinAdvanced` events too).
 */
import { receivesPublicCaptures, roleInCorporate } from '../../core/permissions';
import type { Corporate, User } from '../../core/types';
import type { Queryable } from '../store/db';
import type { Projection, StoredEvent } from '../store/event-store';

/**
 * Who receives public captures (core `receivesPublicCaptures`): approved members of the
 * corporate whose role has 'Propios' scope and is not a host administrator, who are not brokers
 * and whose account is not inactive. Ordered by id (byte order), as the rotation goes.
 */
export async function activeAdvisers(q: Queryable, corporate: Corporate): Promise<string[]> {
  const { rows } = await q.query<{ id: string; doc: User }>(
    `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text) ORDER BY id COLLATE "C"`,
    [corporate.id],
  );
  return rows
    .filter(({ doc }) => {
      const role = roleInCorporate(doc, corporate);
      return role !== undefined && receivesPublicCaptures(doc, role);
    })
    .map((r) => r.id);
}

/** A turn of the rotation: its number (1, 2, …) and the adviser it gives the lead to. */
export interface Turn {
  turno: number;
  idVendedor: string;
}

/**
 * Takes the corporate's next turn, in the caller's transaction (a command's scope): the adviser
 * after the last one among `advisers`, or the first. One statement: it creates the row on the
 * first turn, and otherwise waits for the row's lock and then reads the committed turn, so two
 * captures never take the same turn. Null when nobody receives captures (the lead stays
 * unassigned and no turn is taken).
 */
export async function takeTurn(
  q: Queryable,
  corporateId: string,
  advisers: readonly string[],
): Promise<Turn | null> {
  if (advisers.length === 0) return null;
  const { rows } = await q.query<{ turns: number; last_adviser: string }>(
    `WITH roster AS (SELECT a COLLATE "C" AS a FROM unnest($2::text[]) AS u(a))
     INSERT INTO rm_lead_rotation AS r (corporate_id, turns, last_adviser)
     VALUES ($1, 1, (SELECT min(a) FROM roster))
     ON CONFLICT (corporate_id) DO UPDATE
        SET turns = r.turns + 1,
            last_adviser = COALESCE(
              (SELECT min(a) FROM roster WHERE a > r.last_adviser COLLATE "C"),
              (SELECT min(a) FROM roster))
     RETURNING turns, last_adviser`,
    [corporateId, advisers],
  );
  const row = rows[0]!;
  return { turno: Number(row.turns), idVendedor: row.last_adviser };
}

/**
 * `rm_lead_rotation` from the log: the capture's `LeadAssigned { turno }` (and, for logs written
 * before the counter, `LeadRoundRobinAdvanced` on the rotation's old stream, whose version was
 * the turn). Live, the capture has already written the same row in the same transaction, so this
 * changes nothing; in a rebuild the turns replay in commit order and the last one wins.
 */
export const leadRotationProjection: Projection = {
  name: 'lead-rotation',
  tables: ['rm_lead_rotation'],
  handles: ['LeadAssigned', 'LeadRoundRobinAdvanced'],
  async apply(tx: Queryable, event: StoredEvent) {
    const turn = rotationTurn(event);
    if (!turn || !event.corporateId) return;
    await tx.query(
      `INSERT INTO rm_lead_rotation AS r (corporate_id, turns, last_adviser) VALUES ($1, $2, $3)
       ON CONFLICT (corporate_id) DO UPDATE
          SET turns = EXCLUDED.turns, last_adviser = EXCLUDED.last_adviser
        WHERE r.turns < EXCLUDED.turns`,
      [event.corporateId, turn.turno, turn.idVendedor],
    );
  },
};

function rotationTurn(event: StoredEvent): Turn | null {
  if (event.type === 'LeadAssigned') {
    const data = event.data as { to?: string; turno?: number };
    return typeof data.turno === 'number' && data.to
      ? { turno: data.turno, idVendedor: data.to }
      : null;
  }
  const data = event.data as { idVendedor?: string };
  return data.idVendedor ? { turno: event.version, idVendedor: data.idVendedor } : null;
}
