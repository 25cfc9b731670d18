/**
 * Quotations (issue 7; spec §3 Quotation and payment schemes, §4 favourite flag, §5 quote
 * export, §6 report permissions, §7 quotation calls): parse with zod, authorise, run the command
 * (commands.ts) or the query (queries.ts), answer. One event stream per quotation (streams.ts);
 * lists read `rm_quotations` (projection.ts). The corporate comes from the session's membership
 * (403 for non-members). Errors use the spec's shape `[{ errorCode, message, …extra }]`.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { mayEditLegalData } from '../../core/legal-data';
import { mayGenerateQuoteReport } from '../../core/permissions';
import { validateScheme } from '../../core/pricing';
import { applicableOptionals, effectiveSchemes, schemeForQuote } from '../../core/quotation';
import { requireMember, type Env } from '../http/context';
import { ApiError, forbidden, jsonBody, parse } from '../http/errors';
import { createQuotation, revokeShare, shareQuotation, toggleFavourite } from './commands';
import { leadAccessError, quotationNotFound, shareNotFound } from './errors';
import { LEGAL_ADDRESS_MAX, LEGAL_NAME_MAX, legalDataOf, setLegalData } from './legal-data';
import {
  findShares,
  leadAccess,
  leadQuotations,
  requireClusterOf,
  requireDevelopment,
  visibleQuotation,
} from './queries';
import { weeklyReportScope, weeklyReportStream } from './report-stream';
import { SHARE_MAX_DAYS, shareLink } from './share-links';

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

const legalBody = z.strictObject({
  razonSocial: z.string().max(LEGAL_NAME_MAX),
  domicilio: z.string().max(LEGAL_ADDRESS_MAX),
});

const localQuery = z.strictObject({ idCorporativo: id, idLead: id });
const weeklyQuery = z.strictObject({ idCorporativo: id });
const schemesQuery = z.strictObject({
  idCorporativo: id,
  idDesarrollo: id,
  idCluster: id.optional(),
});
const extrasQuery = z.strictObject({ idCorporativo: id, idDesarrollo: id, idCluster: id });

/** The weekly report, streamed in either shape (report-stream.ts). */
async function weeklyReportResponse(c: Context<Env>, format: 'json' | 'ndjson') {
  const q = parse(weeklyQuery, c.req.query());
  const m = await requireMember(c, { id: q.idCorporativo });
  if (!mayGenerateQuoteReport(m.role)) {
    throw new ApiError(403, 'REPORT_FORBIDDEN', 'report_forbidden');
  }
  const deps = c.get('deps');
  const scope = weeklyReportScope(m, deps.clock());
  c.header('X-Semana-Inicio', scope.start.toISOString());
  c.header('X-Semana-Fin', scope.end.toISOString());
  c.header(
    'Content-Type',
    format === 'json' ? 'application/json; charset=UTF-8' : 'application/x-ndjson; charset=UTF-8',
  );
  c.header('Cache-Control', 'no-store');
  return c.body(
    weeklyReportStream(deps.db, scope, {
      format,
      connections: deps.db.connections,
      othersWaiting: () => c.get('requests').busy(),
    }),
    200,
  );
}

export const quotationRoutes = new Hono<Env>()
  /**
   * `POST /api/corporativos/:id/cotizaciones` — creates a quotation.
   *
   * Body: `{ idUnidad, idEsquema, opcionales?: string[] (optional ids), extras?: [{ nombre,
   * precio, divisa? }] (major units), divisa: 'MXN' | 'USD' | …, and exactly one of idLead:
   * string | nuevoLead: { nombre, apellidos?, email?, telefono? } }`.
   *
   * → 201 Quotation (core/quotation.ts): the quotation frozen as priced, figures in cents of
   * `divisa`, `fechaAlta` in seconds, `esFavorito` false.
   *
   * Errors (nothing is written): 400 VALIDATION (body shape, lead fields), UNIT_NOT_FOUND,
   * UNIT_NOT_QUOTABLE `{status}`, SCHEME_NOT_FOUND (not a scheme of the unit's cluster),
   * SCHEME_INVALID `{detalle}` (parts do not sum to 1, …), OPTIONAL_NOT_FOUND `{id}`,
   * EXTRA_INVALID `{indice}` (negative price), CURRENCY_NOT_FOUND `{codigo}`; 403 FORBIDDEN
   * (not a member), LEAD_FORBIDDEN (another adviser's lead under Propios); 404 LEAD_NOT_FOUND;
   * 409 LEAD_DUPLICATE (the new client is already a lead of the corporate).
   */
  .post('/corporativos/:id/cotizaciones', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(createBody, await jsonBody(c));
    return c.json(await createQuotation(c.get('deps'), m, body), 201);
  })

  /**
   * `GET /api/wsObtenerCotizacionesLocales?idCorporativo&idLead` → Quotation[] of the lead,
   * newest first (`fechaAlta`, then creation order). 404 LEAD_NOT_FOUND when the lead does not
   * exist in the corporate; 403 LEAD_FORBIDDEN for a lead outside the user's scope.
   */
  .get('/wsObtenerCotizacionesLocales', async (c) => {
    const q = parse(localQuery, c.req.query());
    const m = await requireMember(c, { id: q.idCorporativo });
    const db = c.get('deps').db;
    const access = await leadAccess(db, m, q.idLead);
    if (!access.ok) throw leadAccessError(access.reason);
    return c.json(await leadQuotations(db, m.corporate.id, q.idLead));
  })

  /**
   * `GET /api/wsObtenerCotizacionesSemanales?idCorporativo` → `QuoteReportRow[]`
   * (core/quote-report.ts, amounts in cents of the quotation's `divisa`), oldest first: the
   * quotations of the current week (Monday 00:00 to the next Monday 00:00 in the corporate's
   * `zonaHoraria`), every adviser's or only the user's own (core/permissions.ts
   * `mayGenerateAllUsersReport`). Adviser and client names are the current ones (the names at
   * quote time when the person is gone). 403 REPORT_FORBIDDEN without
   * `permisos.generarReporteCotizaciones`. `X-Semana-Inicio` / `X-Semana-Fin` give the week's
   * bounds (ISO). The array is streamed page by page from the database (report-stream.ts).
   */
  .get('/wsObtenerCotizacionesSemanales', (c) => weeklyReportResponse(c, 'json'))

  /**
   * `GET /api/cotizaciones/reporte-semanal?idCorporativo` → the same rows as
   * `wsObtenerCotizacionesSemanales`, as NDJSON for the client's CSV builder: a first line
   * `{ total, escrituracion, divisa }` (the row count and whether the CSV needs its deed and
   * currency columns), then one line per page, each a JSON array of `QuoteReportRow`. Same
   * permission, headers and errors.
   */
  .get('/cotizaciones/reporte-semanal', (c) => weeklyReportResponse(c, 'ndjson'))

  /**
   * `PUT /api/corporativos/:id/cotizaciones/:qid/favorito` (no body) toggles the favourite
   * flag → 200 `{ id, esFavorito }`. Concurrent toggles queue: each flips the flag the one
   * before it left. 404 QUOTATION_NOT_FOUND when absent or not visible.
   */
  .put('/corporativos/:id/cotizaciones/:qid/favorito', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const qid = parse(id, c.req.param('qid'));
    return c.json(await toggleFavourite(c.get('deps'), m, qid));
  })

  /**
   * `POST /api/corporativos/:id/cotizaciones/:qid/compartir` body `{ diasVigencia?: 1..90 }`
   * (default 14) → 201 `{ url: '/public/cotizacion/<token>', token, expiraEn (ISO) }`. The token
   * is signed (share-links.ts) and carries a random nonce recorded in a `QuotationShared` event;
   * the buyer opens it signed out (`GET /api/public/cotizaciones/:token`). 404 when the
   * quotation is absent or not visible.
   */
  .post('/corporativos/:id/cotizaciones/:qid/compartir', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const body = parse(shareBody, await jsonBody(c));
    const qid = parse(id, c.req.param('qid'));
    return c.json(await shareQuotation(c.get('deps'), m, qid, body.diasVigencia), 201);
  })

  /**
   * `GET /api/corporativos/:id/cotizaciones/:qid/compartidos` → ShareLink[] (share-links.ts):
   * `{ nonce, creadoEn, expiraEn, revocadoEn (ISO | null), url }` for every link issued for the
   * quotation, newest first, revoked and expired ones included. 404 QUOTATION_NOT_FOUND when the
   * quotation is absent or not visible.
   */
  .get('/corporativos/:id/cotizaciones/:qid/compartidos', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const deps = c.get('deps');
    const quotation = await visibleQuotation(deps.db, m, parse(id, c.req.param('qid')));
    if (!quotation) throw quotationNotFound();
    const rows = await findShares(deps.db, m.corporate.id, quotation.id);
    return c.json(
      await Promise.all(
        rows.map((row) => shareLink(deps.shareKeys, m.corporate.id, quotation.id, row)),
      ),
    );
  })

  /**
   * `DELETE /api/corporativos/:id/cotizaciones/:qid/compartidos/:nonce` revokes a share link
   * with a `QuotationShareRevoked` event → 200 ShareLink with `revocadoEn` set; the buyer's
   * `GET /api/public/cotizaciones/:token` answers 410 SHARE_REVOKED from then on, other links of
   * the quotation keep working. Revoking a revoked link answers the same 200 and writes nothing.
   * 404 QUOTATION_NOT_FOUND when the quotation is absent or not visible, SHARE_NOT_FOUND when
   * the nonce is not a link of this quotation.
   */
  .delete('/corporativos/:id/cotizaciones/:qid/compartidos/:nonce', async (c) => {
    const m = await requireMember(c, { id: c.req.param('id') });
    const qid = parse(id, c.req.param('qid'));
    const nonce = parse(id, c.req.param('nonce'));
    const deps = c.get('deps');
    await revokeShare(deps, m, qid, nonce);
    const [share] = await findShares(deps.db, m.corporate.id, qid, nonce);
    if (!share) throw shareNotFound();
    return c.json(await shareLink(deps.shareKeys, m.corporate.id, qid, share));
  })

  /**
   * `GET /api/corporativos/:id/datos-legales` → `{ razonSocial, domicilio }` (empty text when not
   * set): the developer's legal name and address printed on quotations. `PUT` with the same body
   * sets both (trimmed; empty clears) → 200 as they are now; the same values write nothing. Both
   * need the administrator's `permisos.activarAdminUsuarios` (403 FORBIDDEN otherwise); 400
   * VALIDATION for a text over 200 / 400 characters or another shape.
   */
  .get('/corporativos/:id/datos-legales', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayEditLegalData(m.role)) throw forbidden();
    return c.json(legalDataOf(m.corporate));
  })
  .put('/corporativos/:id/datos-legales', async (c) => {
    const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
    if (!mayEditLegalData(m.role)) throw forbidden();
    const body = parse(legalBody, await jsonBody(c));
    return c.json(await setLegalData(c.get('deps'), m, body));
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
