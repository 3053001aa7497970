/**
 * An authenticator app for tests: the codes of a TOTP secret, each used once. A directory takes a code once (replay
 * protection) within ±1 step of now, so the next fresh code is the smallest step above the last one used in that
 * window; when none is left the app moves its clock (the sandbox's authenticatorClock, which the directory checks
 * codes against) to the next 30-second step, where a person would wait for it.
 */
import type { OffsetClock } from '../../shared/clock.ts';
import { totpCode } from '../../shared/dashboard/totp.ts';

const STEP_MS = 30_000;

export interface TestAuthenticator {
  /** A code not given before, valid now. */
  nextCode(): Promise<string>;
  /** The code nextCode gave last (to replay one already used); it stays valid within ±1 step of its own. */
  lastCode(): string;
}

export function testAuthenticator(secret: string, clock: OffsetClock): TestAuthenticator {
  let lastStep = -Infinity;
  return {
    lastCode() {
      if (lastStep === -Infinity) throw new Error('no code given yet');
      return totpCode(secret, lastStep * STEP_MS);
    },
    async nextCode() {
      for (;;) {
        const current = Math.floor(clock.now() / STEP_MS);
        // Never the previous step: a request crossing a step boundary on the way would find it out of the window.
        const step = Math.max(current, lastStep + 1);
        if (step <= current + 1) {
          lastStep = step;
          return totpCode(secret, step * STEP_MS);
        }
        clock.advance((current + 1) * STEP_MS - clock.now() + 50);
      }
    },
  };
}

/**
 * Real time now, once at least `minLeftMs` of the current 30-second step is left (else after waiting for the next
 * step, as a person waits for the next code). For codes checked against moto_server's clock: it takes only the
 * current step's code, so a code made near the end of its step, sent on a busy machine, arrived in the next one.
 */
export async function nowWithStepLeft(minLeftMs = 10_000): Promise<number> {
  const left = STEP_MS - (Date.now() % STEP_MS);
  if (left < minLeftMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
  return Date.now();
}
