/**
 * The lead aggregate (spec §3 Lead and Lead note, §4 lead list and notes, §6 lead scope): a
 * pure decider. `decide(command, state)` answers with the events a command produces (or a typed
 * domain error), `evolve(state, event)` folds one event into the state. One stream per lead;
 * the follow-up notes live in the lead's stream, so the history and the notes timeline read the
 * same log. Field names are the spec's (they are the wire format).
 */

import type { Decider } from './decider';

/** The fields a user edits on a lead (spec §3), in the order the history lists them. */
export const LEAD_EDITABLE_FIELDS = [
  'nombre',
  'apellidos',
  'email',
  'telefono',
  'celular',
  'notas',
  'medioContacto',
  'tipo',
  'status',
  'desarrollo',
] as const;

export type LeadEditableField = (typeof LEAD_EDITABLE_FIELDS)[number];

/** Fields whose changes the change history lists: the editable ones, the owner and deletion. */
export const LEAD_HISTORY_FIELDS = [...LEAD_EDITABLE_FIELDS, 'idVendedor', 'eliminado'] as const;

export type LeadHistoryField = (typeof LEAD_HISTORY_FIELDS)[number];

export interface LeadFields {
  nombre: string;
  apellidos: string;
  email: string | null;
  telefono: string | null;
  celular: string | null;
  /** Free text on the lead itself (the follow-up notes are {@link LeadNote}s). */
  notas: string;
  /** One of the corporate's `mediosContacto`. */
  medioContacto: string | null;
  tipo: string | null;
  /** Id of one of the corporate's lead statuses (`wsObtenerStatusLeads`). */
  status: string | null;
  /** Id of a development of the corporate. */
  desarrollo: string | null;
}

/** A lead as the read model and the API show it (spec §3). */
export interface Lead extends LeadFields {
  id: string;
  idCorporativo: string;
  /**
   * The adviser who owns the lead; `alcanceLeads = Propios` users see only their own. Null while
   * unassigned (a public capture before its round-robin assignment, or no adviser available).
   */
  idVendedor: string | null;
  /** Registration time in seconds since the epoch. */
  fechaAlta: number;
  eliminado: boolean;
}

/** A follow-up note (spec §3 Lead note): deleted softly, hidden from lists. */
export interface LeadNote {
  key: string;
  nota: string;
  /** Seconds since the epoch. */
  fechaRegistro: number;
  eliminado: boolean;
  /** Who wrote it; null for notes written by the public capture. */
  idUsuario: string | null;
}

/** The aggregate's state: the lead (null before registration) and its notes by key. */
export interface LeadState {
  lead: Lead | null;
  notes: Readonly<Record<string, LeadNote>>;
  /**
   * The appointment whose booking handed the lead to its current adviser (a host's client
   * booked with an adviser), else null: moving that appointment to another adviser moves the
   * client with it; a client the adviser had anyway stays theirs.
   */
  handedFor: string | null;
}

export const initialLeadState: LeadState = { lead: null, notes: {}, handedFor: null };

export type LeadFieldValue = string | boolean | null;

/** `{ campo: { from, to } }` for every field that changed. */
export type LeadFieldChanges = Partial<
  Record<LeadEditableField, { from: string | null; to: string | null }>
>;

/**
 * Every event carries the corporate and the lead's owner after the event, so a live stream can
 * filter by tenant and by `alcanceLeads` without reading the read model.
 */
interface LeadEventBase {
  idLead: string;
  idCorporativo: string;
  idVendedor: string | null;
}

export type LeadEvent =
  | { type: 'LeadRegistered'; data: LeadEventBase & { lead: Lead } }
  | { type: 'LeadUpdated'; data: LeadEventBase & { changes: LeadFieldChanges } }
  | {
      type: 'LeadAssigned';
      data: LeadEventBase & {
        from: string | null;
        to: string;
        /** The public capture's round-robin turn that gave the lead (absent for a hand assignment). */
        turno?: number;
        /** The appointment whose booking (or reassignment) handed the lead to its adviser. */
        idCita?: string;
      };
    }
  | { type: 'LeadDeleted'; data: LeadEventBase }
  | { type: 'LeadNoteAdded'; data: LeadEventBase & { note: LeadNote } }
  | { type: 'LeadNoteDeleted'; data: LeadEventBase & { key: string } }
  | {
      type: 'LeadMerged';
      data: LeadEventBase & {
        idLeadDuplicado: string;
        changes: LeadFieldChanges;
        notes: LeadNote[];
      };
    }
  | { type: 'LeadMergedInto'; data: LeadEventBase & { idLeadPrincipal: string } };

export type LeadEventType = LeadEvent['type'];

export const LEAD_EVENT_TYPES: readonly LeadEventType[] = [
  'LeadRegistered',
  'LeadUpdated',
  'LeadAssigned',
  'LeadDeleted',
  'LeadNoteAdded',
  'LeadNoteDeleted',
  'LeadMerged',
  'LeadMergedInto',
];

export type LeadCommand =
  | {
      type: 'RegisterLead';
      idLead: string;
      idCorporativo: string;
      idVendedor: string | null;
      fields: LeadFields;
      /** Seconds since the epoch. */
      now: number;
    }
  | {
      type: 'UpdateLead';
      changes: Partial<LeadFields>;
      /**
       * What the editor saw (`leadAnterior`): any of these that no longer holds means the lead
       * changed meanwhile, a conflict, never a silent overwrite.
       */
      expected: Partial<LeadFields & Pick<Lead, 'idVendedor'>>;
    }
  /** `turno`: the public capture's round-robin turn, when the rotation chose the adviser. */
  | { type: 'AssignLead'; idVendedor: string; turno?: number; idCita?: string }
  | { type: 'DeleteLead' }
  | { type: 'AddLeadNote'; key: string; nota: string; idUsuario: string | null; now: number }
  | { type: 'DeleteLeadNote'; key: string }
  /** Absorb a duplicate: fill this lead's empty fields from it and copy its visible notes. */
  | { type: 'MergeLead'; duplicate: LeadState }
  /** The duplicate's side of a merge: it is deleted, pointing at the lead that absorbed it. */
  | { type: 'MarkLeadMerged'; idLeadPrincipal: string };

export type LeadFieldIssueCode = 'required' | 'invalid_email' | 'invalid_phone' | 'too_long';

export interface LeadFieldIssue {
  campo: LeadEditableField;
  code: LeadFieldIssueCode;
}

export type LeadError =
  | { code: 'LEAD_NOT_FOUND' }
  | { code: 'LEAD_EXISTS' }
  | { code: 'LEAD_DELETED' }
  | { code: 'LEAD_STALE'; current: Lead }
  | { code: 'LEAD_INVALID'; issues: LeadFieldIssue[] }
  | { code: 'NOTE_NOT_FOUND'; key: string }
  | { code: 'NOTE_INVALID' }
  | { code: 'MERGE_INVALID' };

export type LeadDecision = { ok: true; events: LeadEvent[] } | { ok: false; error: LeadError };

// ---------------------------------------------------------------------------------------------
// Validation and normalisation (shared with the UI so a form says what the server would say)

export const LEAD_TEXT_MAX = 120;
export const LEAD_NOTES_MAX = 5000;
export const LEAD_NOTE_MAX = 5000;
export const EMAIL_MAX = 254;

const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const PHONE_CHARS_RE = /^\+?[\d\s().-]+$/;

/** A plausible email: something@domain.tld, no spaces, at most 254 characters. */
export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL_RE.test(value);
}

/** The digits of a phone number (what search and duplicate detection compare). */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * How many trailing digits two phones are compared by for duplicates: the national number in
 * Mexico, the US and Canada, so `+52 55 1234 5678`, `+52 1 55 1234 5678` and `55 1234 5678` are
 * the same phone. Shorter numbers are compared whole.
 */
export const PHONE_MATCH_DIGITS = 10;

/** The part of a phone duplicate detection compares (see {@link PHONE_MATCH_DIGITS}). */
export function phoneMatchKey(value: string): string {
  const digits = phoneDigits(value);
  return digits.length > PHONE_MATCH_DIGITS ? digits.slice(-PHONE_MATCH_DIGITS) : digits;
}

/**
 * A country's telephone numbering as far as a WhatsApp link needs it: its calling code and how
 * many digits a national number has there (written without a trunk prefix).
 */
export interface PhoneCountry {
  code: string;
  nationalDigits: number;
}

/** Mexico: +52 and ten-digit national numbers since 2019 (no more 044/045/01 or mobile "1"). */
export const MEXICO_PHONE: PhoneCountry = { code: '52', nationalDigits: 10 };

const NANP_PHONE: PhoneCountry = { code: '1', nationalDigits: 10 };

/**
 * Countries by IANA time zone. The corporate has no country field (spec §3), but its
 * `zonaHoraria` says where it sells; zones not listed here fall back to {@link MEXICO_PHONE},
 * where every corporate of the product is today.
 */
const PHONE_COUNTRY_BY_ZONE: Readonly<Record<string, PhoneCountry>> = {
  ...Object.fromEntries(
    [
      'Mexico_City',
      'Cancun',
      'Merida',
      'Monterrey',
      'Matamoros',
      'Chihuahua',
      'Ciudad_Juarez',
      'Ojinaga',
      'Mazatlan',
      'Bahia_Banderas',
      'Hermosillo',
      'Tijuana',
    ].map((city) => [`America/${city}`, MEXICO_PHONE]),
  ),
  ...Object.fromEntries(
    [
      'America/New_York',
      'America/Chicago',
      'America/Denver',
      'America/Phoenix',
      'America/Los_Angeles',
      'America/Anchorage',
      'Pacific/Honolulu',
      'America/Puerto_Rico',
      'America/Toronto',
      'America/Vancouver',
      'America/Edmonton',
      'America/Winnipeg',
      'America/Halifax',
    ].map((zone) => [zone, NANP_PHONE]),
  ),
  'America/Bogota': { code: '57', nationalDigits: 10 },
  'America/Lima': { code: '51', nationalDigits: 9 },
  'America/Santiago': { code: '56', nationalDigits: 9 },
  'America/Guatemala': { code: '502', nationalDigits: 8 },
  'America/Costa_Rica': { code: '506', nationalDigits: 8 },
  'Europe/Madrid': { code: '34', nationalDigits: 9 },
};

/** The country whose national numbers a corporate's leads are written in, by its time zone. */
export function phoneCountryForTimeZone(zonaHoraria: string | null | undefined): PhoneCountry {
  return (zonaHoraria && PHONE_COUNTRY_BY_ZONE[zonaHoraria]) || MEXICO_PHONE;
}

/**
 * A phone as an international number, digits only (what `wa.me/<number>` wants), or null when it
 * cannot be one. Written with `+` or `00`, or already starting with the country code, it is kept
 * as written; a national number (exactly `country.nationalDigits` digits) gets the country code.
 * Mexico's retired prefixes are dropped: the mobile `1` after 52 (`+52 1 55…`) and the national
 * `044`, `045` and `01`. Anything shorter than a national number (a local number without its
 * area code) has no international form.
 */
export function internationalPhoneDigits(value: string, country: PhoneCountry): string | null {
  const written = value.trim();
  const all = phoneDigits(written);
  const national = country.nationalDigits;
  let digits: string;
  if (written.startsWith('+')) digits = all;
  else if (all.startsWith('00')) digits = all.slice(2);
  else if (all.length === national) digits = country.code + all;
  else if (
    country.code === MEXICO_PHONE.code &&
    ((all.length === national + 3 && /^04[45]/.test(all)) ||
      (all.length === national + 2 && all.startsWith('01')))
  )
    digits = country.code + all.slice(-national);
  // Without + or 00, only a number longer than a national one can hold a country code.
  else if (all.length > national) digits = all;
  else return null;
  if (digits.length === 13 && digits.startsWith(`${MEXICO_PHONE.code}1`)) {
    digits = MEXICO_PHONE.code + digits.slice(3);
  }
  // E.164: a country code and a subscriber number, 8 to 15 digits in all.
  return digits.length >= 8 && digits.length <= 15 ? digits : null;
}

/** What makes two leads the same person: the normalised email and the phones' match keys. */
export interface LeadContactKeys {
  /** Normalised email, '' when there is none. */
  email: string;
  /** Match keys of the phone and the mobile, without blanks or repeats. */
  phones: string[];
}

/** The {@link LeadContactKeys} of a lead's fields. */
export function leadContactKeys(
  lead: Pick<Partial<Lead>, 'email' | 'telefono' | 'celular'>,
): LeadContactKeys {
  const phones = [lead.telefono, lead.celular]
    .map((p) => (p ? phoneMatchKey(p) : ''))
    .filter((p, i, all) => p !== '' && all.indexOf(p) === i);
  return { email: lead.email ? normalizeSearchText(lead.email) : '', phones };
}

/** The keys of `next` that `previous` does not have: what an edit newly claims. */
export function addedContactKeys(
  previous: LeadContactKeys,
  next: LeadContactKeys,
): LeadContactKeys {
  return {
    email: next.email !== previous.email ? next.email : '',
    phones: next.phones.filter((p) => !previous.phones.includes(p)),
  };
}

/** A phone: digits with an optional leading +, spaces, dots, dashes or parentheses; 7 to 15 digits (E.164). */
export function isValidPhone(value: string): boolean {
  if (!PHONE_CHARS_RE.test(value)) return false;
  const digits = phoneDigits(value).length;
  return digits >= 7 && digits <= 15;
}

/**
 * Issues of a lead's fields, one per field at most: the name is required; email and phones, when
 * present, must be well formed; text is bounded.
 */
export function validateLeadFields(fields: LeadFields): LeadFieldIssue[] {
  const issues: LeadFieldIssue[] = [];
  if (fields.nombre.trim() === '') issues.push({ campo: 'nombre', code: 'required' });
  for (const campo of LEAD_EDITABLE_FIELDS) {
    if (campo === 'nombre' && fields.nombre.trim() === '') continue;
    const value = fields[campo];
    if (value === null) continue;
    const max = campo === 'notas' ? LEAD_NOTES_MAX : campo === 'email' ? EMAIL_MAX : LEAD_TEXT_MAX;
    if (value.length > max) issues.push({ campo, code: 'too_long' });
    else if (campo === 'email' && !isValidEmail(value))
      issues.push({ campo, code: 'invalid_email' });
    else if ((campo === 'telefono' || campo === 'celular') && !isValidPhone(value)) {
      issues.push({ campo, code: 'invalid_phone' });
    }
  }
  return issues;
}

function cleanOptional(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/**
 * Canonical form of lead fields as typed: text trimmed, empty optional values become null,
 * email lower-cased.
 */
export function normalizeLeadFields(input: Partial<LeadFields>): LeadFields {
  return {
    nombre: input.nombre?.trim() ?? '',
    apellidos: input.apellidos?.trim() ?? '',
    email: cleanOptional(input.email)?.toLowerCase() ?? null,
    telefono: cleanOptional(input.telefono),
    celular: cleanOptional(input.celular),
    notas: input.notas?.trim() ?? '',
    medioContacto: cleanOptional(input.medioContacto),
    tipo: cleanOptional(input.tipo),
    status: cleanOptional(input.status),
    desarrollo: cleanOptional(input.desarrollo),
  };
}

/** Only the fields present in `input`, normalised as {@link normalizeLeadFields} does. */
export function normalizeLeadChanges(input: Partial<LeadFields>): Partial<LeadFields> {
  const full = normalizeLeadFields(input);
  const out: Partial<Record<LeadEditableField, string | null>> = {};
  for (const campo of LEAD_EDITABLE_FIELDS) {
    if (input[campo] !== undefined) out[campo] = full[campo];
  }
  return out as Partial<LeadFields>;
}

/** Text for search-as-you-type: lower case, accents removed, spaces collapsed. */
export function normalizeSearchText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** The keys a lead is found by: name as written, surname first, email and both phones' digits. */
export function leadSearchKeys(
  lead: Pick<Lead, 'nombre' | 'apellidos' | 'email' | 'telefono' | 'celular'>,
) {
  return {
    nombre: normalizeSearchText(`${lead.nombre} ${lead.apellidos}`),
    nombreInverso: normalizeSearchText(`${lead.apellidos} ${lead.nombre}`),
    email: lead.email ? normalizeSearchText(lead.email) : '',
    telefono: lead.telefono ? phoneDigits(lead.telefono) : '',
    celular: lead.celular ? phoneDigits(lead.celular) : '',
  };
}

/**
 * Search-as-you-type rule (the server's query implements the same): the typed text is a prefix
 * of the full name, of "surname name", of the email, or (its digits, when it has 3 or more) of a
 * phone as {@link phoneMatchesSearch} reads it.
 */
export function leadMatchesQuery(
  lead: Pick<Lead, 'nombre' | 'apellidos' | 'email' | 'telefono' | 'celular'>,
  query: string,
): boolean {
  const q = normalizeSearchText(query);
  if (q === '') return true;
  const keys = leadSearchKeys(lead);
  if (keys.nombre.startsWith(q) || keys.nombreInverso.startsWith(q) || keys.email.startsWith(q)) {
    return true;
  }
  const digits = searchDigits(query);
  return (
    digits !== null &&
    [lead.telefono, lead.celular].some((phone) => phone && phoneMatchesSearch(phone, digits))
  );
}

/**
 * Whether a phone is found by the digits typed in the search: they are a prefix of the phone's
 * digits, or the typed number's match key is a prefix of the phone's (see
 * {@link PHONE_MATCH_DIGITS}). So `55 1234` finds `+52 55 1234 5678`, and `+52 1 55 1234 5678`
 * finds `55 1234 5678`, as duplicate detection would; a piece from the middle finds nothing.
 */
export function phoneMatchesSearch(phone: string, digits: string): boolean {
  return (
    phoneDigits(phone).startsWith(digits) || phoneMatchKey(phone).startsWith(phoneMatchKey(digits))
  );
}

/** The digits a query searches phones by: null unless it looks like a phone fragment (3+ digits). */
export function searchDigits(query: string): string | null {
  if (!/^[\d\s()+.-]+$/.test(query.trim())) return null;
  const digits = phoneDigits(query);
  return digits.length >= 3 ? digits : null;
}

/** Spec §4: the lead list is sorted newest first by fechaAlta (id breaks ties, as the server does). */
export function compareLeadsNewestFirst(a: Lead, b: Lead): number {
  return b.fechaAlta - a.fechaAlta || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Spec §4: notes lists hide deleted notes and sort newest first. */
export function visibleNotes(notes: Iterable<LeadNote>): LeadNote[] {
  return [...notes]
    .filter((n) => !n.eliminado)
    .sort((a, b) => b.fechaRegistro - a.fechaRegistro || (a.key < b.key ? 1 : -1));
}

// ---------------------------------------------------------------------------------------------
// Decide

const isEmpty = (value: LeadFieldValue | undefined) =>
  value === null || value === undefined || value === '' || value === false;

function fieldsOf(lead: Lead): LeadFields {
  const out = {} as Record<LeadEditableField, string | null>;
  for (const campo of LEAD_EDITABLE_FIELDS) out[campo] = lead[campo];
  return out as LeadFields;
}

function changesBetween(current: Lead, next: Partial<LeadFields>): LeadFieldChanges {
  const changes: LeadFieldChanges = {};
  for (const campo of LEAD_EDITABLE_FIELDS) {
    const to = next[campo];
    if (to === undefined || to === current[campo]) continue;
    changes[campo] = { from: current[campo], to };
  }
  return changes;
}

const ok = (events: LeadEvent[]): LeadDecision => ({ ok: true, events });
const fail = (error: LeadError): LeadDecision => ({ ok: false, error });

function base(lead: Lead, idVendedor = lead.idVendedor): LeadEventBase {
  return { idLead: lead.id, idCorporativo: lead.idCorporativo, idVendedor };
}

/** What a command produces given the lead's state: events, or why it cannot happen. */
export function decide(command: LeadCommand, state: LeadState): LeadDecision {
  if (command.type === 'RegisterLead') {
    if (state.lead) return fail({ code: 'LEAD_EXISTS' });
    const fields = normalizeLeadFields(command.fields);
    const issues = validateLeadFields(fields);
    if (issues.length > 0) return fail({ code: 'LEAD_INVALID', issues });
    const lead: Lead = {
      id: command.idLead,
      idCorporativo: command.idCorporativo,
      ...fields,
      idVendedor: command.idVendedor,
      fechaAlta: command.now,
      eliminado: false,
    };
    return ok([{ type: 'LeadRegistered', data: { ...base(lead), lead } }]);
  }
  const lead = state.lead;
  if (!lead) return fail({ code: 'LEAD_NOT_FOUND' });
  if (lead.eliminado) return fail({ code: 'LEAD_DELETED' });

  switch (command.type) {
    case 'UpdateLead': {
      for (const [campo, value] of Object.entries(command.expected)) {
        if (value === undefined) continue;
        const current = lead[campo as keyof typeof command.expected];
        const seen =
          campo === 'idVendedor'
            ? value
            : normalizeLeadChanges({ [campo]: value })[campo as LeadEditableField];
        if (current !== seen) return fail({ code: 'LEAD_STALE', current: lead });
      }
      const next = normalizeLeadChanges(command.changes);
      const issues = validateLeadFields({ ...fieldsOf(lead), ...next });
      if (issues.length > 0) return fail({ code: 'LEAD_INVALID', issues });
      const changes = changesBetween(lead, next);
      if (Object.keys(changes).length === 0) return ok([]);
      return ok([{ type: 'LeadUpdated', data: { ...base(lead), changes } }]);
    }
    case 'AssignLead':
      if (command.idVendedor === lead.idVendedor) return ok([]);
      return ok([
        {
          type: 'LeadAssigned',
          data: {
            ...base(lead, command.idVendedor),
            from: lead.idVendedor,
            to: command.idVendedor,
            ...(command.turno !== undefined ? { turno: command.turno } : {}),
            ...(command.idCita !== undefined ? { idCita: command.idCita } : {}),
          },
        },
      ]);
    case 'DeleteLead':
      return ok([{ type: 'LeadDeleted', data: base(lead) }]);
    case 'AddLeadNote': {
      const nota = command.nota.trim();
      if (nota === '' || nota.length > LEAD_NOTE_MAX || state.notes[command.key]) {
        return fail({ code: 'NOTE_INVALID' });
      }
      const note: LeadNote = {
        key: command.key,
        nota,
        fechaRegistro: command.now,
        eliminado: false,
        idUsuario: command.idUsuario,
      };
      return ok([{ type: 'LeadNoteAdded', data: { ...base(lead), note } }]);
    }
    case 'DeleteLeadNote': {
      const note = state.notes[command.key];
      if (!note || note.eliminado) return fail({ code: 'NOTE_NOT_FOUND', key: command.key });
      return ok([{ type: 'LeadNoteDeleted', data: { ...base(lead), key: command.key } }]);
    }
    case 'MergeLead': {
      const duplicate = command.duplicate.lead;
      if (
        !duplicate ||
        duplicate.eliminado ||
        duplicate.id === lead.id ||
        duplicate.idCorporativo !== lead.idCorporativo
      ) {
        return fail({ code: 'MERGE_INVALID' });
      }
      const fill: Partial<LeadFields> = {};
      for (const campo of LEAD_EDITABLE_FIELDS) {
        if (isEmpty(lead[campo]) && !isEmpty(duplicate[campo])) fill[campo] = duplicate[campo]!;
      }
      const notes = visibleNotes(Object.values(command.duplicate.notes)).filter(
        (n) => !state.notes[n.key],
      );
      return ok([
        {
          type: 'LeadMerged',
          data: {
            ...base(lead),
            idLeadDuplicado: duplicate.id,
            changes: changesBetween(lead, fill),
            notes,
          },
        },
      ]);
    }
    case 'MarkLeadMerged':
      if (command.idLeadPrincipal === lead.id) return fail({ code: 'MERGE_INVALID' });
      return ok([
        {
          type: 'LeadMergedInto',
          data: { ...base(lead), idLeadPrincipal: command.idLeadPrincipal },
        },
      ]);
    default: {
      const unhandled: never = command;
      throw new Error(`unknown command ${(unhandled as { type: string }).type}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Evolve

function applyChanges(lead: Lead, changes: LeadFieldChanges): Lead {
  const next = { ...lead };
  for (const campo of LEAD_EDITABLE_FIELDS) {
    const change = changes[campo];
    if (change) (next as Record<LeadEditableField, string | null>)[campo] = change.to;
  }
  return next;
}

/** The lead after one event (state is never mutated). */
export function evolveLead(lead: Lead | null, event: LeadEvent): Lead | null {
  if (event.type === 'LeadRegistered') return { ...event.data.lead };
  if (!lead) return lead;
  switch (event.type) {
    case 'LeadUpdated':
      return applyChanges(lead, event.data.changes);
    case 'LeadMerged':
      return applyChanges(lead, event.data.changes);
    case 'LeadAssigned':
      return { ...lead, idVendedor: event.data.to };
    case 'LeadDeleted':
    case 'LeadMergedInto':
      return { ...lead, eliminado: true };
    case 'LeadNoteAdded':
    case 'LeadNoteDeleted':
      return lead;
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

function evolveNotes(notes: LeadState['notes'], event: LeadEvent): LeadState['notes'] {
  switch (event.type) {
    case 'LeadNoteAdded':
      return { ...notes, [event.data.note.key]: event.data.note };
    case 'LeadNoteDeleted': {
      const note = notes[event.data.key];
      return note ? { ...notes, [note.key]: { ...note, eliminado: true } } : notes;
    }
    case 'LeadMerged': {
      const next = { ...notes };
      for (const note of event.data.notes) next[note.key] = note;
      return next;
    }
    case 'LeadRegistered':
    case 'LeadUpdated':
    case 'LeadAssigned':
    case 'LeadDeleted':
    case 'LeadMergedInto':
      return notes;
    default: {
      const unhandled: never = event;
      throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
    }
  }
}

/** The aggregate after one event. */
export function evolve(state: LeadState, event: LeadEvent): LeadState {
  return {
    lead: evolveLead(state.lead, event),
    notes: evolveNotes(state.notes, event),
    handedFor:
      event.type === 'LeadAssigned'
        ? (event.data.idCita ?? null)
        : event.type === 'LeadRegistered'
          ? null
          : state.handedFor,
  };
}

/**
 * The lead aggregate as a {@link Decider}. Notes commute with everything else: `AddLeadNote`
 * depends only on the lead existing (not deleted) and its key being new, never on the stream
 * version, so a note that loses an append race can simply be re-decided on the fresh state (the
 * event carries the current `idVendedor`, so re-decide rather than append at any version).
 */
export const leadDecider: Decider<LeadCommand, LeadState, LeadEvent, LeadError> = {
  initialState: initialLeadState,
  decide,
  evolve,
};

/** The state a stream of events leaves. */
export function foldLead(events: Iterable<LeadEvent>): LeadState {
  let state = initialLeadState;
  for (const event of events) state = evolve(state, event);
  return state;
}

// ---------------------------------------------------------------------------------------------
// Change history (wsObtenerHistorialCambios)

/** An event as the log keeps it: who did it and when. */
export type LeadEnvelope = LeadEvent & { actorId: string | null; occurredAt: string | Date };

/** One line of the change history: who changed which field from what to what, and when. */
export interface LeadHistoryEntry {
  /** Seconds since the epoch. */
  fecha: number;
  /** The user who made the change; null for the public capture. */
  actor: string | null;
  campo: LeadHistoryField;
  anterior: LeadFieldValue;
  nuevo: LeadFieldValue;
  /** The event that made the change (stable key for lists). */
  evento: LeadEventType;
}

function changeEntries(changes: LeadFieldChanges) {
  return LEAD_EDITABLE_FIELDS.flatMap((campo) => {
    const change = changes[campo];
    return change ? [{ campo, anterior: change.from, nuevo: change.to }] : [];
  });
}

/**
 * The change history of a lead, oldest first: one entry per field that changed, exactly once.
 * Registration lists the fields it filled (from null); notes have their own timeline and are not
 * field changes.
 */
export function historyFromEvents(events: readonly LeadEnvelope[]): LeadHistoryEntry[] {
  const out: LeadHistoryEntry[] = [];
  for (const event of events) {
    const at = typeof event.occurredAt === 'string' ? new Date(event.occurredAt) : event.occurredAt;
    const meta = {
      fecha: Math.floor(at.getTime() / 1000),
      actor: event.actorId,
      evento: event.type,
    };
    const push = (
      entries: { campo: LeadHistoryField; anterior: LeadFieldValue; nuevo: LeadFieldValue }[],
    ) => {
      for (const e of entries) out.push({ ...meta, ...e });
    };
    switch (event.type) {
      case 'LeadRegistered': {
        const lead = event.data.lead;
        push(
          LEAD_HISTORY_FIELDS.filter((campo) => !isEmpty(lead[campo])).map((campo) => ({
            campo,
            anterior: null,
            nuevo: lead[campo],
          })),
        );
        break;
      }
      case 'LeadUpdated':
      case 'LeadMerged':
        push(changeEntries(event.data.changes));
        break;
      case 'LeadAssigned':
        push([{ campo: 'idVendedor', anterior: event.data.from, nuevo: event.data.to }]);
        break;
      case 'LeadDeleted':
      case 'LeadMergedInto':
        push([{ campo: 'eliminado', anterior: false, nuevo: true }]);
        break;
      case 'LeadNoteAdded':
      case 'LeadNoteDeleted':
        break;
      default: {
        const unhandled: never = event;
        throw new Error(`unknown event ${(unhandled as { type: string }).type}`);
      }
    }
  }
  return out;
}
