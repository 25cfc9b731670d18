/**
 * Quotations (issue 7; spec §3 Quotation and payment schemes, §4 favourite flag, §5 quote
 * export, §6 report permissions, §7 quotation calls). One event stream per quotation,
 * `quotation:<corporateId>:<quotationId>`; lists read `rm_quotations`.
 *
 * Rules enforced here:
 * - the corporate comes from the session's membership (403 for non-members);
 * - a quotation is created only for a unit that is quotable now (the development's status
 *   colours, else the corporate's), with a scheme of the unit's cluster whose parts sum to 1,
 *   optionals of that cluster, non-negative extras (each converted from the currency it was
 *   entered in) and one of the corporate's currencies; the figures are always recomputed here
 *   with the core (`priceQuotation`), never taken from the client;
 * - the lead must be visible to the user: `alcanceLeads = Propios` quotes only for own leads
 *   (403), `Todos` for any lead of the corporate. A new lead and its first quotation are written
 *   in one atomic append; any failure writes nothing.
 * - a quotation is visible to `Todos` users, to its adviser and to the owner of its lead.
 *
 * Errors use the spec's shape `[{ errorCode, message, …extra }]`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono } from 'hono';
import { z } from 'zod';
import {
  decide as decideLead,
  initialLeadState,
  leadContactKeys,
  normalizeLeadFields,
} from '../../core/lead';
import type { Lead, LeadContactKeys } from '../../core/lead';
import { startOfWeekMonday } from '../../core/misc';
import { validateScheme } from '../../core/pricing';
import {
  applicableOptionals,
  effectiveSchemes,
  evolveQuotation,
  newQuotation,
  priceQuotation,
  quotationEventBase,
  schemeForQuote,
  type PricedQuotation,
  type Quotation,
  type QuotationError,
  type QuotationEvent,
} from '../../core/quotation';
import type { Cluster, Corporate, Prototype, Role, Unit, User } from '../../core/types';
import type { CorporateConfig } from '../domain/catalogue-events';
import type { Db } from '../store/db';
import { ConcurrencyError, type AppendRequest } from '../store/event-store';
import { loadDevelopmentById } from './catalogue.routes';
import { requireMember, type Ctx, type Env, type Membership } from './context';
import { ApiError, badRequest, jsonBody, parse } from './errors';
import { contactClaims, duplicateError, findDuplicate, isClaimConflict } from './lead-contacts';
import { leadStream } from './leads.routes';
import { effectiveStatusColors } from './public.routes';

// ---------------------------------------------------------------------------------------------
// Streams, names, errors

/** The stream of one quotation. */
export const quotationStream = (corporateId: string, id: string) =>
  `quotation:${corporateId}:${id}`;

/** How long a share link lives unless the adviser asks otherwise. */
export const SHARE_DEFAULT_DAYS = 14;
/** The longest a share link may live. */
export const SHARE_MAX_DAYS = 90;

export const displayName = (p: { nombre: string; apellidos?: string | null }) =>
  `${p.nombre} ${p.apellidos ?? ''}`.trim();

const seesAll = (role: Role) => role.permisosLeads.alcanceLeads === 'Todos';

/** Maps a pricing failure of the core to the API's error (400, or 403 for a hidden price). */
export function quotationErrorToApi(error: QuotationError): ApiError {
  switch (error.code) {
    case 'UNIT_NOT_QUOTABLE':
      return new ApiError(
        400,
        'UNIT_NOT_QUOTABLE',
        'unit_not_quotable',
        { status: error.status ?? '—' },
        { status: error.status },
      );
    case 'PRICE_NOT_VISIBLE':
      return new ApiError(403, 'PRICE_NOT_VISIBLE', 'price_not_visible');
    case 'SCHEME_NOT_FOUND':
      return new ApiError(400, 'SCHEME_NOT_FOUND', 'scheme_not_found');
    case 'SCHEME_INVALID':
      return new ApiError(400, 'SCHEME_INVALID', 'scheme_invalid', {}, { detalle: error.message });
    case 'OPTIONAL_NOT_FOUND':
      return new ApiError(400, 'OPTIONAL_NOT_FOUND', 'optional_not_found', {}, { id: error.id });
    case 'EXTRA_INVALID':
      return new ApiError(400, 'EXTRA_INVALID', 'extra_invalid', {}, { indice: error.index });
    case 'CURRENCY_NOT_FOUND':
      return new ApiError(
        400,
        'CURRENCY_NOT_FOUND',
        'currency_not_found',
        { codigo: error.codigo },
        { codigo: error.codigo },
      );
    default: {
      const unhandled: never = error;
      throw new Error(`unknown quotation error ${(unhandled as { code: string }).code}`);
    }
  }
}

const quotationNotFound = () => new ApiError(404, 'QUOTATION_NOT_FOUND', 'quotation_not_found');

// ---------------------------------------------------------------------------------------------
// Reads

/** A unit of the corporate by id, or null. */
export async function findUnit(db: Db, corporateId: string, unitId: string): Promise<Unit | null> {
  const { rows } = await db.query<{ doc: Unit }>(
    'SELECT doc FROM rm_units WHERE corporate_id = $1 AND id = $2',
    [corporateId, unitId],
  );
  return rows[0]?.doc ?? null;
}

async function findCluster(db: Db, corporateId: string, id: string): Promise<Cluster | null> {
  const { rows } = await db.query<{ doc: Cluster }>(
    'SELECT doc FROM rm_clusters WHERE corporate_id = $1 AND id = $2',
    [corporateId, id],
  );
  return rows[0]?.doc ?? null;
}

async function findPrototype(db: Db, corporateId: string, id: string): Promise<Prototype | null> {
  const { rows } = await db.query<{ doc: Prototype }>(
    'SELECT doc FROM rm_prototypes WHERE corporate_id = $1 AND id = $2',
    [corporateId, id],
  );
  return rows[0]?.doc ?? null;
}

export type LeadAccess =
  { ok: true; lead: Lead } | { ok: false; reason: 'not_found' | 'forbidden' };

/**
 * Whether the user may see (and quote for) a lead of the corporate: it exists there and is not
 * deleted (else `not_found`), and `alcanceLeads = Propios` users own it (else `forbidden`).
 */
export async function canSeeLead(
  db: Db,
  corporateId: string,
  leadId: string,
  user: Pick<User, 'id'>,
  role: Role,
): Promise<LeadAccess> {
  const { rows } = await db.query<{ doc: Lead }>(
    'SELECT doc FROM rm_leads WHERE id = $1 AND corporate_id = $2',
    [leadId, corporateId],
  );
  const lead = rows[0]?.doc;
  if (!lead || lead.eliminado) return { ok: false, reason: 'not_found' };
  if (!seesAll(role) && lead.idVendedor !== user.id) return { ok: false, reason: 'forbidden' };
  return { ok: true, lead };
}

function leadAccessError(reason: 'not_found' | 'forbidden'): ApiError {
  return reason === 'forbidden'
    ? new ApiError(403, 'LEAD_FORBIDDEN', 'lead_forbidden')
    : new ApiError(404, 'LEAD_NOT_FOUND', 'lead_not_found');
}

/** The quotation folded from its stream, with the stream's version. */
async function loadQuotation(c: Ctx, corporateId: string, id: string) {
  const events = await c.get('deps').store.readStream(quotationStream(corporateId, id));
  let state: Quotation | null = null;
  for (const e of events) {
    state = evolveQuotation(state, { type: e.type, data: e.data } as QuotationEvent);
  }
  return { quotation: state, version: events.length };
}

/** Visible to `Todos`, to the quotation's adviser and to the owner of its lead; 404 otherwise. */
async function requireQuotation(c: Ctx, m: Membership, id: string) {
  const loaded = await loadQuotation(c, m.corporate.id, id);
  const q = loaded.quotation;
  if (!q || q.idCorporativo !== m.corporate.id) throw quotationNotFound();
  if (seesAll(m.role) || q.idAsesor === m.user.id) return { ...loaded, quotation: q };
  const { rows } = await c
    .get('deps')
    .db.query(
      'SELECT 1 FROM rm_leads WHERE id = $1 AND corporate_id = $2 AND id_vendedor = $3 AND NOT eliminado',
      [q.idLead, m.corporate.id, m.user.id],
    );
  if (rows.length === 0) throw quotationNotFound();
  return { ...loaded, quotation: q };
}

// ---------------------------------------------------------------------------------------------
// Share tokens

interface SharePayload {
  /** Quotation id. */
  q: string;
  /** Corporate id. */
  c: string;
  /** Expiry, seconds since the epoch. */
  e: number;
  /** Random nonce recorded in the `QuotationShared` event. */
  n: string;
}

const SHARE_CONTEXT = 'vitrina:quotation-share:v1\n';

function shareSignature(secret: string, payload: string): string {
  return createHmac('sha256', secret)
    .update(SHARE_CONTEXT + payload)
    .digest('base64url');
}

/**
 * A share token: `base64url(JSON payload) "." base64url(HMAC-SHA256(secret, payload))`. The
 * payload names the quotation, the corporate, the expiry and a 128-bit random nonce.
 */
export function signShareToken(secret: string, payload: SharePayload): string {
  const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
  return `${body}.${shareSignature(secret, body)}`;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,600}\.[A-Za-z0-9_-]{43}$/;

/**
 * The payload of a genuine token, or null for anything modified or malformed. The signature is
 * compared as its canonical text in constant time: comparing decoded bytes would accept a
 * changed last character, whose low bits base64 decoding ignores.
 */
export function verifyShareToken(secret: string, token: string): SharePayload | null {
  if (!TOKEN_SHAPE.test(token)) return null;
  const [body, signature] = token.split('.') as [string, string];
  const expected = shareSignature(secret, body);
  if (!timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(expected, 'utf8'))) return null;
  try {
    const value = JSON.parse(
      Buffer.from(body, 'base64url').toString('utf8'),
    ) as Partial<SharePayload>;
    if (
      typeof value.q === 'string' &&
      typeof value.c === 'string' &&
      typeof value.e === 'number' &&
      typeof value.n === 'string'
    ) {
      return { q: value.q, c: value.c, e: value.e, n: value.n };
    }
  } catch {
    // a signed body that is not our JSON cannot happen without the secret; refuse it anyway
  }
  return null;
}

/** A share link as the adviser's list shows it (`…/compartidos`). */
export interface ShareLink {
  nonce: string;
  /** ISO instants. */
  creadoEn: string;
  expiraEn: string;
  /** When the adviser turned it off; null while it still opens (unless expired). */
  revocadoEn: string | null;
  url: string;
}

interface ShareRow {
  nonce: string;
  expira_en: Date | string;
  fecha_alta: Date | string;
  revocado_en: Date | string | null;
}

const isoInstant = (value: Date | string) => new Date(value).toISOString();

/**
 * The link of an issued share. Its token is signed again rather than stored: it is a pure
 * function of the payload and the secret, and `expira_en` keeps the whole-second expiry it was
 * signed with, so this is the very token the adviser was first given.
 */
function shareLink(secret: string, corporateId: string, quotationId: string, row: ShareRow) {
  const expiraEn = isoInstant(row.expira_en);
  const token = signShareToken(secret, {
    q: quotationId,
    c: corporateId,
    e: Date.parse(expiraEn) / 1000,
    n: row.nonce,
  });
  return {
    nonce: row.nonce,
    creadoEn: isoInstant(row.fecha_alta),
    expiraEn,
    revocadoEn: row.revocado_en === null ? null : isoInstant(row.revocado_en),
    url: `/public/cotizacion/${token}`,
  } satisfies ShareLink;
}

/** The quotation's issued shares, newest first; only the one of `nonce` when given. */
async function findShares(db: Db, corporateId: string, quotationId: string, nonce?: string) {
  const params = [corporateId, quotationId, ...(nonce === undefined ? [] : [nonce])];
  const { rows } = await db.query<ShareRow>(
    `SELECT nonce, expira_en, fecha_alta, revocado_en FROM rm_quotation_shares
      WHERE corporate_id = $1 AND quotation_id = $2 ${nonce === undefined ? '' : 'AND nonce = $3'}
      ORDER BY fecha_alta DESC, posicion DESC`,
    params,
  );
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Input

const id = z.string().min(1).max(64);
const currencyCodeSchema = z.string().min(1).max(10);

const extraSchema = z.strictObject({
  nombre: z.string().trim().min(1).max(120),
  /** Major units of `divisa`; a negative value is refused (400 EXTRA_INVALID). */
  precio: z.number().finite().max(1e12),
  /**
   * The currency the price was entered in; the core converts it to the quoted one (400
   * CURRENCY_NOT_FOUND if not the corporate's). Absent: the quoted currency, as before.
   */
  divisa: currencyCodeSchema.optional(),
});

const newLeadSchema = z.strictObject({
  nombre: z.string().max(120),
  apellidos: z.string().max(120).optional(),
  email: z.string().max(254).optional(),
  telefono: z.string().max(40).optional(),
});

const createBody = z
  .strictObject({
    idUnidad: id,
    idEsquema: id,
    opcionales: z.array(id).max(50).default([]),
    extras: z.array(extraSchema).max(50).default([]),
    divisa: currencyCodeSchema,
    idLead: id.optional(),
    nuevoLead: newLeadSchema.optional(),
  })
  .refine((b) => (b.idLead === undefined) !== (b.nuevoLead === undefined), {
    message: 'exactly one of idLead and nuevoLead',
    path: ['idLead'],
  });

const shareBody = z.strictObject({
  diasVigencia: z.number().int().min(1).max(SHARE_MAX_DAYS).optional(),
});

const localQuery = z.strictObject({ idCorporativo: id, idLead: id });
const weeklyQuery = z.strictObject({ idCorporativo: id });
const schemesQuery = z.strictObject({
  idCorporativo: id,
  idDesarrollo: id,
  idCluster: id.optional(),
});
const extrasQuery = z.strictObject({ idCorporativo: id, idDesarrollo: id, idCluster: id });

// ---------------------------------------------------------------------------------------------
// Handlers' helpers

async function requireDevelopment(db: Db, corporateId: string, devId: string) {
  const development = await loadDevelopmentById(db, corporateId, devId);
  if (!development) throw new ApiError(404, 'DEVELOPMENT_NOT_FOUND', 'development_not_found');
  return development;
}

async function requireClusterOf(db: Db, corporateId: string, devId: string, clusterId: string) {
  const cluster = await findCluster(db, corporateId, clusterId);
  if (!cluster || cluster.idDesarrollo !== devId) {
    throw new ApiError(404, 'CLUSTER_NOT_FOUND', 'cluster_not_found');
  }
  return cluster;
}

function newEvent(c: Ctx, corporateId: string, actorId: string, type: string, data: unknown) {
  const deps = c.get('deps');
  return { id: deps.newId(), type, data, corporateId, actorId, occurredAt: deps.clock() };
}

type CorporateDoc = Corporate & Partial<CorporateConfig>;

/** The buyer's view of a quotation: names and figures, no ids, no contact data. */
export function publicQuotation(q: Quotation) {
  const { id: _i, idCluster: _c, ...scheme } = q.esquemasPago;
  return {
    fechaAlta: q.fechaAlta,
    nombreDesarrolloInteres: q.nombreDesarrolloInteres,
    nombreCluster: q.nombreCluster,
    nombreUnidad: q.nombreUnidad,
    nombrePrototipe: q.nombrePrototipe,
    nombreAsesor: q.nombreAsesor,
    nombreCliente: q.nombreCliente,
    precioEnCotizacion: q.precioEnCotizacion,
    divisaUnidad: { codigo: q.divisaUnidad.codigo, nombre: q.divisaUnidad.nombre },
    divisa: { codigo: q.divisa.codigo, nombre: q.divisa.nombre },
    esquemasPago: scheme,
    adicionales: q.adicionales.map((a) => ({ tipo: a.tipo, nombre: a.nombre, monto: a.monto })),
    figuras: q.figuras,
    unidad: q.unidad,
    fechaEntrega: q.fechaEntrega,
    zonaHoraria: q.zonaHoraria,
  };
}

/** The figures of a priced quotation without anything of an adviser or a lead. */
export function publicSimulation(priced: PricedQuotation, unit: Unit) {
  const { id: idEsquema, idCluster: _c, ...scheme } = priced.esquemasPago;
  return {
    unidad: { id: unit.id, nombre: unit.nombre, idCluster: unit.idCluster },
    idEsquema,
    esquemasPago: scheme,
    precioEnCotizacion: priced.precioEnCotizacion,
    divisaUnidad: { codigo: priced.divisaUnidad.codigo, nombre: priced.divisaUnidad.nombre },
    divisa: { codigo: priced.divisa.codigo, nombre: priced.divisa.nombre },
    adicionales: priced.adicionales,
    figuras: priced.figuras,
  };
}

// ---------------------------------------------------------------------------------------------
// Routes

export const quotationRoutes = new Hono<Env>()
  /**
   * `POST /api/corporativos/:id/cotizaciones` — creates a quotation.
   *
   * Body: `{ idUnidad, idEsquema, opcionales?: string[] (optional ids), extras?: [{ nombre,
   * precio }] (major units of the quoted currency), divisa: 'MXN' | 'USD' | …, and exactly one
   * of idLead: string | nuevoLead: { nombre, apellidos?, email?, telefono? } }`.
   *
   * → 201 {@link Quotation}: `{ id, idCorporativo, idDesarrollo, idCluster, idUnidad,
   * idPrototipo, idAsesor, idLead, nombreUnidad, nombrePrototipe, nombreCluster,
   * nombreDesarrolloInteres, nombreAsesor, nombreCliente, precioEnCotizacion, divisaUnidad,
   * divisa {codigo, nombre, tipoCambio, activo}, esquemasPago (the scheme as quoted),
   * opcionales, extras, adicionales [{ tipo, id?, nombre, monto (cents) }], figuras {
   * listPrice, discountFraction, discount, priceAfterDiscount, extras, finalPrice, parts [{ key,
   * nombre, porcentaje, amount }], instalments [{ number, date (ISO), amount }], months } (all
   * cents of `divisa`), unidad { nivel, metrajes, caracteristicas }, fechaEntrega, zonaHoraria,
   * fechaAlta (seconds), esFavorito }`.
   *
   * Errors (nothing is written): 400 VALIDATION (body shape, lead fields), UNIT_NOT_FOUND,
   * UNIT_NOT_QUOTABLE `{status}`, SCHEME_NOT_FOUND (not a scheme of the unit's cluster),
   * SCHEME_INVALID `{detalle}` (parts do not sum to 1, …), OPTIONAL_NOT_FOUND `{id}`,
   * EXTRA_INVALID `{indice}` (negative price), CURRENCY_NOT_FOUND `{codigo}`; 403 FORBIDDEN
   * (not a member), LEAD_FORBIDDEN (another adviser's lead under Propios); 404 LEAD_NOT_FOUND.
   */
  .post('/corporativos/:id/cotizaciones', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(createBody, await jsonBody(c));
    const deps = c.get('deps');
    const { db } = deps;
    const corporate = m.corporate as CorporateDoc;
    const now = deps.clock();

    const unit = await findUnit(db, corporate.id, body.idUnidad);
    if (!unit) throw new ApiError(400, 'UNIT_NOT_FOUND', 'unit_not_found');
    const development = await requireDevelopment(db, corporate.id, unit.idDesarrollo);
    const pricing = priceQuotation({
      corporate,
      development,
      unit,
      statusColors: effectiveStatusColors(corporate, development),
      rule: 'quotable',
      idEsquema: body.idEsquema,
      idsOpcionales: body.opcionales,
      extras: body.extras,
      divisa: body.divisa,
      now,
    });
    if (!pricing.ok) throw quotationErrorToApi(pricing.error);

    const requests: AppendRequest[] = [];
    let lead: { id: string; nombre: string };
    let newLeadContact: LeadContactKeys | null = null;
    if (body.idLead !== undefined) {
      const access = await canSeeLead(db, corporate.id, body.idLead, m.user, m.role);
      if (!access.ok) throw leadAccessError(access.reason);
      lead = { id: access.lead.id, nombre: displayName(access.lead) };
    } else {
      const idLead = deps.newId();
      const fields = normalizeLeadFields({
        ...body.nuevoLead!,
        desarrollo: development.id,
        status: corporate.statusLeads?.[0]?.id ?? null,
      });
      const decision = decideLead(
        {
          type: 'RegisterLead',
          idLead,
          idCorporativo: corporate.id,
          idVendedor: m.user.id,
          fields,
          now: Math.floor(now.getTime() / 1000),
        },
        initialLeadState,
      );
      if (!decision.ok) {
        const issues =
          decision.error.code === 'LEAD_INVALID'
            ? decision.error.issues.map((i) => ({ path: `nuevoLead.${i.campo}`, code: i.code }))
            : [{ path: 'nuevoLead', code: 'invalid' }];
        throw badRequest(issues);
      }
      // A client created on the spot is still a lead: the same duplicate protection applies,
      // claims included (see lead-contacts.ts).
      newLeadContact = leadContactKeys(fields);
      requests.push(...(await contactClaims(c, corporate.id, newLeadContact, idLead, m.user.id)));
      const existing = await findDuplicate(db, corporate.id, newLeadContact);
      if (existing) throw await duplicateError(c, existing);
      requests.push({
        streamId: leadStream(corporate.id, idLead),
        expectedVersion: 0,
        events: decision.events.map((e) => newEvent(c, corporate.id, m.user.id, e.type, e.data)),
      });
      lead = { id: idLead, nombre: displayName(fields) };
    }

    const [cluster, prototype] = await Promise.all([
      findCluster(db, corporate.id, unit.idCluster),
      findPrototype(db, corporate.id, unit.idPrototipo),
    ]);
    const quotation = newQuotation(pricing.priced, {
      id: deps.newId(),
      idCorporativo: corporate.id,
      zonaHoraria: corporate.zonaHoraria,
      development,
      cluster,
      prototype,
      unit,
      adviser: { id: m.user.id, nombre: displayName(m.user) },
      lead,
      now,
    });
    const created: QuotationEvent = {
      type: 'QuotationCreated',
      data: { ...quotationEventBase(quotation), cotizacion: quotation },
    };
    requests.push({
      streamId: quotationStream(corporate.id, quotation.id),
      expectedVersion: 0,
      events: [newEvent(c, corporate.id, m.user.id, created.type, created.data)],
    });
    try {
      await deps.store.appendMany(requests);
    } catch (error) {
      // Someone registered the same person meanwhile: the same 409 as if they had been first.
      if (newLeadContact !== null && isClaimConflict(error)) {
        const existing = await findDuplicate(db, corporate.id, newLeadContact);
        if (existing) throw await duplicateError(c, existing);
      }
      throw error;
    }
    return c.json(quotation, 201);
  })

  /**
   * `GET /api/wsObtenerCotizacionesLocales?idCorporativo&idLead` → {@link Quotation}[] of the
   * lead, newest first (`fechaAlta`, then creation order). 404 LEAD_NOT_FOUND when the lead
   * does not exist in the corporate; 403 LEAD_FORBIDDEN for another adviser's lead under
   * `Propios`.
   */
  .get('/wsObtenerCotizacionesLocales', async (c) => {
    const q = parse(localQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    const access = await canSeeLead(db, m.corporate.id, q.idLead, m.user, m.role);
    if (!access.ok) throw leadAccessError(access.reason);
    const { rows } = await db.query<{ doc: Quotation }>(
      `SELECT doc FROM rm_quotations WHERE corporate_id = $1 AND id_lead = $2
       ORDER BY fecha_alta DESC, posicion DESC`,
      [m.corporate.id, q.idLead],
    );
    return c.json(rows.map((r) => r.doc));
  })

  /**
   * `GET /api/wsObtenerCotizacionesSemanales?idCorporativo` → `QuoteReportRow[]`
   * (core/quote-report.ts: `{ fechaAlta (seconds), idAsesor, nombreAsesor, nombreCliente,
   * nombreDesarrollo, nombreCluster, nombreUnidad, nombrePrototipo, precioLista, descuento,
   * precioFinal, enganche, diferido, mensualidades, escrituracion, contraEntrega, divisa }`,
   * amounts in cents of the quotation's currency `divisa`), oldest first: the quotations of the current week
   * (Monday 00:00 to the next Monday 00:00 in the corporate's `zonaHoraria`). Users whose role
   * has `alcanceLeads = Todos` get every adviser's; others only their own (`idAsesor` = user).
   * Adviser and client names are the current ones (the names at quote time when the person is
   * gone). Needs `permisos.generarReporteCotizaciones`, else 403 REPORT_FORBIDDEN. The
   * response headers `X-Semana-Inicio` / `X-Semana-Fin` give the week's bounds (ISO).
   */
  .get('/wsObtenerCotizacionesSemanales', async (c) => {
    const q = parse(weeklyQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    if (m.role.permisos.generarReporteCotizaciones !== true) {
      throw new ApiError(403, 'REPORT_FORBIDDEN', 'report_forbidden');
    }
    const deps = c.get('deps');
    const tz = m.corporate.zonaHoraria || 'UTC';
    const start = startOfWeekMonday(deps.clock(), tz);
    const end = startOfWeekMonday(new Date(start.getTime() + 8 * 86_400_000), tz);
    const params: unknown[] = [m.corporate.id, start.toISOString(), end.toISOString()];
    let own = '';
    if (!seesAll(m.role)) {
      params.push(m.user.id);
      own = 'AND q.id_asesor = $4';
    }
    // Built as one JSON text by the database: a large week never becomes JS objects here.
    const { rows } = await deps.db.query<{ body: string }>(
      `SELECT coalesce(json_agg(
                q.reporte || jsonb_build_object(
                  'divisa', q.doc->'divisa'->>'codigo',
                  'nombreAsesor', coalesce(nullif(trim(concat_ws(' ', u.doc->>'nombre', u.doc->>'apellidos')), ''), q.reporte->>'nombreAsesor'),
                  'nombreCliente', coalesce(nullif(trim(concat_ws(' ', l.doc->>'nombre', l.doc->>'apellidos')), ''), q.reporte->>'nombreCliente'))
                ORDER BY q.fecha_alta, q.posicion), '[]'::json)::text AS body
         FROM rm_quotations q
         LEFT JOIN rm_users u ON u.id = q.id_asesor
         LEFT JOIN rm_leads l ON l.id = q.id_lead AND l.corporate_id = q.corporate_id
        WHERE q.corporate_id = $1 AND q.fecha_alta >= $2 AND q.fecha_alta < $3 ${own}`,
      params,
    );
    c.header('X-Semana-Inicio', start.toISOString());
    c.header('X-Semana-Fin', end.toISOString());
    c.header('Content-Type', 'application/json; charset=UTF-8');
    return c.body(rows[0]?.body ?? '[]', 200);
  })

  /**
   * `PUT /api/corporativos/:id/cotizaciones/:qid/favorito` (no body) toggles the favourite
   * flag → 200 `{ id, esFavorito }`. 404 QUOTATION_NOT_FOUND when absent or not visible; 409
   * CONFLICT when a concurrent toggle won (retry).
   */
  .put('/corporativos/:id/cotizaciones/:qid/favorito', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { quotation, version } = await requireQuotation(c, m, parse(id, c.req.param('qid')));
    const event: QuotationEvent = {
      type: 'QuotationFavouriteToggled',
      data: { ...quotationEventBase(quotation), esFavorito: !quotation.esFavorito },
    };
    await c
      .get('deps')
      .store.append(quotationStream(m.corporate.id, quotation.id), version, [
        newEvent(c, m.corporate.id, m.user.id, event.type, event.data),
      ]);
    return c.json({ id: quotation.id, esFavorito: event.data.esFavorito });
  })

  /**
   * `POST /api/corporativos/:id/cotizaciones/:qid/compartir` body `{ diasVigencia?: 1..90 }`
   * (default 14) → 201 `{ url: '/public/cotizacion/<token>', token, expiraEn (ISO) }`. The token
   * is signed (HMAC-SHA256) and carries a random nonce recorded in a `QuotationShared` event;
   * the buyer opens it signed out (`GET /api/public/cotizaciones/:token`). 404 when the
   * quotation is absent or not visible.
   */
  .post('/corporativos/:id/cotizaciones/:qid/compartir', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(shareBody, await jsonBody(c));
    const { quotation, version } = await requireQuotation(c, m, parse(id, c.req.param('qid')));
    const deps = c.get('deps');
    const days = body.diasVigencia ?? SHARE_DEFAULT_DAYS;
    const expires = Math.floor(deps.clock().getTime() / 1000) + days * 86_400;
    const nonce = randomBytes(16).toString('base64url');
    const token = signShareToken(deps.secret, {
      q: quotation.id,
      c: m.corporate.id,
      e: expires,
      n: nonce,
    });
    const expiraEn = new Date(expires * 1000).toISOString();
    const event: QuotationEvent = {
      type: 'QuotationShared',
      data: { ...quotationEventBase(quotation), nonce, expiraEn },
    };
    await deps.store.append(quotationStream(m.corporate.id, quotation.id), version, [
      newEvent(c, m.corporate.id, m.user.id, event.type, event.data),
    ]);
    return c.json({ url: `/public/cotizacion/${token}`, token, expiraEn }, 201);
  })

  /**
   * `GET /api/corporativos/:id/cotizaciones/:qid/compartidos` → {@link ShareLink}[]: `{ nonce,
   * creadoEn (ISO), expiraEn (ISO), revocadoEn (ISO | null), url: '/public/cotizacion/<token>' }`
   * for every link issued for the quotation, newest first, revoked and expired ones included.
   * 404 QUOTATION_NOT_FOUND when the quotation is absent or not visible.
   */
  .get('/corporativos/:id/cotizaciones/:qid/compartidos', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { quotation } = await requireQuotation(c, m, parse(id, c.req.param('qid')));
    const deps = c.get('deps');
    const rows = await findShares(deps.db, m.corporate.id, quotation.id);
    return c.json(rows.map((row) => shareLink(deps.secret, m.corporate.id, quotation.id, row)));
  })

  /**
   * `DELETE /api/corporativos/:id/cotizaciones/:qid/compartidos/:nonce` revokes a share link
   * with a `QuotationShareRevoked` event → 200 {@link ShareLink} with `revocadoEn` set; the
   * buyer's `GET /api/public/cotizaciones/:token` answers 410 SHARE_REVOKED from then on, other
   * links of the quotation keep working. Revoking a revoked link answers the same 200 and writes
   * nothing. 404 QUOTATION_NOT_FOUND when the quotation is absent or not visible, SHARE_NOT_FOUND
   * when the nonce is not a link of this quotation; 409 CONFLICT when the quotation changed
   * meanwhile (retry).
   */
  .delete('/corporativos/:id/cotizaciones/:qid/compartidos/:nonce', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const { quotation, version } = await requireQuotation(c, m, parse(id, c.req.param('qid')));
    const nonce = parse(id, c.req.param('nonce'));
    const deps = c.get('deps');
    const find = async () => (await findShares(deps.db, m.corporate.id, quotation.id, nonce))[0];
    const link = (row: ShareRow) =>
      c.json(shareLink(deps.secret, m.corporate.id, quotation.id, row));
    const share = await find();
    if (!share) throw new ApiError(404, 'SHARE_NOT_FOUND', 'share_not_found');
    if (share.revocado_en !== null) return link(share);
    const event: QuotationEvent = {
      type: 'QuotationShareRevoked',
      data: { ...quotationEventBase(quotation), nonce },
    };
    try {
      await deps.store.append(quotationStream(m.corporate.id, quotation.id), version, [
        newEvent(c, m.corporate.id, m.user.id, event.type, event.data),
      ]);
    } catch (error) {
      // Two revocations of one link racing: the loser's wish came true all the same.
      const after = error instanceof ConcurrencyError ? await find() : undefined;
      if (!after || after.revocado_en === null) throw error;
      return link(after);
    }
    return link((await find())!);
  })

  /**
   * `GET /api/wsObtenerEsquemasPago?idCorporativo&idDesarrollo[&idCluster]` →
   * `(PaymentScheme & { valido: boolean, detalle?: string })[]`: the development's schemes that
   * apply to the cluster (a cluster variant replaces the default of the same `nombre`); without
   * `idCluster`, the defaults. `valido` is false for a scheme the core refuses (parts not
   * summing to 1, …), which cannot be quoted. 404 DEVELOPMENT_NOT_FOUND / CLUSTER_NOT_FOUND.
   */
  .get('/wsObtenerEsquemasPago', async (c) => {
    const q = parse(schemesQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    const development = await requireDevelopment(db, m.corporate.id, q.idDesarrollo);
    if (q.idCluster) await requireClusterOf(db, m.corporate.id, development.id, q.idCluster);
    return c.json(
      effectiveSchemes(development.esquemasPago, q.idCluster).map((s) => {
        const check = validateScheme(schemeForQuote(s));
        return check.ok
          ? { ...s, valido: true }
          : { ...s, valido: false, detalle: check.error.message };
      }),
    );
  })

  /**
   * `GET /api/wsObtenerExtrasAdicionales?idCorporativo&idDesarrollo&idCluster` → `Optional[]`
   * (`{ id, nombre, precio (major units of the development's currency), idCluster? }`): the
   * development's optionals without a cluster plus those of this cluster. 404
   * DEVELOPMENT_NOT_FOUND / CLUSTER_NOT_FOUND.
   */
  .get('/wsObtenerExtrasAdicionales', async (c) => {
    const q = parse(extrasQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    const development = await requireDevelopment(db, m.corporate.id, q.idDesarrollo);
    await requireClusterOf(db, m.corporate.id, development.id, q.idCluster);
    return c.json(applicableOptionals(development.opcionales, q.idCluster));
  });

/** Used by the public router: the quotation a genuine, unexpired, issued, unrevoked token points at. */
export async function quotationForToken(db: Db, secret: string, token: string, now: Date) {
  const invalid = () => new ApiError(404, 'SHARE_INVALID', 'share_invalid');
  const payload = verifyShareToken(secret, token);
  if (!payload) throw invalid();
  if (payload.e * 1000 <= now.getTime()) throw new ApiError(410, 'SHARE_EXPIRED', 'share_expired');
  const { rows } = await db.query<{
    doc: Quotation;
    corporate: CorporateDoc;
    revocado_en: Date | string | null;
  }>(
    `SELECT q.doc, c.doc AS corporate, s.revocado_en
       FROM rm_quotation_shares s
       JOIN rm_quotations q ON q.id = s.quotation_id AND q.corporate_id = s.corporate_id
       JOIN rm_corporates c ON c.id = q.corporate_id
      WHERE s.nonce = $1 AND s.quotation_id = $2 AND s.corporate_id = $3`,
    [payload.n, payload.q, payload.c],
  );
  const row = rows[0];
  if (!row) throw invalid();
  if (row.revocado_en !== null) throw new ApiError(410, 'SHARE_REVOKED', 'share_revoked');
  return {
    quotation: row.doc,
    corporate: row.corporate,
    expiraEn: new Date(payload.e * 1000).toISOString(),
  };
}
