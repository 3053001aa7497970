import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LAYER_EXTERNALS, powertoolsLayerParameter, powertoolsLayerVersion } from '../../../infra/constructs/powertools-layer.ts';
import { REGION } from './template.ts';

const PROJECT_MODULES = fileURLToPath(new URL('../../../node_modules/', import.meta.url));

/** What the release's SSM parameter holds in AWS (the account Powertools publishes from); the harness's stand-in. */
export const POWERTOOLS_LAYER_ARN = `arn:aws:lambda:${REGION}:094274105915:layer:AWSLambdaPowertoolsTypeScriptV2:${powertoolsLayerVersion()}`;

/** The layer's ARN for the SSM parameter the template names it by (the locked release's), else undefined. */
export const powertoolsLayerArnFor = (parameterName: string) => (parameterName === powertoolsLayerParameter(powertoolsLayerVersion()) ? POWERTOOLS_LAYER_ARN : undefined);

/**
 * The layer's packages the functions import, from node_modules (the locked version, which the layer is pinned to),
 * in `<dir>/node_modules`: the parent of a task root, where ES module resolution finds them as Lambda's runtime
 * finds them in /opt/nodejs/node_modules.
 */
export function provideLayer(arn: string, dir: string): void {
  if (arn !== POWERTOOLS_LAYER_ARN) throw new Error(`Layer ${arn} is not one the harness knows (only ${POWERTOOLS_LAYER_ARN})`);
  for (const name of LAYER_EXTERNALS) {
    mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
    symlinkSync(join(PROJECT_MODULES, name), join(dir, 'node_modules', name));
  }
}
