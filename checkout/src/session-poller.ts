/**
 * When the page reads its session again. Each read costs an API Gateway request, a Lambda invocation and a
 * DynamoDB read, so the page reads only what it cannot know on its own:
 * - expiry at expiresAt is not read: the countdown on the server's clock shows it (main.ts);
 * - a close the page cannot predict (the merchant expires the session, another tab pays it) is read every
 *   POLL_MS while the page is visible, and at once when the buyer comes back to it (visible again, or focused);
 * - a hidden page does not read at all, and a closed session stops the reads for good.
 * docs/checkout.md gives the reasons for the intervals.
 */

/** A close elsewhere shows within half a minute on a page in front of the buyer; a charge on a stale page is refused and shows it at once. */
export const POLL_MS = 30_000;
/** While the bank's answer is awaited the buyer watches a spinner, and the answer is due within seconds. */
export const WAITING_POLL_MS = 3_000;

export class SessionPoller {
  private timer: number | undefined;
  private stopped = false;

  constructor(
    /** Reads the session and applies it; never rejects. */
    private readonly read: () => Promise<void>,
    /** The wait before the next read, decided after each one (shorter while a charge is awaited). */
    private readonly intervalMs: () => number,
  ) {}

  /** Reads now, then keeps reading while the page is visible. */
  start(): void {
    document.addEventListener('visibilitychange', () => (document.visibilityState === 'visible' ? void this.readNow() : this.cancelTimer()));
    window.addEventListener('focus', () => void this.readNow());
    void this.readNow();
  }

  /** Reads at once; the next poll then waits a full interval from this read. */
  async readNow(): Promise<void> {
    this.cancelTimer();
    if (this.stopped) return;
    await this.read();
    this.schedule();
  }

  /** Plans the next read one interval from now (again when the interval changed), if the page is visible. */
  schedule(): void {
    this.cancelTimer();
    if (!this.stopped && document.visibilityState === 'visible') this.timer = window.setTimeout(() => void this.readNow(), this.intervalMs());
  }

  /** The session is closed: nothing can change any more. */
  stop(): void {
    this.stopped = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    window.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
