/**
 * Leads (issue 6; spec §3 Lead and Lead note, §4, §6, §7 Leads): parse, authorise, run a
 * command (commands.ts) or a query (queries.ts), answer.
 *
 * The corporate comes from the session's membership; the lead scope is core/permissions.ts
 * (`maySeeLead`: 'Propios' sees and touches only the user's own leads, anything else answers
 * 404 exactly as an absent lead; 'Todos' sees the whole corporate). Errors use the spec's shape
 * `[{ errorCode, message, …extra }]`. A lead as returned is core/lead.ts's `Lead` document: `{ id,
 * idCorporativo, nombre, apellidos, email, telefono, celular, notas, medioContacto, tipo, status,
 * desarrollo, idVendedor, fechaAlta (seconds), eliminado }`.
 */
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { z } from 'zod';
import { queryInt } from '../http/query';
import { mayMergeLeads } from '../../core/permissions';
import { requireMember, type Env } from '../http/context';
import { forbidden, jsonBody, lang, parse } from '../http/errors';
import { message } from '../http/messages';
import { clientAddress, rateLimited } from '../http/rate-limit';
import { captureRetryAfter, readCapture } from './capture';
import {
  addLeadNote,
  assignLead,
  captureLead,
  deleteLead,
  deleteLeadNote,
  mergeLeads,
  registerLead,
  updateLead,
} from './commands';
import { documentNotFound, leadNotFound } from './errors';
import {
  LEADS_PAGE_MAX,
  leadHistory,
  leadNotes,
  listLeads,
  parseSince,
  visibleLead,
} from './queries';

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
  // Capped, not refused: a larger page is the largest one (issue 21).
  limit: queryInt(1)
    .transform((n) => Math.min(n, LEADS_PAGE_MAX))
    .optional(),
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

export const leadRoutes = new Hono<Env>()
  /**
   * `GET /api/wsObtenerLeads?idCorporativo=[&idVendedor=][&q=&status=&desarrollo=&limit=&cursor=]`
   * → `Lead[]`, live leads in the caller's scope, newest first by `fechaAlta` (then id).
   * Always one page (issue 21): `limit` leads (1–500; a larger `limit` is 500, and so is the
   * page without one), and the response header `X-Next-Cursor` carries the cursor of the next
   * page when there is one. An answer without `cursor` carries `X-Total-Count`: how many leads
   * match the scope, the filters and the search, however many the page holds (the body stays
   * the spec's `Lead[]`), from the maintained counters; with a search or a development it is
   * counted up to 1,000 and left out beyond ("more"). `q` is search-as-you-type (see core `leadMatchesQuery`): a prefix of
   * the name, the surname, the email or the phone digits (or of the phone's national number, so
   * `55 1234` finds `+52 55 1234 5678`), accents and case ignored.
   */
  .get('/wsObtenerLeads', async (c) => {
    const q = parse(listQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const page = await listLeads(c.get('deps').db, m, q);
    if (page.nextCursor) c.header('X-Next-Cursor', page.nextCursor);
    if (page.total !== null) c.header('X-Total-Count', String(page.total));
    return c.json(page.leads);
  })

  /** `GET /api/corporativos/:id/leads/:leadId` → `Lead` (404 when absent, deleted or out of scope). */
  .get('/corporativos/:id/leads/:leadId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const lead = await visibleLead(c.get('deps').db, m, c.req.param('leadId'));
    if (!lead) throw leadNotFound();
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
   * corporate has the same email or phone (duplicates.ts).
   */
  .post('/corporativos/:id/leads', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(createBody, await jsonBody(c));
    return c.json(await registerLead(c.get('deps'), m, body), 201);
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
    return c.json(await updateLead(c.get('deps'), m, c.req.param('leadId'), body));
  })

  /** `DELETE /api/corporativos/:id/leads/:leadId` → 200 `{ ok: true }`; soft (`eliminado`), history kept. */
  .delete('/corporativos/:id/leads/:leadId', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    await deleteLead(c.get('deps'), m, c.req.param('leadId'));
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
    return c.json(await assignLead(c.get('deps'), m, c.req.param('leadId'), idVendedor));
  })

  /**
   * `POST /api/corporativos/:id/leads/:leadId/merge` body `{ idLeadDuplicado }` → 200 `Lead` (the
   * lead of the path, with its empty fields filled from the duplicate and the duplicate's notes);
   * the duplicate is deleted (`eliminado`, event LeadMergedInto). Managers only (`Todos` or
   * `activarAdminUsuarios`, else 403). Both writes are one atomic append.
   */
  .post('/corporativos/:id/leads/:leadId/merge', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    if (!mayMergeLeads(m.role)) throw forbidden();
    const { idLeadDuplicado } = parse(mergeBody, await jsonBody(c));
    return c.json(await mergeLeads(c.get('deps'), m, c.req.param('leadId'), idLeadDuplicado));
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
    const lead = await visibleLead(db, m, c.req.param('leadId'));
    if (!lead) throw documentNotFound();
    return c.json(await leadNotes(db, lead.id));
  })

  /** `POST /api/corporativos/:id/leads/:leadId/notas` body `{ nota }` → 201 `LeadNote`. */
  .post('/corporativos/:id/leads/:leadId/notas', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { nota } = parse(noteBody, await jsonBody(c));
    return c.json(await addLeadNote(c.get('deps'), m, c.req.param('leadId'), nota), 201);
  })

  /**
   * `DELETE /api/corporativos/:id/leads/:leadId/notas/:key` → 200 `{ ok: true }` (soft delete).
   * 404 'La nota con la clave {key} no existe.' for an unknown or already deleted note; 404
   * 'El documento no existe en la ruta especificada.' when the lead is absent or out of scope.
   */
  .delete('/corporativos/:id/leads/:leadId/notas/:key', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    await deleteLeadNote(c.get('deps'), m, c.req.param('leadId'), c.req.param('key'));
    return c.json({ ok: true });
  })

  /**
   * `GET /api/wsObtenerHistorialCambios?idCorporativo&idLead[&fecha]` → entries newest first:
   * `{ fecha (seconds), actor (user id or null for the public capture), nombreActor, campo,
   * anterior, nuevo, evento }`; for `campo: 'idVendedor'` also `nombreAnterior`/`nombreNuevo`.
   * Read from the lead's own events, deleted leads included. `fecha` (seconds or ISO date) keeps
   * the entries at or after it. 404 when the lead is absent or out of scope. Its appointments'
   * entries (`campo: 'cita'`) carry `idCita`, `titulo` (an automatic one in the request's
   * language) and `tituloAutomatico`.
   */
  .get('/wsObtenerHistorialCambios', async (c) => {
    const q = parse(historyQuery, c.req.query());
    const since = parseSince(q.fecha);
    const m = await requireMember(c, { id: q.idCorporativo });
    return c.json(await leadHistory(c.get('deps'), m, q.idLead, since, lang(c)));
  })

  /**
   * `POST /api/public/registro?medio=<one of mediosContacto>&corp=<corporate slug>` (signed out,
   * for the corporate's website forms; JSON or form-encoded) body `{ nombre, apellidos?, email?,
   * telefono?, celular?, mensaje?, desarrollo? (slug or id), tipo? }`, with an email or a phone.
   * → 202 `{ ok: true, mensaje }`, the same whether the person was already a lead (then the
   * message becomes a note on the existing lead) or a new lead was registered and assigned by
   * round robin (round-robin.ts; a LeadAssigned event, visible in the history). 400 for bad
   * input (nothing written), 404 for an unknown corporate, 429 with `Retry-After` after
   * capture.ts `PUBLIC_CAPTURE_LIMIT_PER_HOUR` attempts per client address per hour.
   */
  .use(
    '/public/registro',
    cors({ origin: '*', allowMethods: ['POST'], allowHeaders: ['Content-Type'] }),
  )
  .post('/public/registro', async (c) => {
    const deps = c.get('deps');
    const wait = await captureRetryAfter(deps.db, clientAddress(c), deps.clock());
    if (wait > 0) throw rateLimited(c, wait);
    await captureLead(deps, await readCapture(c));
    return c.json({ ok: true, mensaje: message('lead_capture_received', lang(c)) }, 202);
  });
