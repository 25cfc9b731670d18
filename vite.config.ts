import { build, defineConfig, type UserConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PWA_COLOURS } from './pwa-assets.config';

/**
 * Writes a `.br` (brotli, best quality) and a `.gz` (gzip, level 9) beside every script, style,
 * page, icon and manifest of the build over 1 KB, once the build (and the service worker, which
 * is written at the bundle's close) is done; the server sends them with their Content-Encoding
 * (src/server/http/static.ts), so nothing is compressed per request. A file that does not get
 * smaller is left alone.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  const compressible = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|ico|xml)$/;
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
    );
  return {
    name: 'vitrina-precompress',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
        for (const file of walk(outDir)) {
          if (!compressible.test(file) || statSync(file).size < 1024) continue;
          const raw = readFileSync(file);
          const br = brotliCompressSync(raw, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          });
          const gz = gzipSync(raw, { level: 9 });
          if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz);
        }
      },
    },
  };
}

/**
 * `npm run dev`: /login answers the sign-in page (login.html), as the server does for a build
 * (src/server/http/static.ts); Vite's fallback would answer the application's shell.
 */
function signInPage(): Plugin {
  return {
    name: 'vitrina-sign-in-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [path, query] = (req.url ?? '').split('?', 2);
        if (path === '/login') req.url = `/login.html${query === undefined ? '' : `?${query}`}`;
        next();
      });
    },
  };
}

/** Set while the sign-in page is built (its own build: see `signInBuild`). */
const SIGN_IN_BUILD = 'VITRINA_SIGN_IN_BUILD';

/**
 * The sign-in page (login.html → src/ui/entries/sign-in.tsx, served for /login) is built on its
 * own, into the application's output directory, once the application's bundle is written. Not a
 * second input of the application's build: tree-shaking is per build, and a chunk shared with the
 * application would carry every export the application uses of the modules both import
 * (i18next's React binding, Panda's runtime, the navigation rules): /login's JavaScript was
 * 99.2 KB gzip that way, 96.2 KB alone (issue 21: the budget is 1.5 × 66.1 KB, 99.2 KB).
 */
function signInBuild(): Plugin {
  let outDir = 'dist';
  let mode = 'production';
  return {
    name: 'vitrina-sign-in-build',
    apply: (_, env) => env.command === 'build' && !process.env[SIGN_IN_BUILD],
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
      mode = config.mode;
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        process.env[SIGN_IN_BUILD] = '1';
        try {
          await build({
            configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)),
            mode,
            logLevel: 'warn',
            build: { outDir, emptyOutDir: false },
            plugins: [installableHead(join(outDir, 'index.html'))],
          });
        } finally {
          delete process.env[SIGN_IN_BUILD];
        }
      },
    },
  };
}

/**
 * The installable app's tags that vite-plugin-pwa wrote into the application's index.html (the
 * manifest, the theme colour, the icons), copied into the sign-in page's head: the same app.
 */
function installableHead(indexHtml: string): Plugin {
  const tags =
    /<link rel="(?:manifest|icon|apple-touch-icon)"[^>]*>|<meta name="theme-color"[^>]*>/g;
  return {
    name: 'vitrina-sign-in-installable-head',
    transformIndexHtml: (html) =>
      html.replace(
        '</head>',
        `${(readFileSync(indexHtml, 'utf8').match(tags) ?? []).join('')}</head>`,
      ),
  };
}

/** Panda's generated `styled-system/` (tsconfig paths has the same mapping for the type checker). */
const alias = { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) };

/** The sign-in page's build: React, i18next with its texts, the form (see `signInBuild`). */
const signInConfig: UserConfig = {
  root: '.',
  plugins: [react()],
  resolve: { alias },
  build: {
    sourcemap: false,
    // The application's build wrote the public files, the worker and the manifest already.
    copyPublicDir: false,
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { login: fileURLToPath(new URL('./login.html', import.meta.url)) },
    },
  },
};

const apiTarget = process.env.VITRINA_API ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

const appConfig: UserConfig = {
  root: '.',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      // Loaders and pending screens too (the plugin keeps them in the main chunk by default):
      // a route's data code and its imports load with the route, not with /login.
      codeSplittingOptions: {
        // The /login route only leaves for the sign-in page (login.html): whole in the main chunk.
        splitBehavior: ({ routeId }) => (routeId === '/login' ? [] : undefined),
        defaultBehavior: [
          ['loader'],
          ['component'],
          ['pendingComponent'],
          ['errorComponent'],
          ['notFoundComponent'],
        ],
      },
      routesDirectory: './src/ui/routes',
      generatedRouteTree: './src/ui/routeTree.gen.ts',
    }),
    react(),
    // The installable app (issue 15): our own service worker (src/ui/sw.ts: push, notification
    // clicks, precached shell) compiled to /sw.js with the build's precache list injected; the
    // manifest; icons generated from public/icon.svg (pwa-assets.config.ts). The page registers
    // the worker itself (src/ui/lib/service-worker.ts) and asks before updating.
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/ui',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        id: '/',
        name: 'Vitrina',
        short_name: 'Vitrina',
        description:
          'Inventario, cotizaciones y clientes de tus desarrollos · Inventory, quotations and clients of your developments',
        lang: 'es',
        dir: 'ltr',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: PWA_COLOURS.theme,
        background_color: PWA_COLOURS.background,
        categories: ['business', 'productivity'],
      },
      pwaAssets: { config: true, overrideManifestIcons: true },
      injectManifest: {
        // The shell, every route and translation chunk, styles and icons. Nothing from /api:
        // those answers are personal data (the worker has no runtime caching at all).
        globPatterns: ['**/*.{js,css,html,svg,png,ico,woff2}'],
      },
      // `npm run dev` registers the same worker (as a module) for push; it precaches nothing there.
      devOptions: { enabled: true, type: 'module' },
    }),
    // Before `precompress`, whose pass then covers the sign-in page's files too.
    signInBuild(),
    precompress(),
    signInPage(),
  ],
  // Panda's generated `styled-system/` (tsconfig paths has the same mapping for the type checker).
  resolve: { alias },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // .vite/manifest.json: the server names a public page's chunks in its HTML (page-preloads.ts).
    manifest: true,
    // Route chunks are preloaded by the router on intent; no polyfill (every supported browser
    // has modulepreload).
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        // What every page runs before its first paint (React, the router, i18next, the session
        // machine, the query client, Panda's runtime) in one chunk rather than thirty: one
        // request instead of a waterfall of small ones on a slow phone (issue 19). Then the
        // small modules (under 6 KB) that two or more routes share, in one chunk too: the public
        // availability loaded 44 chunks of 1-3 KB besides the main one, each a request, a
        // preload and a compile of its own (now 10; Lighthouse mobile 3-6 points better on every
        // public page, docs/architecture.md "Load budget and Lighthouse").
        codeSplitting: {
          groups: [
            // React, React DOM and the scheduler, started in their own chunk: React DOM's
            // sentinel errors, created as it starts, then hold this chunk's stack and not the
            // application chunk's, which DevTools (Lighthouse) made V8 re-read whole
            // (src/ui/lib/react-root.ts; docs/architecture.md "What DevTools adds").
            {
              name: 'react-dom',
              test: /node_modules[\\/](react-dom|scheduler)[\\/]|src[\\/]ui[\\/]lib[\\/]react-root/,
              priority: 3,
            },
            { name: 'app', tags: ['$initial'], priority: 2 },
            // A language's feature texts in one chunk: a signed-in page loads every namespace at
            // once, and 13 small chunks were 13 turns of the browser's 6 connections (issue 21).
            // The shell's namespaces stay where they are (Spanish's in the main chunk, English's
            // beside the sign-in page's), and so do the two a public page loads alone
            // (inventory, quotes): a buyer's page does not load the adviser's texts.
            {
              name: (id) => `texts-${/locales[\\/](es|en)[\\/]/.exec(id)?.[1] ?? 'other'}`,
              test: /src[\\/]ui[\\/]i18n[\\/]locales[\\/](es|en)[\\/](?!(common|errors|shell|inventory|quotes)\.json)[^\\/]+\.json$/,
              priority: 2,
            },
            { name: 'shared', minShareCount: 2, maxModuleSize: 6_000, priority: 1 },
          ],
        },
      },
    },
  },
};

export default defineConfig(process.env[SIGN_IN_BUILD] ? signInConfig : appConfig);
