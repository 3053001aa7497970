import { defineConfig } from 'vitest/config';

/**
 * The files that synthesize the CDK app and only read it: run without isolation, so the files one worker runs share
 * one import of aws-cdk-lib and one synthesis of the dev stack (test/infra/dev-stack.ts). Not function-bundle.test.ts
 * (it writes to DynamoDB Local and runs bundles, as the service's tests do). A file left out only runs slower.
 */
const CDK_WIRING_FILES = [
  'test/infra/api-firewall.test.ts',
  'test/infra/checkout-site.test.ts',
  'test/infra/daily-workers.test.ts',
  'test/infra/docs-base-url.test.ts',
  'test/infra/production-readiness.test.ts',
  'test/infra/stack.test.ts',
  'test/infra/stage-config.test.ts',
  'test/infra/static-site.test.ts',
  'test/infra/webhooks-and-expiry.test.ts',
  'test/dashboard/infra/user-pool.test.ts',
];

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
      { test: { name: 'cdk', include: CDK_WIRING_FILES, isolate: false, ...timeouts } },
      { test: { name: 'service', include: ['test/**/*.test.ts'], exclude: CDK_WIRING_FILES, ...timeouts } },
    ],
  },
});
