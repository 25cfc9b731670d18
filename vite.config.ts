import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { fileURLToPath } from 'node:url';

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
