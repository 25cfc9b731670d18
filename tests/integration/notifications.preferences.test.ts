/**
 * Notification preferences (issue 15 point 6): per kind, in the app and/or pushed, and the push
 * language, kept per user as events; one's own only. In-app off takes the kind out of the list,
 * the unread count and the read map ("mark all read" leaves it); turned back on, it shows again.
 * Refusals are 4xx in the spec's shape with nothing written; the read models rebuild from the log.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { NOTIFICATION_KINDS } from '../../src/core/notifications';
import { createApp } from '../../src/server/app';
import { verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { client, signedIn } from './support/http';

type Client = ReturnType<typeof client>;

describeBackends('notification preferences', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let asesor: Client;
  let asesor2: Client;
  let gerente: Client;
  let corp = '';
  const ids: Record<string, string> = {};

  const db = () => rt.deps.db;
  const eventCount = async () =>
    (await db().query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n;
  const path = (email: string) => `/api/users/${ids[email]}/notificaciones/preferencias`;
  const inbox = (who: Client, email: string) =>
    who.get(`/api/wsObtenerNotificaciones?idCorporativo=${corp}&idUsuario=${ids[email]}`);
  const readMap = (who: Client, email: string) =>
    who.get(`/api/wsObtenerNotificacionesLeidas?idCorporativo=${corp}&idUsuario=${ids[email]}`);
  const message = async (titulo: string) => {
    const res = await gerente.post(`/api/corporativos/${corp}/notificaciones`, {
      titulo,
      mensaje: 'texto',
      idUsuarios: [ids['asesor@vitrina.demo']],
    });
    expect(res.status).toBe(201);
    return res.json.id as string;
  };

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    corp = (
      await db().query<{ id: string }>(
        "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
      )
    ).rows[0]!.id;
  }, 120_000);

  beforeEach(async () => {
    asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    asesor2 = await signedIn(app, 'asesor2@vitrina.demo', ids);
    gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
  });

  afterAll(async () => {
    await rt?.dispose();
  });

  it('every kind on in both places and es until the user chooses; a change is one event, the same change none', async () => {
    const first = await asesor.get(path('asesor@vitrina.demo'));
    expect(first.status).toBe(200);
    expect(first.json.idioma).toBe('es');
    expect(Object.keys(first.json.tipos)).toEqual([...NOTIFICATION_KINDS]);
    expect(first.json.tipos['lead.asignado']).toEqual({ app: true, push: true });

    const before = await eventCount();
    const change = { idioma: 'en', tipos: { 'lead.asignado': { push: false } } };
    const put = await asesor.put(path('asesor@vitrina.demo'), change);
    expect(put.status).toBe(200);
    expect(put.json.idioma).toBe('en');
    expect(put.json.tipos['lead.asignado']).toEqual({ app: true, push: false });
    expect(put.json.tipos['lead.web']).toEqual({ app: true, push: true });
    // The kinds and the language: two events on the user's stream, no corporate.
    const written = await db().query<{ type: string; stream_id: string; corporate_id: string }>(
      'SELECT type, stream_id, corporate_id FROM events ORDER BY global_position DESC LIMIT 2',
    );
    expect(await eventCount()).toBe(before + 2);
    expect(written.rows.map((r) => r.type).sort()).toEqual([
      'NotificationLanguageChosen',
      'NotificationPreferencesChanged',
    ]);
    expect(written.rows[0]!.stream_id).toBe(
      `notification-preferences:${ids['asesor@vitrina.demo']}`,
    );
    expect(written.rows[0]!.corporate_id).toBeNull();
    expect((await asesor.get(path('asesor@vitrina.demo'))).json).toEqual(put.json);

    expect((await asesor.put(path('asesor@vitrina.demo'), change)).status).toBe(200);
    expect(await eventCount()).toBe(before + 2);
    // Someone else's preferences are their own.
    expect((await asesor2.get(path('asesor2@vitrina.demo'))).json.idioma).toBe('es');
  });

  it('in-app off: out of the list, the count and the read map, left by "mark all read"; back on, it shows again', async () => {
    const me = 'asesor@vitrina.demo';
    const kept = await message('se queda');
    const hidden = await message('se oculta');
    expect((await asesor.put(path(me), { tipos: { mensaje: { app: false } } })).status).toBe(200);
    // The preference hides every manager's message, older ones included.
    const list = await inbox(asesor, me);
    expect(list.json.map((n: { id: string }) => n.id)).not.toContain(kept);
    expect(list.json.map((n: { id: string }) => n.id)).not.toContain(hidden);
    expect(list.json.every((n: { tipo: string }) => n.tipo !== 'mensaje')).toBe(true);
    // The count is the list's: the hidden kind's unread do not count.
    expect(Number(list.headers.get('x-no-leidas'))).toBe(
      list.json.filter((n: { leida: boolean }) => !n.leida).length,
    );
    // Marking everything read leaves the hidden kind unread.
    const all = await asesor.put(`/api/corporativos/${corp}/notificaciones/leidas`, {
      idUsuario: ids[me],
      todas: true,
    });
    expect(all.json).toEqual({ noLeidas: 0 });
    expect(Object.keys((await readMap(asesor, me)).json)).not.toContain(hidden);
    // Back on: both show again, unread, and count.
    expect((await asesor.put(path(me), { tipos: { mensaje: { app: true } } })).status).toBe(200);
    const again = await inbox(asesor, me);
    const shown = again.json.filter((n: { id: string }) => n.id === kept || n.id === hidden);
    expect(shown.map((n: { leida: boolean }) => n.leida)).toEqual([false, false]);
    expect(Number(again.headers.get('x-no-leidas'))).toBeGreaterThanOrEqual(2);
    // Another user's in-app choice is theirs: the manager's copy of a message is unaffected.
    const other = await gerente.post(`/api/corporativos/${corp}/notificaciones`, {
      titulo: 'a asesor2',
      mensaje: 'texto',
      idUsuarios: [ids['asesor2@vitrina.demo']],
    });
    const theirs = await inbox(asesor2, 'asesor2@vitrina.demo');
    expect(theirs.json.map((n: { id: string }) => n.id)).toContain(other.json.id);
  });

  it('refusals: another user’s preferences, signed out, unknown kinds and languages, malformed bodies — 4xx, nothing written', async () => {
    const before = await eventCount();
    const expectRefused = (
      res: { status: number; json: unknown },
      status: number,
      code: string,
    ) => {
      expect(res.status, JSON.stringify(res.json)).toBe(status);
      expect(res.json).toEqual([
        expect.objectContaining({ errorCode: code, message: expect.any(String) }),
      ]);
    };
    const theirs = path('asesor2@vitrina.demo');
    expectRefused(await asesor.get(theirs), 403, 'FORBIDDEN');
    expectRefused(
      await asesor.put(theirs, { tipos: { mensaje: { push: false } } }),
      403,
      'FORBIDDEN',
    );
    // A manager or an administrator is no exception.
    expectRefused(await gerente.get(theirs), 403, 'FORBIDDEN');
    const admin = await signedIn(app, 'admin@vitrina.demo', ids);
    expectRefused(
      await admin.put(theirs, { tipos: { mensaje: { app: false } } }),
      403,
      'FORBIDDEN',
    );
    expectRefused(await client(app).get(theirs), 401, 'UNAUTHENTICATED');
    const mine = path('asesor@vitrina.demo');
    for (const body of [
      { tipos: { 'no.existe': { push: false } } },
      { idioma: 'fr' },
      { tipos: { mensaje: { push: 'no' } } },
      { tipos: { mensaje: { push: false, sms: true } } },
      { tipos: { mensaje: true } },
      { tipos: [] },
      { extra: 1 },
      { idioma: 'es', tipos: { mensaje: { app: false }, ['x'.repeat(65)]: { app: false } } },
      [],
    ])
      expectRefused(await asesor.put(mine, body), 400, 'VALIDATION');
    const bad = await asesor.put(mine, { tipos: { 'no.existe': { push: false } } });
    expect(bad.json[0].details).toEqual([{ path: 'tipos.no.existe', code: 'invalid_value' }]);
    expect(await eventCount()).toBe(before);
  });

  it('the read models rebuild from the log exactly', async () => {
    const comparison = await verifyProjections(rt.deps.store);
    expect(comparison.tables.filter((t) => t.onlyLive + t.onlyRebuilt + t.changed > 0)).toEqual([]);
    const prefs = await db().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM rm_notification_preferences',
    );
    expect(prefs.rows[0]!.n).toBeGreaterThan(0);
  });
});
