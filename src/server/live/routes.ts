import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import { mayAdministerShowrooms, scopeCovers } from '../../core/permissions';
import type { Corporate, Role, User } from '../../core/types';
import { seesHiddenPrices } from '../../core/visibility';
import type { StoredEvent } from '../store/event-store';
import { findUser, requireUser, type AppDeps, type Env } from '../http/context';
import { clientAddress } from '../http/rate-limit';

interface Viewer {
  user: User;
  roles: Map<string, Role>;
}

async function loadViewer(deps: AppDeps, userId: string): Promise<Viewer | null> {
  const user = await findUser(deps.db, userId);
  if (!user) return null;
  const { rows } = await deps.db.query<{ doc: Corporate }>(
    'SELECT doc FROM rm_corporates WHERE id = ANY($1::text[])',
    [user.corporativos],
  );
  const roles = new Map<string, Role>();
  for (const { doc } of rows) {
    const role = doc.roles.find((r) => r.id === user.roles[doc.id]);
    if (role) roles.set(doc.id, role);
  }
  return { user, roles };
}

/**
 * What a signed-in viewer may learn of an event: the corporate must be theirs, and lead or
 * quotation events reach only those whose scope covers them. Anything else is not sent.
 */
export function liveMessage(event: StoredEvent, viewer: Viewer): Record<string, unknown> | null {
  const corporateId = event.corporateId;
  if (!corporateId) return null;
  const role = viewer.roles.get(corporateId);
  if (!role) return null;
  const data = (event.data ?? {}) as Record<string, unknown>;
  const member = { user: viewer.user, role };
  const base = { type: event.type, corporateId, occurredAt: event.occurredAt };
  if (event.type.startsWith('Unit')) {
    const unit = (data.unit ?? {}) as Record<string, unknown>;
    return {
      ...base,
      idUnidad: data.idUnidad ?? unit.id,
      // A hold and its end change the status too (Disponible ⇄ Apartado); an extension does not.
      ...(event.type === 'UnitStatusChanged' ||
      event.type === 'UnitHeld' ||
      event.type === 'UnitHoldReleased'
        ? { status: data.to }
        : {}),
      // The new price only to those who see hidden prices (core/visibility.ts): the stream
      // does not know whether the unit's status shows it, and the client reads the unit again.
      ...(event.type === 'UnitPriceChanged' && seesHiddenPrices(role) ? { precio: data.to } : {}),
    };
  }
  if (event.type.startsWith('Lead')) {
    // Only a lead's own stream: contact claims and the round robin are bookkeeping streams.
    if (!event.streamId.startsWith('lead:')) return null;
    if (!scopeCovers(member, data.idVendedor as string | null | undefined)) return null;
    return { ...base, idLead: event.streamId.split(':').at(-1) };
  }
  if (event.type.startsWith('Quotation')) {
    if (!scopeCovers(member, data.idAsesor as string | null | undefined)) return null;
    return { ...base, idCotizacion: event.streamId.split(':').at(-1) };
  }
  if (event.type === 'CheckedIn' || event.type === 'CheckedOut') {
    // A check-in reaches its adviser (their banner) and the host administrators (the board).
    const checkIn = (event.type === 'CheckedIn' ? data.checkIn : data) as Record<string, unknown>;
    if (checkIn.idUsuario !== viewer.user.id && !mayAdministerShowrooms(role)) return null;
    return {
      ...base,
      idCheckIn: checkIn.id,
      idUsuario: checkIn.idUsuario,
      idShowroom: checkIn.idShowroom,
    };
  }
  if (event.type === 'NotificationSent') {
    // Only to its recipients (their bells); never its text: the client reads it.
    const to = data.destinatarios as string[] | undefined;
    if (!to?.includes(viewer.user.id)) return null;
    return { ...base, idNotificacion: data.id };
  }
  if (event.type === 'NotificationRead' || event.type === 'NotificationsAllRead') {
    if (data.idUsuario !== viewer.user.id) return null;
    return base;
  }
  if (
    event.type === 'GuestInvited' ||
    event.type === 'GuestRemoved' ||
    event.type === 'GuestArrived'
  ) {
    if (!mayAdministerShowrooms(role)) return null;
    return { ...base, idShowroom: event.streamId.split(':').at(-1) };
  }
  if (event.type === 'ShowroomConfigured') {
    return { ...base, idShowroom: (data.showroom as Record<string, unknown> | undefined)?.id };
  }
  if (
    event.type === 'DevelopmentPublished' ||
    event.type === 'PrototypeAdded' ||
    event.type === 'ClusterAdded'
  ) {
    return base;
  }
  return null;
}

const HEARTBEAT_MS = 25_000;
/** Backstop for anything about the viewer that no event carries. */
const REFRESH_MS = 30_000;

/**
 * Whether an event can change what the viewer may see: anything on the user's own stream, a
 * membership granted to them, or the settings (roles) of one of their corporates; other
 * corporates' settings cost no reload. The stream reloads the viewer before it looks at the
 * next event, so a role change applies from that event on.
 */
export function affectsViewer(event: StoredEvent, viewer: Viewer): boolean {
  const userId = viewer.user.id;
  if (event.streamId === `user:${userId}`) return true;
  if (event.type === 'MembershipGranted') {
    return (event.data as { idUsuario?: unknown } | null)?.idUsuario === userId;
  }
  return (
    event.type === 'CorporateSettingsChanged' &&
    event.corporateId !== null &&
    viewer.user.corporativos.includes(event.corporateId)
  );
}

export const liveRoutes = new Hono<Env>().get('/stream', async (c) => {
  const me = await requireUser(c);
  const deps = c.get('deps');
  let viewer = (await loadViewer(deps, me.id))!;
  const release = deps.live.admitStream({ userId: me.id, address: clientAddress(c) });
  return streamSSE(c, async (stream) => {
    // Events are taken in order, so a viewer reload sits between the events around it.
    const pending: StoredEvent[] = [];
    let reloadDue = false;
    // Changes may have been missed (the feed's listener reconnected): a second `ready` makes the
    // client read again what it shows, as after its own reconnection.
    let resyncDue = false;
    // The server is shutting down: the stream ends, and its client connects again.
    let endDue = false;
    let wake: (() => void) | undefined;
    const unsubscribe = deps.live.subscribe(
      (event) => {
        pending.push(event);
        wake?.();
      },
      () => {
        resyncDue = true;
        wake?.();
      },
      () => {
        endDue = true;
        wake?.();
      },
    );
    const refresh = setInterval(() => {
      reloadDue = true;
      wake?.();
    }, REFRESH_MS);
    const end = () => {
      unsubscribe();
      clearInterval(refresh);
      release();
      wake?.();
    };
    stream.onAbort(end);
    const reload = async (): Promise<boolean> => {
      const next = await loadViewer(deps, me.id);
      if (!next) {
        stream.abort();
        return false;
      }
      viewer = next;
      return true;
    };
    try {
      await stream.writeSSE({
        event: 'ready',
        data: JSON.stringify({ userId: me.id }),
        retry: 2000,
      });
      while (!stream.aborted && !endDue) {
        if (resyncDue) {
          resyncDue = false;
          await stream.writeSSE({
            event: 'ready',
            data: JSON.stringify({ userId: me.id, resync: true }),
          });
          continue;
        }
        if (reloadDue) {
          reloadDue = false;
          if (!(await reload())) break;
        }
        const event = pending.shift();
        if (event) {
          if (affectsViewer(event, viewer)) {
            if (!(await reload())) break;
            continue;
          }
          const message = liveMessage(event, viewer);
          if (message) await stream.writeSSE({ event: 'change', data: JSON.stringify(message) });
          continue;
        }
        let timer: ReturnType<typeof setTimeout> | undefined;
        const timedOut = await new Promise<boolean>((resolve) => {
          wake = () => resolve(false);
          timer = setTimeout(() => resolve(true), HEARTBEAT_MS);
        });
        clearTimeout(timer);
        wake = undefined;
        if (timedOut && pending.length === 0 && !stream.aborted)
          await stream.write(': keep-alive\n\n');
      }
    } finally {
      end();
    }
  });
});
