/**
 * Real server processes (`src/server/main.ts`) for the tests that need several of them on one
 * PostgreSQL database: each on a free port the system picks (PORT=0), so suites running at the
 * same time never collide.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Hono } from 'hono';
import { expect } from 'vitest';

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** Everything the process printed so far. */
  output(): string;
  /** `fetch` against the process: `path` starts with '/'. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Starts `src/server/main.ts` (or the node arguments in `entry`, e.g. the compiled server) on
 * `databaseUrl`, or on the embedded store in `VITRINA_DATA_DIR` when `databaseUrl` is null, and
 * resolves once it serves. A variable given as `undefined` in `env` is left unset.
 */
export function startServerProcess(
  databaseUrl: string | null,
  env: Record<string, string | undefined> = {},
  entry: string[] = ['--import', 'tsx', 'src/server/main.ts'],
): Promise<ServerProcess> {
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const merged: NodeJS.ProcessEnv = {
    ...inherited,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    PORT: '0',
    HOST: '127.0.0.1',
    VITRINA_DIST_DIR: '/nonexistent',
    VITRINA_SECRET: 'server-process-test',
    ...env,
  };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  const child = spawn(process.execPath, entry, { env: merged, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise<ServerProcess>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      const running = /running at http:\/\/[^:\s]+:(\d+)/.exec(output);
      if (running) {
        const port = Number(running[1]);
        resolve({
          child,
          port,
          output: () => output,
          fetch: (path, init) => fetch(`http://127.0.0.1:${port}${path}`, init),
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
  });
}

/** Kills a server process (SIGKILL) and waits for it to exit. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  const child = server?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** A running server as the test clients' `app` (support/http.ts): the same requests, over the network. */
export const remoteApp = (server: Pick<ServerProcess, 'fetch'>) =>
  ({
    request: (path: string, init?: RequestInit) => server.fetch(path, init),
  }) as unknown as Pick<Hono, 'request'>;

/**
 * Moves a process's clock `by` ms on (`POST /__test__/clock`; the process runs with
 * VITRINA_TEST_CLOCK=1) and answers the time it reads now. 0 only reads it.
 */
export async function moveClock(server: ServerProcess, by: number): Promise<Date> {
  const res = await server.fetch('/__test__/clock', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advanceMs: by }),
  });
  expect(res.status).toBe(200);
  return new Date(((await res.json()) as { now: string }).now);
}
