import { readFileSync, writeFileSync } from 'node:fs';
import { OffsetClock } from '../../shared/clock.ts';

/**
 * The sandbox clock of `npm start`: its offset is kept in a file, so a restarted sandbox does not go back in time
 * past the sessions, schedules and windows it wrote while moved forward.
 *
 * @example
 * const clock = PersistentOffsetClock.load('.sandbox/clock.json');
 * clock.advance(60_000); // written to the file at once
 */
export class PersistentOffsetClock extends OffsetClock {
  private constructor(
    private readonly file: string,
    offsetMs: number,
  ) {
    super(offsetMs);
  }

  static load(file: string): PersistentOffsetClock {
    let offsetMs = 0;
    try {
      const saved = (JSON.parse(readFileSync(file, 'utf8')) as { offsetMs?: unknown }).offsetMs;
      if (typeof saved === 'number' && Number.isFinite(saved) && saved >= 0) offsetMs = saved;
    } catch {
      // No file yet (a fresh sandbox) or an unreadable one: real time.
    }
    return new PersistentOffsetClock(file, offsetMs);
  }

  override advance(ms: number): void {
    super.advance(ms);
    writeFileSync(this.file, JSON.stringify({ offsetMs: this.offset }));
  }
}
