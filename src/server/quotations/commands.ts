/**
 * The quotation area's writes. Each is one command of the command handler
 * (store/command-handler.ts): it locks and folds the quotation's stream, lets the core's
 * `quotationDecider` decide, and emits the events in the same transaction; inside a command the
 * database is read only through the command's scope.
 *
 * Rules enforced here (spec §3 Quotation and payment schemes, §4 favourite flag, §6):
 * - a quotation is created only for a unit that is quotable now (the development's status
 *   colours, else the corporate's), with a scheme of the unit's cluster whose parts sum to 1,
 *   optionals of that cluster, non-negative extras (each converted from the currency it was
 *   entered in) and one of the corporate's currencies; the figures are always recomputed here
 *   with the core (`priceQuotation`), never taken from the client;
 * - the lead must be visible to the user (core/permissions.ts `maySeeLead`). A client created
 *   with the quotation is a new lead, registered in the same command under the duplicate
 *   protection of the leads area: the lead and its quotation are written together or not at all;
 * - a quotation is acted on only by users who may see it (`maySeeQuotation`), else 404.
 */
import {
  initialLeadState,
  leadContactKeys,
  leadDecider,
  normalizeLeadFields,
  type LeadError,
  type LeadFields,
} from '../../core/lead';
import { newQuotation, priceQuotation, type Quotation } from '../../core/quotation';
import {
  quotationDecider,
  type QuotationCommand,
  type QuotationDeciderError,
} from '../../core/quotation-aggregate';
import type { Corporate } from '../../core/types';
import { mayShowUnitPrice } from '../../core/visibility';
import type { CorporateConfig } from '../catalogue/events';
import type { AppDeps, Membership } from '../http/context';
import { badRequest } from '../http/errors';
import { refuseDuplicate } from '../leads/duplicates';
import { leadStream } from '../leads/streams';
import { effectiveStatusColors } from '../public/views';
import {
  handleCommand,
  runCommand,
  type CommandActor,
  type CommandScope,
} from '../store/command-handler';
import {
  leadAccessError,
  quotationErrorToApi,
  quotationNotFound,
  shareNotFound,
  unitNotFound,
} from './errors';
import {
  findCluster,
  findPrototype,
  findUnit,
  leadAccess,
  maySeeQuotationIn,
  requireDevelopment,
} from './queries';
import { newShareNonce, SHARE_DEFAULT_DAYS, shareUrl, signShareToken } from './share-links';
import { quotationNumberingStream, quotationStream } from './streams';

type CorporateDoc = Corporate & Partial<CorporateConfig>;

/** How a quotation prints a person: `nombre apellidos`. */
export const displayName = (p: { nombre: string; apellidos?: string | null }) =>
  `${p.nombre} ${p.apellidos ?? ''}`.trim();

const actorOf = (m: Membership): CommandActor => ({
  actorId: m.user.id,
  corporateId: m.corporate.id,
});

/** The decider's refusals as the API's errors. */
function rejection(error: QuotationDeciderError): Error {
  switch (error.code) {
    case 'QUOTATION_NOT_FOUND':
      return quotationNotFound();
    case 'SHARE_NOT_FOUND':
      return shareNotFound();
    // Fresh ids and nonces, and an expiry the route bounded: reaching these is a bug (500).
    case 'QUOTATION_EXISTS':
    case 'SHARE_EXISTS':
    case 'SHARE_EXPIRY_INVALID':
      return new Error(`quotation command refused: ${error.code}`);
    default: {
      const unhandled: never = error;
      throw new Error(`unknown quotation error ${(unhandled as { code: string }).code}`);
    }
  }
}

/**
 * Runs the command `commandFor` gives for a quotation the user may see (404
 * QUOTATION_NOT_FOUND otherwise, the same as an absent one), under the quotation's stream lock:
 * the command is built from the current quotation, so concurrent requests queue and each acts on
 * what the one before it left. Answers the aggregate after it.
 */
async function onVisibleQuotation(
  deps: AppDeps,
  m: Membership,
  quotationId: string,
  commandFor: (quotation: Quotation, now: Date) => QuotationCommand,
) {
  const { state } = await handleCommand(deps, actorOf(m), {
    decider: quotationDecider,
    streamId: quotationStream(m.corporate.id, quotationId),
    command: async ({ state: { quotation } }, scope) => {
      if (!quotation || !(await maySeeQuotationIn(scope, m, quotation))) {
        throw quotationNotFound();
      }
      return commandFor(quotation, scope.now);
    },
    reject: rejection,
  });
  return { quotation: state.quotation!, shares: state.shares };
}

/** A client entered with the quotation (`nuevoLead`). */
export interface NewClient {
  nombre: string;
  apellidos?: string | undefined;
  email?: string | undefined;
  telefono?: string | undefined;
}

/** A lead field refused by the lead decider, reported at its place in the body (`nuevoLead.…`). */
function newClientRejection(error: LeadError): Error {
  return badRequest(
    error.code === 'LEAD_INVALID'
      ? error.issues.map((i) => ({ path: `nuevoLead.${i.campo}`, code: i.code }))
      : [{ path: 'nuevoLead', code: 'invalid' }],
  );
}

/**
 * Registers the client as a lead of the user, inside the quotation's command: the lead decider
 * validates the fields, and the leads area's duplicate rule locks the client's contact keys and
 * refuses a person who is already a lead (409 LEAD_DUPLICATE), so two saves of one new client
 * never make two leads.
 */
async function registerNewClient(scope: CommandScope, m: Membership, fields: LeadFields) {
  const idLead = scope.newId();
  const events = scope.decide(
    leadDecider,
    initialLeadState,
    {
      type: 'RegisterLead',
      idLead,
      idCorporativo: m.corporate.id,
      idVendedor: m.user.id,
      fields,
      now: Math.floor(scope.now.getTime() / 1000),
    },
    newClientRejection,
  );
  await refuseDuplicate(scope, {
    corporateId: m.corporate.id,
    keys: leadContactKeys(fields),
    idLead,
    caller: m,
  });
  await scope.emit(leadStream(m.corporate.id, idLead), events, 0);
  return { id: idLead, nombre: displayName(fields) };
}

/**
 * The corporate's next quotation number: the numbering stream is locked first (no events are
 * written to it), so two saves of one corporate queue here and never draw the same number; the
 * read model is projected in the same transaction, so its highest number is the last one given.
 */
async function nextQuotationNumber(scope: CommandScope, corporateId: string): Promise<number> {
  await scope.lock([quotationNumberingStream(corporateId)]);
  const { rows } = await scope.query<{ n: number }>(
    'SELECT coalesce(max(numero), 0)::int + 1 AS n FROM rm_quotations WHERE corporate_id = $1',
    [corporateId],
  );
  return Number(rows[0]?.n ?? 1);
}

/** What a quotation is made of, as the create call's body gives it. */
export interface CreateQuotationInput {
  idUnidad: string;
  idEsquema: string;
  opcionales: string[];
  extras: { nombre: string; precio: number; divisa?: string | undefined }[];
  divisa: string;
  idLead?: string | undefined;
  nuevoLead?: NewClient | undefined;
}

/**
 * Prices and saves a quotation for an existing lead the user may see, or for a new client
 * registered as a lead in the same command. Answers the saved quotation.
 */
export function createQuotation(
  deps: AppDeps,
  m: Membership,
  input: CreateQuotationInput,
): Promise<Quotation> {
  return runCommand(deps, actorOf(m), async (scope) => {
    const corporate = m.corporate as CorporateDoc;
    const unit = await findUnit(scope, corporate.id, input.idUnidad);
    if (!unit) throw unitNotFound(400);
    const development = await requireDevelopment(scope, corporate.id, unit.idDesarrollo);
    const statusColors = effectiveStatusColors(corporate, development);
    const pricing = priceQuotation({
      corporate,
      development,
      unit,
      statusColors,
      rule: 'quotable',
      idEsquema: input.idEsquema,
      idsOpcionales: input.opcionales,
      extras: input.extras,
      divisa: input.divisa,
      now: scope.now,
    });
    if (!pricing.ok) throw quotationErrorToApi(pricing.error);
    // A quotation shows the unit's price: not for a unit whose status hides it from this role
    // (a status a corporate makes quotable with its price hidden; core/visibility.ts).
    if (!mayShowUnitPrice(unit, statusColors, m.role)) {
      throw quotationErrorToApi({ code: 'PRICE_NOT_VISIBLE' });
    }

    let lead: { id: string; nombre: string };
    if (input.idLead !== undefined) {
      const access = await leadAccess(scope, m, input.idLead);
      if (!access.ok) throw leadAccessError(access.reason);
      lead = { id: access.lead.id, nombre: displayName(access.lead) };
    } else {
      const fields = normalizeLeadFields({
        ...input.nuevoLead!,
        desarrollo: development.id,
        status: corporate.statusLeads?.[0]?.id ?? null,
      });
      lead = await registerNewClient(scope, m, fields);
    }

    const cluster = await findCluster(scope, corporate.id, unit.idCluster);
    const prototype = await findPrototype(scope, corporate.id, unit.idPrototipo);
    const numero = await nextQuotationNumber(scope, corporate.id);
    const quotation = newQuotation(pricing.priced, {
      id: scope.newId(),
      idCorporativo: corporate.id,
      zonaHoraria: corporate.zonaHoraria,
      development,
      cluster,
      prototype,
      unit,
      adviser: { id: m.user.id, nombre: displayName(m.user) },
      lead,
      now: scope.now,
      numero,
    });
    const stream = quotationStream(corporate.id, quotation.id);
    const { state } = await scope.load(quotationDecider, stream);
    const events = scope.decide(
      quotationDecider,
      state,
      { type: 'CreateQuotation', cotizacion: quotation },
      rejection,
    );
    await scope.emit(stream, events, 0);
    return quotation;
  });
}

/** Toggles the favourite flag of a quotation the user may see; answers the new flag. */
export async function toggleFavourite(deps: AppDeps, m: Membership, quotationId: string) {
  const { quotation } = await onVisibleQuotation(deps, m, quotationId, (current) => ({
    type: 'SetQuotationFavourite',
    esFavorito: !current.esFavorito,
  }));
  return { id: quotation.id, esFavorito: quotation.esFavorito };
}

/**
 * Issues a share link of a quotation the user may see, valid for `days` (default
 * {@link SHARE_DEFAULT_DAYS}): a signed token whose nonce a `QuotationShared` event records.
 */
export async function shareQuotation(
  deps: AppDeps,
  m: Membership,
  quotationId: string,
  days = SHARE_DEFAULT_DAYS,
) {
  const nonce = newShareNonce();
  const key = await deps.shareKeys.current();
  const { shares } = await onVisibleQuotation(deps, m, quotationId, (_quotation, now) => ({
    type: 'ShareQuotation',
    nonce,
    kid: key.kid,
    // Whole seconds: the token carries the expiry in seconds, and the list signs it again.
    expiraEn: new Date((Math.floor(now.getTime() / 1000) + days * 86_400) * 1000),
    now,
  }));
  const { expiraEn } = shares[nonce]!;
  const token = signShareToken(key, {
    q: quotationId,
    c: m.corporate.id,
    e: Date.parse(expiraEn) / 1000,
    n: nonce,
  });
  return { url: shareUrl(token), token, expiraEn };
}

/**
 * Revokes a share link of a quotation the user may see: 404 SHARE_NOT_FOUND when the nonce is
 * not a link of this quotation; revoking a revoked link writes nothing.
 */
export async function revokeShare(
  deps: AppDeps,
  m: Membership,
  quotationId: string,
  nonce: string,
): Promise<void> {
  await onVisibleQuotation(deps, m, quotationId, () => ({ type: 'RevokeQuotationShare', nonce }));
}
