import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../src/server/runtime';
import { rebuildAndSwap, verifyProjections } from '../../src/server/store/verify';
import { describeBackends, openSeeded } from './support/backends';

/** Runs `npm run store:<command>`'s entry point as its own process, as an operator would. */
function storeTool(
  command: 'verify' | 'rebuild',
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/store/cli.ts', command], {
      env: { ...process.env, DATABASE_URL: '', VITRINA_DATA_DIR: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describeBackends('store:verify and store:rebuild', (backend) => {
  /** The store the tools open, and an in-process runtime on it (a server, on PostgreSQL). */
  let env: Record<string, string>;
  let dir: string | undefined;
  let rt: (Runtime & { dispose?: () => Promise<void> }) | undefined;
  let dispose: () => Promise<void>;

  const reopen = async () => {
    if (backend.name === 'pglite' && !rt) rt = await openRuntime({ dataDir: dir! });
    return rt!;
  };
  /** PGlite is single-process: the tools only run once this process lets go of the store. */
  const letGo = async () => {
    if (backend.name === 'pglite' && rt) {
      await rt.close();
      rt = undefined;
    }
  };

  beforeAll(async () => {
    if (backend.name === 'pglite') {
      dir = mkdtempSync(join(tmpdir(), 'vitrina-tools-'));
      env = { VITRINA_DATA_DIR: dir };
      rt = await openRuntime({ dataDir: dir });
      await seedDemoIfEmpty(rt.deps.store);
      dispose = async () => {
        await rt?.close();
        rmSync(dir!, { recursive: true, force: true });
      };
    } else {
      const opened = await openSeeded(backend);
      rt = opened;
      env = { DATABASE_URL: opened.databaseUrl! };
      dispose = () => opened.dispose();
    }
    // One change after the seed, so a unit's read model folds more than one event.
    const { rows } = await rt.deps.db.query<{ id: string; corporate_id: string }>(
      'SELECT id, corporate_id FROM rm_units ORDER BY id LIMIT 1',
    );
    await rt.deps.store.append(`unit:${rows[0]!.corporate_id}:${rows[0]!.id}`, 'any', [
      {
        id: randomUUID(),
        type: 'UnitStatusChanged',
        data: { idUnidad: rows[0]!.id, from: null, to: 'Vendido' },
        corporateId: rows[0]!.corporate_id,
        occurredAt: new Date('2026-11-23T10:00:00Z'),
      },
    ]);
  }, 120_000);

  afterAll(async () => {
    await dispose?.();
  });

  it('verify passes on a consistent store, reports tampered rows per table and exits 1; rebuild puts them right', async () => {
    await reopen();
    const clean = await verifyProjections(rt!.deps.store);
    expect(clean.differences).toBe(0);
    expect(clean.events).toBeGreaterThan(600);

    const db = rt!.deps.db;
    const unit = (
      await db.query<{ id: string; precio: string }>(
        "SELECT id, doc->>'precio' AS precio FROM rm_units ORDER BY id OFFSET 5 LIMIT 1",
      )
    ).rows[0]!;
    const media = (await db.query<{ id: string }>('SELECT id FROM rm_media ORDER BY id LIMIT 1'))
      .rows[0]!;
    await db.query(`UPDATE rm_units SET doc = jsonb_set(doc, '{precio}', '1') WHERE id = $1`, [
      unit.id,
    ]);
    await db.query('DELETE FROM rm_media WHERE id = $1', [media.id]);
    await db.query(
      `INSERT INTO rm_corporates (id, slug, doc) VALUES ('corp-tampered', 'tampered', '{}')`,
    );
    const before = (await db.query('SELECT count(*)::int AS n FROM rm_units')).rows;
    await letGo();

    const verify = await storeTool('verify', env);
    expect(verify.code, verify.stderr).toBe(1);
    expect(verify.stdout).toContain(`~ id=${unit.id}`);
    expect(verify.stdout).toContain(`doc.precio: 1 → ${unit.precio}`);
    expect(verify.stdout).toContain(`- id=${media.id}  missing from the live table`);
    expect(verify.stdout).toContain('+ id=corp-tampered  only in the live table');
    expect(verify.stdout).toMatch(/rm_units\s+\d+ rows\s+1 row differs\n/);
    expect(verify.stdout).toMatch(/rm_leads\s+0 rows\s+ok/);
    expect(verify.stdout).toContain(
      '✖ 3 rows differ from the log in 3 tables (rm_corporates, rm_units, rm_media)',
    );

    const rebuild = await storeTool('rebuild', env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    expect(rebuild.stdout).toContain('swapped them in, in one transaction');
    // Verifying wrote nothing: the rebuild still finds the three tampered rows.
    expect(rebuild.stdout).toContain('3 rows replaced by what the log produces');

    const again = await storeTool('verify', env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('✔ Every read model equals a rebuild from the log.');
    await reopen();
    expect((await rt!.deps.db.query('SELECT count(*)::int AS n FROM rm_units')).rows).toEqual(
      before,
    );
    expect(
      (await rt!.deps.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM rm_corporates`))
        .rows[0]!.n,
    ).toBe(2);
  }, 120_000);

  if (backend.name === 'pglite') {
    it('both refuse, with a clear message, while a running server holds the embedded store', async () => {
      await letGo();
      const port = await freePort();
      const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
        env: {
          ...process.env,
          DATABASE_URL: '',
          VITRINA_DATA_DIR: dir,
          PORT: String(port),
          HOST: '127.0.0.1',
          VITRINA_DIST_DIR: '/nonexistent',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      try {
        await new Promise<void>((resolve, reject) => {
          let output = '';
          const onData = (d: Buffer) => {
            output += d.toString();
            if (/running at/.test(output)) resolve();
          };
          server.stdout.on('data', onData);
          server.stderr.on('data', onData);
          server.on('exit', () => reject(new Error(`server exited: ${output}`)));
        });
        const rebuild = await storeTool('rebuild', env);
        expect(rebuild.code).toBe(2);
        expect(rebuild.stderr).toContain(
          `store:rebuild refused: the embedded store in ${dir} is held by a running Vitrina server (pid ${server.pid})`,
        );
        expect(rebuild.stderr).toContain('stop the server, then run it again');
        expect(rebuild.stdout).not.toContain('Rebuilt');
        const verify = await storeTool('verify', env);
        expect(verify.code).toBe(2);
        expect(verify.stderr).toContain(`held by a running Vitrina server (pid ${server.pid})`);
      } finally {
        const exited = new Promise((r) => server.once('exit', r));
        server.kill('SIGTERM');
        await exited;
      }
      // Once the server is gone the store is free again.
      const after = await storeTool('verify', env);
      expect(after.code, after.stderr).toBe(0);
    }, 120_000);

    it('refuses a directory that holds no store', async () => {
      const empty = mkdtempSync(join(tmpdir(), 'vitrina-empty-'));
      try {
        const res = await storeTool('verify', { VITRINA_DATA_DIR: empty });
        expect(res.code).toBe(2);
        expect(res.stderr).toContain(`There is no embedded store in ${empty}`);
      } finally {
        rmSync(empty, { recursive: true, force: true });
      }
    });
  }

  if (backend.name === 'postgres') {
    it('rebuild beside a running server: appends made during it wait and are kept', async () => {
      const store = rt!.deps.store;
      const { rows } = await rt!.deps.db.query<{ id: string; corporate_id: string }>(
        "SELECT id, corporate_id FROM rm_units WHERE doc->>'status' = 'Disponible' ORDER BY id LIMIT 5",
      );
      const rebuilding = rebuildAndSwap(store);
      const appends = rows.map((u, i) =>
        store.append(`unit:${u.corporate_id}:${u.id}`, 'any', [
          {
            id: randomUUID(),
            type: 'UnitPriceChanged',
            data: { idUnidad: u.id, from: 0, to: 4_000_000 + i },
            corporateId: u.corporate_id,
            occurredAt: new Date('2026-11-23T11:00:00Z'),
          },
        ]),
      );
      await Promise.all([rebuilding, ...appends]);
      const prices = await rt!.deps.db.query<{ precio: number }>(
        "SELECT (doc->>'precio')::int AS precio FROM rm_units WHERE id = ANY($1::text[]) ORDER BY (doc->>'precio')::int",
        [rows.map((u) => u.id)],
      );
      expect(prices.rows.map((r) => r.precio)).toEqual([0, 1, 2, 3, 4].map((i) => 4_000_000 + i));
      expect((await verifyProjections(store)).differences).toBe(0);
    });
  }
});
