import { Duration } from 'aws-cdk-lib';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import { LogLevel, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FunctionNeed } from '../../shared/function-needs.ts';
import { METRICS_NAMESPACE_VARIABLE, metricsNamespaceFor, SERVICE_NAME } from '../../shared/observability/metrics.ts';
import type { StageConfig } from '../stage-config.ts';
import type { DataStore } from './data-store.ts';
import { builtinRequireAliases, REQUIRE_BANNER } from './builtin-requires.ts';
import { LAYER_EXTERNALS, powertoolsLayer } from './powertools-layer.ts';

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * One bundle per function, built by the esbuild in node_modules (no Docker).
 * - ESM, like the sources, with a banner that defines `require` for the CommonJS dependencies bundled.
 * - `module` before `main` picks the ES builds of dependencies, which tree-shake better.
 * - `@aws-sdk/*` stays external (CDK's default for Node.js 18 and later): the functions use the SDK v3 of the Lambda
 *   runtime, whose version differs from our lock file's. We use only long-stable v3 commands; in exchange each
 *   bundle is about 330 KB smaller and starts faster. To pin the exact version, ship the SDK as a layer.
 * - Powertools' logger, metrics and tracer (with the X-Ray SDK) come from the Powertools layer, built from their
 *   locked version into a few files (./powertools-layer.ts), which every function has: 130 KB less in every bundle.
 *   The tracer loads only for a call outside AWS; Lambda's active tracing records each invocation without it.
 * - Node.js built-ins through `require`, not an ES import (./builtin-requires.ts): 6 to 9 ms less init.
 * - Source maps without sources, and no `--enable-source-maps`: the logger maps a stack to the TypeScript lines when
 *   it writes one (shared/observability/source-mapped-stack.ts), instead of Node parsing the map at every cold start.
 */
export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: REQUIRE_BANNER,
  bundleAwsSDK: false,
  externalModules: ['@aws-sdk/*', ...LAYER_EXTERNALS],
  esbuildArgs: { '--alias': Object.entries(builtinRequireAliases()).map(([name, file]) => `${name}=${file}`) },
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  logLevel: LogLevel.WARNING,
};

/** What every function of the service reads at start-up (shared/config.ts readServiceConfig). */
export function serviceEnvironment(config: StageConfig, dataStore: DataStore): Record<string, string> {
  return {
    TABLE_NAME: dataStore.table.tableName,
    CHECKOUT_BASE_URL: config.checkoutBaseUrl,
    ...(config.docsBaseUrl ? { DOCS_BASE_URL: config.docsBaseUrl } : {}),
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    [METRICS_NAMESPACE_VARIABLE]: metricsNamespaceFor(config.stage),
  };
}

export interface ServiceFunctionProps {
  config: StageConfig;
  /** Handler module, relative to the project root; it exports `handler`. */
  entry: string;
  description: string;
  environment: Record<string, string>;
  /** @default 10 seconds: well under API Gateway's 29 s, so a slow call fails in the function, logged. */
  timeout?: Duration;
  /** @default 256 MB */
  memorySize?: number;
  /** From the function's manifest entry; the stack grants them once every function exists (provideNeeds). */
  needs?: readonly FunctionNeed[];
  /** Shell commands run in the project root after esbuild: the files they write into `outputDir` ship beside the bundle. */
  afterBundling?: (outputDir: string) => string[];
  /** A consumer of the table's stream: its role holds dynamodb:ListStreams, on `*` too (see DataStore.grantStreamRead). */
  readsTableStream?: boolean;
}

/** Why a function's role has actions on `*`: each action there is named, so the suppression says all it covers. */
const wildcardReason = (readsTableStream: boolean) =>
  'X-Ray PutTraceSegments and PutTelemetryRecords take no resource-level permissions' +
  (readsTableStream ? "; nor does dynamodb:ListStreams, which Lambda's stream event source calls (it lists stream names; records are read on this table's stream ARN only)." : '.');

/**
 * A Lambda function of this service: Node.js 22 on arm64, bundled with esbuild, with its own role (no managed
 * policy: it may write only to its own log group until grants are added), its own log group with retention,
 * X-Ray tracing, and the Powertools layer.
 */
export class ServiceFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
  readonly needs: readonly FunctionNeed[];

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    super(scope, id);
    this.needs = props.needs ?? [];
    const { afterBundling } = props;
    this.logGroup = new LogGroup(this, 'Logs', { retention: props.config.logRetention, removalPolicy: props.config.removalPolicy });
    this.role = new Role(this, 'Role', { assumedBy: new ServicePrincipal('lambda.amazonaws.com'), description: props.description });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: join(PROJECT_ROOT, 'package-lock.json'),
      entry: join(PROJECT_ROOT, props.entry),
      handler: 'handler',
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.seconds(10),
      description: props.description,
      role: this.role,
      logGroup: this.logGroup,
      tracing: Tracing.ACTIVE,
      layers: [powertoolsLayer(this)],
      environment: props.environment,
      bundling: afterBundling ? { ...BUNDLING, commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: (_input, output) => afterBundling(output) } } : BUNDLING,
    });
    NagSuppressions.addResourceSuppressions(
      this,
      [
        { id: 'AwsSolutions-L1', reason: 'Node.js 22 is the runtime the project builds and tests on (package.json engines); it moves with the project.' },
        { id: 'AwsSolutions-IAM5', reason: wildcardReason(props.readsTableStream ?? false), appliesTo: ['Resource::*'] },
      ],
      true,
    );
  }
}
