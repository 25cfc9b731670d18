import { Hono } from 'hono';
import { streamSSE } from 'hono/streaming';
import type { Corporate, Role, User } from '../../core/types';
import type { StoredEvent } from '../store/event-store';
import { findUser, requireUser, type AppDeps, type Env } from './context';

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
  const all = role.permisosLeads.alcanceLeads === 'Todos';
  const base = { type: event.type, corporateId, occurredAt: event.occurredAt };
  if (event.type.startsWith('Unit')) {
    const unit = (data.unit ?? {}) as Record<string, unknown>;
    return {
      ...base,
      idUnidad: data.idUnidad ?? unit.id,
      ...(event.type === 'UnitStatusChanged' ? { status: data.to } : {}),
      ...(event.type === 'UnitPriceChanged' ? { precio: data.to } : {}),
    };
  }
  if (event.type.startsWith('Lead')) {
    if (!all && data.idVendedor !== viewer.user.id) return null;
    return { ...base, idLead: event.streamId.split(':').at(-1) };
  }
  if (event.type.startsWith('Quotation')) {
    if (!all && data.idAsesor !== viewer.user.id) return null;
    return { ...base, idCotizacion: event.streamId.split(':').at(-1) };
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
const REFRESH_MS = 30_000;

export const liveRoutes = new Hono<Env>().get('/stream', async (c) => {
  const me = await requireUser(c);
  const deps = c.get('deps');
  let viewer = (await loadViewer(deps, me.id))!;
  return streamSSE(c, async (stream) => {
    const queue: Record<string, unknown>[] = [];
    let wake: (() => void) | undefined;
    const unsubscribe = deps.live.subscribe((event) => {
      const message = liveMessage(event, viewer);
      if (!message) return;
      queue.push(message);
      wake?.();
    });
    // A role or membership change applies to an open stream within REFRESH_MS.
    const refresh = setInterval(() => {
      void loadViewer(deps, me.id).then((v) => {
        if (v) viewer = v;
        else stream.abort();
      });
    }, REFRESH_MS);
    stream.onAbort(() => {
      unsubscribe();
      clearInterval(refresh);
      wake?.();
    });
    await stream.writeSSE({ event: 'ready', data: JSON.stringify({ userId: me.id }), retry: 2000 });
    while (!stream.aborted) {
      const next = queue.shift();
      if (next) {
        await stream.writeSSE({ event: 'change', data: JSON.stringify(next) });
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, HEARTBEAT_MS);
      });
      wake = undefined;
      if (queue.length === 0 && !stream.aborted) await stream.write(': keep-alive\n\n');
    }
  });
});
