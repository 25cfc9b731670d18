/**
 * What produces notifications today (issue 15 point 3), each exactly once:
 *
 * - {@link notificationProducer}, a consumer of the log (`notifications`, from the end of the log
 *   on its first start: history is not notified): a lead assigned or reassigned to you by someone
 *   else (`lead.asignado` / `lead.reasignado`), a web lead the public capture's round robin gave
 *   you (`lead.web`, a `LeadAssigned` with `turno`), your unit hold expired (`apartado.vencido`).
 *   Each notification's id is the consumer's effect id for the event: a redelivery sends nothing.
 * - {@link holdWarningTimers} and its timer `unit-hold-warning`: {@link HOLD_WARNING_HOURS} before
 *   a hold ends, "your hold is about to expire" (`apartado.por-vencer`), unless the hold was
 *   released, sold or moved meanwhile; keyed by the hold's end, so once per end.
 * - A manager's message is a command (commands.ts `sendMessage`).
 *
 * The decisions are pure functions of the event and what the consumer looked up
 * ({@link leadAssignedNotice}, {@link holdExpiredNotice}, {@link holdWarningNotice}), so each is
 * tested as "given these events, then these notifications".
 */
import { fold } from '../../core/decider';
import { unitDecider, type UnitEvent } from '../../core/unit';
import { workProjection, type BackgroundWork } from '../store/background-work';
import type { Queryable } from '../store/db';
import type { StoredEvent } from '../store/event-store';
import type { TimerContext } from '../store/timers';
import { deterministicId } from '../store/work-support';
import { notify, type NotifySpec } from './notify';

export const NOTIFICATION_CONSUMER = 'notifications';
export const HOLD_WARNING = 'unit-hold-warning';
/** How long before a hold ends its holder is told. */
export const HOLD_WARNING_HOURS = 2;

/** What the consumer looked up for a notice: names for the texts, slugs for the link. */
export interface NoticeLookup {
  corporateSlug: string | null;
  leadName?: string | null;
  unitName?: string | null;
  developmentSlug?: string | null;
}

type Notice = Omit<NotifySpec, 'id' | 'now'>;

const leadLink = (l: NoticeLookup, idLead: string) =>
  l.corporateSlug ? `/corporativos/${l.corporateSlug}/clientes/${idLead}` : null;
const unitLink = (l: NoticeLookup, idUnidad: string) =>
  l.corporateSlug && l.developmentSlug
    ? `/corporativos/${l.corporateSlug}/desarrollos/${l.developmentSlug}/disponibilidad?unidad=${idUnidad}`
    : null;

/** A lead given to someone other than who gave it: the new adviser is told. */
export function leadAssignedNotice(event: StoredEvent, lookup: NoticeLookup): Notice | null {
  if (event.type !== 'LeadAssigned' || !event.corporateId) return null;
  const d = event.data as { idLead: string; from: string | null; to: string; turno?: number };
  if (!d.to || d.to === event.actorId) return null;
  // Reassigned: taken from another adviser; a lead the giver owned (or nobody did) is assigned.
  const kind =
    d.turno !== undefined
      ? 'lead.web'
      : d.from && d.from !== event.actorId
        ? 'lead.reasignado'
        : 'lead.asignado';
  return {
    corporateId: event.corporateId,
    userIds: [d.to],
    kind,
    params: { lead: lookup.leadName ?? '' },
    link: leadLink(lookup, d.idLead),
  };
}

/** A hold that ended by itself: its holder is told the unit is available again. */
export function holdExpiredNotice(event: StoredEvent, lookup: NoticeLookup): Notice | null {
  if (event.type !== 'UnitHoldReleased' || !event.corporateId) return null;
  const d = event.data as { idUnidad: string; idVendedor: string; motivo: string };
  if (d.motivo !== 'expired' || !d.idVendedor) return null;
  return {
    corporateId: event.corporateId,
    userIds: [d.idVendedor],
    kind: 'apartado.vencido',
    params: { unidad: lookup.unitName ?? '' },
    link: unitLink(lookup, d.idUnidad),
  };
}

/** The warning's timer fired: still the same hold (same end)? Then its holder is told. */
export function holdWarningNotice(
  hold: { idVendedor: string; hastaEn: string } | null,
  payload: HoldWarningPayload,
  lookup: NoticeLookup,
): Notice | null {
  if (!hold || hold.hastaEn !== payload.hastaEn || !payload.corporateId) return null;
  return {
    corporateId: payload.corporateId,
    userIds: [hold.idVendedor],
    kind: 'apartado.por-vencer',
    params: { unidad: lookup.unitName ?? '', horas: HOLD_WARNING_HOURS },
    link: unitLink(lookup, payload.idUnidad),
  };
}

async function corporateSlug(q: Queryable, corporateId: string): Promise<string | null> {
  const { rows } = await q.query<{ slug: string }>('SELECT slug FROM rm_corporates WHERE id = $1', [
    corporateId,
  ]);
  return rows[0]?.slug ?? null;
}

async function leadLookup(
  q: Queryable,
  corporateId: string,
  idLead: string,
): Promise<NoticeLookup> {
  const { rows } = await q.query<{ name: string }>(
    "SELECT trim(concat_ws(' ', doc->>'nombre', doc->>'apellidos')) AS name FROM rm_leads WHERE id = $1",
    [idLead],
  );
  return { corporateSlug: await corporateSlug(q, corporateId), leadName: rows[0]?.name ?? null };
}

async function unitLookup(
  q: Queryable,
  corporateId: string,
  idUnidad: string,
): Promise<NoticeLookup> {
  const { rows } = await q.query<{ name: string; slug: string | null }>(
    `SELECT u.doc->>'nombre' AS name, d.slug FROM rm_units u
       LEFT JOIN rm_developments d ON d.id = u.development_id WHERE u.id = $1`,
    [idUnidad],
  );
  return {
    corporateSlug: await corporateSlug(q, corporateId),
    unitName: rows[0]?.name ?? null,
    developmentSlug: rows[0]?.slug ?? null,
  };
}

interface HoldWarningPayload {
  streamId: string;
  corporateId: string | null;
  idUnidad: string;
  hastaEn: string;
}

export const holdWarningKey = (streamId: string) => `unit-hold-warning:${streamId}`;

/** Arms the warning with the hold (and moves it with an extension); any end of the hold removes it. */
export const holdWarningTimers = workProjection({
  name: 'unit-hold-warning-timers',
  handles: ['UnitHeld', 'UnitHoldExtended', 'UnitHoldReleased', 'UnitStatusChanged'],
  effects: (e) => {
    const key = holdWarningKey(e.streamId);
    if (e.type === 'UnitHeld' || e.type === 'UnitHoldExtended') {
      const { hastaEn, idUnidad } = e.data as { hastaEn: string; idUnidad: string };
      const dueAt = new Date(new Date(hastaEn).getTime() - HOLD_WARNING_HOURS * 3_600_000);
      // A hold shorter than the warning gets none.
      if (dueAt.getTime() <= new Date(e.occurredAt).getTime()) return { cancel: key };
      const payload: HoldWarningPayload = {
        streamId: e.streamId,
        corporateId: e.corporateId,
        idUnidad,
        hastaEn,
      };
      return { schedule: { key, kind: HOLD_WARNING, dueAt, payload } };
    }
    if (e.type === 'UnitStatusChanged' && (e.data as { to?: unknown }).to === 'Apartado')
      return null;
    return { cancel: key };
  },
});

export async function fireHoldWarning({ tx, timer, now }: TimerContext): Promise<void> {
  const payload = timer.payload as HoldWarningPayload;
  const stored = await tx.readStream(payload.streamId);
  const state = fold(
    unitDecider,
    stored.map((e) => ({ type: e.type, data: e.data }) as UnitEvent),
  );
  if (!payload.corporateId) return;
  const lookup = await unitLookup(tx, payload.corporateId, payload.idUnidad);
  const notice = holdWarningNotice(state.hold, payload, lookup);
  if (!notice) return;
  await notify(tx, {
    ...notice,
    id: deterministicId('hold-warning', payload.streamId, payload.hastaEn),
    now,
  });
}

/** The consumer's handler: one event, at most one notification, keyed by the event. */
export async function produceNotification(
  event: StoredEvent,
  ctx: {
    tx: Parameters<typeof notify>[0] & Queryable;
    now: Date;
    effectId(label?: string): string;
  },
): Promise<void> {
  if (!event.corporateId) return;
  let notice: Notice | null = null;
  if (event.type === 'LeadAssigned') {
    const d = event.data as { idLead: string; to?: string };
    if (!d.to || d.to === event.actorId) return;
    notice = leadAssignedNotice(event, await leadLookup(ctx.tx, event.corporateId, d.idLead));
  } else if (event.type === 'UnitHoldReleased') {
    const d = event.data as { idUnidad: string; motivo?: string };
    if (d.motivo !== 'expired') return;
    notice = holdExpiredNotice(event, await unitLookup(ctx.tx, event.corporateId, d.idUnidad));
  }
  if (!notice) return;
  await notify(ctx.tx, {
    ...notice,
    id: ctx.effectId('notification'),
    now: new Date(event.occurredAt),
  });
}

/** Registers the producers (runtime.ts registerBackgroundWork). */
export function registerNotificationWork(work: BackgroundWork): void {
  work.registerConsumer({
    name: NOTIFICATION_CONSUMER,
    handles: ['LeadAssigned', 'UnitHoldReleased'],
    startAt: 'end',
    handle: (event, ctx) => produceNotification(event, ctx),
  });
  work.registerTimer(HOLD_WARNING, fireHoldWarning);
}
