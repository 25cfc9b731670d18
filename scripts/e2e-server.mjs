// The server the end-to-end tests drive: the built client, a fresh embedded store, the demo tenant.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';

const dataDir = process.env.VITRINA_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'vitrina-e2e-'));
const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    VITRINA_DATA_DIR: dataDir,
    PORT: process.env.PORT ?? '4173',
    HOST: '127.0.0.1',
    // Mailed links (invitations, recovery) on the address the tests open.
    PUBLIC_BASE_URL: `http://127.0.0.1:${process.env.PORT ?? '4173'}`,
    // POST /__test__/clock moves the server's clock (a hold's expiry, tests/e2e/holds.spec.ts).
    VITRINA_TEST_CLOCK: '1',
  },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
