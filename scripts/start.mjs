// `npm start`: build the client and the server when missing or older than their sources, then
// serve everything from the compiled server (no TypeScript compiler at start).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_OUT_DIR, buildServer } from './build-server.mjs';

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path));
    else latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const sources = Math.max(
  newest('src/ui'),
  newest('src/workers'),
  newest('src/core'),
  // The icon source, the manifest and the service worker's settings are built in too.
  newest('public'),
  ...['index.html', 'vite.config.ts', 'pwa-assets.config.ts'].map((f) => statSync(f).mtimeMs),
);
if (built < sources) {
  console.log('Building the client…');
  const r = spawnSync('npm', ['run', '-s', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
const serverEntry = join(SERVER_OUT_DIR, 'main.js');
const serverBuilt = existsSync(serverEntry) ? statSync(serverEntry).mtimeMs : 0;
const serverSources = Math.max(newest('src/server'), newest('src/core'));
if (serverBuilt < serverSources) {
  console.log('Building the server…');
  await buildServer();
}
const child = spawn(process.execPath, ['--enable-source-maps', serverEntry], {
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
