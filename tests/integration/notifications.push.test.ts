/**
 * Web push (issue 15 point 4) against a fake push service on loopback over HTTPS (a self-signed
 * certificate the runtime's agent trusts): the fake decrypts the aes128gcm payload with the
 * browser's keys and checks the VAPID headers; 404/410 delete the subscription; 429 is tried
 * again after its Retry-After. The deployment's VAPID key pair is stored once and served; bad
 * subscriptions are 4xx with nothing written.
 */
import { Agent } from 'node:https';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { notify } from '../../src/server/notifications/notify';
import { ensureVapidKeys, endpointAllowed, pushSender } from '../../src/server/notifications/push';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { startFakePushService, type FakePushService } from './support/fake-push-service';
import { signedIn } from './support/http';

describeBackends('web push', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let fake: FakePushService;
  let base = '';
  let corp = '';
  const ids: Record<string, string> = {};
  let received: FakePushService['received'] = [];
  let keys: FakePushService['keys'];
  const subscriptions = async () =>
    (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM push_subscriptions'))
      .rows[0]!.n;
  const eventually = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
    const deadline = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      rt.deps.work.wake();
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    fake = await startFakePushService();
    ({ base, received, keys } = fake);
    rt = await openSeeded(backend, {
      push: {
        allowLoopback: true,
        agent: new Agent({ ca: fake.ca }),
        allowedHosts: ['fcm.googleapis.com'],
      },
    });
    app = createApp(rt.deps);
    corp = (
      await rt.deps.db.query<{ id: string }>(
        "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
      )
    ).rows[0]!.id;
    rt.deps.work.start();
    await eventually(
      async () =>
        (await rt.deps.db.query("SELECT 1 FROM consumers WHERE name = 'push-notifications'")).rows
          .length > 0,
    );
  }, 120_000);

  afterAll(async () => {
    await rt?.dispose();
    await fake?.close();
  });

  it('one key pair for the deployment: stored once, the same on every start; the public key is served, the private never', async () => {
    const a = await ensureVapidKeys(rt.deps.db);
    const b = await ensureVapidKeys(rt.deps.db);
    expect(a).toEqual(b);
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const res = await asesor.get('/api/push/clave-publica');
    expect(res.json).toEqual({ clavePublica: a.publicKey });
    expect(JSON.stringify(res.json)).not.toContain(a.privateKey);
  });

  it('a message reaches the subscribed browser encrypted, with VAPID; 410 and 404 delete the subscription; 429 waits for Retry-After', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    for (const path of ['/ok/1', '/gone/1', '/missing/1', '/busy/1']) {
      const res = await asesor.post('/api/push/suscripciones', {
        endpoint: `${base}${path}`,
        keys,
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.json).toEqual({ tokens: { [`${base}${path}`]: true } });
    }
    const sent = await gerente.post(`/api/corporativos/${corp}/notificaciones`, {
      titulo: 'Push',
      mensaje: 'Hola desde el servidor',
      link: '/corporativos/grupo-horizonte/clientes',
      idUsuarios: [ids['asesor@vitrina.demo']],
    });
    expect(sent.status).toBe(201);
    await eventually(() => received.filter((r) => r.path === '/busy/1').length >= 2);
    const ok = received.find((r) => r.path === '/ok/1')!;
    expect(ok.payload).toEqual({
      titulo: 'Push',
      mensaje: 'Hola desde el servidor',
      url: '/corporativos/grupo-horizonte/clientes',
      tag: sent.json.id,
    });
    expect(ok.headers['content-encoding']).toBe('aes128gcm');
    expect(ok.headers.ttl).toBe('86400');
    const { publicKey } = await ensureVapidKeys(rt.deps.db);
    expect(String(ok.headers.authorization)).toMatch(new RegExp(`^vapid t=[^,]+, k=${publicKey}$`));
    await eventually(async () => (await subscriptions()) === 2);
    const left = await rt.deps.db.query<{ endpoint: string }>(
      'SELECT endpoint FROM push_subscriptions ORDER BY endpoint',
    );
    expect(left.rows.map((r) => r.endpoint).sort()).toEqual(
      [`${base}/busy/1`, `${base}/ok/1`].sort(),
    );
    const busy = received.filter((r) => r.path === '/busy/1');
    expect(busy[1]!.at - busy[0]!.at).toBeGreaterThanOrEqual(950);
    expect(busy[1]!.payload).toMatchObject({ titulo: 'Push' });
  });

  it('sign-out removes the subscription; only one’s own', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const asesor2 = await signedIn(app, 'asesor2@vitrina.demo', ids);
    expect(
      (await asesor2.post('/api/push/suscripciones/baja', { endpoint: `${base}/ok/1` })).json,
    ).toEqual({ eliminada: false });
    expect(
      (await asesor.post('/api/push/suscripciones/baja', { endpoint: `${base}/ok/1` })).json,
    ).toEqual({ eliminada: true });
  });

  it('push in the recipient’s language (es when never chosen); a kind with push off queues none', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const asesor2 = await signedIn(app, 'asesor2@vitrina.demo', ids);
    const gerente = await signedIn(app, 'gerente@vitrina.demo', ids);
    const prefs = (email: string) => `/api/users/${ids[email]}/notificaciones/preferencias`;
    expect((await asesor.put(prefs('asesor@vitrina.demo'), { idioma: 'en' })).status).toBe(200);
    const off = await asesor2.put(prefs('asesor2@vitrina.demo'), {
      tipos: { 'lead.web': { push: false } },
    });
    expect(off.json.tipos['lead.web']).toEqual({ app: true, push: false });
    for (const [who, path] of [
      [asesor, '/lang/en'],
      [asesor2, '/lang/off'],
      [gerente, '/lang/es'],
    ] as const)
      expect(
        (await who.post('/api/push/suscripciones', { endpoint: `${base}${path}`, keys })).status,
      ).toBe(201);
    const n = await rt.deps.store.transact((tx) =>
      notify(tx, {
        corporateId: corp,
        userIds: [
          ids['asesor@vitrina.demo']!,
          ids['asesor2@vitrina.demo']!,
          ids['gerente@vitrina.demo']!,
        ],
        kind: 'lead.web',
        params: { lead: 'Ana Ruiz' },
        link: '/corporativos/grupo-horizonte/clientes',
      }),
    );
    await eventually(
      () =>
        received.some((r) => r.path === '/lang/en') && received.some((r) => r.path === '/lang/es'),
    );
    expect(received.find((r) => r.path === '/lang/en')!.payload).toEqual({
      titulo: 'New web lead',
      mensaje: 'The lead Ana Ruiz, received from the web, is yours',
      url: '/corporativos/grupo-horizonte/clientes',
      tag: n!.id,
    });
    expect(received.find((r) => r.path === '/lang/es')!.payload).toMatchObject({
      titulo: 'Nuevo cliente desde la web',
      mensaje: 'Te tocó el cliente Ana Ruiz, recibido desde la web',
    });
    // Queued in the same transaction as the others: none for the kind turned off.
    const queued = await rt.deps.db.query(
      "SELECT 1 FROM outbox WHERE kind = 'push' AND payload->>'endpoint' = $1",
      [`${base}/lang/off`],
    );
    expect(queued.rows).toHaveLength(0);
    expect(received.some((r) => r.path === '/lang/off')).toBe(false);
    // Still in asesor2's list: push off is not in-app off.
    const list = await asesor2.get(
      `/api/wsObtenerNotificaciones?idCorporativo=${corp}&idUsuario=${ids['asesor2@vitrina.demo']}`,
    );
    expect(list.json.map((x: { id: string }) => x.id)).toContain(n!.id);
  });

  it('a push queued before its kind was turned off, or for a browser that changed hands, is not sent', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const asesor2 = await signedIn(app, 'asesor2@vitrina.demo', ids);
    const send = pushSender(rt.deps.db, await ensureVapidKeys(rt.deps.db), {
      allowedHosts: [],
      allowLoopback: true,
      agent: new Agent({ ca: fake.ca }),
    });
    const delivery = (endpoint: string, idUsuario: string) => ({
      id: `test-${endpoint}`,
      idempotencyKey: `test-${endpoint}`,
      kind: 'push',
      attempt: 1,
      causeEventId: null,
      signal: new AbortController().signal,
      payload: {
        endpoint,
        titulo: 't',
        mensaje: 'm',
        url: '/',
        tag: 'x',
        idUsuario,
        tipo: 'lead.web',
      },
    });
    // asesor2 turned lead.web push off (the test before): nothing sent.
    await asesor2.post('/api/push/suscripciones', { endpoint: `${base}/late/off`, keys });
    await send(delivery(`${base}/late/off`, ids['asesor2@vitrina.demo']!));
    // Queued for asesor, the browser now signed in as asesor2: nothing sent.
    await asesor.post('/api/push/suscripciones', { endpoint: `${base}/late/moved`, keys });
    await asesor2.post('/api/push/suscripciones', { endpoint: `${base}/late/moved`, keys });
    await send(delivery(`${base}/late/moved`, ids['asesor@vitrina.demo']!));
    // The control: the owner with push on gets it.
    await asesor.post('/api/push/suscripciones', { endpoint: `${base}/late/on`, keys });
    await send(delivery(`${base}/late/on`, ids['asesor@vitrina.demo']!));
    expect(received.filter((r) => r.path.startsWith('/late/')).map((r) => r.path)).toEqual([
      '/late/on',
    ]);
  });

  it('the spec’s PUT /api/users/{id} { tokens: { pushToken: true } }: the browser’s subscription as its token', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const me = ids['asesor@vitrina.demo']!;
    const token = JSON.stringify({ endpoint: `${base}/token/1`, expirationTime: null, keys });
    const put = (body: Record<string, unknown>) =>
      asesor.put(`/api/users/${me}`, { id: me, ...body });
    const added = await put({ tokens: { [token]: true } });
    expect(added.status, JSON.stringify(added.json)).toBe(200);
    expect(added.json.tokens).toMatchObject({ [`${base}/token/1`]: true });
    expect(added.json.id).toBe(me);
    // The user's own record carries them (spec §3 User: tokens).
    expect((await asesor.get(`/api/users/${me}`)).json.tokens).toEqual(added.json.tokens);
    expect((await asesor.get(`/api/wsObtenerUsuario?id=${me}`)).json.tokens).toEqual(
      added.json.tokens,
    );
    // A registered endpoint as the token: confirmed, nothing changes.
    const again = await put({ tokens: { [`${base}/token/1`]: true } });
    expect(again.status).toBe(200);
    expect(again.json.tokens).toEqual(added.json.tokens);
    // It is pushed to like any subscription.
    const sent = await signedIn(app, 'gerente@vitrina.demo', ids).then((g) =>
      g.post(`/api/corporativos/${corp}/notificaciones`, {
        titulo: 'Token',
        mensaje: 'Por PUT users',
        idUsuarios: [me],
      }),
    );
    expect(sent.status).toBe(201);
    await eventually(() => received.some((r) => r.path === '/token/1'));
    expect(received.find((r) => r.path === '/token/1')!.payload).toMatchObject({ titulo: 'Token' });
    // false removes it.
    const removed = await put({ tokens: { [`${base}/token/1`]: false } });
    expect(removed.status).toBe(200);
    expect(removed.json.tokens[`${base}/token/1`]).toBeUndefined();
  });

  it('PUT /api/users/{id} with bad tokens: 4xx in the spec’s shape, nothing written', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const me = ids['asesor@vitrina.demo']!;
    const other =
      ids['asesor2@vitrina.demo'] ??
      (await signedIn(app, 'asesor2@vitrina.demo', ids), ids['asesor2@vitrina.demo']!);
    const tok = (endpoint: string, k: unknown = keys) => JSON.stringify({ endpoint, keys: k });
    const count = async () =>
      [
        await subscriptions(),
        (await rt.deps.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events')).rows[0]!.n,
      ] as const;
    const before = await count();
    const cases: [string, Record<string, unknown>, number, string][] = [
      [
        me,
        { tokens: { [tok('http://fcm.googleapis.com/x')]: true } },
        422,
        'PUSH_ENDPOINT_NOT_ALLOWED',
      ],
      [me, { tokens: { [tok('https://evil.example/x')]: true } }, 422, 'PUSH_ENDPOINT_NOT_ALLOWED'],
      [
        me,
        { tokens: { 'https://fcm.googleapis.com/never-registered': true } },
        422,
        'PUSH_SUBSCRIPTION_INVALID',
      ],
      [
        me,
        { tokens: { [tok(`${base}/bad`, { p256dh: 'short', auth: keys.auth })]: true } },
        400,
        'VALIDATION',
      ],
      [me, { tokens: { 'not a token': true } }, 400, 'VALIDATION'],
      [me, { tokens: { [tok(`${base}/bad`)]: 'yes' } }, 400, 'VALIDATION'],
      [me, { tokens: {} }, 400, 'VALIDATION'],
      [me, { tokens: [tok(`${base}/bad`)] }, 400, 'VALIDATION'],
      // A valid token with an invalid profile change: neither is written.
      [me, { nombre: '', tokens: { [tok(`${base}/bad`)]: true } }, 400, 'VALIDATION'],
    ];
    for (const [id, body, status, code] of cases) {
      const res = await asesor.put(`/api/users/${id}`, { id, ...body });
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json).toEqual([
        expect.objectContaining({ errorCode: code, message: expect.any(String) }),
      ]);
    }
    // Another user's tokens: never (another user's record is a manager's edit, which takes no
    // tokens; an adviser is no manager).
    const theirs = await asesor.put(`/api/users/${other}`, {
      id: other,
      tokens: { [tok(`${base}/bad`)]: true },
    });
    expect([400, 403]).toContain(theirs.status);
    expect(theirs.json).toEqual([
      expect.objectContaining({ errorCode: expect.any(String), message: expect.any(String) }),
    ]);
    expect(await count()).toEqual(before);
  });

  it('bad subscriptions: 4xx in the spec’s shape, nothing written', async () => {
    const asesor = await signedIn(app, 'asesor@vitrina.demo', ids);
    const before = await subscriptions();
    const cases: [unknown, number, string][] = [
      [
        { endpoint: 'http://fcm.googleapis.com/fcm/send/x', keys },
        422,
        'PUSH_ENDPOINT_NOT_ALLOWED',
      ],
      [{ endpoint: 'https://evil.example/push', keys }, 422, 'PUSH_ENDPOINT_NOT_ALLOWED'],
      [{ endpoint: 'not a url', keys }, 422, 'PUSH_ENDPOINT_NOT_ALLOWED'],
      [
        { endpoint: 'https://fcm.googleapis.com/x', keys: { p256dh: 'short', auth: keys.auth } },
        400,
        'VALIDATION',
      ],
      [
        { endpoint: 'https://fcm.googleapis.com/x', keys: { p256dh: keys.p256dh } },
        400,
        'VALIDATION',
      ],
      [{ endpoint: 'https://fcm.googleapis.com/x' }, 400, 'VALIDATION'],
      [{ endpoint: 'https://fcm.googleapis.com/x', keys, extra: 1 }, 400, 'VALIDATION'],
      [[], 400, 'VALIDATION'],
    ];
    for (const [body, status, code] of cases) {
      const res = await asesor.post('/api/push/suscripciones', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.json).toEqual([
        expect.objectContaining({ errorCode: code, message: expect.any(String) }),
      ]);
    }
    const { client } = await import('./support/http');
    expect(
      (
        await client(app).post('/api/push/suscripciones', {
          endpoint: 'https://fcm.googleapis.com/x',
          keys,
        })
      ).status,
    ).toBe(401);
    expect((await client(app).get('/api/push/clave-publica')).status).toBe(401);
    expect(await subscriptions()).toBe(before);
  });
});

it('the allow-list: https on its own port, listed hosts and their subdomains when asked; loopback only when allowed', () => {
  const hosts = ['fcm.googleapis.com', '*.push.apple.com'];
  expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
  expect(endpointAllowed('https://web.push.apple.com/x', hosts)).toBe(true);
  expect(endpointAllowed('https://push.apple.com.evil.example/x', hosts)).toBe(false);
  expect(endpointAllowed('https://evilpush.apple.com/x', hosts)).toBe(false);
  expect(endpointAllowed('http://fcm.googleapis.com/x', hosts)).toBe(false);
  expect(endpointAllowed('https://user:pw@fcm.googleapis.com/x', hosts)).toBe(false);
  expect(endpointAllowed('https://fcm.googleapis.com:8443/fcm/send/abc', hosts)).toBe(false);
  expect(endpointAllowed('https://fcm.googleapis.com:443/fcm/send/abc', hosts)).toBe(true);
  expect(endpointAllowed('https://127.0.0.1:9/x', hosts)).toBe(false);
  expect(endpointAllowed('https://127.0.0.1:9/x', hosts, true)).toBe(true);
  expect(endpointAllowed('https://localhost/x', hosts, true)).toBe(true);
});
