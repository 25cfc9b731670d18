import type { Server as HttpServer, IncomingMessage, ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { RequestGauge } from './http/in-flight';
import { mountClient } from './http/static';
import { publicPageShell } from './public/first-paint';
import { openRuntime, seedDemoIfEmpty } from './runtime';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from './seed/demo';
import { DataDirectoryInUseError } from './store/lock';
import { testClockFromEnv, testClockRoutes } from './test-clock';
import { testProbeRoutes } from './test-probes';
import { testChatRoutes } from './chat/test-routes';
import { DEFAULT_HOST, displayUrl, listenHost } from './listen';
import { devMailRoutes } from './mail/dev.routes';
import type { Mailbox } from './mail/transport';

const port = Number(process.env.PORT ?? 3000);
/** How long an idle keep-alive connection stays open (see below where it is set). */
const KEEP_ALIVE_MS = 65_000;
// Loopback unless HOST says otherwise (listen.ts): a tablet on the LAN needs HOST=0.0.0.0.
const host = listenHost(process.env.HOST);
const dataDir = resolve(process.env.VITRINA_DATA_DIR ?? './data');
const databaseUrl = process.env.DATABASE_URL;
const distDir = resolve(process.env.VITRINA_DIST_DIR ?? './dist');

/**
 * On the embedded store, the background work's first passes after a start (every consumer's
 * catch-up, the timers', housekeeping) run their statements on this thread, PGlite's first ones
 * on cold caches: started at once they held the first requests up by 100-200 ms. They start once
 * no request has been answered for BACKGROUND_QUIET_MS, and BACKGROUND_LATEST_MS after listening
 * at the latest, however busy. On PostgreSQL they start at once: its statements run in its own
 * processes.
 */
const BACKGROUND_QUIET_MS = 100;
const BACKGROUND_LATEST_MS = 1_000;
/** How long a stop waits for the requests in flight before it cuts their connections. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main() {
  // Only the end-to-end server sets VITRINA_TEST_CLOCK: a clock its tests may move forward.
  const testClock = testClockFromEnv();
  let runtime;
  try {
    runtime = await openRuntime({
      databaseUrl,
      dataDir,
      // Uploaded media (catalogue/uploads.ts); with PostgreSQL and several processes, a directory
      // they all share (VITRINA_MEDIA_DIR).
      mediaDir: resolve(process.env.VITRINA_MEDIA_DIR ?? join(dataDir, 'media')),
      ...(testClock ? { clock: testClock.clock } : {}),
      // Without SMTP_URL, mail is kept in the data directory (mail/dev.routes.ts lists it);
      // links go to PUBLIC_BASE_URL, else to this server's own address.
      mail: {
        dir: join(dataDir, 'mail'),
        publicBaseUrl: process.env.PUBLIC_BASE_URL?.trim() || displayUrl(host, port),
      },
    });
  } catch (error) {
    if (error instanceof DataDirectoryInUseError) {
      console.error(`\n✖ ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const seeded = await seedDemoIfEmpty(runtime.deps.store, () =>
    console.log('Seeding the demo tenant…'),
  );
  // The same deps object the app and the test routes hold (a copy would not see a test route's
  // change, such as the chat webhook's address).
  const requests = new RequestGauge();
  runtime.deps.requests = requests;
  const app = createApp(runtime.deps);
  if (testClock) {
    app.route('/', testClockRoutes(testClock, runtime.deps.work));
    // Background work that fails on demand (the operations page's e2e test).
    app.route('/', testProbeRoutes(runtime.deps));
    // The chat webhook pointed at a test's fake (tests/e2e/chat.spec.ts).
    app.route('/', testChatRoutes(runtime.deps));
  }
  const mailbox = runtime.deps.mail?.transport;
  const devMail =
    mailbox?.kind === 'file' && process.env.NODE_ENV !== 'production' ? (mailbox as Mailbox) : null;
  if (devMail) app.route('/', devMailRoutes(devMail));

  mountClient(app, distDir, publicPageShell);

  const server = serve({ fetch: app.fetch, port, hostname: host }, (info) => {
    console.log(`\nVitrina is running at ${displayUrl(host, info.port)}`);
    if (host === DEFAULT_HOST) {
      console.log('  (this machine only: HOST=0.0.0.0 serves the network, e.g. a showroom tablet)');
    }
    console.log(
      `  store: ${databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${dataDir}`}${seeded ? ' — demo tenant seeded' : ''}`,
    );
    console.log(`  demo accounts (password ${DEMO_PASSWORD}):`);
    for (const a of DEMO_ACCOUNTS) console.log(`    ${a.email.padEnd(30)} ${a.description}`);
    if (devMail)
      console.log(
        `  mail: no SMTP_URL, so mails are kept in ${join(dataDir, 'mail')} and listed at ${displayUrl(host, info.port)}/dev/correos`,
      );
    console.log('');
    // Started once listening (runtime.ts): it used to run before, and on PGlite its first passes
    // held up the start's own reads. A failure still stops the server, as it did then.
    const quiet =
      runtime.deps.db.kind === 'pglite'
        ? requests.whenQuiet(BACKGROUND_QUIET_MS, BACKGROUND_LATEST_MS)
        : Promise.resolve();
    void quiet
      .then(() => (closing ? undefined : runtime.startBackgroundWork()))
      .catch((error: unknown) => {
        console.error('Vitrina failed to start:', error instanceof Error ? error.message : error);
        process.exit(1);
      });
  });

  // Idle keep-alive connections stay open 65 s (Node's default is 5 s): longer than the idle
  // timeout of the clients and proxies in front (browsers, load balancers: 60 s), so the server is
  // never the one to close a socket a client is just reusing — that race answered a request with
  // ECONNRESET (a CI run's API call). Headers may take as long.
  if ('keepAliveTimeout' in server) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  }

  // A stop (SIGTERM, SIGINT) lets the requests in flight finish with their real answers before
  // the store closes: closing it first answered them 500 ("cannot use a pool after calling end")
  // or left a committed write unanswered (found by an outside probe). The listening socket closes
  // at once; live streams are asked to end (their clients connect again); idle keep-alive
  // connections are closed as they become idle; after SHUTDOWN_GRACE_MS whatever is left is cut.
  let closing = false;
  // Answers still to be written: told to close their connection once the stop begins, so no
  // client sends another request on a socket the server is about to close (that request would
  // be cut unanswered). A request that arrives during the stop is answered the same way.
  const unanswered = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) {
      res.setHeader('Connection', 'close');
      return;
    }
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });
  const shutdown = () => {
    if (closing) return;
    closing = true;
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    const http = server as Partial<
      Pick<HttpServer, 'closeIdleConnections' | 'closeAllConnections'>
    >;
    const idle = setInterval(() => http.closeIdleConnections?.(), 100);
    const grace = setTimeout(() => http.closeAllConnections?.(), SHUTDOWN_GRACE_MS);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(grace);
      void runtime.close().finally(() => process.exit(0));
    });
    runtime.deps.live.endStreams();
    http.closeIdleConnections?.();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error('Vitrina failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
