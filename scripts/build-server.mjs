// The server compiled at build (issue 21, start and memory): one ES module bundle of
// src/server/main.ts with its packages left as imports from node_modules, so `npm start` runs
// plain JavaScript and loads no TypeScript compiler. What the code reads beside itself at run
// time travels with it: the migrations (store/migrate.ts) and the demo seed's assets
// (seed/demo.ts), both resolved from the bundle's own URL.
import { cpSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const SERVER_OUT_DIR = 'build/server';

/** Builds into `outDir` (inside the repository, so the bundle's imports find node_modules). */
export async function buildServer(outDir = SERVER_OUT_DIR) {
  rmSync(outDir, { recursive: true, force: true });
  await build({
    entryPoints: ['src/server/main.ts'],
    outfile: `${outDir}/main.js`,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  cpSync('src/server/store/migrations', `${outDir}/migrations`, { recursive: true });
  cpSync('src/server/seed/assets', `${outDir}/assets`, { recursive: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
