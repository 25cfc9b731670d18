/**
 * The duplicate-lead rule (spec: a person is one lead per corporate): a live lead of the
 * corporate may not share its email or a phone with another. Every write that gives a lead an
 * email or a phone goes through {@link refuseDuplicate}: registration, edits, the public capture
 * (which turns a known person into a note instead) and the client created with a quotation.
 *
 * Looking for a duplicate and then appending is a race: two registrations of one email would
 * both find nothing. So each contact key (normalised email, phone match key) has a claim stream
 * (streams.ts `contactClaimStream`), and the command that gives a lead that key locks the claim
 * stream together with the lead's own stream before it looks. Of two writers of one key, the
 * second waits for the first to commit, then finds the first lead in `rm_leads` (projected in
 * the first writer's transaction) and answers 409 LEAD_DUPLICATE. The `LeadContactClaimed` events
 * are facts of the log but feed no projection: `rm_leads` stays the one place the check reads.
 */
import { leadContactKeys, type Lead, type LeadContactKeys } from '../../core/lead';
import { maySeeLead, type MembershipRef } from '../../core/permissions';
import type { Queryable } from '../store/db';
import type { CommandScope } from '../store/command-handler';
import { ApiError } from '../http/errors';
import { nameIndex } from './queries';
import { contactClaimStream } from './streams';

const claimKeys = (keys: LeadContactKeys): string[] => [
  ...(keys.email === '' ? [] : [`email:${keys.email}`]),
  ...keys.phones.map((p) => `phone:${p}`),
];

/** The claim streams of `keys`: lock them before looking for a duplicate of those keys. */
export const claimStreams = (corporateId: string, keys: LeadContactKeys): string[] =>
  claimKeys(keys).map((key) => contactClaimStream(corporateId, key));

/** Whether a lead has any contact key at all. */
export const hasContactKeys = (keys: LeadContactKeys): boolean =>
  keys.email !== '' || keys.phones.length > 0;

/**
 * A live lead of the corporate (other than `exceptId`) sharing the email or a phone match key
 * (core/lead.ts PHONE_MATCH_DIGITS: `+52 55…` and `55…` are one phone), oldest first.
 */
export async function findDuplicate(
  q: Queryable,
  corporateId: string,
  contact: LeadContactKeys | Pick<Partial<Lead>, 'email' | 'telefono' | 'celular'>,
  exceptId: string | null = null,
): Promise<Lead | null> {
  const keys = 'phones' in contact ? contact : leadContactKeys(contact);
  if (!hasContactKeys(keys)) return null;
  // One branch per kind of contact key the lead has, each an equality on its own index, and
  // only those: as one WHERE of ORs over every key, the prepared statement's generic plan walked
  // the corporate's leads newest-first through `rm_leads_recent` for its ORDER BY … LIMIT 1 and
  // filtered every lead (6 ms at 5,000 leads, growing with the corporate, on every registration:
  // issue 21), and a branch for keys the lead lacks made every plan a custom one, planned again
  // on each registration. The statement's text is one of three, so each stays prepared.
  const params: unknown[] = [corporateId, exceptId];
  const live = `corporate_id = $1 AND NOT eliminado AND ($2::text IS NULL OR id <> $2)`;
  const branches: string[] = [];
  if (keys.email !== '') {
    params.push(keys.email);
    branches.push(`email_norm = $${params.length}`);
  }
  if (keys.phones.length > 0) {
    params.push(keys.phones);
    const n = params.length;
    branches.push(`right(telefono_norm, 10) = ANY($${n}::text[])`);
    branches.push(`right(celular_norm, 10) = ANY($${n}::text[])`);
  }
  const { rows } = await q.query<{ doc: Lead }>(
    `SELECT doc FROM (
       ${branches.map((b) => `SELECT doc, fecha_alta, id FROM rm_leads WHERE ${live} AND ${b}`).join(' UNION ALL ')}
     ) found
     ORDER BY fecha_alta, id LIMIT 1`,
    params,
  );
  return rows[0]?.doc ?? null;
}

/**
 * The 409 of a duplicate: `propietario.nombre`, the existing lead's owner, for everyone. A caller
 * who may see that lead (core `maySeeLead`: its owner, or a role that sees all leads) also gets
 * `idLead`, to open it, and `propio`, whether it is their own; anyone else (and the signed-out
 * public capture, `caller` null) learns nothing more than the owner's name.
 */
export async function duplicateLeadError(
  q: Queryable,
  caller: MembershipRef | null,
  existing: Lead,
): Promise<ApiError> {
  const names = await nameIndex(q, [existing.idVendedor]);
  const nombre = existing.idVendedor ? (names.get(existing.idVendedor) ?? '') : '';
  const propio = caller !== null && existing.idVendedor === caller.user.id;
  const visible = caller !== null && maySeeLead(caller, existing);
  return new ApiError(
    409,
    'LEAD_DUPLICATE',
    propio ? 'lead_duplicate_own' : 'lead_duplicate',
    { nombre },
    { propietario: { nombre }, ...(visible ? { idLead: existing.id, propio } : {}) },
  );
}

/**
 * Inside a command: locks the claim streams of `keys`, refuses with 409 LEAD_DUPLICATE when a
 * live lead of the corporate (other than `idLead` itself) already has one of them, and otherwise
 * claims them for `idLead` (written with the command's other events).
 */
export async function refuseDuplicate(
  scope: CommandScope,
  options: {
    corporateId: string;
    keys: LeadContactKeys;
    idLead: string;
    caller: MembershipRef | null;
  },
): Promise<void> {
  const { corporateId, keys, idLead, caller } = options;
  const streams = claimStreams(corporateId, keys);
  if (streams.length === 0) return;
  await scope.lock(streams);
  const existing = await findDuplicate(scope, corporateId, keys, idLead);
  if (existing) throw await duplicateLeadError(scope, caller, existing);
  await claimContacts(scope, corporateId, keys, idLead);
}

/** Appends `LeadContactClaimed` for each key to its (locked) claim stream. */
export async function claimContacts(
  scope: CommandScope,
  corporateId: string,
  keys: LeadContactKeys,
  idLead: string,
): Promise<void> {
  for (const streamId of claimStreams(corporateId, keys)) {
    await scope.emit(streamId, [{ type: 'LeadContactClaimed', data: { idLead } }]);
  }
}
