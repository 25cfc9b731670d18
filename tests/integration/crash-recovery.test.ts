import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRuntime } from '../../src/server/runtime';

/**
 * Starts the real server on a data directory, on a port the system picks, and resolves when
 * `until` appears in its output.
 */
function startServer(
  dataDir: string,
  until: RegExp | null,
  killOn?: { pattern: RegExp; delayMs: number },
) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      VITRINA_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      VITRINA_DIST_DIR: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise<{
    output: string;
    code: number | null;
    signal: NodeJS.Signals | null;
    child: typeof child;
  }>((resolve) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (until && until.test(output)) resolve({ output, code: null, signal: null, child });
      if (killOn && killOn.pattern.test(output)) {
        setTimeout(() => child.kill('SIGKILL'), killOn.delayMs);
        killOn = undefined;
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code, signal) => resolve({ output, code, signal, child }));
  });
}

describe('embedded store under kill -9', () => {
  it('a seed killed half-way leaves a consistent store that the next start completes; a second server on the same directory refuses', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrina-crash-'));
    try {
      // Killed in the middle of the seed: it is one transaction, so nothing half-written stays.
      const killed = await startServer(dir, null, {
        pattern: /Seeding the demo tenant/,
        delayMs: 400,
      });
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.output).not.toMatch(/running at/);

      const first = await startServer(dir, /running at/);
      expect(first.output).toMatch(/Vitrina is running at http:\/\/localhost:\d+/);
      const second = await startServer(dir, null);
      expect(second.code).toBe(1);
      expect(second.output).toMatch(/already in use by another Vitrina process/);
      first.child.kill('SIGKILL');
      await new Promise((r) => first.child.once('exit', r));

      const rt = await openRuntime({ dataDir: dir });
      try {
        const count = async (sql: string) =>
          Number((await rt.deps.db.query<{ n: number }>(sql)).rows[0]!.n);
        expect(await count('SELECT count(*)::int AS n FROM rm_units')).toBe(568);
        expect(
          await count("SELECT count(*)::int AS n FROM events WHERE type = 'DemoTenantSeeded'"),
        ).toBe(1);
        expect(await count("SELECT count(*)::int AS n FROM events WHERE type = 'UnitListed'")).toBe(
          568,
        );
        const before = (await rt.deps.db.query('SELECT id, doc FROM rm_units ORDER BY id')).rows;
        await rt.deps.store.rebuildProjections();
        expect((await rt.deps.db.query('SELECT id, doc FROM rm_units ORDER BY id')).rows).toEqual(
          before,
        );
      } finally {
        await rt.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});
