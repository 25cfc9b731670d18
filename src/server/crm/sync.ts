/**
 * Every lead change synced to the corporate's CRM, and the classifieds export (issue 17 points
 * 5–7), through the outbox:
 *
 * - The consumer `crm-sync` (from the end of the log) queues one `crm-lead` message per lead
 *   event (registered, updated, assigned, merged: an upsert; deleted or merged into another: a
 *   delete) of a corporate with a CRM, keyed by the event, and marks the lead 'pendiente'.
 * - The `crm-lead` handler reads the lead as it is now and writes it through the lead map, as an
 *   upsert keyed by our lead id (providers.ts), so a retry after a timeout updates the record the
 *   first try created. It calls with the owner's connection, else any connected adviser's of the
 *   corporate. The owner in the CRM: the owner's connected CRM user (Salesforce `OwnerId`, Zoho
 *   `Owner.id`), HubSpot's owner with the owner's e-mail (`hubspot_owner_id`).
 * - Failures: a rate limit (Salesforce 403 REQUEST_LIMIT_EXCEEDED, HubSpot 429, Zoho
 *   TOO_MANY_REQUESTS) waits for its time; a refused record (Salesforce's error array, HubSpot
 *   4xx, Zoho's per-record `status: error` with HTTP 200) is a dead letter at once; anything else
 *   (HubSpot 500, timeouts, no connection) is retried with backoff. The lead's sync row says
 *   'reintentando' or, at the end, 'fallido' with the CRM's exact error; `retryLeadSync` retries.
 * - `crm-export`: the spec's classifieds payload POSTed to the corporate's `exportacion.url`
 *   with an Idempotency-Key; its result on the lead's row.
 */
import {
  defaultLeadMap,
  exportPayload,
  failedSyncState,
  mapLead,
  type CrmPayload,
  type CrmSyncState,
  type StoredCrmConfig,
} from '../../core/crm';
import type { Lead } from '../../core/lead';
import { readLeadDoc } from '../leads/queries';
import { notify } from '../notifications/notify';
import type { BackgroundWork } from '../store/background-work';
import type { Db, Queryable } from '../store/db';
import type { EventStore } from '../store/event-store';
import { deterministicId } from '../store/work-support';
import {
  enqueueOutbox,
  getOutboxMessage,
  PermanentFailure,
  RetryAfterError,
  retryOutboxMessage,
  type OutboxDelivery,
} from '../store/outbox';
import {
  CrmDisconnected,
  CrmNotConfigured,
  CrmReauthorize,
  readCrmConfig,
  withConnection,
  type CrmService,
} from './connections';
import {
  CrmCallError,
  crmFetch,
  deleteLead,
  hubspotOwnerByEmail,
  upsertLead,
  type CrmUserInfo,
} from './providers';

export const CRM_LEAD_OUTBOX = 'crm-lead';
export const CRM_EXPORT_OUTBOX = 'crm-export';
export const CRM_CONSUMER = 'crm-sync';

const UPSERT_EVENTS = ['LeadRegistered', 'LeadUpdated', 'LeadAssigned', 'LeadMerged'];
const DELETE_EVENTS = ['LeadDeleted', 'LeadMergedInto'];

export interface CrmLeadJob {
  corporateId: string;
  leadId: string;
  op: 'upsert' | 'delete';
}

export interface CrmExportJob {
  corporateId: string;
  leadId: string;
  mensaje: string;
}

interface SyncDeps {
  db: Queryable;
  crm: CrmService;
  clock: () => Date;
  /** For the `crm.fallo` notification of a write that ended in the dead letter. */
  store?: EventStore;
}

/** Queues a lead's write (in the caller's transaction) and marks the lead 'pendiente'. */
export async function queueLeadSync(
  tx: Queryable,
  config: StoredCrmConfig,
  job: CrmLeadJob,
  id?: string,
): Promise<string> {
  const outboxId = await enqueueOutbox(tx, { kind: CRM_LEAD_OUTBOX, payload: job, id });
  await tx.query(
    `INSERT INTO crm_lead_sync (lead_id, corporate_id, crm_tipo, estado, outbox_id, updated_at)
     VALUES ($1, $2, $3, 'pendiente', $4, now())
     ON CONFLICT (lead_id) DO UPDATE SET crm_tipo = EXCLUDED.crm_tipo, estado = 'pendiente',
       outbox_id = EXCLUDED.outbox_id, updated_at = now()`,
    [job.leadId, job.corporateId, config.tipo, outboxId],
  );
  return outboxId;
}

/** The corporate's connection to use for a lead: the owner's, else any connected adviser's. */
async function connectionFor(
  db: Queryable,
  corporateId: string,
  tipo: string,
  ownerId: string | null,
): Promise<string | null> {
  const { rows } = await db.query<{ user_id: string }>(
    `SELECT user_id FROM crm_credentials
      WHERE corporate_id = $1 AND tipo = $2 AND estado = 'conectado'
      ORDER BY (user_id = $3) DESC, updated_at DESC LIMIT 1`,
    [corporateId, tipo, ownerId ?? ''],
  );
  return rows[0]?.user_id ?? null;
}

async function ownerInfo(
  db: Queryable,
  corporateId: string,
  ownerId: string | null,
): Promise<{ crm: CrmUserInfo | null; email: string | null }> {
  if (!ownerId) return { crm: null, email: null };
  const cred = await db.query<{ info: CrmUserInfo }>(
    'SELECT info FROM crm_credentials WHERE user_id = $1 AND corporate_id = $2',
    [ownerId, corporateId],
  );
  const user = await db.query<{ email: string }>(
    "SELECT doc->>'email' AS email FROM rm_users WHERE id = $1",
    [ownerId],
  );
  return { crm: cred.rows[0]?.info ?? null, email: user.rows[0]?.email ?? null };
}

async function recordSync(
  db: Queryable,
  m: OutboxDelivery,
  leadId: string,
  fields: { estado: CrmSyncState; error: string | null; crmId?: string | null },
  now: Date,
) {
  await db.query(
    `UPDATE crm_lead_sync SET estado = $3, error = $4, intentos = $5, ultimo_intento = $6,
            crm_id = coalesce($7, crm_id), updated_at = now()
      WHERE lead_id = $1 AND (outbox_id = $2 OR outbox_id IS NULL)`,
    [leadId, m.id, fields.estado, fields.error, m.attempt, now.toISOString(), fields.crmId ?? null],
  );
}

/** The error a failed write leaves for the outbox (wait, dead letter, backoff) and its text. */
function classify(error: unknown): { thrown: Error; text: string; permanent: boolean } {
  if (error instanceof CrmCallError) {
    if (error.failure === 'rate')
      return {
        thrown: new RetryAfterError(error.retryAfterMs ?? 60_000, error.crmError),
        text: error.crmError,
        permanent: false,
      };
    if (error.failure === 'permanent')
      return {
        thrown: new PermanentFailure(error.crmError),
        text: error.crmError,
        permanent: true,
      };
    return { thrown: new Error(error.crmError), text: error.crmError, permanent: false };
  }
  if (error instanceof CrmNotConfigured) {
    const text = 'CRM_SIN_CONFIG: No existe config CRM en el corporativo';
    return { thrown: new PermanentFailure(text), text, permanent: true };
  }
  if (error instanceof CrmReauthorize) {
    const text = 'CRM_REAUTORIZAR: the CRM connection must be authorised again';
    return { thrown: new Error(text), text, permanent: false };
  }
  if (error instanceof CrmDisconnected) {
    const text = 'CRM_DESCONECTADO: no adviser of the corporate is connected to the CRM';
    return { thrown: new Error(text), text, permanent: false };
  }
  const text = 'INTERNAL: the write could not be made';
  return { thrown: new Error(text), text, permanent: false };
}

/** The CRM body of a lead: the map (or the CRM's default one) and the owner. */
async function leadBody(
  deps: SyncDeps,
  api: Parameters<typeof hubspotOwnerByEmail>[1],
  config: StoredCrmConfig,
  lead: Lead,
  signal: AbortSignal,
): Promise<CrmPayload> {
  const tipo = config.tipo!;
  const mapa = Object.keys(config.mapaLeads).length > 0 ? config.mapaLeads : defaultLeadMap(tipo);
  const payload = mapLead(lead, mapa);
  const owner = await ownerInfo(deps.db, lead.idCorporativo, lead.idVendedor);
  if (tipo === 'Salesforce' && owner.crm?.user_id) payload.OwnerId = owner.crm.user_id;
  if (tipo === 'Zoho' && owner.crm?.user_id) payload.Owner = { id: owner.crm.user_id };
  if (tipo === 'Hubspot' && owner.email) {
    const found = await hubspotOwnerByEmail(deps.crm.http, api, owner.email, signal);
    if (found) payload.hubspot_owner_id = found.id;
  }
  return payload;
}

export function crmLeadSender(deps: SyncDeps) {
  return async (m: OutboxDelivery) => {
    const job = m.payload as CrmLeadJob;
    const now = () => deps.clock();
    try {
      const config = await readCrmConfig(deps.db, job.corporateId);
      if (!config || config.tipo === null) {
        // The administrator removed the CRM: a write still queued has nowhere to go and is no
        // failure of the lead's (spec §4: removing the CRM clears the local CRM state).
        await deps.db.query('DELETE FROM crm_lead_sync WHERE lead_id = $1', [job.leadId]);
        return;
      }
      const lead = await readLeadDoc(deps.db, job.corporateId, job.leadId);
      if (!lead) return;
      const userId = await connectionFor(deps.db, job.corporateId, config.tipo, lead.idVendedor);
      if (!userId) throw new CrmDisconnected();
      const { rows } = await deps.db.query<{ crm_id: string | null }>(
        'SELECT crm_id FROM crm_lead_sync WHERE lead_id = $1',
        [lead.id],
      );
      const known = rows[0]?.crm_id ?? null;
      const crmId = await withConnection(deps, userId, job.corporateId, async (api, _c, cfg) => {
        if (job.op === 'delete' || lead.eliminado) {
          // Never synced as far as we know (a first write that timed out may have stored it):
          // the upsert by our id finds or makes the record, then it goes.
          const id =
            known ??
            (await upsertLead(
              deps.crm.http,
              api,
              cfg,
              lead.id,
              await leadBody(deps, api, cfg, lead, m.signal),
              m.signal,
            ));
          if (id) await deleteLead(deps.crm.http, api, cfg, id, m.signal);
          return id;
        }
        const body = await leadBody(deps, api, cfg, lead, m.signal);
        return upsertLead(deps.crm.http, api, cfg, lead.id, body, m.signal);
      });
      await recordSync(deps.db, m, lead.id, { estado: 'sincronizado', error: null, crmId }, now());
    } catch (error) {
      const { thrown, text, permanent } = classify(error);
      const estado = failedSyncState(m.attempt, deps.crm.retry.maxAttempts, permanent);
      await recordSync(deps.db, m, job.leadId, { estado, error: text }, now());
      if (estado === 'fallido') await tellOwner(deps, m, job).catch(() => undefined);
      if (!(error instanceof CrmCallError) && !(error instanceof CrmDisconnected)) {
        if (!(error instanceof CrmReauthorize) && !(error instanceof CrmNotConfigured))
          console.error(
            `[vitrina] crm: lead ${job.leadId} write failed: ${error instanceof Error ? error.name : 'error'}`,
          );
      }
      throw thrown;
    }
  };
}

/** The dead letter tells the lead's adviser (`crm.fallo`, once per message and attempt). */
async function tellOwner(deps: SyncDeps, m: OutboxDelivery, job: CrmLeadJob) {
  if (!deps.store) return;
  const lead = await readLeadDoc(deps.db, job.corporateId, job.leadId);
  if (!lead?.idVendedor) return;
  const { rows } = await deps.db.query<{ slug: string }>(
    'SELECT slug FROM rm_corporates WHERE id = $1',
    [job.corporateId],
  );
  const config = await readCrmConfig(deps.db, job.corporateId);
  const owner = lead.idVendedor;
  await deps.store.transact((tx) =>
    notify(tx, {
      corporateId: job.corporateId,
      userIds: [owner],
      kind: 'crm.fallo',
      params: { lead: `${lead.nombre} ${lead.apellidos}`.trim(), crm: config?.tipo ?? 'CRM' },
      link: rows[0] ? `/corporativos/${rows[0].slug}/clientes/${lead.id}` : null,
      id: deterministicId('crm.fallo', m.id, String(m.attempt)),
      now: deps.clock(),
    }),
  );
}

/** Where the classified points: the lead's development's public page, else the corporate's. */
async function classifiedUrl(db: Queryable, base: string, lead: Lead): Promise<string> {
  const { rows } = await db.query<{ corp: string; dev: string | null }>(
    `SELECT c.slug AS corp, d.slug AS dev FROM rm_corporates c
       LEFT JOIN rm_developments d ON d.id = $2 AND d.corporate_id = c.id
      WHERE c.id = $1`,
    [lead.idCorporativo, lead.desarrollo],
  );
  const row = rows[0];
  const root = base.replace(/\/+$/, '');
  if (!row) return root;
  return row.dev
    ? `${root}/public/corporativos/${encodeURIComponent(row.corp)}/desarrollos/${encodeURIComponent(row.dev)}`
    : `${root}/public/corporativos/${encodeURIComponent(row.corp)}`;
}

async function recordExport(
  db: Queryable,
  m: OutboxDelivery,
  leadId: string,
  estado: string,
  error: string | null,
  now: Date,
) {
  await db.query(
    `UPDATE crm_lead_sync SET export_estado = $3, export_error = $4, export_fecha = $5,
            updated_at = now()
      WHERE lead_id = $1 AND export_outbox_id = $2`,
    [leadId, m.id, estado, error, now.toISOString()],
  );
}

export function crmExportSender(deps: SyncDeps) {
  return async (m: OutboxDelivery) => {
    const job = m.payload as CrmExportJob;
    const config = await readCrmConfig(deps.db, job.corporateId);
    const url = config?.exportacion.url ?? null;
    const lead = await readLeadDoc(deps.db, job.corporateId, job.leadId);
    if (!lead) return;
    const fail = async (text: string, thrown: Error, permanent: boolean) => {
      const estado = failedSyncState(m.attempt, deps.crm.retry.maxAttempts, permanent);
      await recordExport(deps.db, m, job.leadId, estado, text, deps.clock());
      throw thrown;
    };
    if (!url) {
      const text = 'SIN_URL: No hay URL de exportación de clientes en el corporativo';
      return fail(text, new PermanentFailure(text), true);
    }
    const owner = lead.idVendedor
      ? (
          await deps.db.query<{ nombre: string | null }>(
            `SELECT trim(coalesce(doc->>'nombre', '') || ' ' || coalesce(doc->>'apellidos', '')) AS nombre
               FROM rm_users WHERE id = $1`,
            [lead.idVendedor],
          )
        ).rows[0]?.nombre
      : null;
    const body = exportPayload(
      lead,
      await classifiedUrl(deps.db, deps.crm.publicBaseUrl, lead),
      owner ?? '',
      job.mensaje,
    );
    let res;
    try {
      res = await crmFetch(deps.crm.http, url, {
        method: 'POST',
        json: body,
        headers: { 'idempotency-key': m.idempotencyKey },
        signal: m.signal,
      });
    } catch (error) {
      const text = error instanceof CrmCallError ? error.crmError : 'UNREACHABLE';
      const permanent = error instanceof CrmCallError && error.failure === 'permanent';
      return fail(text, permanent ? new PermanentFailure(text) : new Error(text), permanent);
    }
    if (res.status >= 200 && res.status < 300) {
      await recordExport(deps.db, m, job.leadId, 'enviado', null, deps.clock());
      return;
    }
    const detail =
      typeof res.body === 'object' && res.body !== null && 'message' in res.body
        ? String(res.body.message).slice(0, 300)
        : 'error';
    const text = `HTTP_${res.status}: ${detail}`;
    if (res.status === 429 || res.status === 503)
      return fail(text, new RetryAfterError(60_000, text), false);
    if (res.status >= 400 && res.status < 500 && res.status !== 408)
      return fail(text, new PermanentFailure(text), true);
    return fail(text, new Error(text), false);
  };
}

/** Queues the classifieds export of a lead (202 to the caller; the result on the lead). */
export async function queueExport(db: Db, job: CrmExportJob): Promise<string> {
  return db.transaction((tx) => writeExport(tx, job));
}

async function writeExport(tx: Queryable, job: CrmExportJob): Promise<string> {
  const id = await enqueueOutbox(tx, { kind: CRM_EXPORT_OUTBOX, payload: job });
  await tx.query(
    `INSERT INTO crm_lead_sync (lead_id, corporate_id, estado, export_estado, export_outbox_id,
                                updated_at)
     VALUES ($1, $2, 'pendiente', 'pendiente', $3, now())
     ON CONFLICT (lead_id) DO UPDATE SET export_estado = 'pendiente', export_error = NULL,
       export_outbox_id = EXCLUDED.export_outbox_id, updated_at = now()`,
    [job.leadId, job.corporateId, id],
  );
  return id;
}

/**
 * Retries a lead's write now: its last message again if it failed or died, else (nothing queued,
 * or the last one was sent) a new upsert.
 */
export async function retryLeadSync(
  db: Db,
  config: StoredCrmConfig,
  corporateId: string,
  leadId: string,
): Promise<void> {
  const { rows } = await db.query<{ outbox_id: string | null }>(
    'SELECT outbox_id FROM crm_lead_sync WHERE lead_id = $1 AND corporate_id = $2',
    [leadId, corporateId],
  );
  const outboxId = rows[0]?.outbox_id ?? null;
  if (outboxId) {
    const message = await getOutboxMessage(db, outboxId);
    // Waiting for its turn: it runs with the configuration as it is then.
    if (message?.state === 'pending') return;
    // Being delivered (a failure already shown on the lead while its dead letter is still being
    // written, or an attempt under way): a new message below, so the retry asked for happens; the
    // one in flight no longer writes the lead's state (`recordSync` follows `outbox_id`).
    if (message && message.state !== 'sending' && (await retryOutboxMessage(db, outboxId))) {
      await db.query(
        `UPDATE crm_lead_sync SET estado = 'pendiente', updated_at = now() WHERE lead_id = $1`,
        [leadId],
      );
      return;
    }
  }
  await db.transaction((tx) => queueLeadSync(tx, config, { corporateId, leadId, op: 'upsert' }));
}

/**
 * The consumer's configuration reads, one per corporate per batch: a batch is one transaction, and
 * its lead events (dozens under load) would otherwise read the same row once each. A retried batch
 * is a new transaction, so it reads again.
 */
const batchConfigs = new WeakMap<object, Map<string, Promise<StoredCrmConfig | null>>>();

export function batchConfig(tx: Queryable, corporateId: string): Promise<StoredCrmConfig | null> {
  let configs = batchConfigs.get(tx);
  if (!configs) {
    configs = new Map<string, Promise<StoredCrmConfig | null>>();
    batchConfigs.set(tx, configs);
  }
  let config = configs.get(corporateId);
  if (!config) configs.set(corporateId, (config = readCrmConfig(tx, corporateId)));
  return config;
}

/** Registers the consumer and the two outbox handlers. */
export function registerCrmWork(work: BackgroundWork, deps: SyncDeps): void {
  work.registerConsumer({
    name: CRM_CONSUMER,
    handles: [...UPSERT_EVENTS, ...DELETE_EVENTS],
    startAt: 'end',
    handle: async (event, ctx) => {
      const data = event.data as { idLead: string; idCorporativo: string };
      const config = await batchConfig(ctx.tx, data.idCorporativo);
      if (!config || config.tipo === null) return;
      await queueLeadSync(
        ctx.tx,
        config,
        {
          corporateId: data.idCorporativo,
          leadId: data.idLead,
          op: DELETE_EVENTS.includes(event.type) ? 'delete' : 'upsert',
        },
        ctx.effectId('crm'),
      );
    },
  });
  work.registerOutbox(CRM_LEAD_OUTBOX, crmLeadSender(deps), { retry: deps.crm.retry });
  work.registerOutbox(CRM_EXPORT_OUTBOX, crmExportSender(deps), { retry: deps.crm.retry });
}
