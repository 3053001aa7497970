import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup/dynamodb-local.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores on CI: two workers share one DynamoDB Local.
    maxWorkers: 2,
    reporters: ['default'],
  },
});
