/**
 * Share links are signed with the deployment's key (issue 13, defect 1): a link made on one
 * server instance opens on another over the same database and after a restart; a new key
 * (rotation) signs new links while the previous key's links keep working; retiring a key ends
 * its links; the expiry is the stored link's; `VITRINA_SECRET` still signs when set.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Corporate, Development, Unit } from '../../src/core/types';
import { createApp } from '../../src/server/app';
import { retireShareKey, rotateShareKey } from '../../src/server/quotations/share-keys';
import { runShareKeysCommand } from '../../src/server/quotations/share-keys-cli';
import { openRuntime, seedDemoIfEmpty, type Runtime } from '../../src/server/runtime';
import { describeBackends, openSeeded, postgresBackend } from './support/backends';
import { client, login } from './support/http';
import { remoteApp, startServerProcess, stopServerProcess } from './support/server-process';

type App = Pick<ReturnType<typeof createApp>, 'request'>;

/** A real server process (src/server/main.ts) on the database, with no VITRINA_SECRET. */
const startServer = (databaseUrl: string) =>
  startServerProcess(databaseUrl, {
    VITRINA_SECRET: undefined,
    VITRINA_SECRET_PREVIOUS: undefined,
  });

/** Signs the adviser in on `app`, quotes an available unit of Torre Alameda and shares it. */
async function shareOn(app: App, corpSlug = 'grupo-horizonte') {
  const asesor = client(app, await login(app, 'asesor@vitrina.demo'));
  const corp = (await asesor.get(`/api/wsObtenerCorporativo?slug=${corpSlug}`)).json as Corporate;
  const dev = (
    await asesor.get(`/api/wsObtenerDesarrollo?idCorporativo=${corp.id}&slug=torre-alameda`)
  ).json as Development;
  const clusters = (
    await asesor.get(`/api/wsObtenerClusters?idCorporativo=${corp.id}&idDesarrollo=${dev.id}`)
  ).json as { unidades: Unit[] }[];
  const unit = clusters.flatMap((c) => c.unidades).find((u) => u.status === 'Disponible')!;
  const scheme = dev.esquemasPago.find((s) => s.nombre === 'Contado' && !s.idCluster)!;
  const created = await asesor.post(`/api/corporativos/${corp.id}/cotizaciones`, {
    idUnidad: unit.id,
    idEsquema: scheme.id,
    divisa: 'MXN',
    nuevoLead: { nombre: 'Comprador', apellidos: `Prueba ${Math.random()}` },
  });
  expect(created.status, JSON.stringify(created.json)).toBe(201);
  const base = `/api/corporativos/${corp.id}/cotizaciones/${created.json.id as string}`;
  const shared = await asesor.post(`${base}/compartir`);
  expect(shared.status).toBe(201);
  return {
    token: shared.json.token as string,
    url: shared.json.url as string,
    base,
    corp,
    asesor,
  };
}

const open = (app: App, token: string) => client(app).get(`/api/public/cotizaciones/${token}`);
const kidOf = (token: string) => token.split('.')[0]!;

describe('share links without VITRINA_SECRET', () => {
  const saved = {
    secret: process.env.VITRINA_SECRET,
    previous: process.env.VITRINA_SECRET_PREVIOUS,
  };
  beforeAll(() => {
    delete process.env.VITRINA_SECRET;
    delete process.env.VITRINA_SECRET_PREVIOUS;
  });
  afterAll(() => {
    if (saved.secret !== undefined) process.env.VITRINA_SECRET = saved.secret;
    if (saved.previous !== undefined) process.env.VITRINA_SECRET_PREVIOUS = saved.previous;
  });

  describeBackends('one key for the deployment', (backend) => {
    if (backend.name === 'postgres') {
      it('a link made on one instance opens on a second instance over the same database, and after both restart', async () => {
        const first = await openSeeded(postgresBackend);
        const url = first.databaseUrl!;
        let second: Runtime | undefined;
        try {
          second = await openRuntime({ databaseUrl: url, poolSize: 4 });
          const appA = createApp(first.deps);
          const appB = createApp(second.deps);
          const link = await shareOn(appA);
          expect((await open(appA, link.token)).status).toBe(200);
          const onB = await open(appB, link.token);
          expect(onB.status, JSON.stringify(onB.json)).toBe(200);
          // The list shows the same, working link on either instance.
          const listA = (await link.asesor.get(`${link.base}/compartidos`)).json;
          const asesorB = client(appB, await login(appB, 'asesor@vitrina.demo'));
          const listB = (await asesorB.get(`${link.base}/compartidos`)).json;
          expect(listB).toEqual(listA);
          expect(listA[0].url).toBe(link.url);
          // A link made on the second opens on the first.
          const fromB = await shareOn(appB);
          expect((await open(appA, fromB.token)).status).toBe(200);

          // Both restart.
          await second.close();
          second = await openRuntime({ databaseUrl: url, poolSize: 4 });
          expect((await open(createApp(second.deps), link.token)).status).toBe(200);
          expect((await open(createApp(second.deps), fromB.token)).status).toBe(200);
        } finally {
          await second?.close();
          await first.dispose();
        }
      });
      it('two real server processes without VITRINA_SECRET: a link made on one opens on the other, and after a kill -9 and restart', async () => {
        const servers = await Promise.all([0, 1].map(() => startServer(rt.databaseUrl!)));
        try {
          let a: App = remoteApp(servers[0]!);
          const b: App = remoteApp(servers[1]!);
          const link = await shareOn(a);
          expect((await open(b, link.token)).status).toBe(200);
          const fromB = await shareOn(b);
          expect((await open(a, fromB.token)).status).toBe(200);
          await stopServerProcess(servers[0]);
          servers[0] = await startServer(rt.databaseUrl!);
          a = remoteApp(servers[0]);
          for (const token of [link.token, fromB.token]) {
            expect((await open(a, token)).status).toBe(200);
            expect((await open(b, token)).status).toBe(200);
          }
        } finally {
          await Promise.all(servers.map(stopServerProcess));
        }
      }, 180_000);

      it('npm run share-keys lists, rotates and retires keys', async () => {
        const lines: string[] = [];
        const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) };
        const env = { DATABASE_URL: rt.databaseUrl! };
        expect(await runShareKeysCommand(['rotate'], env, io)).toBe(0);
        const kid = /New signing key (\S+)/.exec(lines.join('\n'))![1]!;
        const app = createApp(rt.deps);
        const link = await shareOn(app);
        expect(kidOf(link.token)).toBe(kid);
        expect(await runShareKeysCommand(['retire', kid], env, io)).toBe(0);
        expect((await open(app, link.token)).status).toBe(404);
        expect(await runShareKeysCommand(['retire'], env, io)).toBe(2);
        expect(lines.join('\n')).not.toMatch(/secret/i);
      });
    } else {
      it('a link made before a restart of the embedded store opens after it', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'vitrina-share-'));
        try {
          let rt = await openRuntime({ dataDir: dir });
          await seedDemoIfEmpty(rt.deps.store);
          const link = await shareOn(createApp(rt.deps));
          await rt.close();
          rt = await openRuntime({ dataDir: dir });
          try {
            const app = createApp(rt.deps);
            expect((await open(app, link.token)).status).toBe(200);
            const asesor = client(app, await login(app, 'asesor@vitrina.demo'));
            expect((await asesor.get(`${link.base}/compartidos`)).json[0].url).toBe(link.url);
          } finally {
            await rt.close();
          }
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    }

    let rt: Awaited<ReturnType<typeof openSeeded>>;
    let now = new Date('2026-03-02T12:00:00Z');
    beforeAll(async () => {
      rt = await openSeeded(backend, { clock: () => now });
    });
    afterAll(async () => {
      await rt.dispose();
    });
    afterEach(() => {
      now = new Date('2026-03-02T12:00:00Z');
    });

    it('rotation: a new key signs new links, links of the previous key keep opening and keep their URL; retiring a key ends its links', async () => {
      const app = createApp(rt.deps);
      const before = await shareOn(app);
      const oldKid = kidOf(before.token);
      const newKid = await rotateShareKey(rt.deps.db);
      expect(newKid).not.toBe(oldKid);
      const after = await shareOn(app);
      expect(kidOf(after.token)).toBe(newKid);
      expect((await open(app, before.token)).status).toBe(200);
      expect((await open(app, after.token)).status).toBe(200);
      // The list still shows the link the adviser was first given.
      const listed = (await before.asesor.get(`${before.base}/compartidos`)).json;
      expect(listed[0].url).toBe(before.url);

      expect(await retireShareKey(rt.deps.db, oldKid)).toBe(true);
      const gone = await open(app, before.token);
      expect(gone.status).toBe(404);
      expect(gone.json[0].errorCode).toBe('SHARE_INVALID');
      expect((await open(app, after.token)).status).toBe(200);
      // Its list now shows a link signed by the current key, which opens.
      const relisted = (await before.asesor.get(`${before.base}/compartidos`)).json;
      const token = (relisted[0].url as string).replace('/public/cotizacion/', '');
      expect(kidOf(token)).toBe(newKid);
      expect((await open(app, token)).status).toBe(200);
      // The last key cannot be retired.
      expect(await retireShareKey(rt.deps.db, newKid)).toBe(false);
    });

    it('the expiry is the stored link’s: a link whose stored expiry passed answers 410, whatever its token says', async () => {
      const app = createApp(rt.deps);
      const link = await shareOn(app);
      expect((await open(app, link.token)).status).toBe(200);
      const nonce = (await link.asesor.get(`${link.base}/compartidos`)).json[0].nonce as string;
      await rt.deps.db.query(`UPDATE rm_quotation_shares SET expira_en = $2 WHERE nonce = $1`, [
        nonce,
        new Date(now.getTime() - 1000).toISOString(),
      ]);
      const res = await open(app, link.token);
      expect(res.status).toBe(410);
      expect(res.json[0].errorCode).toBe('SHARE_EXPIRED');
    });
  });
});

describe('share links with VITRINA_SECRET', () => {
  const saved = {
    secret: process.env.VITRINA_SECRET,
    previous: process.env.VITRINA_SECRET_PREVIOUS,
  };
  afterAll(() => {
    if (saved.secret === undefined) delete process.env.VITRINA_SECRET;
    else process.env.VITRINA_SECRET = saved.secret;
    if (saved.previous === undefined) delete process.env.VITRINA_SECRET_PREVIOUS;
    else process.env.VITRINA_SECRET_PREVIOUS = saved.previous;
  });

  it('signs with VITRINA_SECRET, keeps links of VITRINA_SECRET_PREVIOUS and of the stored key, and opens links from before key ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vitrina-share-env-'));
    try {
      delete process.env.VITRINA_SECRET;
      let rt = await openRuntime({ dataDir: dir });
      await seedDemoIfEmpty(rt.deps.store);
      const stored = await shareOn(createApp(rt.deps));
      await rt.close();

      process.env.VITRINA_SECRET = 'first-deployment-secret';
      rt = await openRuntime({ dataDir: dir });
      const withFirst = await shareOn(createApp(rt.deps));
      expect(kidOf(withFirst.token)).toMatch(/^env/);
      // A token from before key ids, signed with the same secret.
      const payload = JSON.parse(
        Buffer.from(withFirst.token.split('.')[1]!, 'base64url').toString('utf8'),
      ) as Record<string, unknown>;
      const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
      const legacy = `${body}.${createHmac('sha256', 'first-deployment-secret')
        .update(`vitrina:quotation-share:v1\n${body}`)
        .digest('base64url')}`;
      await rt.close();

      process.env.VITRINA_SECRET = 'second-deployment-secret';
      process.env.VITRINA_SECRET_PREVIOUS = 'first-deployment-secret';
      rt = await openRuntime({ dataDir: dir });
      try {
        const app = createApp(rt.deps);
        const withSecond = await shareOn(app);
        expect(kidOf(withSecond.token)).not.toBe(kidOf(withFirst.token));
        for (const token of [stored.token, withFirst.token, withSecond.token, legacy]) {
          const res = await open(app, token);
          expect(res.status, token).toBe(200);
        }
      } finally {
        await rt.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
