import { createHash } from 'node:crypto';

/** How a failing handler is retried: exponential backoff from `baseDelayMs`, capped, then given up. */
export interface RetryPolicy {
  /** Attempts in all (the first one included) before the work is parked / dead-lettered. */
  maxAttempts: number;
  /** Delay after the first failure; doubled after each further one. */
  baseDelayMs: number;
  /** The cap of the doubling. */
  maxDelayMs: number;
}

/** The delay before attempt `failedAttempts + 1`: base · 2^(failedAttempts − 1), capped. */
export function backoffDelay(policy: RetryPolicy, failedAttempts: number): number {
  const exponent = Math.max(0, failedAttempts - 1);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.min(exponent, 30));
}

export function withPolicy(base: RetryPolicy, override?: Partial<RetryPolicy>): RetryPolicy {
  return { ...base, ...override };
}

/** An error's text for a `last_error` column (bounded: a stack or a huge message must not bloat rows). */
export function errorText(error: unknown): string {
  const text =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : typeof error === 'string'
        ? error
        : (JSON.stringify(error) ?? 'unknown error');
  return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
}

/**
 * A UUID derived from its parts (SHA-256, shaped as an RFC 9562 version-8 UUID): the same parts
 * give the same id on every run, so an effect keyed by it is written once however often it is
 * retried (an event appended with it is stored once; an outbox message with it is queued once).
 */
export function deterministicId(...parts: readonly string[]): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A loop's pause: `wait(ms)` ends after `ms` or at the next `wake()` (new work may be there);
 * `sleep(ms)` ends only after `ms` or at `stop()` (a backoff that new appends must not cut short).
 */
export class Waker {
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private stopped = false;
  private readonly sleepers = new Set<() => void>();

  wake(): void {
    if (this.wakeUp) {
      const resolve = this.wakeUp;
      this.wakeUp = null;
      resolve();
    } else {
      this.woken = true;
    }
  }

  wait(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  sleep(ms: number): Promise<void> {
    if (this.stopped || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.sleepers.add(done);
    });
  }

  /** After stop(): pauses pause again (a loop started anew). */
  resume(): void {
    this.stopped = false;
    this.woken = false;
  }

  stop(): void {
    this.stopped = true;
    this.wake();
    for (const done of [...this.sleepers]) done();
  }
}

/** Something a background loop logs; defaults to console.error with a prefix. */
export type WorkLogger = (message: string, error?: unknown) => void;

export const defaultLogger: WorkLogger = (message, error) => {
  console.error(`[background] ${message}${error === undefined ? '' : `: ${errorText(error)}`}`);
};

/** What one pass of a worker did: rows claimed, completed (timer done / message sent), failed. */
export interface PassResult {
  claimed: number;
  done: number;
  failed: number;
}

/** Runs a TimerWorker or OutboxDispatcher pass in a loop: again at once while there is more. */
export class PassLoop {
  private readonly waker = new Waker();
  private loop: Promise<void> | null = null;
  private stopping = false;
  private lastPass = 0;
  lastError: string | null = null;

  constructor(
    private readonly name: string,
    /** One pass; true when more work may be waiting right now (a full batch, a failure). */
    private readonly pass: () => Promise<boolean>,
    private readonly pollMs: number,
    private readonly log: WorkLogger,
    /** The least time between a wake-up's pass and the pass before it (coalesces wake-ups). */
    private readonly coalesceMs = 0,
  ) {}

  start(): void {
    if (this.loop) return;
    this.stopping = false;
    this.waker.resume();
    this.loop = this.run();
  }

  wake(): void {
    this.waker.wake();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.waker.stop();
    await this.loop;
    this.loop = null;
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      try {
        this.lastPass = Date.now();
        const more = await this.pass();
        this.lastError = null;
        if (more) continue;
        await this.waker.wait(this.pollMs);
        const since = Date.now() - this.lastPass;
        if (since < this.coalesceMs) await this.waker.sleep(this.coalesceMs - since);
      } catch (error) {
        if (this.stopping) break;
        this.lastError = errorText(error);
        this.log(this.name, error);
        await this.waker.sleep(Math.min(5_000, this.pollMs * 4));
      }
    }
  }
}

/**
 * Whether an error is the database's or the connection's, not the handler's: a dropped or
 * refused connection, a server shutting down, a deadlock or serialization failure. Such a failure
 * is retried without counting as an attempt, so a database restart parks nothing.
 */
export function isTransientDbError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (/^08/.test(code)) return true; // connection exception
    if (['57P01', '57P02', '57P03', '40001', '40P01', '53300'].includes(code)) return true;
    if (['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  }
  return /Connection terminated|connection error|terminating connection|timeout exceeded when trying to connect|Client was closed|Transaction is closed/i.test(
    error.message,
  );
}
