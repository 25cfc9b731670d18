import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { fileURLToPath } from 'node:url';
import { VitePWA } from 'vite-plugin-pwa';
import { PWA_COLOURS } from './pwa-assets.config';

const apiTarget = process.env.VITRINA_API ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}`;

export default defineConfig({
  root: '.',
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
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
  ],
  // Panda's generated `styled-system/` (tsconfig paths has the same mapping for the type checker).
  resolve: {
    alias: { 'styled-system': fileURLToPath(new URL('./styled-system', import.meta.url)) },
  },
  server: {
    port: 5173,
    proxy: { '/api': { target: apiTarget, changeOrigin: false } },
  },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 800,
    // Route chunks are preloaded by the router on intent; Vite's preload helper and polyfill
    // would only add weight to the login page (budget: 150 KB of JavaScript, gzip).
    modulePreload: false,
  },
});
