/**
 * How many requests an app is answering at this moment: a request counts from its first
 * middleware until its handler has returned its response (a streamed body, such as the weekly
 * report's, no longer counts once it streams). The embedded store's report reads ask it whether
 * to leave the one connection free between two pages (quotations/report-stream.ts).
 */
export class RequestGauge {
  private answering = 0;

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
    }
  }
}
