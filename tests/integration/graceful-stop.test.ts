/**
 * A server told to stop (SIGTERM) while clients write: an outside probe found requests in flight
 * answered 500 ("Cannot use a pool after calling end on the pool") and a committed note whose
 * client got no answer, because the store closed at once (src/server/main.ts). Now the listening
 * socket closes, live streams end (their clients connect again), the requests in flight finish
 * with their real answers, and only then does the store close and the process exit 0.
 * PostgreSQL only: the server process and the test share the database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBackends, openSeeded, type Backend } from './support/backends';
import { adviserWithNewLead } from './support/http';
import {
  remoteApp,
  startServerProcess,
  stopServerProcess,
  type ServerProcess,
} from './support/server-process';

describeBackends('a graceful stop', (backend: Backend) => {
  if (backend.name !== 'postgres') {
    it('runs against PostgreSQL (the test reads the database the server process wrote)', () => {
      expect(backend.name).toBe('pglite');
    });
    return;
  }
  let rt: Awaited<ReturnType<typeof openSeeded>>;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    rt = await openSeeded(backend);
    server = await startServerProcess(rt.databaseUrl!);
  }, 120_000);
  afterAll(async () => {
    await stopServerProcess(server);
    await rt?.dispose();
  });

  it('SIGTERM during 20 clients’ writes: no 500, every saved note was answered 201, the live stream ends, exit 0', async () => {
    const app = remoteApp(server!);
    const { cookie, leadsUrl, lead } = await adviserWithNewLead(app, 'Parada');

    // A live stream, open until the server ends it.
    const live = await server!.fetch('/api/stream', { headers: { cookie } });
    expect(live.status).toBe(200);
    const reader = live.body!.getReader();
    const liveEnded = (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return Date.now();
    })();

    const exited = new Promise<number | null>((r) => server!.child.once('exit', (code) => r(code)));
    let gone = false;
    void exited.then(() => (gone = true));
    const answered = new Map<string, number>();
    const failures: string[] = [];
    const writer = async (i: number) => {
      for (let n = 0; !gone; n++) {
        const nota = `nota ${i}-${n}`;
        try {
          const res = await server!.fetch(`${leadsUrl}/${lead.id}/notas`, {
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: JSON.stringify({ nota }),
          });
          await res.text();
          answered.set(nota, res.status);
        } catch (error) {
          // Refused or cut before an answer: the server must not have saved it (checked below).
          failures.push(String((error as { cause?: { code?: string } }).cause?.code ?? error));
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    };
    const writers = Array.from({ length: 20 }, (_, i) => writer(i));
    await new Promise((r) => setTimeout(r, 1_500));
    const stoppedAt = Date.now();
    server!.child.kill('SIGTERM');
    const code = await exited;
    await Promise.all(writers);

    expect(code).toBe(0);
    // Well within the grace period: nothing in flight takes long.
    expect(Date.now() - stoppedAt).toBeLessThan(9_000);
    expect(await liveEnded).toBeLessThan(Date.now() + 1);
    const statuses = [...answered.values()];
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThan(10);
    expect(statuses.filter((s) => s !== 201)).toEqual([]);
    expect(server!.output()).not.toMatch(/unhandled error/);
    // Every note the server saved was answered 201: none committed and left unanswered.
    const { rows } = await rt.deps.db.query<{ nota: string }>(
      "SELECT doc->>'nota' AS nota FROM rm_lead_notes WHERE lead_id = $1",
      [lead.id],
    );
    const unanswered = rows.map((r) => r.nota).filter((nota) => answered.get(nota) !== 201);
    expect(unanswered).toEqual([]);
  }, 60_000);
});
