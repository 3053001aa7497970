import { existsSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { linkPowertoolsLayer } from '../../infra/constructs/powertools-layer.ts';

const PROJECT_MODULES = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/**
 * Puts on the module path of the bundles under `dir` (a CDK assembly directory) what Lambda gives them, and nothing
 * else: the AWS SDK v3 of the runtime (from node_modules) and the Powertools layer's packages the functions leave out
 * of their bundles (infra/constructs/service-function.ts), as the stack's layer holds them.
 */
export function provideRuntimeSdk(dir: string): void {
  linkPowertoolsLayer(dir);
  symlinkSync(join(PROJECT_MODULES, '@aws-sdk'), join(dir, 'node_modules', '@aws-sdk'));
}

/** The folder of the one function bundle a CDK assembly holds (`asset.<hash>/index.mjs`); its other asset is the layer. */
export function functionAssetDir(assemblyDir: string): string {
  const assets = readdirSync(assemblyDir).filter((name) => name.startsWith('asset.') && existsSync(join(assemblyDir, name, 'index.mjs')));
  if (assets.length !== 1) throw new Error(`Expected one function bundle in ${assemblyDir}, found ${assets.length}`);
  return join(assemblyDir, assets[0]!);
}
