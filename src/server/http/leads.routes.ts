/**
 * Leads (issue 6; spec §3 Lead and Lead note, §4, §6, §7 Leads). One event stream per lead,
 * `lead:<corporateId>:<leadId>`; lists read `rm_leads` / `rm_lead_notes`, the change history
 * reads the lead's own stream.
 *
 * Scope, enforced here for every read and write: the corporate comes from the session's
 * membership; `alcanceLeads = Propios` sees and touches only leads whose `idVendedor` is the
 * user (anything else answers 404, exactly as an absent lead); `Todos` sees the whole corporate.
 * Assigning a lead to someone else needs `Todos` or `permisos.activarAdminUsuarios`, and the
 * target must be an approved member of the corporate.
 *
 * Errors use the spec's shape `[{ errorCode, message, …extra }]`. A lead as returned is the
 * {@link Lead} document: `{ id, idCorporativo, nombre, apellidos, email, telefono, celular, notas,
 * medioContacto, tipo, status, desarrollo, idVendedor, fechaAlta (seconds), eliminado }`.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { getConnInfo } from '@hono/node-server/conninfo';
import { z } from 'zod';
import {
  decide,
  evolve,
  foldLead,
  historyFromEvents,
  isValidEmail,
  isValidPhone,
  addedContactKeys,
  LEAD_EDITABLE_FIELDS,
  leadContactKeys,
  normalizeLeadChanges,
  normalizeLeadFields,
  normalizeSearchText,
  PHONE_MATCH_DIGITS,
  phoneDigits,
  phoneMatchKey,
  searchDigits,
  type Lead,
  type LeadCommand,
  type LeadEnvelope,
  type LeadError,
  type LeadEvent,
  type LeadFields,
  type LeadNote,
  type LeadState,
} from '../../core/lead';
import type { Corporate, Role } from '../../core/types';
import type { CorporateConfig } from '../domain/catalogue-events';
import type { Db } from '../store/db';
import { ConcurrencyError, type AppendRequest, type StoredEvent } from '../store/event-store';
import { ApiError, badRequest, forbidden, jsonBody, lang, parse } from './errors';
import {
  findCorporate,
  findUser,
  requireMember,
  type Ctx,
  type Env,
  type Membership,
} from './context';
import {
  contactClaims,
  duplicateError,
  findDuplicate,
  retryOnClaimConflict,
} from './lead-contacts';
import { message } from './messages';

// ---------------------------------------------------------------------------------------------
// Streams, state and scope

export const leadStream = (corporateId: string, leadId: string) => `lead:${corporateId}:${leadId}`;

/**
 * A note key that sorts by creation time (milliseconds, base 36, fixed width) before its random
 * part: notes written within the same second still list newest first.
 */
function noteKey(deps: { clock: () => Date; newId: () => string }): string {
  return `${deps.clock().getTime().toString(36).padStart(10, '0')}-${deps.newId().slice(0, 8)}`;
}
const roundRobinStream = (corporateId: string) => `lead-roundrobin:${corporateId}`;

/** How many public captures one client address may send per hour. */
export const PUBLIC_CAPTURE_LIMIT_PER_HOUR = 20;
/** Page size bounds of `wsObtenerLeads`. */
export const LEADS_PAGE_MAX = 500;

type CorporateDoc = Corporate & CorporateConfig;

interface LoadedLead {
  state: LeadState;
  lead: Lead;
  version: number;
  events: StoredEvent[];
}

const asLeadEvent = (e: StoredEvent) => ({ type: e.type, data: e.data }) as LeadEvent;

async function loadLead(c: Ctx, corporateId: string, leadId: string) {
  const events = await c.get('deps').store.readStream(leadStream(corporateId, leadId));
  return { state: foldLead(events.map(asLeadEvent)), version: events.length, events };
}

const seesAll = (role: Role) => role.permisosLeads.alcanceLeads === 'Todos';
const mayAssign = (role: Role) => seesAll(role) || role.permisos.activarAdminUsuarios === true;

function inScope(m: Membership, lead: Lead | null): lead is Lead {
  return (
    lead !== null &&
    lead.idCorporativo === m.corporate.id &&
    (seesAll(m.role) || lead.idVendedor === m.user.id)
  );
}

const leadNotFound = () => new ApiError(404, 'NOT_FOUND', 'not_found');
const documentNotFound = () =>
  new ApiError(
    404,
    'DOCUMENT_NOT_FOUND',
    null,
    {},
    {},
    'El documento no existe en la ruta especificada.',
  );
const noteNotFound = (key: string) =>
  new ApiError(404, 'NOTE_NOT_FOUND', null, {}, {}, `La nota con la clave ${key} no existe.`);

/** The lead in the caller's scope, or 404 (out of scope and absent look the same). */
async function requireLead(
  c: Ctx,
  m: Membership,
  leadId: string,
  options: { allowDeleted?: boolean; notFound?: () => ApiError } = {},
): Promise<LoadedLead> {
  const loaded = await loadLead(c, m.corporate.id, leadId);
  const lead = loaded.state.lead;
  if (!inScope(m, lead) || (lead.eliminado && !options.allowDeleted)) {
    throw (options.notFound ?? leadNotFound)();
  }
  return { ...loaded, lead };
}

function leadErrorToApi(error: LeadError): ApiError {
  switch (error.code) {
    case 'LEAD_NOT_FOUND':
    case 'LEAD_DELETED':
      return leadNotFound();
    case 'LEAD_EXISTS':
      return new ApiError(409, 'CONFLICT', 'conflict');
    case 'LEAD_STALE':
      return new ApiError(409, 'CONFLICT', 'conflict', {}, { lead: error.current });
    case 'LEAD_INVALID':
      return badRequest(error.issues.map((i) => ({ path: i.campo, code: i.code })));
    case 'NOTE_NOT_FOUND':
      return noteNotFound(error.key);
    case 'NOTE_INVALID':
      return badRequest([{ path: 'nota', code: 'invalid' }]);
    case 'MERGE_INVALID':
      return badRequest([{ path: 'idLeadDuplicado', code: 'invalid' }]);
    default: {
      const unhandled: never = error;
      throw new Error(`unknown lead error ${(unhandled as { code: string }).code}`);
    }
  }
}

function decideOrThrow(command: LeadCommand, state: LeadState): LeadEvent[] {
  const decision = decide(command, state);
  if (!decision.ok) throw leadErrorToApi(decision.error);
  return decision.events;
}

/** Runs several commands one after the other on the evolving state; all must succeed. */
function decideAll(commands: LeadCommand[], state: LeadState): LeadEvent[] {
  const out: LeadEvent[] = [];
  let current = state;
  for (const command of commands) {
    const events = decideOrThrow(command, current);
    out.push(...events);
    current = events.reduce(evolve, current);
  }
  return out;
}

function appendRequest(
  c: Ctx,
  corporateId: string,
  leadId: string,
  expectedVersion: number,
  events: LeadEvent[],
  actorId: string | null,
): AppendRequest {
  const deps = c.get('deps');
  const now = deps.clock();
  return {
    streamId: leadStream(corporateId, leadId),
    expectedVersion,
    events: events.map((e) => ({
      id: deps.newId(),
      type: e.type,
      data: e.data,
      corporateId,
      actorId,
      occurredAt: now,
    })),
  };
}

async function readLeadDoc(db: Db, corporateId: string, leadId: string): Promise<Lead | null> {
  const { rows } = await db.query<{ doc: Lead }>(
    'SELECT doc FROM rm_leads WHERE id = $1 AND corporate_id = $2',
    [leadId, corporateId],
  );
  return rows[0]?.doc ?? null;
}

// ---------------------------------------------------------------------------------------------
// Input

const leadId = z.string().min(1).max(64);
const optionalText = (max: number) => z.string().max(max).nullish();
/** Text the lead keeps as '' when empty: null is accepted and means ''. */
const plainText = (max: number) =>
  z
    .string()
    .max(max)
    .nullable()
    .transform((v) => v ?? '');

const leadFieldShape = {
  nombre: z.string().max(120),
  apellidos: plainText(120).optional(),
  email: optionalText(254),
  telefono: optionalText(40),
  celular: optionalText(40),
  notas: plainText(5000).optional(),
  medioContacto: optionalText(120),
  tipo: optionalText(120),
  status: optionalText(64),
  desarrollo: optionalText(64),
};

const createBody = z.strictObject({ ...leadFieldShape, idVendedor: leadId.optional() });

/** Fields of a lead the client may send back unchanged; the server owns them and ignores them. */
const serverOwned = {
  id: z.string().max(64).optional(),
  idCorporativo: z.string().max(64).optional(),
  fechaAlta: z.number().optional(),
  eliminado: z.boolean().optional(),
};

const partialFields = z.strictObject({
  ...leadFieldShape,
  nombre: leadFieldShape.nombre.optional(),
  idVendedor: leadId.nullish(),
  ...serverOwned,
});

const updateBody = partialFields.extend({ leadAnterior: partialFields });

const listQuery = z.strictObject({
  idCorporativo: leadId,
  idVendedor: leadId.optional(),
  q: z.string().max(120).optional(),
  status: z.string().max(64).optional(),
  desarrollo: z.string().max(64).optional(),
  limit: z.coerce.number().int().min(1).max(LEADS_PAGE_MAX).optional(),
  cursor: z.string().max(200).optional(),
});

const historyQuery = z.strictObject({
  idCorporativo: leadId,
  idLead: leadId,
  fecha: z.string().max(40).optional(),
});

const noteBody = z.strictObject({ nota: z.string().max(5000) });
const assignBody = z.strictObject({ idVendedor: leadId });
const mergeBody = z.strictObject({ idLeadDuplicado: leadId });

const captureQuery = z.strictObject({
  medio: z.string().min(1).max(120),
  corp: z.string().min(1).max(120),
});
const captureBody = z.strictObject({
  nombre: z.string().max(120),
  apellidos: z.string().max(120).optional(),
  email: z.string().max(254).optional(),
  telefono: z.string().max(40).optional(),
  celular: z.string().max(40).optional(),
  mensaje: z.string().max(2000).optional(),
  /** Slug (or id) of one of the corporate's developments. */
  desarrollo: z.string().max(120).optional(),
  tipo: z.string().max(120).optional(),
});

/** Only the editable fields present in a parsed body. */
function pickFields(body: Partial<Record<string, unknown>>): Partial<LeadFields> {
  const out: Partial<Record<string, unknown>> = {};
  for (const campo of LEAD_EDITABLE_FIELDS) if (body[campo] !== undefined) out[campo] = body[campo];
  return out;
}

/** `medioContacto`, `status` and `desarrollo` must be values the corporate knows. */
async function checkReferences(db: Db, corporate: CorporateDoc, fields: Partial<LeadFields>) {
  const issues: { path: string; code: string }[] = [];
  if (fields.medioContacto && !corporate.mediosContacto.includes(fields.medioContacto)) {
    issues.push({ path: 'medioContacto', code: 'unknown_value' });
  }
  if (fields.status && !(corporate.statusLeads ?? []).some((s) => s.id === fields.status)) {
    issues.push({ path: 'status', code: 'unknown_value' });
  }
  if (fields.desarrollo) {
    const { rows } = await db.query(
      'SELECT 1 FROM rm_developments WHERE corporate_id = $1 AND id = $2',
      [corporate.id, fields.desarrollo],
    );
    if (rows.length === 0) issues.push({ path: 'desarrollo', code: 'unknown_value' });
  }
  if (issues.length > 0) throw badRequest(issues);
}

/** The target of an assignment: the caller may assign, and the target is an approved member. */
async function checkAssignee(c: Ctx, m: Membership, idVendedor: string) {
  if (idVendedor === m.user.id) return;
  if (!mayAssign(m.role)) throw new ApiError(403, 'FORBIDDEN', 'lead_assign_forbidden');
  const target = await findUser(c.get('deps').db, idVendedor);
  if (!target || !target.corporativos.includes(m.corporate.id)) {
    throw new ApiError(400, 'LEAD_ADVISER_INVALID', 'lead_adviser_invalid');
  }
}

const fullName = (u: { nombre: string; apellidos?: string }) =>
  `${u.nombre} ${u.apellidos ?? ''}`.trim();

function encodeCursor(lead: Pick<Lead, 'fechaAlta' | 'id'>) {
  return Buffer.from(JSON.stringify([lead.fechaAlta, lead.id])).toString('base64url');
}

function decodeCursor(cursor: string): [number, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[1] === 'string') {
      return [value[0], value[1]];
    }
  } catch {
    // falls through to the 400 below
  }
  throw badRequest([{ path: 'cursor', code: 'invalid' }]);
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/**
 * The WHERE of a `wsObtenerLeads` list without its cursor: corporate, live, the caller's scope,
 * the filters and the search. The page and its total both read it, so they count the same rows.
 */
function leadListWhere(m: Membership, q: z.infer<typeof listQuery>) {
  const where = ['corporate_id = $1', 'NOT eliminado'];
  const params: unknown[] = [m.corporate.id];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (!seesAll(m.role)) add((p) => `id_vendedor = ${p}`, m.user.id);
  if (q.idVendedor) add((p) => `id_vendedor = ${p}`, q.idVendedor);
  if (q.status) add((p) => `status = ${p}`, q.status);
  if (q.desarrollo) add((p) => `desarrollo = ${p}`, q.desarrollo);
  const search = leadSearchSql(q.q ?? '', (value) => {
    params.push(value);
    return `$${params.length}`;
  });
  if (search) where.push(search);
  return { where, params };
}

/**
 * The search-as-you-type condition of `wsObtenerLeads` (core `leadMatchesQuery`, same rule), or
 * null for an empty search; `param` binds a value and answers its placeholder. Every alternative
 * is a prefix LIKE on the C-collated expression of an index (004: the name, email and phone
 * columns; 006: `right(<phone>_norm, 10)`, the phones' match keys), so each one is an index range
 * scan and the alternatives combine as a BitmapOr: a phone is found by the start of its digits
 * or by the start of its national number (core `phoneMatchesSearch`).
 */
export function leadSearchSql(query: string, param: (value: string) => string): string | null {
  const text = normalizeSearchText(query);
  if (text === '') return null;
  const t = param(`${escapeLike(text)}%`);
  const alternatives = [
    `search_name LIKE ${t}`,
    `search_name_rev LIKE ${t}`,
    `email_norm LIKE ${t}`,
  ];
  const digits = searchDigits(query);
  if (digits) {
    const d = param(`${digits}%`);
    const k = param(`${phoneMatchKey(digits)}%`);
    alternatives.push(
      `telefono_norm LIKE ${d}`,
      `celular_norm LIKE ${d}`,
      `right(telefono_norm, ${PHONE_MATCH_DIGITS}) LIKE ${k}`,
      `right(celular_norm, ${PHONE_MATCH_DIGITS}) LIKE ${k}`,
    );
  }
  return `(${alternatives.join(' OR ')})`;
}

/** `fecha` of wsObtenerHistorialCambios: seconds since the epoch or an ISO date/date-time. */
function parseSince(fecha: string | undefined): number | null {
  if (fecha === undefined || fecha === '') return null;
  if (/^\d+$/.test(fecha)) return Number(fecha);
  const ms = Date.parse(fecha);
  if (Number.isNaN(ms)) throw badRequest([{ path: 'fecha', code: 'invalid' }]);
  return Math.floor(ms / 1000);
}

function clientAddress(c: Ctx): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function nameIndex(db: Db, ids: Iterable<string | null>) {
  const list = [...new Set([...ids].filter((id): id is string => Boolean(id)))];
  if (list.length === 0) return new Map<string, string>();
  const { rows } = await db.query<{ id: string; doc: { nombre: string; apellidos?: string } }>(
    'SELECT id, doc FROM rm_users WHERE id = ANY($1::text[])',
    [list],
  );
  return new Map(rows.map((r) => [r.id, fullName(r.doc)]));
}

// ---------------------------------------------------------------------------------------------
// Public capture: round robin

/**
 * Who receives public captures: approved members of the corporate whose role has
 * `alcanceLeads = Propios` and not `adminHostes`, who are not brokers (`tipo` 'Broker') and whose
 * account is not inactive (`info.estatus`). Ordered by id, so the rotation is stable.
 */
export async function activeAdvisers(db: Db, corporate: Corporate): Promise<string[]> {
  const { rows } = await db.query<{
    id: string;
    doc: { roles: Record<string, string>; tipo?: string; info?: { estatus?: string } };
  }>(
    `SELECT id, doc FROM rm_users WHERE doc->'corporativos' @> jsonb_build_array($1::text) ORDER BY id`,
    [corporate.id],
  );
  return rows
    .filter(({ doc }) => {
      const role = corporate.roles.find((r) => r.id === doc.roles[corporate.id]);
      return (
        role !== undefined &&
        role.permisosLeads.alcanceLeads === 'Propios' &&
        role.permisos.adminHostes !== true &&
        doc.tipo !== 'Broker' &&
        doc.info?.estatus !== 'inactivo'
      );
    })
    .map((r) => r.id);
}

/** The adviser after `last` in the rotation (the first when there is no last). */
export function nextInRotation(advisers: readonly string[], last: string | null): string | null {
  if (advisers.length === 0) return null;
  if (last === null) return advisers[0]!;
  return advisers.find((id) => id > last) ?? advisers[0]!;
}

async function captureRetryAfter(c: Ctx, address: string): Promise<number> {
  const deps = c.get('deps');
  const now = deps.clock();
  const since = new Date(now.getTime() - 3600_000).toISOString();
  const { rows } = await deps.db.query<{ n: number; oldest: string | Date | null }>(
    `SELECT count(*)::int AS n, min(at) AS oldest FROM (
       SELECT at FROM lead_capture_attempts WHERE address = $1 AND at > $2 ORDER BY at DESC LIMIT $3
     ) recent`,
    [address, since, PUBLIC_CAPTURE_LIMIT_PER_HOUR],
  );
  const row = rows[0];
  if (row && row.n >= PUBLIC_CAPTURE_LIMIT_PER_HOUR && row.oldest) {
    return Math.max(
      1,
      Math.ceil((new Date(row.oldest).getTime() + 3600_000 - now.getTime()) / 1000),
    );
  }
  await deps.db.query('DELETE FROM lead_capture_attempts WHERE address = $1 AND at <= $2', [
    address,
    since,
  ]);
  await deps.db.query('INSERT INTO lead_capture_attempts (address, at) VALUES ($1, $2)', [
    address,
    now.toISOString(),
  ]);
  return 0;
}

async function readCaptureBody(c: Ctx): Promise<unknown> {
  const type = (c.req.header('content-type') ?? '').toLowerCase();
  if (
    type.startsWith('application/x-www-form-urlencoded') ||
    type.startsWith('multipart/form-data')
  ) {
    const form = await c.req.parseBody();
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(form)) {
      if (typeof v !== 'string') throw badRequest([{ path: k, code: 'invalid_type' }]);
      if (v !== '') out[k] = v;
    }
    return out;
  }
  return jsonBody(c);
}

// ---------------------------------------------------------------------------------------------
// Routes

export const leadRoutes = new Hono<Env>()
  /**
   * `GET /api/wsObtenerLeads?idCorporativo=[&idVendedor=][&q=&status=&desarrollo=&limit=&cursor=]`
   * → `Lead[]`, live leads in the caller's scope, newest first by `fechaAlta` (then id).
   * Without `limit` every visible lead comes back (the spec's call). With `limit` (1–500) one
   * page comes back and the response header `X-Next-Cursor` carries the cursor of the next page
   * when there is one. Every answer without `cursor` carries `X-Total-Count`: how many leads
   * match the scope, the filters and the search, however many the page holds (the body stays
   * the spec's `Lead[]`). `q` is search-as-you-type (see core `leadMatchesQuery`): a prefix of
   * the name, the surname, the email or the phone digits (or of the phone's national number, so
   * `55 1234` finds `+52 55 1234 5678`), accents and case ignored.
   */
  .get('/wsObtenerLeads', async (c) => {
    const q = parse(listQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    const { where, params } = leadListWhere(m, q);
    const limit = q.limit ?? (q.cursor ? 100 : null);
    const pageWhere = where.slice();
    const pageParams = params.slice();
    if (q.cursor) {
      const [fecha, id] = decodeCursor(q.cursor);
      pageParams.push(fecha, id);
      pageWhere.push(`(fecha_alta, id) < ($${pageParams.length - 1}, $${pageParams.length})`);
    }
    let sql = `SELECT doc FROM rm_leads WHERE ${pageWhere.join(' AND ')} ORDER BY fecha_alta DESC, id DESC`;
    if (limit !== null) {
      pageParams.push(limit + 1);
      sql += ` LIMIT $${pageParams.length}`;
    }
    const { rows } = await db.query<{ doc: Lead }>(sql, pageParams);
    const leads = rows.map((r) => r.doc);
    const more = limit !== null && leads.length > limit;
    if (more) {
      leads.length = limit;
      c.header('X-Next-Cursor', encodeCursor(leads[limit - 1]!));
    }
    // The total goes with the first page only (later pages would count the same rows again);
    // a first page that is also the last already holds every matching lead.
    if (!q.cursor) {
      let total = leads.length;
      if (more) {
        const counted = await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM rm_leads WHERE ${where.join(' AND ')}`,
          params,
        );
        total = counted.rows[0]!.n;
      }
      c.header('X-Total-Count', String(total));
    }
    return c.json(leads);
  })

  /** `GET /api/corporativos/:id/leads/:leadId` → `Lead` (404 when absent, deleted or out of scope). */
  .get('/corporativos/:id/leads/:leadId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const lead = await readLeadDoc(c.get('deps').db, m.corporate.id, c.req.param('leadId'));
    if (!inScope(m, lead) || lead.eliminado) throw leadNotFound();
    return c.json(lead);
  })

  /**
   * `POST /api/corporativos/:id/leads` body `{ nombre, apellidos?, email?, telefono?, celular?,
   * notas?, medioContacto?, tipo?, status?, desarrollo?, idVendedor? }` → 201 `Lead`.
   * `idVendedor` defaults to the caller; another adviser needs `Todos`/`activarAdminUsuarios`
   * (403) and must be an approved member (400 LEAD_ADVISER_INVALID). `status` defaults to the
   * corporate's first lead status. 400 VALIDATION `details: [{ path, code }]` for bad fields
   * (`required`, `invalid_email`, `invalid_phone`, `too_long`, `unknown_value`). 409
   * `{ errorCode: 'LEAD_DUPLICATE', message, propietario: { nombre } }` when a live lead of the
   * corporate has the same email or phone.
   */
  .post('/corporativos/:id/leads', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(createBody, await jsonBody(c));
    const db = c.get('deps').db;
    const corporate = m.corporate as CorporateDoc;
    const fields = normalizeLeadFields(pickFields(body));
    fields.status ??= corporate.statusLeads?.[0]?.id ?? null;
    const idVendedor = body.idVendedor ?? m.user.id;
    const id = c.get('deps').newId();
    // Field format first (400), then references, then ownership rules.
    const events = decideOrThrow(
      {
        type: 'RegisterLead',
        idLead: id,
        idCorporativo: corporate.id,
        idVendedor,
        fields,
        now: Math.floor(c.get('deps').clock().getTime() / 1000),
      },
      foldLead([]),
    );
    await checkReferences(db, corporate, fields);
    await checkAssignee(c, m, idVendedor);
    const contact = leadContactKeys(fields);
    await retryOnClaimConflict(async () => {
      const claims = await contactClaims(c, corporate.id, contact, id, m.user.id);
      const existing = await findDuplicate(db, corporate.id, contact);
      if (existing) throw await duplicateError(c, existing);
      await c
        .get('deps')
        .store.appendMany([appendRequest(c, corporate.id, id, 0, events, m.user.id), ...claims]);
    });
    return c.json(await readLeadDoc(db, corporate.id, id), 201);
  })

  /**
   * `PUT /api/corporativos/:id/leads/:leadId` body: the lead's fields (any subset; `id`,
   * `idCorporativo`, `fechaAlta`, `eliminado` are ignored) plus `leadAnterior`, the lead as the
   * editor loaded it. → 200 `Lead`. If any field of `leadAnterior` no longer matches the stored
   * lead, nothing is written: 409 `{ errorCode: 'CONFLICT', message, lead: <current Lead> }`.
   * A different `idVendedor` reassigns the lead (same rules as the assign call).
   */
  .put('/corporativos/:id/leads/:leadId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(updateBody, await jsonBody(c));
    const loaded = await requireLead(c, m, c.req.param('leadId'));
    const corporate = m.corporate as CorporateDoc;
    const update: LeadCommand = {
      type: 'UpdateLead',
      changes: pickFields(body),
      expected: {
        ...pickFields(body.leadAnterior),
        ...(body.leadAnterior.idVendedor !== undefined
          ? { idVendedor: body.leadAnterior.idVendedor }
          : {}),
      },
    };
    // A stale leadAnterior is answered first, with the current lead, whatever else is wrong.
    const first = decide(update, loaded.state);
    if (!first.ok && first.error.code === 'LEAD_STALE') throw leadErrorToApi(first.error);
    const commands: LeadCommand[] = [update];
    await checkReferences(c.get('deps').db, corporate, normalizeLeadChanges(pickFields(body)));
    if (body.idVendedor && body.idVendedor !== loaded.lead.idVendedor) {
      await checkAssignee(c, m, body.idVendedor);
      commands.push({ type: 'AssignLead', idVendedor: body.idVendedor });
    }
    const events = decideAll(commands, loaded.state);
    // An email or phone the lead did not have before must not belong to another live lead.
    const added = addedContactKeys(
      leadContactKeys(loaded.lead),
      leadContactKeys({ ...loaded.lead, ...normalizeLeadChanges(pickFields(body)) }),
    );
    try {
      await retryOnClaimConflict(async () => {
        const claims = await contactClaims(c, corporate.id, added, loaded.lead.id, m.user.id);
        const existing = await findDuplicate(c.get('deps').db, corporate.id, added, loaded.lead.id);
        if (existing) throw await duplicateError(c, existing);
        await c
          .get('deps')
          .store.appendMany([
            appendRequest(c, corporate.id, loaded.lead.id, loaded.version, events, m.user.id),
            ...claims,
          ]);
      });
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      const current = await readLeadDoc(c.get('deps').db, corporate.id, loaded.lead.id);
      throw new ApiError(409, 'CONFLICT', 'conflict', {}, { lead: current });
    }
    return c.json(await readLeadDoc(c.get('deps').db, corporate.id, loaded.lead.id));
  })

  /** `DELETE /api/corporativos/:id/leads/:leadId` → 200 `{ ok: true }`; soft (`eliminado`), history kept. */
  .delete('/corporativos/:id/leads/:leadId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const loaded = await requireLead(c, m, c.req.param('leadId'));
    const events = decideOrThrow({ type: 'DeleteLead' }, loaded.state);
    await c
      .get('deps')
      .store.appendMany([
        appendRequest(c, m.corporate.id, loaded.lead.id, loaded.version, events, m.user.id),
      ]);
    return c.json({ ok: true });
  })

  /**
   * `POST /api/corporativos/:id/leads/:leadId/asignar` body `{ idVendedor }` → 200 `Lead`.
   * Needs `Todos` or `activarAdminUsuarios` for anyone but oneself (403); the target must be an
   * approved member (400 LEAD_ADVISER_INVALID).
   */
  .post('/corporativos/:id/leads/:leadId/asignar', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { idVendedor } = parse(assignBody, await jsonBody(c));
    const loaded = await requireLead(c, m, c.req.param('leadId'));
    await checkAssignee(c, m, idVendedor);
    const events = decideOrThrow({ type: 'AssignLead', idVendedor }, loaded.state);
    await c
      .get('deps')
      .store.appendMany([
        appendRequest(c, m.corporate.id, loaded.lead.id, loaded.version, events, m.user.id),
      ]);
    return c.json(await readLeadDoc(c.get('deps').db, m.corporate.id, loaded.lead.id));
  })

  /**
   * `POST /api/corporativos/:id/leads/:leadId/merge` body `{ idLeadDuplicado }` → 200 `Lead` (the
   * lead of the path, with its empty fields filled from the duplicate and the duplicate's notes);
   * the duplicate is deleted (`eliminado`, event LeadMergedInto). Managers only (`Todos` or
   * `activarAdminUsuarios`, else 403). Both writes are one atomic append.
   */
  .post('/corporativos/:id/leads/:leadId/merge', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    if (!mayAssign(m.role)) throw forbidden();
    const { idLeadDuplicado } = parse(mergeBody, await jsonBody(c));
    const main = await requireLead(c, m, c.req.param('leadId'));
    const dup = await requireLead(c, m, idLeadDuplicado);
    const mainEvents = decideOrThrow({ type: 'MergeLead', duplicate: dup.state }, main.state);
    const dupEvents = decideOrThrow(
      { type: 'MarkLeadMerged', idLeadPrincipal: main.lead.id },
      dup.state,
    );
    await c
      .get('deps')
      .store.appendMany([
        appendRequest(c, m.corporate.id, main.lead.id, main.version, mainEvents, m.user.id),
        appendRequest(c, m.corporate.id, dup.lead.id, dup.version, dupEvents, m.user.id),
      ]);
    return c.json(await readLeadDoc(c.get('deps').db, m.corporate.id, main.lead.id));
  })

  /**
   * `GET /api/corporativos/:id/leads/:leadId/notas` → `LeadNote[]` `{ key, nota, fechaRegistro
   * (seconds), eliminado: false, idUsuario, nombreUsuario }`, deleted notes hidden, newest first;
   * `nombreUsuario` is the author's full name (null for the public capture), as the history's
   * `nombreActor`. 404 'El documento no existe en la ruta especificada.' when the lead is absent
   * or out of scope.
   */
  .get('/corporativos/:id/leads/:leadId/notas', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const db = c.get('deps').db;
    const lead = await readLeadDoc(db, m.corporate.id, c.req.param('leadId'));
    if (!inScope(m, lead) || lead.eliminado) throw documentNotFound();
    const { rows } = await db.query<{ doc: LeadNote }>(
      'SELECT doc FROM rm_lead_notes WHERE lead_id = $1 AND NOT eliminado ORDER BY fecha_registro DESC, key DESC',
      [lead.id],
    );
    const names = await nameIndex(
      db,
      rows.map((r) => r.doc.idUsuario),
    );
    return c.json(
      rows.map(({ doc }) => ({
        ...doc,
        nombreUsuario: doc.idUsuario ? (names.get(doc.idUsuario) ?? null) : null,
      })),
    );
  })

  /** `POST /api/corporativos/:id/leads/:leadId/notas` body `{ nota }` → 201 `LeadNote`. */
  .post('/corporativos/:id/leads/:leadId/notas', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { nota } = parse(noteBody, await jsonBody(c));
    const loaded = await requireLead(c, m, c.req.param('leadId'), { notFound: documentNotFound });
    const deps = c.get('deps');
    const events = decideOrThrow(
      {
        type: 'AddLeadNote',
        key: noteKey(deps),
        nota,
        idUsuario: m.user.id,
        now: Math.floor(deps.clock().getTime() / 1000),
      },
      loaded.state,
    );
    await deps.store.appendMany([
      appendRequest(c, m.corporate.id, loaded.lead.id, loaded.version, events, m.user.id),
    ]);
    const added = events[0];
    return c.json(added?.type === 'LeadNoteAdded' ? added.data.note : null, 201);
  })

  /**
   * `DELETE /api/corporativos/:id/leads/:leadId/notas/:key` → 200 `{ ok: true }` (soft delete).
   * 404 'La nota con la clave {key} no existe.' for an unknown or already deleted note; 404
   * 'El documento no existe en la ruta especificada.' when the lead is absent or out of scope.
   */
  .delete('/corporativos/:id/leads/:leadId/notas/:key', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const loaded = await requireLead(c, m, c.req.param('leadId'), { notFound: documentNotFound });
    const events = decideOrThrow({ type: 'DeleteLeadNote', key: c.req.param('key') }, loaded.state);
    await c
      .get('deps')
      .store.appendMany([
        appendRequest(c, m.corporate.id, loaded.lead.id, loaded.version, events, m.user.id),
      ]);
    return c.json({ ok: true });
  })

  /**
   * `GET /api/wsObtenerHistorialCambios?idCorporativo&idLead[&fecha]` → entries newest first:
   * `{ fecha (seconds), actor (user id or null for the public capture), nombreActor, campo,
   * anterior, nuevo, evento }`; for `campo: 'idVendedor'` also `nombreAnterior`/`nombreNuevo`.
   * Read from the lead's own events, deleted leads included. `fecha` (seconds or ISO date) keeps
   * the entries at or after it. 404 when the lead is absent or out of scope.
   */
  .get('/wsObtenerHistorialCambios', async (c) => {
    const q = parse(historyQuery, c.req.query());
    const since = parseSince(q.fecha);
    const m = await requireMember(c, { id: q.idCorporativo });
    const loaded = await requireLead(c, m, q.idLead, { allowDeleted: true });
    const envelopes: LeadEnvelope[] = loaded.events.map((e) => ({
      ...asLeadEvent(e),
      actorId: e.actorId,
      occurredAt: e.occurredAt,
    }));
    const entries = historyFromEvents(envelopes)
      .filter((e) => since === null || e.fecha >= since)
      .reverse();
    const names = await nameIndex(
      c.get('deps').db,
      entries.flatMap((e) => [
        e.actor,
        ...(e.campo === 'idVendedor'
          ? [e.anterior as string | null, e.nuevo as string | null]
          : []),
      ]),
    );
    return c.json(
      entries.map((e) => ({
        ...e,
        nombreActor: e.actor ? (names.get(e.actor) ?? null) : null,
        ...(e.campo === 'idVendedor'
          ? {
              nombreAnterior:
                typeof e.anterior === 'string' ? (names.get(e.anterior) ?? null) : null,
              nombreNuevo: typeof e.nuevo === 'string' ? (names.get(e.nuevo) ?? null) : null,
            }
          : {}),
      })),
    );
  })

  /**
   * `POST /api/public/registro?medio=<one of mediosContacto>&corp=<corporate slug>` (signed out,
   * for the corporate's website forms; JSON or form-encoded) body `{ nombre, apellidos?, email?,
   * telefono?, celular?, mensaje?, desarrollo? (slug or id), tipo? }`, with an email or a phone.
   * → 202 `{ ok: true, mensaje }`, the same whether the person was already a lead (then the
   * message becomes a note on the existing lead) or a new lead was registered and assigned by
   * round robin among {@link activeAdvisers} (a LeadAssigned event, visible in the history).
   * 400 for bad input (nothing written), 404 for an unknown corporate, 429 with `Retry-After`
   * after {@link PUBLIC_CAPTURE_LIMIT_PER_HOUR} attempts per client address per hour.
   */
  .use(
    '/public/registro',
    cors({ origin: '*', allowMethods: ['POST'], allowHeaders: ['Content-Type'] }),
  )
  .post('/public/registro', async (c) => {
    const deps = c.get('deps');
    const wait = await captureRetryAfter(c, clientAddress(c));
    if (wait > 0) {
      c.header('Retry-After', String(wait));
      throw new ApiError(
        429,
        'RATE_LIMITED',
        'rate_limited',
        { minutes: Math.ceil(wait / 60) },
        { retryAfter: wait },
      );
    }
    const query = parse(captureQuery, c.req.query());
    const body = parse(captureBody, await readCaptureBody(c));
    const corporate = (await findCorporate(deps.db, { slug: query.corp })) as CorporateDoc | null;
    if (!corporate) throw new ApiError(404, 'CORPORATE_NOT_FOUND', 'corporate_not_found');
    if (!corporate.mediosContacto.includes(query.medio))
      throw badRequest([{ path: 'medio', code: 'unknown_value' }]);

    const issues: { path: string; code: string }[] = [];
    const fields = normalizeLeadFields({
      nombre: body.nombre,
      apellidos: body.apellidos ?? '',
      email: body.email ?? null,
      telefono: body.telefono ?? null,
      celular: body.celular ?? null,
      medioContacto: query.medio,
      tipo: body.tipo ?? null,
      status: corporate.statusLeads?.[0]?.id ?? null,
      desarrollo: null,
    });
    if (!fields.email && !fields.telefono && !fields.celular)
      issues.push({ path: 'email', code: 'required' });
    if (fields.email && !isValidEmail(fields.email))
      issues.push({ path: 'email', code: 'invalid_email' });
    for (const p of ['telefono', 'celular'] as const) {
      const v = fields[p];
      if (v && !isValidPhone(v)) issues.push({ path: p, code: 'invalid_phone' });
    }
    if (body.desarrollo) {
      const { rows } = await deps.db.query<{ id: string }>(
        'SELECT id FROM rm_developments WHERE corporate_id = $1 AND (slug = $2 OR id = $2)',
        [corporate.id, body.desarrollo],
      );
      if (rows[0]) fields.desarrollo = rows[0].id;
      else issues.push({ path: 'desarrollo', code: 'unknown_value' });
    }
    if (fields.nombre === '') issues.push({ path: 'nombre', code: 'required' });
    if (issues.length > 0) throw badRequest(issues);

    const mensaje = body.mensaje?.trim() ?? '';
    const now = deps.clock();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const ack = () => c.json({ ok: true, mensaje: message('lead_capture_received', lang(c)) }, 202);

    const contact = leadContactKeys(fields);
    const advisers = await activeAdvisers(deps.db, corporate);
    const idLead = deps.newId();
    // Everything is read again on each attempt: a concurrent capture of the same person (claim
    // streams), a note written on the known lead, or another capture taking this turn of the
    // rotation makes the append fail with a ConcurrencyError, and the next attempt sees it.
    for (let attempt = 0; ; attempt++) {
      try {
        const claims = await contactClaims(c, corporate.id, contact, idLead, null);
        const existing = await findDuplicate(deps.db, corporate.id, contact);
        if (existing) {
          // Known person: the new contact becomes a note for the owner; the visitor learns nothing.
          const loaded = await loadLead(c, corporate.id, existing.id);
          const nota = `${query.medio}: ${mensaje || `${fullName(fields)} ${phoneDigits(fields.telefono ?? fields.celular ?? '')}`.trim()}`;
          const events = decideOrThrow(
            {
              type: 'AddLeadNote',
              key: noteKey(deps),
              nota: nota.slice(0, 5000),
              idUsuario: null,
              now: nowSeconds,
            },
            loaded.state,
          );
          await deps.store.appendMany([
            appendRequest(c, corporate.id, existing.id, loaded.version, events, null),
          ]);
          return ack();
        }

        const rrVersion = await deps.store.streamVersion(roundRobinStream(corporate.id));
        const last =
          rrVersion > 0
            ? await deps.store.readStream(roundRobinStream(corporate.id), rrVersion)
            : [];
        const previous = (last[0]?.data as { idVendedor?: string } | undefined)?.idVendedor ?? null;
        const adviser = nextInRotation(advisers, previous);
        const commands: LeadCommand[] = [
          {
            type: 'RegisterLead',
            idLead,
            idCorporativo: corporate.id,
            idVendedor: null,
            fields,
            now: nowSeconds,
          },
        ];
        if (adviser) commands.push({ type: 'AssignLead', idVendedor: adviser });
        if (mensaje) {
          commands.push({
            type: 'AddLeadNote',
            key: noteKey(deps),
            nota: `${query.medio}: ${mensaje}`,
            idUsuario: null,
            now: nowSeconds,
          });
        }
        const events = decideAll(commands, foldLead([]));
        const requests = [appendRequest(c, corporate.id, idLead, 0, events, null), ...claims];
        if (adviser) {
          requests.push({
            streamId: roundRobinStream(corporate.id),
            expectedVersion: rrVersion,
            events: [
              {
                id: deps.newId(),
                type: 'LeadRoundRobinAdvanced',
                data: { idVendedor: adviser, idLead },
                corporateId: corporate.id,
                actorId: null,
                occurredAt: now,
              },
            ],
          });
        }
        await deps.store.appendMany(requests);
        return ack();
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || attempt >= 5) throw error;
      }
    }
  });
