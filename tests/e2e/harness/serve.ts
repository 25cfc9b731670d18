/**
 * Starts a Vite dev server for the core-worker harness, on a free port, without the app's
 * config (no router plugin, no API proxy): the harness needs only the core and the worker.
 */

import { createServer as createNetServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import type { Plugin } from 'vite';
import { makeQuoteRows } from '../../fixtures/quote-rows';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Path of the harness page under the server root. */
export const HARNESS_PATH = '/tests/e2e/harness/core-worker.html';

/** The Chromium flags that work on this machine (see toolchain.md). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's Chromium. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Serves generated quotation rows as JSON, standing in for the server's report endpoint. */
export const QUOTE_ROWS_PATH = '/__harness/quote-rows.json';

function quoteRowsEndpoint(): Plugin {
  return {
    name: 'core-harness-quote-rows',
    configureServer(server) {
      server.middlewares.use(QUOTE_ROWS_PATH, (req, res) => {
        const query = new URL(req.url ?? '', 'http://harness').searchParams;
        const rows = makeQuoteRows(Number(query.get('n') ?? 1000), Number(query.get('seed') ?? 42));
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(rows));
      });
    },
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A running harness server: its page URL and a way to stop it. */
export interface HarnessServer {
  url: string;
  close: () => Promise<void>;
}

/** Starts the harness server. */
export async function startHarnessServer(): Promise<HarnessServer> {
  const port = await freePort();
  const server = await createServer({
    root,
    configFile: false,
    logLevel: 'error',
    clearScreen: false,
    // Its own dependency cache, so it never disturbs the app's dev server.
    cacheDir: 'node_modules/.vite-core-harness',
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false },
    optimizeDeps: {
      entries: ['tests/e2e/harness/core-worker.ts'],
      include: ['comlink', 'date-fns', '@date-fns/tz'],
    },
    worker: { format: 'es' },
    plugins: [quoteRowsEndpoint()],
  });
  await server.listen();
  return {
    url: `http://127.0.0.1:${port}${HARNESS_PATH}`,
    close: () => server.close(),
  };
}
