/**
 * The server's "now" as seen from the page: expiry is the server's decision, and the server clock may differ from
 * the buyer's device (a wrong phone clock, or the sandbox clock moved forward by a test), so the countdown
 * follows the offset measured at each read of the session.
 */
export class ServerClock {
  private offsetMs = 0;

  /** serverNow: the server's time when it answered (the read's serverTime, else its Date header). */
  sync(serverNow: number): void {
    this.offsetMs = serverNow - Date.now();
  }

  now(): number {
    return Date.now() + this.offsetMs;
  }
}

/** "4:05" for the countdown; never negative. */
export function formatRemaining(ms: number): string {
  const totalSeconds = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(totalSeconds / 60);
  return `${minutes}:${String(totalSeconds % 60).padStart(2, '0')}`;
}
