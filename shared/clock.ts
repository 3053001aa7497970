/**
 * Time source for everything that depends on "now": expiry, rate windows, idempotency retention.
 * Injected so tests and the sandbox can move time without sleeping.
 *
 * @example
 * const clock = new ManualClock(new Date('2026-01-01T00:00:00Z'));
 * clock.advance(90_000); // 90 seconds later
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Real time shifted by an offset that only grows: the sandbox clock behind POST /__sandbox/clock. */
export class OffsetClock implements Clock {
  constructor(private offsetMs = 0) {}
  now(): number {
    return Date.now() + this.offsetMs;
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  get offset(): number {
    return this.offsetMs;
  }
}

/** A clock that stands still until told to move: for unit tests. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
