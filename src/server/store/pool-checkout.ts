import type pg from 'pg';

/**
 * Takes a client from `pool` with `onError` already listening. A checked-out client whose
 * connection drops emits 'error', and unheard that takes the process down. pg-pool stops its own
 * listener as it hands the client over, and `await pool.connect()` would run the caller a
 * microtask later: a FATAL read in the same chunk as a new connection's ReadyForQuery (a backend
 * terminated as it connected) is emitted in between, with nobody listening.
 */
export function checkout(pool: pg.Pool, onError: (error: Error) => void): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    pool.connect((error, client) => {
      if (error || !client) {
        reject(error instanceof Error ? error : new Error('the pool gave no client'));
        return;
      }
      client.on('error', onError);
      resolve(client);
    });
  });
}
