import { Stack } from 'aws-cdk-lib';
import { type ILayerVersion, LayerVersion } from 'aws-cdk-lib/aws-lambda';
import { StringParameter } from 'aws-cdk-lib/aws-ssm';
import type { Construct } from 'constructs';
import { readFileSync } from 'node:fs';

const LOCK_FILE = new URL('../../package-lock.json', import.meta.url);

/**
 * The packages of Powertools for AWS Lambda (TypeScript)'s public layer, as its publishing stack installs them
 * (aws-powertools/powertools-lambda-typescript, layers/src/layer-publisher-stack.ts, since 2.35.0): each utility at the
 * layer's version with its own dependencies (the X-Ray SDK under the tracer), plus zod at whatever version was
 * newest when the layer was built, and no AWS SDK client (the runtime's is used).
 */
export const LAYER_PACKAGES = [
  ...['commons', 'event-handler', 'jmespath', 'logger', 'metrics', 'tracer', 'parameters', 'idempotency', 'batch', 'parser'].map((u) => `@aws-lambda-powertools/${u}`),
  'zod',
] as const;

/**
 * What the functions import from the layer instead of bundling it: the utilities whose locked version is the
 * layer's, so the layer runs the code the tests ran. The logger and metrics (27 KB minified) load at init; the tracer
 * with the X-Ray SDK, semver and cls-hooked (about 105 KB) only on a function's first call outside AWS
 * (shared/observability/outbound-trace.ts). Not taken from the layer: zod (the layer's is unpinned, older than ours)
 * and batch (no 2.36.0 release exists; the workers bundle their locked 2.35.0 with its commons).
 */
export const LAYER_EXTERNALS = ['@aws-lambda-powertools/logger', '@aws-lambda-powertools/metrics', '@aws-lambda-powertools/tracer'] as const;

/** The version of each package as package-lock.json installs it at the top of node_modules. */
export function lockedVersion(name: string): string {
  const lock = JSON.parse(readFileSync(LOCK_FILE, 'utf8')) as { packages: Record<string, { version?: string }> };
  const version = lock.packages[`node_modules/${name}`]?.version;
  if (!version) throw new Error(`${name} is not in package-lock.json`);
  return version;
}

/** The one Powertools version the layer is pinned to: that of every external in the lock file. */
export function powertoolsLayerVersion(): string {
  const versions = new Set(LAYER_EXTERNALS.map(lockedVersion));
  if (versions.size !== 1) throw new Error(`The Powertools layer holds one version; package-lock.json has ${[...versions].join(', ')} for ${LAYER_EXTERNALS.join(', ')}`);
  return [...versions][0]!;
}

/** The public SSM parameter holding the layer's ARN for a Powertools release, in every commercial region. */
export const powertoolsLayerParameter = (version: string) => `/aws/service/powertools/typescript/generic/all/${version}`;

/**
 * The Powertools layer of the locked version, one per stack: its ARN is resolved by CloudFormation at deploy from
 * the release's SSM parameter (never `latest`), so a deploy cannot pick up other code than the tests ran.
 */
export function powertoolsLayer(scope: Construct): ILayerVersion {
  const stack = Stack.of(scope);
  const existing = stack.node.tryFindChild('PowertoolsLayer') as ILayerVersion | undefined;
  if (existing) return existing;
  const arn = StringParameter.valueForStringParameter(stack, powertoolsLayerParameter(powertoolsLayerVersion()));
  return LayerVersion.fromLayerVersionArn(stack, 'PowertoolsLayer', arn);
}
