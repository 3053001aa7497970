import { defineConfig } from 'vitest/config';

/**
 * `*.synth.test.ts`: the files that synthesize the CDK app and only read it. They run without isolation, so the files
 * one worker runs share one import of aws-cdk-lib and one synthesis of the dev stack (test/infra/dev-stack.ts). Not
 * function-bundle.test.ts (it writes to DynamoDB Local and runs bundles, as the service's tests do). A synthesizing
 * file named plainly `.test.ts` only runs slower.
 */
const SYNTH_FILES = 'test/**/*.synth.test.ts';

/**
 * The service's files also share one module cache per worker (isolate: false): each starts its own sandbox, so what
 * they share is only the imports (the SDK, zod, the 57 handler modules), which a fresh module graph per file paid again
 * 180 times. These files run isolated instead: they mock a module (vi.mock('node:dns') reaches only modules imported
 * after it) or set process.env at import for modules they then load.
 */
const ISOLATED_FILES = [
  'test/reliability/ssrf-addresses.test.ts',
  'test/reliability/abuse.test.ts',
  'test/observability/outbound-trace.test.ts',
  'test/dashboard/cognito-mfa.test.ts',
];

const common = {
  setupFiles: ['test/setup/no-client-left-mocked.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // CDK's built-in CloudFormation validation runs on every synthesis and only warns unless told otherwise: the one
  // test that checks it (production-readiness.synth.test.ts) registers it with errors as errors, as cdk.json does.
  env: { CDK_VALIDATION: 'false' },
};

export default defineConfig({
  test: {
    // Set up once for all projects, which read what it provides.
    globalSetup: ['test/setup/dynamodb-local.ts'],
    // Two cores on CI, four workers on one DynamoDB Local (a table each): many tests wait (Chromium, the bank's
    // deadline, the sandbox's timers), and the other workers run meanwhile. Under two CPU burners (2026-11-26): 3 took
    // 390 to 404 s, 4 took 365 s, 5 took 424 s.
    maxWorkers: 4,
    reporters: ['default'],
    projects: [
      { test: { name: 'cdk', include: [SYNTH_FILES], isolate: false, ...common } },
      { test: { name: 'isolated', include: ISOLATED_FILES, ...common } },
      { test: { name: 'service', include: ['test/**/*.test.ts'], exclude: [SYNTH_FILES, ...ISOLATED_FILES], isolate: false, ...common } },
    ],
  },
});
