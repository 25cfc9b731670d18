/** Helpers for tests that drive machines and promises by hand. */

/** A promise the test settles by hand, so the test (or its simulated clock) decides what happens first. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending promise callbacks run (one macrotask). */
export const flush = () => new Promise<void>((r) => setTimeout(r, 0));
