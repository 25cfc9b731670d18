/**
 * What the benches that run a real server share: building and seeding beforehand, spawning the
 * server and waiting for its first answer, stopping it, and the median of a sample. Only the
 * set-up lives here; what each bench times stays in the bench.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The repository's root: the benches' commands run there. */
export const ROOT = resolve(import.meta.dirname, '../../..');

/** The demo accounts' password (`seed/demo.ts`). */
export const DEMO_PASSWORD = 'Vitrina2026!';

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Runs a command in the root, its output on the console; throws when it fails. */
export function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status})`);
}

/**
 * A private build of the client into `outDir`: the shared dist/ may be rebuilt by someone else
 * while a bench runs.
 */
export function buildClient(outDir: string) {
  run('npx', ['vite', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn']);
}

/** `npm run seed:large` into `store`: the demo plus `gran-torre` with `units` units, no quotations. */
export function seedLarge(store: string, units: number) {
  run(process.execPath, [
    '--import',
    'tsx',
    'src/server/seed/large.ts',
    '--units',
    String(units),
    '--quotations',
    '0',
    '--data-dir',
    store,
  ]);
}

/** The server from source (`tsx src/server/main.ts`) over `store`, serving the build `distDir`. */
export function spawnAppServer(store: string, distDir: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      VITRINA_DATA_DIR: store,
      VITRINA_DIST_DIR: distDir,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
  });
}

/** Waits (up to 120 s, every 500 ms) until the server at `base` answers a public call. */
export async function waitForServer(child: ChildProcess, base: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/wsObtenerConfiguracionesGenerales`)).ok) return;
    } catch {
      // not yet listening
    }
    await sleep(500);
  }
  throw new Error('server did not start');
}

export interface HealthyServer {
  child: ChildProcess;
  port: number;
  /** From the spawn to the first 200 of `/api/health`. */
  ms: number;
  /** What the process wrote so far (stdout and stderr). */
  output: () => string;
}

/**
 * Spawns `node <args>` on `port` (DATABASE_URL only when `env` names one) and polls
 * `/api/health` every `pollMs` until it answers 200; `ms` counts from before the spawn.
 */
export async function startUntilHealthy(
  args: string[],
  env: Record<string, string>,
  port: number,
  { pollMs, timeoutMs }: { pollMs: number; timeoutMs: number },
): Promise<HealthyServer> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  let exited = false;
  child.on('exit', () => (exited = true));
  for (;;) {
    if (exited) throw new Error(`the server exited before answering: ${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      await res.arrayBuffer();
      if (res.status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - t0 > timeoutMs)
      throw new Error(`no answer in ${timeoutMs / 1000} s: ${output}`);
    await sleep(pollMs);
  }
  return { child, port, ms: performance.now() - t0, output: () => output };
}

/** SIGTERM, SIGKILL after 10 s, and waits for the exit (nothing when it has exited already). */
export async function stopProcess(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}
