/**
 * The public capture's round robin: each new lead from a website form goes to the next adviser
 * of the corporate's rotation. The rotation is a stream of its own (streams.ts
 * `roundRobinStream`), one `LeadRoundRobinAdvanced { idVendedor, idLead }` per turn; a command
 * that takes a turn locks it, so two captures at once take two turns, one after the other.
 */
import { receivesPublicCaptures, roleInCorporate } from '../../core/permissions';
import type { Corporate, User } from '../../core/types';
import type { Queryable } from '../store/db';
import type { CommandScope } from '../store/command-handler';
import { roundRobinStream } from './streams';

/**
 * Who receives public captures (core `receivesPublicCaptures`): approved members of the
 * corporate whose role has 'Propios' scope and is not a host administrator, who are not brokers
 * and whose account is not inactive. Ordered by id, so the rotation is stable.
 */
export async function activeAdvisers(q: Queryable, corporate: Corporate): Promise<string[]> {
  const { rows } = await q.query<{ id: string; doc: User }>(
    `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text) ORDER BY id`,
    [corporate.id],
  );
  return rows
    .filter(({ doc }) => {
      const role = roleInCorporate(doc, corporate);
      return role !== undefined && receivesPublicCaptures(doc, role);
    })
    .map((r) => r.id);
}

/** The adviser after `last` in the rotation (the first when there is no last). */
export function nextInRotation(advisers: readonly string[], last: string | null): string | null {
  if (advisers.length === 0) return null;
  if (last === null) return advisers[0]!;
  return advisers.find((id) => id > last) ?? advisers[0]!;
}

/**
 * Inside a command: locks the corporate's rotation, reads its last turn and takes the next one
 * for lead `idLead` (written with the command's other events). Null when nobody receives
 * captures; the lead then stays unassigned.
 */
export async function takeNextAdviser(
  scope: CommandScope,
  corporate: Corporate,
  idLead: string,
): Promise<string | null> {
  const advisers = await activeAdvisers(scope, corporate);
  if (advisers.length === 0) return null;
  const streamId = roundRobinStream(corporate.id);
  const version = await scope.version(streamId);
  // Only the last turn matters; the rotation's stream grows with every capture, so it is not
  // folded whole.
  const { rows } =
    version > 0
      ? await scope.query<{ data: { idVendedor?: string } }>(
          'SELECT data FROM events WHERE stream_id = $1 AND version = $2',
          [streamId, version],
        )
      : { rows: [] };
  const adviser = nextInRotation(advisers, rows[0]?.data.idVendedor ?? null)!;
  await scope.emit(streamId, [
    { type: 'LeadRoundRobinAdvanced', data: { idVendedor: adviser, idLead } },
  ]);
  return adviser;
}
