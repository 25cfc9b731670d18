/**
 * A fake push service on loopback over HTTPS (issue 15), for the push tests and the push
 * benchmark: a self-signed certificate (give `ca` to the runtime's https agent), one browser's
 * keys (`keys`, what a subscription carries), and every request recorded with its headers and
 * its aes128gcm payload decrypted with the browser's private key (null when it does not decrypt).
 *
 * Answers by path: `/gone…` 410, `/missing…` 404, `/busy…` 429 with `Retry-After: 1` the first
 * time, anything else 201.
 */
import { execFileSync } from 'node:child_process';
import { createECDH, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// http_ece (web-push's own dependency) has no types and no ES module entry.
const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: Record<string, unknown>): Buffer;
};

export interface ReceivedPush {
  path: string;
  /** Date.now() when the request ended. */
  at: number;
  headers: Record<string, string | string[] | undefined>;
  payload: Record<string, unknown> | null;
}

export interface FakePushService {
  /** `https://127.0.0.1:<port>` */
  base: string;
  /** The certificate to trust (`new Agent({ ca })`). */
  ca: Buffer;
  /** The browser's subscription keys (base64url), as a subscription carries them. */
  keys: { p256dh: string; auth: string };
  received: ReceivedPush[];
  /** Called after each request is answered. */
  onReceived?: (r: ReceivedPush) => void;
  close(): Promise<void>;
}

export async function startFakePushService(): Promise<FakePushService> {
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
  const key = readFileSync(join(dir, 'key.pem'));
  rmSync(dir, { recursive: true, force: true });

  // The browser's keys.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const busy = new Set<string>();

  const fake: FakePushService = {
    base: '',
    ca: cert,
    keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
    received: [],
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
  const server: Server = createServer({ key, cert }, (req, res) => {
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
      const path = req.url ?? '';
      const r: ReceivedPush = { path, at: Date.now(), headers: req.headers, payload };
      fake.received.push(r);
      if (path.startsWith('/gone')) res.writeHead(410).end();
      else if (path.startsWith('/missing')) res.writeHead(404).end();
      else if (path.startsWith('/busy') && !busy.has(path)) {
        busy.add(path);
        res.writeHead(429, { 'Retry-After': '1' }).end();
      } else res.writeHead(201).end();
      fake.onReceived?.(r);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
