import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * `npm run test:aws` (docs/aws-harness.md): what `cdk deploy` ships, run offline. Not part of `npm test`: the files
 * end in .aws.ts. Each file starts its own DynamoDB Local and moto server; the app is synthesized once.
 */
export default defineConfig({
  root: fileURLToPath(new URL('../../', import.meta.url)),
  test: {
    include: ['test/aws/**/*.aws.ts'],
    globalSetup: ['test/aws/global-setup.ts'],
    testTimeout: 240_000,
    hookTimeout: 240_000,
    // One worker per file: the two SDK variants each wait out a timed expiry's two real minutes, and the other two
    // files run meanwhile instead of after them.
    maxWorkers: 4,
  },
});
