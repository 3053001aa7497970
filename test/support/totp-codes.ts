/**
 * An authenticator app for tests: the codes of a TOTP secret, each used once. A directory takes a code once (replay
 * protection) within ±1 step of now, so the next fresh code is the smallest step above the last one used in that
 * window; when none is left the app waits for the next 30-second step, as a person would.
 */
import { totpCode } from '../../shared/dashboard/totp.ts';

const STEP_MS = 30_000;

export interface TestAuthenticator {
  /** A code not given before, valid now. */
  nextCode(): Promise<string>;
}

export function testAuthenticator(secret: string): TestAuthenticator {
  let lastStep = -Infinity;
  return {
    async nextCode() {
      for (;;) {
        const current = Math.floor(Date.now() / STEP_MS);
        // Never the previous step: a request crossing a step boundary on the way would find it out of the window.
        const step = Math.max(current, lastStep + 1);
        if (step <= current + 1) {
          lastStep = step;
          return totpCode(secret, step * STEP_MS);
        }
        await new Promise((resolve) => setTimeout(resolve, (current + 1) * STEP_MS - Date.now() + 50));
      }
    },
  };
}
