// The server compiled at build (issue 21, start and memory): one ES module bundle of
// src/server/main.ts, so `npm start` runs plain JavaScript and loads no TypeScript compiler. The
// pure JavaScript packages are bundled in too: resolving and reading the hundreds of files of
// date-fns, zod, hono and the rest from node_modules cost more at start than compiling them as one
// file (about 0.8 s of CPU down to 0.45 s, measured with --cpu-prof on PostgreSQL). Left outside,
// imported from node_modules: what ships native or WebAssembly parts (PGlite, argon2), or is
// optional (pg-native). PGlite is imported only when the embedded store opens (store/db.ts), so a
// server on PostgreSQL never loads it. What the code reads beside itself at run time travels with
// the bundle: the migrations (store/migrate.ts) and the demo seed's assets (seed/demo.ts), both
// resolved from the bundle's own URL.
import { cpSync, rmSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Packages left as imports from node_modules (native or WebAssembly parts, optional ones). */
export const SERVER_EXTERNAL = ['@electric-sql/pglite', '@node-rs/argon2', 'pg-native'];

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
    external: SERVER_EXTERNAL,
    // Bundled CommonJS packages call require(): give the module one.
    banner: {
      js: "import { createRequire as __vitrinaRequire } from 'node:module'; const require = __vitrinaRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    // File and line in stack traces need no source text: the map stays small in memory.
    sourcesContent: false,
    logLevel: 'warning',
  });
  cpSync('src/server/store/migrations', `${outDir}/migrations`, { recursive: true });
  cpSync('src/server/seed/assets', `${outDir}/assets`, { recursive: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildServer();
