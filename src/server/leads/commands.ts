/**
 * Every write of the leads area, each one command of the one command handler
 * (store/command-handler.ts): lock the streams it writes, load the lead with the core's
 * `leadDecider`, check what the decider cannot know (references, the assignee, duplicates),
 * decide, emit. Inside a command the database is read only through the scope (it is the
 * command's transaction, under its locks).
 *
 * Writers of one lead queue on its stream's lock, so nothing here retries by hand: 100 notes at
 * once are 100 notes, and of edits that carry the same `leadAnterior` the first wins and the
 * others are answered by the decider's LEAD_STALE (409 with the current lead).
 */
import {
  addedContactKeys,
  LEAD_EDITABLE_FIELDS,
  leadContactKeys,
  leadDecider,
  normalizeLeadChanges,
  normalizeLeadFields,
  phoneDigits,
  type Lead,
  type LeadCommand,
  type LeadEditableField,
  type LeadEvent,
  type LeadFields,
  type LeadNote,
  type LeadState,
} from '../../core/lead';
import { isApprovedMember, mayAssignLeadTo, maySeeLead } from '../../core/permissions';
import type { User } from '../../core/types';
import type { CorporateConfig } from '../catalogue/events';
import {
  handleCommand,
  runCommand,
  type CommandActor,
  type CommandEnv,
  type CommandScope,
} from '../store/command-handler';
import type { Queryable } from '../store/db';
import type { Membership } from '../http/context';
import { ApiError, badRequest } from '../http/errors';
import type { Capture } from './capture';
import { claimContacts, claimStreams, findDuplicate, refuseDuplicate } from './duplicates';
import { documentNotFound, leadErrorToApi, leadNotFound } from './errors';
import { fullName } from './queries';
import { activeAdvisers, takeTurn } from './round-robin';
import { leadStream } from './streams';

/** A lead's editable fields as a request carries them: any subset (other keys are ignored). */
export type LeadFieldsInput = { readonly [K in LeadEditableField]?: string | null | undefined };

type CorporateDoc = Membership['corporate'] & CorporateConfig;

const actorOf = (m: Membership): CommandActor => ({
  actorId: m.user.id,
  corporateId: m.corporate.id,
});

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

/**
 * A note key that sorts by creation time (milliseconds, base 36, fixed width) before its random
 * part: notes written within the same second still list newest first.
 */
const noteKey = (scope: CommandScope) =>
  `${scope.now.getTime().toString(36).padStart(10, '0')}-${scope.newId().slice(0, 8)}`;

/** Only the editable fields present in a parsed body. */
function pickFields(body: LeadFieldsInput): Partial<LeadFields> {
  const out: Partial<Record<LeadEditableField, unknown>> = {};
  for (const campo of LEAD_EDITABLE_FIELDS) if (body[campo] !== undefined) out[campo] = body[campo];
  return out as Partial<LeadFields>;
}

/** The live lead of the state if the member may see it; else `notFound` (404 either way). */
function visibleLead(m: Membership, state: LeadState, notFound = leadNotFound): Lead {
  const lead = state.lead;
  if (!lead || lead.eliminado || !maySeeLead(m, lead)) throw notFound();
  return lead;
}

const after = (state: LeadState, events: readonly LeadEvent[]) =>
  events.reduce((s, e) => leadDecider.evolve(s, e), state);

/**
 * `medioContacto`, `status` and `desarrollo` must be values the corporate knows (400). A channel
 * may also be one of the campaigns (spec §3 `campanias`) of `campaignsOf`, the lead's development
 * of interest after the change (the lead editor offers them).
 */
async function checkReferences(
  q: Queryable,
  corporate: CorporateDoc,
  fields: Partial<LeadFields>,
  campaignsOf: string | null = null,
): Promise<void> {
  const issues: { path: string; code: string }[] = [];
  if (fields.medioContacto && !corporate.mediosContacto.includes(fields.medioContacto)) {
    const { rows } = campaignsOf
      ? await q.query<{ campanias: string[] | null }>(
          "SELECT doc->'campanias' AS campanias FROM rm_developments WHERE corporate_id = $1 AND id = $2",
          [corporate.id, campaignsOf],
        )
      : { rows: [] };
    if (!(rows[0]?.campanias ?? []).includes(fields.medioContacto))
      issues.push({ path: 'medioContacto', code: 'unknown_value' });
  }
  if (fields.status && !(corporate.statusLeads ?? []).some((s) => s.id === fields.status)) {
    issues.push({ path: 'status', code: 'unknown_value' });
  }
  if (fields.desarrollo) {
    const { rows } = await q.query(
      'SELECT 1 FROM rm_developments WHERE corporate_id = $1 AND id = $2',
      [corporate.id, fields.desarrollo],
    );
    if (rows.length === 0) issues.push({ path: 'desarrollo', code: 'unknown_value' });
  }
  if (issues.length > 0) throw badRequest(issues);
}

/**
 * The target of an assignment: the member may give leads to them (core `mayAssignLeadTo`, else
 * 403), and they are an approved member of the corporate (else 400 LEAD_ADVISER_INVALID).
 */
async function checkAssignee(q: Queryable, m: Membership, idVendedor: string): Promise<void> {
  if (idVendedor === m.user.id) return;
  if (!mayAssignLeadTo(m, idVendedor)) {
    throw new ApiError(403, 'FORBIDDEN', 'lead_assign_forbidden');
  }
  const { rows } = await q.query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [
    idVendedor,
  ]);
  const target = rows[0]?.doc;
  if (!target || !isApprovedMember(target, m.corporate.id)) {
    throw new ApiError(400, 'LEAD_ADVISER_INVALID', 'lead_adviser_invalid');
  }
}

/**
 * Registers a lead (owner: `idVendedor`, by default the member; status: by default the
 * corporate's first). 400 for bad fields or unknown references, 403/400 for the assignee, 409
 * LEAD_DUPLICATE when a live lead has the email or a phone.
 */
export function registerLead(
  env: CommandEnv,
  m: Membership,
  input: LeadFieldsInput & { idVendedor?: string | undefined },
): Promise<Lead> {
  const corporate = m.corporate as CorporateDoc;
  const fields = normalizeLeadFields(pickFields(input));
  fields.status ??= corporate.statusLeads?.[0]?.id ?? null;
  const idVendedor = input.idVendedor ?? m.user.id;
  return runCommand(env, actorOf(m), async (scope) => {
    const idLead = scope.newId();
    const register: LeadCommand = {
      type: 'RegisterLead',
      idLead,
      idCorporativo: corporate.id,
      idVendedor,
      fields,
      now: seconds(scope.now),
    };
    // Field format first (400), then references, then ownership, then duplicates.
    const events = scope.decide(leadDecider, leadDecider.initialState, register, leadErrorToApi);
    await checkReferences(scope, corporate, fields, fields.desarrollo ?? null);
    await checkAssignee(scope, m, idVendedor);
    const keys = leadContactKeys(fields);
    // The new lead's stream with its contact claims: one lock for all.
    await scope.lock([...claimStreams(corporate.id, keys), leadStream(corporate.id, idLead)]);
    await refuseDuplicate(scope, { corporateId: corporate.id, keys, idLead, caller: m });
    await scope.emit(leadStream(corporate.id, idLead), events);
    return after(leadDecider.initialState, events).lead!;
  });
}

/**
 * Edits a lead: `input` holds the changed fields, `leadAnterior` the lead as the editor loaded
 * it. A field of `leadAnterior` that no longer matches is answered first: 409 with the current
 * lead, nothing written. A different `idVendedor` reassigns (the assign rules apply); an email or
 * phone the lead did not have must not belong to another live lead (409 LEAD_DUPLICATE).
 */
export function updateLead(
  env: CommandEnv,
  m: Membership,
  leadId: string,
  input: LeadFieldsInput & {
    idVendedor?: string | null | undefined;
    leadAnterior: LeadFieldsInput & { idVendedor?: string | null | undefined };
  },
): Promise<Lead> {
  const corporate = m.corporate as CorporateDoc;
  const update: LeadCommand = {
    type: 'UpdateLead',
    changes: pickFields(input),
    expected: {
      ...pickFields(input.leadAnterior),
      ...(input.leadAnterior.idVendedor !== undefined
        ? { idVendedor: input.leadAnterior.idVendedor }
        : {}),
    },
  };
  const changes = normalizeLeadChanges(pickFields(input));
  const streamId = leadStream(corporate.id, leadId);
  return runCommand(env, actorOf(m), async (scope) => {
    // The claims the edit may take (those of the contact fields it sends) are locked with the
    // lead in one go: it never holds the lead while it waits for a claim a capture holds.
    await scope.lock([streamId, ...claimStreams(corporate.id, leadContactKeys(changes))]);
    const { state } = await scope.load(leadDecider, streamId);
    const lead = visibleLead(m, state);
    // A stale leadAnterior is answered first, with the current lead, whatever else is wrong.
    const first = leadDecider.decide(update, state);
    if (!first.ok && first.error.code === 'LEAD_STALE') throw leadErrorToApi(first.error);
    await checkReferences(
      scope,
      corporate,
      changes,
      changes.desarrollo !== undefined ? changes.desarrollo : lead.desarrollo,
    );
    const commands: LeadCommand[] = [update];
    if (input.idVendedor && input.idVendedor !== lead.idVendedor) {
      await checkAssignee(scope, m, input.idVendedor);
      commands.push({ type: 'AssignLead', idVendedor: input.idVendedor });
    }
    const events = scope.decide(leadDecider, state, commands, leadErrorToApi);
    const added = addedContactKeys(leadContactKeys(lead), leadContactKeys({ ...lead, ...changes }));
    await refuseDuplicate(scope, {
      corporateId: corporate.id,
      keys: added,
      idLead: lead.id,
      caller: m,
    });
    await scope.emit(streamId, events);
    return after(state, events).lead!;
  });
}

/** Soft-deletes a lead (`eliminado`); its history stays. */
export async function deleteLead(env: CommandEnv, m: Membership, leadId: string): Promise<void> {
  await handleCommand(env, actorOf(m), {
    decider: leadDecider,
    streamId: leadStream(m.corporate.id, leadId),
    command: ({ state }): LeadCommand => {
      visibleLead(m, state);
      return { type: 'DeleteLead' };
    },
    reject: leadErrorToApi,
  });
}

/** Gives a lead to `idVendedor` (403/400 under the assign rules). */
export async function assignLead(
  env: CommandEnv,
  m: Membership,
  leadId: string,
  idVendedor: string,
): Promise<Lead> {
  const { state } = await handleCommand(env, actorOf(m), {
    decider: leadDecider,
    streamId: leadStream(m.corporate.id, leadId),
    command: async ({ state }, scope): Promise<LeadCommand> => {
      visibleLead(m, state);
      await checkAssignee(scope, m, idVendedor);
      return { type: 'AssignLead', idVendedor };
    },
    reject: leadErrorToApi,
  });
  return state.lead!;
}

/**
 * Merges lead `duplicateId` into `leadId`: the main lead's empty fields are filled from the
 * duplicate and gets its notes; the duplicate is deleted (LeadMergedInto). One atomic append.
 */
export function mergeLeads(
  env: CommandEnv,
  m: Membership,
  leadId: string,
  duplicateId: string,
): Promise<Lead> {
  const mainStream = leadStream(m.corporate.id, leadId);
  const duplicateStream = leadStream(m.corporate.id, duplicateId);
  return runCommand(env, actorOf(m), async (scope) => {
    await scope.lock([mainStream, duplicateStream]);
    const main = await scope.load(leadDecider, mainStream);
    visibleLead(m, main.state);
    const duplicate = await scope.load(leadDecider, duplicateStream);
    visibleLead(m, duplicate.state);
    const merge: LeadCommand = { type: 'MergeLead', duplicate: duplicate.state };
    const mainEvents = scope.decide(leadDecider, main.state, merge, leadErrorToApi);
    const markMerged: LeadCommand = { type: 'MarkLeadMerged', idLeadPrincipal: leadId };
    const duplicateEvents = scope.decide(leadDecider, duplicate.state, markMerged, leadErrorToApi);
    await scope.emit(mainStream, mainEvents);
    await scope.emit(duplicateStream, duplicateEvents);
    return after(main.state, mainEvents).lead!;
  });
}

/** Adds a note by the member (404 'El documento no existe…' for a lead they may not see). */
export async function addLeadNote(
  env: CommandEnv,
  m: Membership,
  leadId: string,
  nota: string,
): Promise<LeadNote | null> {
  const { events } = await handleCommand(env, actorOf(m), {
    decider: leadDecider,
    streamId: leadStream(m.corporate.id, leadId),
    command: ({ state }, scope): LeadCommand => {
      visibleLead(m, state, documentNotFound);
      const now = seconds(scope.now);
      return { type: 'AddLeadNote', key: noteKey(scope), nota, idUsuario: m.user.id, now };
    },
    reject: leadErrorToApi,
  });
  const added = events[0];
  return added?.type === 'LeadNoteAdded' ? added.data.note : null;
}

/** Soft-deletes a note (404 NOTE_NOT_FOUND for an unknown or deleted one). */
export async function deleteLeadNote(
  env: CommandEnv,
  m: Membership,
  leadId: string,
  key: string,
): Promise<void> {
  await handleCommand(env, actorOf(m), {
    decider: leadDecider,
    streamId: leadStream(m.corporate.id, leadId),
    command: ({ state }): LeadCommand => {
      visibleLead(m, state, documentNotFound);
      return { type: 'DeleteLeadNote', key };
    },
    reject: leadErrorToApi,
  });
}

/**
 * A website form's capture (checked by capture.ts). A person the corporate already has (same
 * email or phone, the duplicate rule) gets the contact as a note on their lead; anyone else
 * becomes a new lead, given to the next adviser of the round robin, with the message as a note.
 * The contact keys' claim streams are locked first, so two captures of one new person at once
 * give one lead and one note. Captures of different people share nothing but the rotation's
 * counter row, taken last: they never conflict, so a capture never fails for being simultaneous.
 */
export function captureLead(env: CommandEnv, capture: Capture): Promise<void> {
  const { corporate, medio, fields, mensaje } = capture;
  const keys = leadContactKeys(fields);
  return runCommand(env, { actorId: null, corporateId: corporate.id }, async (scope) => {
    const now = seconds(scope.now);
    await scope.lock(claimStreams(corporate.id, keys));
    const existing = await findDuplicate(scope, corporate.id, keys);
    if (existing) {
      // Known person: the new contact becomes a note for the owner; the visitor learns nothing.
      const streamId = leadStream(corporate.id, existing.id);
      const { state } = await scope.load(leadDecider, streamId);
      const contact = `${fullName(fields)} ${phoneDigits(fields.telefono ?? fields.celular ?? '')}`;
      const nota = `${medio}: ${mensaje || contact.trim()}`.slice(0, 5000);
      const note: LeadCommand = {
        type: 'AddLeadNote',
        key: noteKey(scope),
        nota,
        idUsuario: null,
        now,
      };
      await scope.emit(streamId, scope.decide(leadDecider, state, note, leadErrorToApi));
      return;
    }
    const idLead = scope.newId();
    const advisers = await activeAdvisers(scope, corporate);
    // Everything is locked and checked: the turn is taken last, so the rotation's row is held
    // only while this capture writes and commits (round-robin.ts).
    const turn = await takeTurn(scope, corporate.id, advisers);
    const commands: LeadCommand[] = [
      { type: 'RegisterLead', idLead, idCorporativo: corporate.id, idVendedor: null, fields, now },
    ];
    if (turn) commands.push({ type: 'AssignLead', idVendedor: turn.idVendedor, turno: turn.turno });
    if (mensaje) {
      const nota = `${medio}: ${mensaje}`;
      commands.push({ type: 'AddLeadNote', key: noteKey(scope), nota, idUsuario: null, now });
    }
    const events = scope.decide(leadDecider, leadDecider.initialState, commands, leadErrorToApi);
    await scope.emit(leadStream(corporate.id, idLead), events);
    await claimContacts(scope, corporate.id, keys, idLead);
  });
}
