/**
 * The one way to send a notification, for every area:
 *
 * ```ts
 * await notify(scopeOrTx, { corporateId, userIds, kind, params, link, id?, now? });
 * ```
 *
 * Call it inside the transaction of what causes the notification: a command's `scope` (the
 * notification is emitted with the command's events, actor and time), or the `tx` of a
 * consumer or a timer (give `id: ctx.effectId('…')` and `now`, so a redelivery sends it once).
 * It writes `NotificationSent` on the notification's own stream (no contention with anything
 * else), the projection files it in each recipient's inbox, the live stream tells their bells,
 * and push follows. A spec nobody is left to receive (no user ids) writes nothing and answers
 * null; an invalid one (a manager's message without text, a link that is not an in-app path)
 * throws the core's error as {@link NotificationRejected}.
 *
 * The recipients' preferences (core/notification-preferences.ts) do not change what is written:
 * every recipient gets the notification in the log and the inbox. A kind turned off in the app is
 * left out of that user's list, count and read map when read (queries.ts); a kind turned off for
 * push queues no push for that user, and the sender drops one queued before (push.ts).
 */
import { randomUUID } from 'node:crypto';
import {
  notificationDecider,
  type Notification,
  type NotificationError,
  type NotificationKind,
  type NotificationParams,
} from '../../core/notifications';
import type { CommandScope } from '../store/command-handler';
import type { StoreTransaction } from '../store/event-store';
import { deterministicId } from '../store/work-support';
import { notificationStream } from './streams';

export interface NotifySpec {
  corporateId: string;
  userIds: readonly string[];
  kind: NotificationKind;
  params?: NotificationParams;
  /** An in-app path (`/corporativos/<id>/clientes/<idLead>`), or null. */
  link?: string | null;
  /** A manager's message (`kind: 'mensaje'`): its title and text. */
  titulo?: string;
  mensaje?: string;
  /** The notification's id; deterministic from a consumer or timer (`ctx.effectId('…')`). */
  id?: string;
  /** When (default: the command's time, or the clock of the caller's transaction). */
  now?: Date;
  /** Who sends it (a manager), or null for the system (the default). */
  senderId?: string | null;
}

export class NotificationRejected extends Error {
  constructor(readonly error: NotificationError) {
    super(`notification rejected: ${error.code}`);
    this.name = 'NotificationRejected';
  }
}

const isScope = (target: CommandScope | StoreTransaction): target is CommandScope =>
  typeof (target as CommandScope).emit === 'function';

/** Sends a notification in the caller's transaction; answers it, or null when nothing was written. */
export async function notify(
  target: CommandScope | StoreTransaction,
  spec: NotifySpec,
): Promise<Notification | null> {
  const userIds = [...new Set(spec.userIds)];
  if (userIds.length === 0) return null;
  const scope = isScope(target) ? target : null;
  const id = spec.id ?? (scope ? scope.newId() : randomUUID());
  const now = spec.now ?? scope?.now ?? new Date();
  const notification: Notification = {
    id,
    idCorporativo: spec.corporateId,
    tipo: spec.kind,
    destinatarios: userIds,
    params: spec.params ?? {},
    ...(spec.titulo !== undefined ? { titulo: spec.titulo.trim() } : {}),
    ...(spec.mensaje !== undefined ? { mensaje: spec.mensaje.trim() } : {}),
    link: spec.link ?? null,
    fechaAlta: now.getTime(),
    idRemitente: spec.senderId ?? null,
  };
  const streamId = notificationStream(spec.corporateId, id);
  const decide = (sent: boolean) => {
    const decision = notificationDecider.decide(
      { type: 'SendNotification', notification },
      { sent: sent ? notification : null },
    );
    if (!decision.ok) throw new NotificationRejected(decision.error);
    return decision.events;
  };
  if (scope) {
    const events = decide((await scope.version(streamId)) > 0);
    if (events.length === 0) return null;
    await scope.emit(streamId, events);
    return events[0]!.data;
  }
  const tx = target as StoreTransaction;
  const versions = await tx.lockStreams([streamId]);
  const events = decide((versions.get(streamId) ?? 0) > 0);
  if (events.length === 0) return null;
  await tx.append({
    streamId,
    expectedVersion: 0,
    events: events.map((e) => ({
      id: deterministicId('notification', id),
      type: e.type,
      data: e.data,
      corporateId: spec.corporateId,
      actorId: spec.senderId ?? null,
      occurredAt: now,
    })),
  });
  return events[0]!.data;
}
