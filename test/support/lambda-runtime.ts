import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT_SDK = fileURLToPath(new URL('../../node_modules/@aws-sdk', import.meta.url));

/**
 * Puts the AWS SDK v3, and nothing else, on the module path of the bundles under `dir` (a CDK assembly directory),
 * as the Lambda runtime does: the functions leave `@aws-sdk/*` to the runtime (infra/constructs/service-function.ts).
 */
export function provideRuntimeSdk(dir: string): void {
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  symlinkSync(PROJECT_SDK, join(dir, 'node_modules', '@aws-sdk'));
}
