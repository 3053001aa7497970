import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYER_EXTERNALS } from '../../infra/constructs/powertools-layer.ts';

const PROJECT_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/**
 * Puts on the module path of the bundles under `dir` (a CDK assembly directory) what Lambda gives them, and nothing
 * else: the AWS SDK v3 of the runtime and the Powertools layer's packages the functions leave out of their bundles
 * (infra/constructs/service-function.ts), from node_modules.
 */
export function provideRuntimeSdk(dir: string): void {
  for (const name of ['@aws-sdk', ...LAYER_EXTERNALS]) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(PROJECT_MODULES, name), join(dir, 'node_modules', name));
  }
}
