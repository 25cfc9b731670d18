/**
 * CRM routes (issue 17; the contract is docs/crm.md): parse with zod, authorise (the session's
 * membership; `mayConfigureCrm` for the configuration and the sync summary; `maySeeLead` for a
 * lead's sync), answer. No answer carries the client secret or a token.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import {
  CRM_TIPOS,
  defaultLeadMap,
  isValidCampo,
  mapLead,
  SAMPLE_LEAD,
  connectionState,
  type CrmConfig,
  type StoredCrmConfig,
} from '../../core/crm';
import { LEAD_TEXT_MAX } from '../../core/lead';
import { mayConfigureCrm, maySeeLead } from '../../core/permissions';
import { requireMember, type Ctx, type Env, type Membership } from '../http/context';
import { ApiError, badRequest, forbidden, jsonBody, parse } from '../http/errors';
import { leadNotFound } from '../leads/errors';
import { visibleLead } from '../leads/queries';
import { configureCrm } from './commands';
import {
  CrmDisconnected,
  CrmNotConfigured,
  CrmReauthorize,
  deleteCredential,
  readCredential,
  readCrmConfig,
  refreshConnection,
  withConnection,
  type CrmService,
} from './connections';
import { completeAuthorization, requireAuthorizable, startAuthorization } from './oauth';
import { CrmCallError, listLeads, urlAllowed } from './providers';
import { leadSyncView, syncSummary } from './queries';
import { queueExport, retryLeadSync } from './sync';

const id = z.string().min(1).max(64);
const text = (max: number) => z.string().max(max).optional().default('');

const mapEntry = z.strictObject({
  campo: z.string().min(1).max(480),
  predeterminado: z.string().max(500).optional(),
});

const mapaLeads = z
  .record(z.string().regex(/^[A-Za-z_]\w{0,63}$/), mapEntry)
  .refine((o) => Object.keys(o).length <= 100);

const configBody = z.strictObject({
  tipo: z.enum(CRM_TIPOS).nullable(),
  clientId: text(500),
  clientSecret: z.string().max(2000).optional(),
  clientSecretSet: z.boolean().optional(),
  authorizeUri: text(2000),
  tokenUri: text(2000),
  scope: text(1000),
  queryLead: text(4000),
  queryLeadSecondary: text(2000),
  insertLead: text(2000),
  infoSeller: text(2000),
  apiBase: text(2000),
  mapaLeads: mapaLeads.optional().default({}),
  exportacion: z
    .strictObject({ url: z.string().max(2000).nullable() })
    .optional()
    .default({ url: null }),
});

const leadSample = z.strictObject({
  nombre: z.string().max(LEAD_TEXT_MAX).optional(),
  apellidos: z.string().max(LEAD_TEXT_MAX).optional(),
  email: z.string().max(254).nullable().optional(),
  telefono: z.string().max(40).nullable().optional(),
  celular: z.string().max(40).nullable().optional(),
  notas: z.string().max(5000).optional(),
  medioContacto: z.string().max(LEAD_TEXT_MAX).nullable().optional(),
  tipo: z.string().max(LEAD_TEXT_MAX).nullable().optional(),
  status: z.string().max(64).nullable().optional(),
  desarrollo: z.string().max(64).nullable().optional(),
});

const previewBody = z.strictObject({ mapaLeads, lead: leadSample.optional() });
const corpBody = z.strictObject({ idCorporativo: id });
const tokenBody = z.strictObject({
  code: z.string().min(1).max(4000),
  state: z.string().min(1).max(200),
  idCorporativo: id,
  accountsServer: z.string().max(300).optional(),
  location: z.string().max(20).optional(),
});
const corpQuery = z.object({ idCorporativo: id });
const leadsQuery = z.object({
  q: z.string().max(100).optional().default(''),
  cursor: z.string().max(2000).optional(),
});
const exportBody = z.strictObject({ mensaje: z.string().max(2000).optional() });

function crmOf(c: Ctx): CrmService {
  const crm = c.get('deps').crm;
  if (!crm) throw new ApiError(500, 'INTERNAL', 'generic');
  return crm;
}

function connDeps(c: Ctx) {
  const deps = c.get('deps');
  return { db: deps.db, crm: crmOf(c), clock: deps.clock };
}

async function requireCrmAdmin(c: Ctx): Promise<Membership> {
  const m = await requireMember(c, { id: parse(id, c.req.param('id')) });
  if (!mayConfigureCrm(m.role)) throw forbidden();
  return m;
}

async function memberOf(c: Ctx, corporateId: string): Promise<Membership> {
  return requireMember(c, { id: corporateId });
}

function sessionOf(c: Ctx): string {
  const token = c.get('sessionToken');
  if (!token) throw new ApiError(401, 'UNAUTHENTICATED', 'unauthenticated');
  return token;
}

/** What the configuration screen sees: everything but the secret (only whether one is set). */
function configView(config: StoredCrmConfig | null) {
  const c = config ?? null;
  return {
    tipo: c?.tipo ?? null,
    clientId: c?.clientId ?? '',
    clientSecretSet: Boolean(c?.clientSecretCifrado),
    authorizeUri: c?.authorizeUri ?? '',
    tokenUri: c?.tokenUri ?? '',
    scope: c?.scope ?? '',
    queryLead: c?.queryLead ?? '',
    queryLeadSecondary: c?.queryLeadSecondary ?? '',
    insertLead: c?.insertLead ?? '',
    infoSeller: c?.infoSeller ?? '',
    apiBase: c?.apiBase ?? '',
    mapaLeads: c?.mapaLeads ?? {},
    exportacion: { url: c?.exportacion.url ?? null },
  };
}

/** URLs must be https (http on loopback where allowed); infoSeller and insertLead may be paths. */
function checkUrls(crm: CrmService, config: CrmConfig) {
  const bad: string[] = [];
  const urls: [string, string, boolean][] = [
    ['authorizeUri', config.authorizeUri, false],
    ['tokenUri', config.tokenUri, false],
    ['apiBase', config.apiBase, false],
    ['infoSeller', config.infoSeller, true],
    ['insertLead', config.insertLead, true],
    ['exportacion.url', config.exportacion.url ?? '', false],
  ];
  for (const [field, value, pathOk] of urls) {
    const v = value.trim();
    if (v === '') continue;
    if (pathOk && v.startsWith('/') && !v.startsWith('//')) continue;
    if (!urlAllowed(v, crm.http)) bad.push(field);
  }
  if (bad.length > 0)
    throw new ApiError(
      400,
      'CRM_CONFIG_INVALID',
      'crm_url_invalid',
      {},
      { details: bad.map((path) => ({ path, code: 'crm_url_invalid' })) },
    );
  const campos = Object.entries(config.mapaLeads).filter(([, e]) => !isValidCampo(e.campo));
  if (campos.length > 0)
    throw new ApiError(
      400,
      'CRM_CONFIG_INVALID',
      'crm_campo_invalid',
      {},
      {
        details: campos.map(([k]) => ({ path: `mapaLeads.${k}.campo`, code: 'crm_campo_invalid' })),
      },
    );
}

/** CRM failures in the contract's shapes. */
function crmApiError(error: unknown): unknown {
  if (error instanceof CrmDisconnected)
    return new ApiError(409, 'CRM_DESCONECTADO', 'crm_disconnected');
  if (error instanceof CrmReauthorize)
    return new ApiError(409, 'CRM_REAUTORIZAR', 'crm_reauthorize');
  if (error instanceof CrmNotConfigured)
    return new ApiError(400, 'CRM_CONFIG_INVALID', 'crm_no_config');
  if (error instanceof CrmCallError && error.crmError.startsWith('INVALID_CURSOR'))
    return badRequest([{ path: 'query.cursor', code: 'invalid_cursor' }]);
  if (error instanceof CrmCallError) {
    console.error(`[vitrina] crm: call failed (${error.crmError})`);
    return new ApiError(502, 'CRM_FAILED', 'crm_failed', {}, { crmError: error.crmError });
  }
  return error;
}

async function crmCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw crmApiError(error);
  }
}

export const crmRoutes = new Hono<Env>()
  .get('/corporativos/:id/crm/config', async (c) => {
    const m = await requireCrmAdmin(c);
    return c.json(configView(await readCrmConfig(c.get('deps').db, m.corporate.id)));
  })
  .put('/corporativos/:id/crm/config', async (c) => {
    const m = await requireCrmAdmin(c);
    const body = parse(configBody, await jsonBody(c));
    const { clientSecret, clientSecretSet: _set, ...rest } = body;
    const config: CrmConfig = {
      ...rest,
      exportacion: { url: body.exportacion.url?.trim() || null },
    };
    const crm = crmOf(c);
    checkUrls(crm, config);
    const stored = await configureCrm(c.get('deps'), crm, m, config, clientSecret);
    return c.json(configView(stored));
  })
  .post('/corporativos/:id/crm/config/vista-previa', async (c) => {
    const m = await requireCrmAdmin(c);
    const body = parse(previewBody, await jsonBody(c));
    const bad = Object.entries(body.mapaLeads).filter(([, e]) => !isValidCampo(e.campo));
    if (bad.length > 0)
      throw badRequest(
        bad.map(([k]) => ({ path: `mapaLeads.${k}.campo`, code: 'crm_campo_invalid' })),
      );
    const config = await readCrmConfig(c.get('deps').db, m.corporate.id);
    const mapa =
      Object.keys(body.mapaLeads).length > 0
        ? body.mapaLeads
        : config?.tipo
          ? defaultLeadMap(config.tipo)
          : {};
    const lead = { ...SAMPLE_LEAD, idCorporativo: m.corporate.id, ...(body.lead ?? {}) };
    return c.json({ payload: mapLead(lead, mapa) });
  })
  .post('/crm/autorizar', async (c) => {
    const body = parse(corpBody, await jsonBody(c));
    const m = await memberOf(c, body.idCorporativo);
    const url = await startAuthorization(connDeps(c), m, sessionOf(c));
    return c.json({ url });
  })
  .post('/crm/token', async (c) => {
    const body = parse(tokenBody, await jsonBody(c));
    const m = await memberOf(c, body.idCorporativo);
    const result = await crmCall(() =>
      completeAuthorization(connDeps(c), m, sessionOf(c), {
        code: body.code,
        state: body.state,
        ...(body.accountsServer ? { accountsServer: body.accountsServer } : {}),
      }),
    );
    return c.json(result);
  })
  .post('/crm/refresh-token', async (c) => {
    const body = parse(corpBody, await jsonBody(c));
    const m = await memberOf(c, body.idCorporativo);
    const deps = connDeps(c);
    const config = await requireAuthorizable(deps.db, m.corporate.id);
    const cred = await crmCall(async () => {
      const stored = await readCredential(deps.db, deps.crm, m.user.id, m.corporate.id);
      if (!stored || stored.tipo !== config.tipo) throw new CrmDisconnected();
      // Forced: the stale token is the stored one, so a refresh happens even before expiry.
      return refreshConnection(deps, config, m.user.id, m.corporate.id, stored.access);
    });
    return c.json({ conectado: true, expira: cred.expira.toISOString() });
  })
  .get('/crm/user', async (c) => {
    const query = parse(corpQuery, c.req.query());
    const m = await memberOf(c, query.idCorporativo);
    const deps = connDeps(c);
    const config = await readCrmConfig(deps.db, m.corporate.id);
    const cred = await readCredential(deps.db, deps.crm, m.user.id, m.corporate.id);
    const usable = cred && config?.tipo === cred.tipo ? cred : null;
    const estado = connectionState(usable, deps.clock());
    return c.json({
      estado,
      tipo: config?.tipo ?? null,
      ...(usable ? { info: usable.info, expira: usable.expira.toISOString() } : {}),
    });
  })
  .delete('/crm/user', async (c) => {
    const query = parse(corpQuery, c.req.query());
    const m = await memberOf(c, query.idCorporativo);
    await deleteCredential(c.get('deps').db, m.user.id, m.corporate.id);
    return c.body(null, 204);
  })
  .get('/corporativos/:id/crm/leads', async (c) => {
    const m = await memberOf(c, parse(id, c.req.param('id')));
    const query = parse(leadsQuery, c.req.query());
    const deps = connDeps(c);
    const page = await crmCall(() =>
      withConnection(deps, m.user.id, m.corporate.id, (api, cred, config) =>
        listLeads(deps.crm.http, api, config, {
          q: query.q.trim(),
          cursor: query.cursor ?? null,
          ownerId: api.tipo === 'Hubspot' && cred.info.user_id ? cred.info.user_id : null,
        }),
      ),
    );
    const crmIds = page.items.map((i) => i.crmId).filter(Boolean);
    const ours = page.items.map((i) => i.vitrinaId).filter((v): v is string => Boolean(v));
    const { rows } = await deps.db.query<{
      crm_id: string | null;
      id: string;
      id_vendedor: string | null;
    }>(
      `SELECT s.crm_id, l.id, l.id_vendedor FROM rm_leads l
         LEFT JOIN crm_lead_sync s ON s.lead_id = l.id
        WHERE l.corporate_id = $1 AND NOT l.eliminado
          AND (s.crm_id = ANY($2::text[]) OR l.id = ANY($3::text[]))`,
      [m.corporate.id, crmIds, ours],
    );
    const visible = rows.filter((r) =>
      maySeeLead(m, { idCorporativo: m.corporate.id, idVendedor: r.id_vendedor }),
    );
    const byCrm = new Map(visible.filter((r) => r.crm_id).map((r) => [r.crm_id!, r.id]));
    const byId = new Set(visible.map((r) => r.id));
    return c.json({
      items: page.items.map(({ vitrinaId, ...item }) => ({
        ...item,
        leadId: byCrm.get(item.crmId) ?? (vitrinaId && byId.has(vitrinaId) ? vitrinaId : null),
      })),
      next: page.next,
    });
  })
  .get('/corporativos/:id/leads/:leadId/crm', async (c) => {
    const m = await memberOf(c, parse(id, c.req.param('id')));
    const lead = await visibleLead(c.get('deps').db, m, parse(id, c.req.param('leadId')));
    if (!lead) throw leadNotFound();
    return c.json(await leadSyncView(c.get('deps').db, lead.id));
  })
  .post('/corporativos/:id/leads/:leadId/crm/reintentar', async (c) => {
    const m = await memberOf(c, parse(id, c.req.param('id')));
    const deps = c.get('deps');
    const lead = await visibleLead(deps.db, m, parse(id, c.req.param('leadId')));
    if (!lead) throw leadNotFound();
    const config = await readCrmConfig(deps.db, m.corporate.id);
    if (!config || config.tipo === null)
      throw new ApiError(400, 'CRM_CONFIG_INVALID', 'crm_no_config');
    await retryLeadSync(deps.db, config, m.corporate.id, lead.id);
    deps.work.wake();
    return c.body(null, 202);
  })
  .get('/corporativos/:id/crm/sincronizacion', async (c) => {
    const m = await requireCrmAdmin(c);
    return c.json(await syncSummary(c.get('deps').db, m.corporate.id));
  })
  .post('/corporativos/:id/leads/:leadId/exportar', async (c) => {
    const m = await memberOf(c, parse(id, c.req.param('id')));
    const body = parse(exportBody, await jsonBody(c));
    const deps = c.get('deps');
    const lead = await visibleLead(deps.db, m, parse(id, c.req.param('leadId')));
    if (!lead) throw leadNotFound();
    const config = await readCrmConfig(deps.db, m.corporate.id);
    if (!config?.exportacion.url) throw new ApiError(400, 'CRM_EXPORT_NO_URL', 'crm_no_export_url');
    await queueExport(deps.db, {
      corporateId: m.corporate.id,
      leadId: lead.id,
      mensaje: body.mensaje?.trim() ?? '',
    });
    deps.work.wake();
    return c.body(null, 202);
  });
