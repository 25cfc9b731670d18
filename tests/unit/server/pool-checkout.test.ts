/**
 * A backend terminated as its connection completes: the FATAL arrives in the same read as the
 * ReadyForQuery. The pool hands the new client over while that read is parsed, so whoever takes
 * it must already listen for 'error' (store/pool-checkout.ts); `await pool.connect()` listens a
 * microtask too late and the client's 'error' goes unheard, which takes the process down (the CI
 * failure of background-work.processes: a server exited with code 1 after the dropped connections).
 */
import { createServer, type Server, type Socket } from 'node:net';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { checkout } from '../../../src/server/store/pool-checkout';

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

const authOk = message('R', Buffer.from([0, 0, 0, 0]));
const ready = message('Z', Buffer.from('I', 'latin1'));
const terminated = message(
  'E',
  Buffer.from(
    'SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0',
    'latin1',
  ),
);

/** Answers a startup with AuthenticationOk, ReadyForQuery and a FATAL in one write, then closes. */
function terminatingServer(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer((socket: Socket) => {
      socket.once('data', () => {
        socket.end(Buffer.concat([authOk, ready, terminated]));
      });
      socket.on('error', () => undefined);
    });
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : 0 });
    });
  });
}

let open: { server: Server; pool: pg.Pool } | null = null;
afterEach(async () => {
  if (!open) return;
  await open.pool.end().catch(() => undefined);
  await new Promise((r) => open!.server.close(r));
  open = null;
});

describe('checkout', () => {
  it('hears the FATAL that came with the ReadyForQuery; nothing goes unheard', async () => {
    const { server, port } = await terminatingServer();
    const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'u', database: 'd', max: 1 });
    pool.on('error', () => undefined);
    open = { server, pool };
    const unheard: unknown[] = [];
    const onUncaught = (error: unknown) => unheard.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const heard: Error[] = [];
      const client = await checkout(pool, (error) => heard.push(error));
      await new Promise((r) => setTimeout(r, 50));
      expect(heard.map((e) => (e as Error & { code?: string }).code)).toContain('57P01');
      expect(unheard).toEqual([]);
      client.release(heard[0]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
