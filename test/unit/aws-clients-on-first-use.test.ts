import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The modules that reach KMS, SQS, Scheduler or Cognito, and the factories that wire them into Lambda functions. */
const MODULES = [
  'shared/crypto/kms-secret-box.ts',
  'shared/crypto/kms-fingerprinter.ts',
  'shared/crypto/create-crypto.ts',
  'shared/background/sqs-queue.ts',
  'shared/background/queues-from-environment.ts',
  'shared/background/eventbridge-scheduler.ts',
  'shared/background/scheduler-from-environment.ts',
  'shared/dashboard/cognito-user-directory.ts',
];
const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LAZY_CLIENTS = /^@aws-sdk\/client-(kms|sqs|scheduler|cognito-identity-provider)$/;

/**
 * Each of these clients adds about 30 ms to a Lambda function's start-up, and many functions use them on some
 * requests only: bundled as the stack bundles them (the SDK external), they must be imported on first use only.
 */
describe('AWS clients other than DynamoDB', () => {
  it.each(MODULES)('are imported on first use by %s, never at load', async (entry) => {
    const { metafile } = await build({ absWorkingDir: PROJECT_ROOT, entryPoints: [entry], bundle: true, write: false, platform: 'node', format: 'esm', external: ['@aws-sdk/*'], metafile: true, logLevel: 'silent' });
    const sdkImports = Object.values(metafile.inputs).flatMap((input) => input.imports.filter((i) => LAZY_CLIENTS.test(i.path)));
    expect(sdkImports.length).toBeGreaterThan(0);
    expect(sdkImports.filter((i) => i.kind !== 'dynamic-import')).toEqual([]);
  });
});
