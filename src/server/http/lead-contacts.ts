/**
 * Duplicate protection for leads (spec: a person is one lead per corporate), shared by every
 * write that gives a lead an email or a phone: registration, edits, public capture and the
 * client created with a quotation.
 *
 * Looking for a duplicate and then appending is a race: two registrations of the same email
 * both find nothing and both succeed. So each contact key (normalised email, phone match key)
 * has a claim stream, `lead-contact:<corporateId>:<sha256>`, and a write that gives a lead that
 * key appends a `LeadContactClaimed` event to it in the same atomic append as the lead's own
 * events, expecting the version it read before looking. Of two concurrent writers of one key,
 * the second fails with a ConcurrencyError on the claim stream; it runs again, now finds the
 * first lead in `rm_leads` (projected in the first writer's transaction) and answers 409. The
 * claim events are facts of the log but feed no projection: `rm_leads` stays the one place the
 * duplicate check reads.
 */
import { createHash } from 'node:crypto';
import { leadContactKeys, type Lead, type LeadContactKeys } from '../../core/lead';
import type { Db } from '../store/db';
import { ConcurrencyError, type AppendRequest } from '../store/event-store';
import { findCorporate, findUser, type Ctx } from './context';
import { ApiError } from './errors';

const CLAIM_STREAM_PREFIX = 'lead-contact:';

/** The claim stream of one contact key; hashed, so no email or phone appears in stream ids. */
export function contactStream(corporateId: string, key: string): string {
  const digest = createHash('sha256').update(key).digest('hex');
  return `${CLAIM_STREAM_PREFIX}${corporateId}:${digest}`;
}

const claimKeys = (keys: LeadContactKeys): string[] => [
  ...(keys.email === '' ? [] : [`email:${keys.email}`]),
  ...keys.phones.map((p) => `phone:${p}`),
];

/** Whether a lead has any contact key at all. */
export const hasContactKeys = (keys: LeadContactKeys): boolean =>
  keys.email !== '' || keys.phones.length > 0;

/**
 * A live lead of the corporate (other than `exceptId`) sharing the email or a phone match key
 * (core/lead.ts PHONE_MATCH_DIGITS: `+52 55…` and `55…` are one phone), oldest first.
 */
export async function findDuplicate(
  db: Db,
  corporateId: string,
  contact: LeadContactKeys | Pick<Partial<Lead>, 'email' | 'telefono' | 'celular'>,
  exceptId: string | null = null,
): Promise<Lead | null> {
  const keys = 'phones' in contact ? contact : leadContactKeys(contact);
  if (!hasContactKeys(keys)) return null;
  const { rows } = await db.query<{ doc: Lead }>(
    `SELECT doc FROM rm_leads
     WHERE corporate_id = $1 AND NOT eliminado AND ($4::text IS NULL OR id <> $4)
       AND ((email_norm = $2 AND $2 <> '')
            OR right(telefono_norm, 10) = ANY($3::text[])
            OR right(celular_norm, 10) = ANY($3::text[]))
     ORDER BY fecha_alta, id LIMIT 1`,
    [corporateId, keys.email, keys.phones, exceptId],
  );
  return rows[0]?.doc ?? null;
}

/**
 * The 409 of a duplicate (spec: duplicate protection): `propietario.nombre`, the existing lead's
 * owner, for everyone. A caller who may see that lead (its owner, or `alcanceLeads = Todos`, the
 * scope rule of leads.routes.ts) also gets `idLead`, to open it, and `propio`, whether it is
 * their own; anyone else learns nothing more than the owner's name.
 */
export async function duplicateError(c: Ctx, existing: Lead): Promise<ApiError> {
  const db = c.get('deps').db;
  const owner = existing.idVendedor ? await findUser(db, existing.idVendedor) : null;
  const nombre = owner ? `${owner.nombre} ${owner.apellidos ?? ''}`.trim() : '';
  const callerId = c.get('userId');
  const propio = callerId !== null && existing.idVendedor === callerId;
  let visible = propio;
  if (!visible && callerId !== null) {
    const caller = await findUser(db, callerId);
    const corporate = await findCorporate(db, { id: existing.idCorporativo });
    const role = corporate?.roles.find((r) => r.id === caller?.roles[corporate.id]);
    visible =
      caller?.corporativos.includes(existing.idCorporativo) === true &&
      role?.permisosLeads.alcanceLeads === 'Todos';
  }
  return new ApiError(
    409,
    'LEAD_DUPLICATE',
    propio ? 'lead_duplicate_own' : 'lead_duplicate',
    { nombre },
    { propietario: { nombre }, ...(visible ? { idLead: existing.id, propio } : {}) },
  );
}

/**
 * The claim appends for `keys` on behalf of lead `idLead`, each expecting the claim stream's
 * current version. Read them BEFORE looking for a duplicate, and append them with the lead's
 * events.
 */
export async function contactClaims(
  c: Ctx,
  corporateId: string,
  keys: LeadContactKeys,
  idLead: string,
  actorId: string | null,
): Promise<AppendRequest[]> {
  const deps = c.get('deps');
  const now = deps.clock();
  return Promise.all(
    claimKeys(keys).map(async (key) => {
      const streamId = contactStream(corporateId, key);
      return {
        streamId,
        expectedVersion: await deps.store.streamVersion(streamId),
        events: [
          {
            id: deps.newId(),
            type: 'LeadContactClaimed',
            data: { idLead },
            corporateId,
            actorId,
            occurredAt: now,
          },
        ],
      };
    }),
  );
}

/** Whether an append failed because a concurrent writer claimed one of the same contact keys. */
export const isClaimConflict = (error: unknown): boolean =>
  error instanceof ConcurrencyError && error.streamId.startsWith(CLAIM_STREAM_PREFIX);

/**
 * Runs `attempt` again while it fails on a claim conflict (at most `tries` times): each run
 * re-reads the claims and looks for the duplicate again, which the concurrent writer has now
 * written, so a race ends in the same 409 as a sequential duplicate.
 */
export async function retryOnClaimConflict<T>(attempt: () => Promise<T>, tries = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await attempt();
    } catch (error) {
      if (!isClaimConflict(error) || i >= tries) throw error;
    }
  }
}
