import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createApp } from '../../src/server/app';
import { openRuntime, type Runtime } from '../../src/server/runtime';
import type { NewEvent, StoredEvent } from '../../src/server/store/event-store';
import { describeBackends, openSeeded } from './support/backends';
import { login } from './support/http';

type App = ReturnType<typeof createApp>;

interface SseMessage {
  event: string;
  data: string;
}

/** Reads a server-sent event stream message by message. */
class SseClient {
  private buffer = '';
  private readonly decoder = new TextDecoder();
  readonly messages: SseMessage[] = [];

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  static async open(app: App, path: string, headers: Record<string, string> = {}) {
    const res = await app.request(path, { headers });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return new SseClient(res.body!.getReader());
  }

  /** Reads until `done` holds for the messages read so far, or `ms` pass. */
  async until(done: (messages: SseMessage[]) => boolean, ms = 15_000): Promise<SseMessage[]> {
    const deadline = Date.now() + ms;
    while (!done(this.messages) && Date.now() < deadline) {
      const chunk = await Promise.race([
        this.reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), Math.max(1, deadline - Date.now()))),
      ]);
      if (!chunk || chunk.done) break;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = this.buffer.indexOf('\n\n')) >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const lines = block.split('\n');
        const event =
          lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim() ?? 'message';
        const data = lines
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n');
        if (lines.some((l) => l.startsWith('data:'))) this.messages.push({ event, data });
      }
    }
    return this.messages;
  }

  changes(): Record<string, unknown>[] {
    return this.messages
      .filter((m) => m.event === 'change')
      .map((m) => JSON.parse(m.data) as Record<string, unknown>);
  }

  async close() {
    await this.reader.cancel().catch(() => undefined);
  }
}

const statusChange = (
  unit: { id: string; corporate_id: string },
  to: string,
  extra: Record<string, unknown> = {},
): NewEvent => ({
  id: randomUUID(),
  type: 'UnitStatusChanged',
  data: { idUnidad: unit.id, from: null, to, ...extra },
  corporateId: unit.corporate_id,
  actorId: 'test',
  occurredAt: new Date(),
});

describeBackends('live stream', (backend) => {
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  /** A second server process on the same PostgreSQL database (none on PGlite). */
  let other: Runtime | undefined;
  let app: App;
  let cookie: string;
  let units: { id: string; corporate_id: string }[];

  /** The store of whoever writes "elsewhere": the other process on PostgreSQL, this one on PGlite. */
  const writer = () => (other ?? rt).deps.store;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    app = createApp(rt.deps);
    cookie = await login(app, 'asesor@vitrina.demo');
    const corp = (
      await rt.deps.db.query<{ id: string }>(
        "SELECT id FROM rm_corporates WHERE slug = 'grupo-horizonte'",
      )
    ).rows[0]!.id;
    units = (
      await rt.deps.db.query<{ id: string; corporate_id: string }>(
        'SELECT id, corporate_id FROM rm_units WHERE corporate_id = $1 ORDER BY id',
        [corp],
      )
    ).rows;
    if (backend.name === 'postgres') other = await openRuntime({ databaseUrl: rt.databaseUrl });
  }, 120_000);

  afterAll(async () => {
    await other?.close();
    await rt?.dispose();
  });

  it('an append of 500 events and one with a 20 KB event reach a stream of another process with their data', async () => {
    const sse = await SseClient.open(app, '/api/stream', { cookie });
    await sse.until((m) => m.some((x) => x.event === 'ready'));
    const heard: StoredEvent[] = [];
    const off = rt.deps.live.subscribe((e) => heard.push(e));
    try {
      const batch = units.slice(0, 250);
      await writer().appendMany(
        batch.map((u) => ({
          streamId: `unit:${u.corporate_id}:${u.id}`,
          expectedVersion: 'any' as const,
          events: [statusChange(u, 'Bloqueado'), statusChange(u, 'Disponible')],
        })),
      );
      const big = units[260]!;
      const nota = 'x'.repeat(20_000);
      await writer().append(`unit:${big.corporate_id}:${big.id}`, 'any', [
        statusChange(big, 'Bloqueado', { nota }),
      ]);
      await sse.until((m) => m.filter((x) => x.event === 'change').length >= 501);
      const changes = sse.changes();
      expect(changes).toHaveLength(501);
      expect(changes.slice(0, 500).map((c) => `${String(c.idUnidad)}:${String(c.status)}`)).toEqual(
        batch.flatMap((u) => [`${u.id}:Bloqueado`, `${u.id}:Disponible`]),
      );
      expect(changes[500]).toMatchObject({ idUnidad: big.id, status: 'Bloqueado' });
      const bigEvent = heard.find((e) => (e.data as { idUnidad?: string }).idUnidad === big.id);
      expect((bigEvent?.data as { nota?: string }).nota).toBe(nota);
      expect(heard).toHaveLength(501);
    } finally {
      off();
      await sse.close();
    }
  });

  it('caps open streams: 10 per user and 50 anonymous per address, answering 429 in the spec shape', async () => {
    const mine: SseClient[] = [];
    const anonymous: SseClient[] = [];
    const pub = '/api/public/corporativos/grupo-horizonte/desarrollos/torre-alameda/stream';
    try {
      for (let i = 0; i < 10; i++) mine.push(await SseClient.open(app, '/api/stream', { cookie }));
      const refused = await app.request('/api/stream', { headers: { cookie } });
      expect(refused.status).toBe(429);
      expect(await refused.json()).toEqual([
        {
          errorCode: 'TOO_MANY_STREAMS',
          message:
            'Hay demasiadas conexiones en vivo abiertas (máximo 10). Cierra alguna pestaña e inténtalo de nuevo',
        },
      ]);
      const en = await app.request('/api/stream', {
        headers: { cookie, 'accept-language': 'en' },
      });
      expect(((await en.json()) as { message: string }[])[0]!.message).toBe(
        'Too many live connections are open (at most 10). Close a tab and try again',
      );
      // Another user is not affected.
      const other = await app.request('/api/stream', {
        headers: { cookie: await login(app, 'gerente@vitrina.demo') },
      });
      expect(other.status).toBe(200);
      await other.body!.cancel();

      for (let i = 0; i < 50; i++) anonymous.push(await SseClient.open(app, pub));
      const anon = await app.request(pub);
      expect(anon.status).toBe(429);
      expect(((await anon.json()) as { errorCode: string }[])[0]!.errorCode).toBe(
        'TOO_MANY_STREAMS',
      );

      // A closed stream gives its place back.
      await mine.pop()!.close();
      await anonymous.pop()!.close();
      await vi.waitFor(
        async () => {
          const again = await app.request('/api/stream', { headers: { cookie } });
          expect(again.status).toBe(200);
          mine.push(new SseClient(again.body!.getReader()));
        },
        { timeout: 5_000, interval: 100 },
      );
      await vi.waitFor(
        async () => {
          const again = await app.request(pub);
          expect(again.status).toBe(200);
          anonymous.push(new SseClient(again.body!.getReader()));
        },
        { timeout: 5_000, interval: 100 },
      );
    } finally {
      await Promise.all([...mine, ...anonymous].map((s) => s.close()));
    }
  });

  it('GET /api/health reports the store and the listener', async () => {
    const res = await app.request('/api/health');
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      status: 'ok',
      store: { kind: backend.name, reachable: true },
      listener: { state: backend.name === 'postgres' ? 'connected' : 'not-applicable' },
    });
    expect(Array.isArray(body.consumers)).toBe(true);
    expect(typeof body.timers).toBe('object');
  });

  if (backend.name === 'postgres') {
    it('after pg_terminate_backend of its listener, a process delivers all 55 following changes, its own included, and tells its streams to resync', async () => {
      const admin = new pg.Client({ connectionString: rt.databaseUrl });
      await admin.connect();
      const warn = vi.spyOn(console, 'warn');
      const sse = await SseClient.open(app, '/api/stream', { cookie });
      try {
        await sse.until((m) => m.some((x) => x.event === 'ready'));
        // This process's listener, one of the two (the other process has its own).
        const pid = rt.deps.live.status().listenerPid;
        const listeners = await admin.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = 'vitrina-listener'`,
        );
        expect(listeners.rows.map((r) => r.pid).sort()).toContain(pid);
        expect(listeners.rows).toHaveLength(2);
        const terminated = await admin.query<{ ok: boolean }>(
          'SELECT pg_terminate_backend($1) AS ok',
          [pid],
        );
        expect(terminated.rows[0]!.ok).toBe(true);

        const targets = units.slice(300, 355);
        // 25 of this process's own changes straight away, while its listener is down.
        for (const u of targets.slice(0, 25)) {
          await rt.deps.store.append(`unit:${u.corporate_id}:${u.id}`, 'any', [
            statusChange(u, 'Bloqueado'),
          ]);
        }
        // It reconnects by itself, says so, and the stream is told to read everything again.
        await vi.waitFor(() => expect(rt.deps.live.status().listener).toBe('connected'), {
          timeout: 15_000,
          interval: 50,
        });
        expect(rt.deps.live.status().reconnects).toBe(1);
        expect(warn.mock.calls.flat().join(' ')).toMatch(/the LISTEN connection was lost/);
        // 30 changes of the other process after the reconnection.
        for (const u of targets.slice(25)) {
          await other!.deps.store.append(`unit:${u.corporate_id}:${u.id}`, 'any', [
            statusChange(u, 'Bloqueado'),
          ]);
        }
        await sse.until(
          (m) =>
            m.filter((x) => x.event === 'change').length >= 55 &&
            m.some((x) => x.event === 'ready' && x.data.includes('"resync":true')),
        );
        expect(sse.changes().map((c) => c.idUnidad)).toEqual(targets.map((u) => u.id));
        expect(
          sse.messages.filter((x) => x.event === 'ready').map((x) => JSON.parse(x.data)),
        ).toEqual([{ userId: expect.any(String) }, { userId: expect.any(String), resync: true }]);
        const health = (await (await app.request('/api/health')).json()) as {
          listener: { state: string; reconnects: number };
        };
        expect(health.listener).toMatchObject({ state: 'connected', reconnects: 1 });
      } finally {
        warn.mockRestore();
        await sse.close();
        await admin.end();
      }
    });

    it('reports a listener that cannot reconnect as reconnecting (degraded) while the store answers', async () => {
      const feedDb = rt.deps.db;
      const admin = new pg.Client({ connectionString: rt.databaseUrl });
      await admin.connect();
      // Its reconnections fail for a moment (as while PostgreSQL refuses connections).
      const listen = feedDb.listen!.bind(feedDb);
      let refuse = true;
      feedDb.listen = async (channel, handlers) => {
        if (refuse) throw new Error('refused by the test');
        return listen(channel, handlers);
      };
      try {
        await admin.query('SELECT pg_terminate_backend($1)', [rt.deps.live.status().listenerPid]);
        await vi.waitFor(() => expect(rt.deps.live.status().listener).toBe('reconnecting'), {
          timeout: 5_000,
          interval: 20,
        });
        const res = await app.request('/api/health');
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          status: 'degraded',
          store: { reachable: true },
          listener: { state: 'reconnecting' },
        });
        refuse = false;
        await vi.waitFor(() => expect(rt.deps.live.status().listener).toBe('connected'), {
          timeout: 15_000,
          interval: 50,
        });
      } finally {
        refuse = false;
        feedDb.listen = listen;
        await admin.end();
      }
    });
  }
});
