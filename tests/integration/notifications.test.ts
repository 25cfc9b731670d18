/**
 * Notifications (issue 15 point 1): a manager's message to the corporate, a role or chosen users;
 * each user's list, read map and unread count; a read mark and "mark all read" (one event);
 * `notify()` inside another transaction, sent once however often its producer runs; the live
 * stream's message reaches only the recipients. Every refusal is 4xx in the spec's shape and
 * writes nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { liveMessage } from '../../src/server/live/routes';
import { notify } from '../../src/server/notifications/notify';
import { deterministicId } from '../../src/server/store/work-support';
import type { Role, User } from '../../src/core/types';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { signedIn, type client } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('notifications', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let admin: Client;
  let broker: Client;
  let pacifico: Client;
  let corp: string;
  let pacificoCorp: string;
  const ids: Record<string, string> = {};

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const refused = async (
    call: () => Promise<{ status: number; json: any }>,
    status: number,
    errorCode: string,
  ) => {
    const before = await eventCount();
    const res = await call();
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(res.json).toEqual([expect.objectContaining({ errorCode, message: expect.any(String) })]);
    expect(await eventCount()).toBe(before);
    return res.json[0] as Record<string, unknown>;
  };
  const list = (who: Client, email: string, c = corp, headers?: Record<string, string>) =>
    who.get(`/api/wsObtenerNotificaciones?idCorporativo=${c}&idUsuario=${ids[email]}`, headers);
  const reads = (who: Client, email: string) =>
    who.get(`/api/wsObtenerNotificacionesLeidas?idCorporativo=${corp}&idUsuario=${ids[email]}`);
  const send = (who: Client, body: Record<string, unknown>, c = corp) =>
    who.post(`/api/corporativos/${c}/notificaciones`, body);
  const mark = (who: Client, body: Record<string, unknown>, c = corp) =>
    who.put(`/api/corporativos/${c}/notificaciones/leidas`, body);

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    const corporates = await db().query<{ id: string; slug: string }>(
      'SELECT id, slug FROM rm_corporates',
    );
    corp = corporates.rows.find((r) => r.slug === 'grupo-horizonte')!.id;
    pacificoCorp = corporates.rows.find((r) => r.slug === 'desarrollos-pacifico')!.id;
  }, 120_000);

  beforeEach(async () => {
    const sign = (email: string) => signedIn(app, email, ids);
    asesor = await sign('asesor@vitrina.demo');
    asesor2 = await sign('asesor2@vitrina.demo');
    gerente = await sign('gerente@vitrina.demo');
    admin = await sign('admin@vitrina.demo');
    broker = await sign('broker@vitrina.demo');
    pacifico = await sign('asesor.pacifico@vitrina.demo');
  });

  afterAll(async () => {
    await rt?.dispose();
  });

  it('a manager sends to the whole corporate: everyone but the sender has it, newest first, unread, in their language', async () => {
    const res = await send(gerente, {
      titulo: 'Junta de ventas',
      mensaje: 'Mañana a las 9:00 en el showroom',
      link: `/corporativos/${corp}/desarrollos`,
      todos: true,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json.destinatarios).toBeGreaterThanOrEqual(4);
    const mine = await list(asesor, 'asesor@vitrina.demo');
    expect(mine.status).toBe(200);
    expect(mine.json[0]).toEqual({
      id: res.json.id,
      tipo: 'mensaje',
      titulo: 'Junta de ventas',
      mensaje: 'Mañana a las 9:00 en el showroom',
      fechaAlta: expect.any(Number),
      leida: false,
      link: `/corporativos/${corp}/desarrollos`,
    });
    expect(Number(mine.headers.get('x-no-leidas'))).toBeGreaterThanOrEqual(1);
    expect((await list(gerente, 'gerente@vitrina.demo')).json).not.toContainEqual(
      expect.objectContaining({ id: res.json.id }),
    );
    // Another corporate's member sees nothing of it.
    const other = await list(pacifico, 'asesor.pacifico@vitrina.demo', pacificoCorp);
    expect(other.status).toBe(200);
    expect(other.json).not.toContainEqual(expect.objectContaining({ id: res.json.id }));
  });

  it('to a role and to chosen users; administrators may send too', async () => {
    const byRole = await send(admin, {
      titulo: 'Brokers',
      mensaje: 'Nueva comisión',
      idRol: (
        await db().query<{ r: string }>(
          "SELECT doc->'roles'->>$2 AS r FROM rm_users WHERE id = $1",
          [ids['broker@vitrina.demo'], corp],
        )
      ).rows[0]!.r,
    });
    expect(byRole.status, JSON.stringify(byRole.json)).toBe(201);
    expect((await list(broker, 'broker@vitrina.demo')).json[0].id).toBe(byRole.json.id);
    expect((await list(asesor, 'asesor@vitrina.demo')).json[0].id).not.toBe(byRole.json.id);

    const chosen = await send(gerente, {
      titulo: 'Para ti',
      mensaje: 'Llama al cliente',
      idUsuarios: [ids['asesor2@vitrina.demo']],
    });
    expect(chosen.status).toBe(201);
    expect(chosen.json.destinatarios).toBe(1);
    expect((await list(asesor2, 'asesor2@vitrina.demo')).json[0].id).toBe(chosen.json.id);
  });

  it('read one, the read map, then mark all read in one event; marking again writes nothing', async () => {
    const a = await send(gerente, {
      titulo: 'Uno',
      mensaje: 'uno',
      idUsuarios: [ids['asesor@vitrina.demo']],
    });
    const b = await send(gerente, {
      titulo: 'Dos',
      mensaje: 'dos',
      idUsuarios: [ids['asesor@vitrina.demo']],
    });
    const me = ids['asesor@vitrina.demo'];
    const r = await mark(asesor, { idUsuario: me, idNotificacion: a.json.id });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect((await reads(asesor, 'asesor@vitrina.demo')).json[a.json.id]).toBe(true);
    expect((await reads(asesor, 'asesor@vitrina.demo')).json[b.json.id]).toBeUndefined();
    let before = await eventCount();
    expect((await mark(asesor, { idUsuario: me, idNotificacion: a.json.id })).status).toBe(200);
    expect(await eventCount()).toBe(before);

    const all = await mark(asesor, { idUsuario: me, todas: true });
    expect(all.status).toBe(200);
    expect(all.json).toEqual({ noLeidas: 0 });
    expect(await eventCount()).toBe(before + 1);
    const listed = await list(asesor, 'asesor@vitrina.demo');
    expect(listed.json.every((n: { leida: boolean }) => n.leida)).toBe(true);
    expect(listed.headers.get('x-no-leidas')).toBe('0');
    before = await eventCount();
    expect((await mark(asesor, { idUsuario: me, todas: true })).status).toBe(200);
    expect(await eventCount()).toBe(before);
  });

  it('notify() inside a consumer-like transaction with a deterministic id sends once; kinds render in es and en', async () => {
    const me = ids['asesor@vitrina.demo']!;
    const id = deterministicId('test', 'lead-web-once');
    const run = () =>
      rt.deps.store.transact((tx) =>
        notify(tx, {
          corporateId: corp,
          userIds: [me, me],
          kind: 'lead.web',
          params: { lead: 'Ana López' },
          link: `/corporativos/${corp}/clientes/x`,
          id,
          now: new Date('2026-11-25T10:00:00Z'),
        }),
      );
    expect((await run())?.destinatarios).toEqual([me]);
    expect(await run()).toBeNull();
    const es = await list(asesor, 'asesor@vitrina.demo');
    const en = await list(asesor, 'asesor@vitrina.demo', corp, { 'accept-language': 'en' });
    expect(es.json.filter((n: { id: string }) => n.id === id)).toEqual([
      expect.objectContaining({
        titulo: 'Nuevo cliente desde la web',
        mensaje: expect.stringContaining('Ana López'),
      }),
    ]);
    expect(en.json.find((n: { id: string }) => n.id === id)).toEqual(
      expect.objectContaining({ titulo: 'New web lead' }),
    );
  });

  it('the recipient’s open stream hears NotificationSent and its read marks; another user’s does not', async () => {
    const open = async (email: string) => {
      const { login } = await import('./support/http');
      const res = await app.request('/api/stream', {
        headers: { cookie: await login(app, email) },
      });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      const decoder = new TextDecoder();
      return {
        async until(pattern: string, ms = 8000) {
          const deadline = Date.now() + ms;
          while (!text.includes(pattern) && Date.now() < deadline) {
            const chunk = await Promise.race([
              reader.read(),
              new Promise<null>((r) => setTimeout(() => r(null), deadline - Date.now())),
            ]);
            if (!chunk || chunk.done) break;
            text += decoder.decode(chunk.value, { stream: true });
          }
          return text;
        },
        close: () => reader.cancel().catch(() => undefined),
      };
    };
    const mine = await open('asesor@vitrina.demo');
    const theirs = await open('asesor2@vitrina.demo');
    await mine.until('event: ready');
    await theirs.until('event: ready');
    const sent = await send(gerente, {
      titulo: 'En vivo',
      mensaje: 'hola',
      idUsuarios: [ids['asesor@vitrina.demo']],
    });
    expect(await mine.until(sent.json.id)).toContain('"type":"NotificationSent"');
    await mark(asesor, { idUsuario: ids['asesor@vitrina.demo'], idNotificacion: sent.json.id });
    expect(await mine.until('NotificationRead')).toContain('NotificationRead');
    expect(await theirs.until(sent.json.id, 1000)).not.toContain(sent.json.id);
    await mine.close();
    await theirs.close();
  });

  it('the live stream tells only the recipients', async () => {
    const { rows } = await db().query<{ doc: User }>('SELECT doc FROM rm_users WHERE id = $1', [
      ids['asesor@vitrina.demo'],
    ]);
    const user = rows[0]!.doc;
    const role = { id: 'r', permisosLeads: { alcanceLeads: 'Propios' }, permisos: {} } as Role;
    const viewer = { user, roles: new Map([[corp, role]]) };
    const event = {
      id: 'e',
      type: 'NotificationSent',
      streamId: `notification:${corp}:n`,
      version: 1,
      corporateId: corp,
      actorId: null,
      occurredAt: new Date().toISOString(),
      globalPosition: '1',
      data: { id: 'n', destinatarios: [user.id] },
    };
    expect(liveMessage(event, viewer)).toMatchObject({
      type: 'NotificationSent',
      idNotificacion: 'n',
    });
    expect(
      liveMessage({ ...event, data: { id: 'n', destinatarios: ['other'] } }, viewer),
    ).toBeNull();
    expect(
      liveMessage(
        { ...event, type: 'NotificationsAllRead', data: { idUsuario: 'other', ids: [] } },
        viewer,
      ),
    ).toBeNull();
  });

  describe('refusals: 4xx in the spec shape, nothing written', () => {
    it('reading or marking another user’s notifications', async () => {
      await refused(() => list(asesor, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      await refused(() => reads(asesor, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      const theirs = await send(gerente, {
        titulo: 'x',
        mensaje: 'y',
        idUsuarios: [ids['asesor2@vitrina.demo']],
      });
      await refused(
        () =>
          mark(asesor, { idUsuario: ids['asesor2@vitrina.demo'], idNotificacion: theirs.json.id }),
        403,
        'FORBIDDEN',
      );
      // Someone else's id in one's own name: not found.
      await refused(
        () =>
          mark(asesor, { idUsuario: ids['asesor@vitrina.demo'], idNotificacion: theirs.json.id }),
        404,
        'NOTIFICATION_NOT_FOUND',
      );
      await refused(() => list(pacifico, 'asesor.pacifico@vitrina.demo'), 403, 'FORBIDDEN');
      // A manager or an administrator reads and marks only their own too.
      await refused(() => list(gerente, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      await refused(() => reads(admin, 'asesor2@vitrina.demo'), 403, 'FORBIDDEN');
      await refused(
        () =>
          mark(admin, { idUsuario: ids['asesor2@vitrina.demo'], idNotificacion: theirs.json.id }),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => mark(gerente, { idUsuario: ids['asesor2@vitrina.demo'], todas: true }),
        403,
        'FORBIDDEN',
      );
      // One's own notification through a corporate one is not a member of.
      await refused(
        () =>
          mark(
            asesor2,
            { idUsuario: ids['asesor2@vitrina.demo'], idNotificacion: theirs.json.id },
            pacificoCorp,
          ),
        403,
        'FORBIDDEN',
      );
      // Signed out.
      const { client } = await import('./support/http');
      await refused(() => list(client(app), 'asesor2@vitrina.demo'), 401, 'UNAUTHENTICATED');
      // Still unread for its recipient.
      const mine = await list(asesor2, 'asesor2@vitrina.demo');
      expect(mine.json.find((n: { id: string }) => n.id === theirs.json.id).leida).toBe(false);
    });

    it('sending without permission, from another corporate, anonymously', async () => {
      await refused(
        () => send(asesor, { titulo: 'x', mensaje: 'y', todos: true }),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => send(broker, { titulo: 'x', mensaje: 'y', todos: true }),
        403,
        'FORBIDDEN',
      );
      await refused(
        () => send(gerente, { titulo: 'x', mensaje: 'y', todos: true }, pacificoCorp),
        403,
        'FORBIDDEN',
      );
      const { client } = await import('./support/http');
      await refused(
        () => send(client(app), { titulo: 'x', mensaje: 'y', todos: true }),
        401,
        'UNAUTHENTICATED',
      );
    });

    it('malformed messages and targets', async () => {
      const bad: Record<string, unknown>[] = [
        {},
        { titulo: 'x', mensaje: 'y' },
        { titulo: 'x', mensaje: 'y', todos: true, idRol: 'a' },
        { titulo: '', mensaje: 'y', todos: true },
        { titulo: 'x', mensaje: '   ', todos: true },
        { titulo: 'x'.repeat(121), mensaje: 'y', todos: true },
        { titulo: 'x', mensaje: 'y', todos: true, link: 'https://evil.example/' },
        { titulo: 'x', mensaje: 'y', todos: true, link: '//evil.example/' },
        { titulo: 'x', mensaje: 'y', todos: false },
        { titulo: 'x', mensaje: 'y', idUsuarios: [] },
        { titulo: 'x', mensaje: 'y', idUsuarios: [ids['asesor.pacifico@vitrina.demo']] },
        { titulo: 'x', mensaje: 'y', idRol: 'no-such-role' },
        { titulo: 'x', mensaje: 'y', todos: true, extra: 1 },
        { titulo: 1, mensaje: 'y', todos: true },
      ];
      for (const body of bad) await refused(() => send(gerente, body), 400, 'VALIDATION');
      await refused(
        () => mark(asesor, { idUsuario: ids['asesor@vitrina.demo'] }),
        400,
        'VALIDATION',
      );
      await refused(
        () => mark(asesor, { idUsuario: ids['asesor@vitrina.demo'], todas: false }),
        400,
        'VALIDATION',
      );
      await refused(
        () => asesor.get(`/api/wsObtenerNotificaciones?idCorporativo=${corp}`),
        400,
        'VALIDATION',
      );
      await refused(
        () =>
          asesor.get(
            `/api/wsObtenerNotificaciones?idCorporativo=${corp}&idUsuario=${ids['asesor@vitrina.demo']}&limite=0`,
          ),
        400,
        'VALIDATION',
      );
    });
  });
});
