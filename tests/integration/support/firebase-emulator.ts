/**
 * The Firebase Auth emulator for tests (issue 22): started from firebase-tools on free ports (the
 * auth port, and the hub and logging ports it reserves) with a temporary firebase.json, stopped
 * with its whole process group. A `demo-` project needs no credentials and runs offline.
 *
 * The emulator's REST API (the Identity Toolkit paths, with any key): `accounts:signUp`,
 * `accounts:signInWithPassword`, `projects/<id>/accounts:update` (as the owner: `Bearer owner`)
 * and `DELETE /emulator/v1/projects/<id>/accounts` to forget every account.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const EMULATOR_PROJECT = 'demo-vitrina';

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export interface FirebaseAccount {
  uid: string;
  idToken: string;
}

export interface AuthEmulator {
  /** `127.0.0.1:<port>`, as FIREBASE_AUTH_EMULATOR_HOST takes it. */
  host: string;
  projectId: string;
  signUp(email: string, password: string): Promise<FirebaseAccount>;
  signIn(email: string, password: string): Promise<FirebaseAccount>;
  /** Marks the account's e-mail verified (what the mailed verification link does). */
  verifyEmail(uid: string): Promise<void>;
  /** The password-reset and verification codes Firebase would have mailed. */
  oobCodes(): Promise<{ email: string; requestType: string }[]>;
  clear(): Promise<void>;
  stop(): Promise<void>;
}

const bin = resolve('node_modules/.bin/firebase');

async function rest<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, {
    ...init,
    headers: { 'content-type': 'application/json', ...init.headers },
  });
  const body = (await res.json().catch(() => null)) as T & { error?: { message?: string } };
  if (!res.ok) throw new Error(`emulator ${url}: ${res.status} ${body?.error?.message ?? ''}`);
  return body;
}

/** Starts the emulator; rejects (with its output) when it is not ready within `timeoutMs`. */
export async function startAuthEmulator(timeoutMs = 120_000): Promise<AuthEmulator> {
  const [auth, hub, logging] = [await freePort(), await freePort(), await freePort()];
  const dir = mkdtempSync(join(tmpdir(), 'vitrina-firebase-'));
  const config = join(dir, 'firebase.json');
  writeFileSync(
    config,
    JSON.stringify({
      emulators: {
        auth: { host: '127.0.0.1', port: auth },
        hub: { host: '127.0.0.1', port: hub },
        logging: { host: '127.0.0.1', port: logging },
        ui: { enabled: false },
      },
    }),
  );
  let output = '';
  const child: ChildProcess = spawn(
    bin,
    ['emulators:start', '--only', 'auth', '--project', EMULATOR_PROJECT, '--config', config],
    { cwd: dir, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } },
  );
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${auth}`;
  const toolkit = `${base}/identitytoolkit.googleapis.com/v1`;

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((done) => child.once('exit', done));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
      await Promise.race([exited, new Promise((done) => setTimeout(done, 10_000))]);
      if (child.exitCode === null) {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          /* already gone */
        }
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the Auth emulator exited (${child.exitCode}):\n${output}`);
    }
    const ready = await fetch(`${base}/emulator/v1/projects/${EMULATOR_PROJECT}/config`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the Auth emulator was not ready in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((done) => setTimeout(done, 300));
  }

  const account = (r: { localId: string; idToken: string }) => ({
    uid: r.localId,
    idToken: r.idToken,
  });
  return {
    host: `127.0.0.1:${auth}`,
    projectId: EMULATOR_PROJECT,
    signUp: async (email, password) =>
      account(
        await rest(`${toolkit}/accounts:signUp?key=any`, {
          method: 'POST',
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        }),
      ),
    signIn: async (email, password) =>
      account(
        await rest(`${toolkit}/accounts:signInWithPassword?key=any`, {
          method: 'POST',
          body: JSON.stringify({ email, password, returnSecureToken: true }),
        }),
      ),
    verifyEmail: async (uid) => {
      await rest(`${toolkit}/projects/${EMULATOR_PROJECT}/accounts:update`, {
        method: 'POST',
        headers: { authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: uid, emailVerified: true }),
      });
    },
    oobCodes: async () =>
      (
        await rest<{ oobCodes?: { email: string; requestType: string }[] }>(
          `${base}/emulator/v1/projects/${EMULATOR_PROJECT}/oobCodes`,
        )
      ).oobCodes ?? [],
    clear: async () => {
      await rest(`${base}/emulator/v1/projects/${EMULATOR_PROJECT}/accounts`, {
        method: 'DELETE',
      });
    },
    stop,
  };
}
