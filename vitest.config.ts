import { defineConfig } from 'vitest/config';

/**
 * `*.synth.test.ts`: the files that synthesize the CDK app and only read it. They run without isolation, so the files
 * one worker runs share one import of aws-cdk-lib and one synthesis of the dev stack (test/infra/dev-stack.ts). Not
 * function-bundle.test.ts (it writes to DynamoDB Local and runs bundles, as the service's tests do). A synthesizing
 * file named plainly `.test.ts` only runs slower.
 */
const SYNTH_FILES = 'test/**/*.synth.test.ts';

const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

export default defineConfig({
  test: {
    // Set up once for both projects, which read what it provides.
    globalSetup: ['test/setup/dynamodb-local.ts'],
    // Two cores on CI, three workers on one DynamoDB Local: many tests wait (Chromium, the bank's deadline, the
    // sandbox's timers), and a third worker runs meanwhile. Under two CPU burners 3 took 473 s, 4 took 491 s.
    maxWorkers: 3,
    reporters: ['default'],
    projects: [
      { test: { name: 'cdk', include: [SYNTH_FILES], isolate: false, ...timeouts } },
      { test: { name: 'service', include: ['test/**/*.test.ts'], exclude: [SYNTH_FILES], ...timeouts } },
    ],
  },
});
