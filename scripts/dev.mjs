// `npm run dev`: the API server (restarted on change by tsx watch) and Vite with hot reload in front of it.
import { spawn } from 'node:child_process';

const port = process.env.PORT ?? '3000';
const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: port, VITRINA_DIST_DIR: '/nonexistent' },
  }),
  spawn('npx', ['vite', '--host'], {
    stdio: 'inherit',
    env: { ...process.env, VITRINA_API: `http://127.0.0.1:${port}` },
  }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const c of children)
  c.on('exit', (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
