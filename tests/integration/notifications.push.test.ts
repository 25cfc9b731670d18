/**
 * Web push (issue 15 point 4) against a fake push service on loopback over HTTPS (a self-signed
 * certificate the runtime's agent trusts): the fake decrypts the aes128gcm payload with the
 * browser's keys and checks the VAPID headers; 404/410 delete the subscription; 429 is tried
 * again after its Retry-After. The deployment's VAPID key pair is stored once and served; bad
 * subscriptions are 4xx with nothing written.
 */
import { createECDH, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, Agent, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { ensureVapidKeys, endpointAllowed } from '../../src/server/notifications/push';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { signedIn } from './support/http';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ece = require('http_ece') as {
  decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
};

interface Received {
  path: string;
  at: number;
  headers: Record<string, string | string[] | undefined>;
  payload: Record<string, unknown> | null;
}

describeBackends('web push', (backend: Backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let app: ReturnType<typeof createApp>;
  let fake: Server;
  let base = '';
  let corp = '';
  const ids: Record<string, string> = {};
  const received: Received[] = [];
  let busyOnce = true;
  // The browser's keys.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const keys = {
    p256dh: ecdh.getPublicKey().toString('base64url'),
    auth: auth.toString('base64url'),
  };
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
    const dir = mkdtempSync(join(tmpdir(), 'vitrina-push-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    const cert = readFileSync(join(dir, 'cert.pem'));
    fake = createServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        let payload: Record<string, unknown> | null = null;
        try {
          payload = JSON.parse(
            ece
              .decrypt(Buffer.concat(chunks), {
                version: 'aes128gcm',
                privateKey: ecdh,
                authSecret: auth.toString('base64url'),
              })
              .toString('utf8'),
          ) as Record<string, unknown>;
        } catch {
          payload = null;
        }
        received.push({ path: req.url ?? '', at: Date.now(), headers: req.headers, payload });
        if (req.url?.startsWith('/gone')) res.writeHead(410).end();
        else if (req.url?.startsWith('/missing')) res.writeHead(404).end();
        else if (req.url?.startsWith('/busy') && busyOnce) {
          busyOnce = false;
          res.writeHead(429, { 'Retry-After': '1' }).end();
        } else res.writeHead(201).end();
      });
    });
    await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    rt = await openSeeded(backend, {
      push: {
        allowLoopback: true,
        agent: new Agent({ ca: cert }),
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
    await new Promise((r) => fake?.close(r));
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

it('the allow-list: https, listed hosts and their subdomains when asked; loopback only when allowed', () => {
  const hosts = ['fcm.googleapis.com', '*.push.apple.com'];
  expect(endpointAllowed('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
  expect(endpointAllowed('https://web.push.apple.com/x', hosts)).toBe(true);
  expect(endpointAllowed('https://push.apple.com.evil.example/x', hosts)).toBe(false);
  expect(endpointAllowed('https://evilpush.apple.com/x', hosts)).toBe(false);
  expect(endpointAllowed('http://fcm.googleapis.com/x', hosts)).toBe(false);
  expect(endpointAllowed('https://user:pw@fcm.googleapis.com/x', hosts)).toBe(false);
  expect(endpointAllowed('https://127.0.0.1:9/x', hosts)).toBe(false);
  expect(endpointAllowed('https://127.0.0.1:9/x', hosts, true)).toBe(true);
  expect(endpointAllowed('https://localhost/x', hosts, true)).toBe(true);
});
