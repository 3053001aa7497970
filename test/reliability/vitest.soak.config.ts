import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run soak`: the reliability suite with many more cases, races and events than CI can afford. The suites read
 * their sizes from these variables; their defaults are the CI sizes.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/reliability/**/*.test.ts'],
    globalSetup: ['test/setup/dynamodb-local.ts'],
    testTimeout: 1_800_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    env: { RELIABILITY_TIMEOUT_MS: '1800000', FUZZ_RUNS: '400', RACE_REPEATS: '60', FAULT_RUNS: '40', WEBHOOK_EVENTS: '60', BRUTE_RUNS: '3000' },
  },
});
