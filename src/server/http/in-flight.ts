/**
 * How many requests an app is answering at this moment: a request counts from its first
 * middleware until its handler has returned its response (a streamed body, such as the weekly
 * report's, no longer counts once it streams). The embedded store's report reads ask it whether
 * to leave the one connection free between two pages (quotations/report-stream.ts), and the
 * server on the embedded store waits for a quiet moment before its background work's first
 * passes (main.ts).
 */
export class RequestGauge {
  private answering = 0;
  /** When the last request ended (or the gauge was made), by `now`. */
  private quietSince: number;

  /** `now`: a monotonic clock in milliseconds (tests pass their own). */
  constructor(private readonly now: () => number = () => performance.now()) {
    this.quietSince = now();
  }

  /** Some request other than a streamed body is being answered now. */
  busy(): boolean {
    return this.answering > 0;
  }

  /** Runs a request's handling, counted while it runs. */
  async during(handle: () => Promise<void>): Promise<void> {
    this.answering++;
    try {
      await handle();
    } finally {
      this.answering--;
      if (this.answering === 0) this.quietSince = this.now();
    }
  }

  /**
   * Resolves once no request has been answered for `quietMs` (counted from now at the earliest,
   * so a quiet start still waits that long), and after `latestMs` at the latest, however busy.
   */
  whenQuiet(quietMs: number, latestMs: number): Promise<void> {
    const asked = this.now();
    return new Promise((resolve) => {
      const check = () => {
        const now = this.now();
        const quietFor = now - Math.max(this.quietSince, asked);
        if ((!this.busy() && quietFor >= quietMs) || now - asked >= latestMs) {
          resolve();
          return;
        }
        const wait = this.busy() ? quietMs : quietMs - quietFor;
        setTimeout(check, Math.max(1, Math.min(wait, latestMs - (now - asked))));
      };
      check();
    });
  }
}
