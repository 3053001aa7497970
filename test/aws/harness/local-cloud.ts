import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { CreateKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { CreateQueueCommand, GetQueueAttributesCommand, SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HARNESS_ACCESS_KEY, RecordingEndpoint } from './aws-calls.ts';
import { provideLayers } from './powertools-layer.ts';
import { LambdaContainer, type InvocationOutcome } from './runtime-api.ts';
import type { SdkLayer } from './sdk-layer.ts';
import { ACCOUNT, REGION, resolveValue, resourcesOfType, type CfnTemplate, type PhysicalIds } from './template.ts';

const LOCAL_CREDENTIALS = { accessKeyId: HARNESS_ACCESS_KEY, secretAccessKey: 'harness' };

/** A Lambda function of the template, as the harness runs it. */
export interface TemplateFunction {
  logicalId: string;
  arn: string;
  roleLogicalId: string;
  assetDir: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, unknown>;
  /** Layer ARNs as the template gives them (references to SSM parameters, resolved at deploy). */
  layers: unknown[];
}

export interface LocalCloudOptions {
  template: CfnTemplate;
  /** The cdk.out folder the template's assets are in. */
  assemblyDir: string;
  dynamoEndpoint: string;
  motoEndpoint: string;
  sdk: SdkLayer;
  /** Values of the template's parameters CloudFormation would resolve at deploy (SSM parameters), by the parameter's default. */
  parameterValues: (parameterDefault: string) => string | undefined;
  /** Variables the harness adds to every function beyond the template's (e.g. a trusted CA for the local receiver). */
  extraEnvironment?: Record<string, string>;
  /** Node.js options of every runtime process (the merchant receiver's network preload). */
  nodeArgs?: string[];
  onLog?: (functionId: string, line: string) => void;
}

/**
 * The template "deployed" locally: its table in DynamoDB Local, its queues, keys and schedule groups in moto, and
 * each Lambda function started on demand from its cdk.out asset under aws-lambda-ric, with the environment the
 * template gives it resolved to these resources.
 */
export class LocalCloud {
  readonly template: CfnTemplate;
  readonly recorder: RecordingEndpoint;
  readonly functions: TemplateFunction[];
  readonly tableName = `svc-aws-${randomBytes(4).toString('hex')}`;
  streamArn = '';
  private readonly queues = new Map<string, { url: string; arn: string; name: string }>();
  private readonly keys = new Map<string, { id: string; arn: string }>();
  private readonly groups = new Map<string, string>();
  private readonly containers = new Map<string, LambdaContainer>();
  private readonly root: string;
  readonly ids: PhysicalIds;

  constructor(private readonly options: LocalCloudOptions) {
    this.template = options.template;
    this.root = mkdtempSync(join(tmpdir(), 'aws-harness-'));
    // The functions run as an unprivileged user (runtime-api.ts), who must reach their task roots.
    chmodSync(this.root, 0o755);
    // ES module resolution looks for node_modules in the task root's parents: the SDK is found there, as in Lambda.
    mkdirSync(join(this.root, 'node_modules'));
    symlinkSync(options.sdk.scopeDir, join(this.root, 'node_modules', '@aws-sdk'));
    this.recorder = new RecordingEndpoint(
      { dynamodb: options.dynamoEndpoint, moto: options.motoEndpoint },
      {
        queueArnOfUrl: (url) => [...this.queues.values()].find((q) => q.url === url)?.arn,
        keyArnOf: (keyId) => [...this.keys.values()].find((k) => k.id === keyId || k.arn === keyId)?.arn,
      },
    );
    this.ids = this.physicalIds();
    this.functions = templateFunctions(this.template, options.assemblyDir, this.ids);
  }

  async deploy(): Promise<void> {
    await this.recorder.start();
    await this.createTable();
    await this.createQueues();
    await this.createKeys();
    await this.createScheduleGroups();
  }

  /** The running container of a function (started on first use: a cold start), by logical id. */
  async container(logicalId: string): Promise<LambdaContainer> {
    const existing = this.containers.get(logicalId);
    if (existing) return existing;
    const fn = this.functions.find((f) => f.logicalId === logicalId);
    if (!fn) throw new Error(`No Lambda function ${logicalId} in the template`);
    const taskRoot = join(this.root, logicalId, 'task');
    mkdirSync(join(this.root, logicalId), { recursive: true });
    // Each layer the template attaches, beside this function's task root only: a function without it fails, as in Lambda.
    provideLayers(fn.layers, this.template, this.options.assemblyDir, join(this.root, logicalId));
    // Read-only, as /opt is in Lambda.
    if (fn.layers.length > 0) readOnly(join(this.root, logicalId, 'node_modules'));
    cpSync(fn.assetDir, taskRoot, { recursive: true });
    readOnly(taskRoot);
    const templateEnv = resolveValue(fn.environment, this.ids, this.template) as Record<string, string>;
    const container = new LambdaContainer({
      name: logicalId,
      functionArn: fn.arn,
      taskRoot,
      handler: fn.handler,
      timeoutSeconds: fn.timeoutSeconds,
      memoryMb: fn.memoryMb,
      environment: {
        ...templateEnv,
        AWS_REGION: REGION,
        AWS_DEFAULT_REGION: REGION,
        // The role's credentials: the access key id names the role, so the recorder knows whose call it is.
        AWS_ACCESS_KEY_ID: fn.roleLogicalId,
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_SESSION_TOKEN: 'local',
        // Any other service (Cognito for the dashboard) also goes to the recorder and on to moto: nothing leaves the machine.
        AWS_ENDPOINT_URL: this.recorder.url,
        AWS_ENDPOINT_URL_DYNAMODB: this.recorder.url,
        AWS_ENDPOINT_URL_SQS: this.recorder.url,
        AWS_ENDPOINT_URL_KMS: this.recorder.url,
        AWS_ENDPOINT_URL_SCHEDULER: this.recorder.url,
        ...this.options.extraEnvironment,
      },
      nodeArgs: this.options.nodeArgs,
      onLog: (line) => this.options.onLog?.(logicalId, line),
    });
    this.containers.set(logicalId, container);
    await container.start();
    return container;
  }

  async invoke(logicalId: string, event: unknown): Promise<InvocationOutcome> {
    return (await this.container(logicalId)).invoke(event);
  }

  /** The function an ARN (or a function name) names. */
  functionByArn(arnOrName: string): TemplateFunction | undefined {
    return this.functions.find((f) => f.arn === arnOrName || f.logicalId === arnOrName);
  }

  queue(logicalId: string) {
    const queue = this.queues.get(logicalId);
    if (!queue) throw new Error(`No queue ${logicalId}`);
    return queue;
  }

  queueByArn(arn: string) {
    return [...this.queues.entries()].find(([, q]) => q.arn === arn);
  }

  get dynamoEndpoint(): string {
    return this.options.dynamoEndpoint;
  }

  /** The SDK the functions get from outside their bundles. */
  get sdk(): SdkLayer {
    return this.options.sdk;
  }

  containerStats() {
    return [...this.containers.entries()].map(([id, c]) => ({ id, initDurationMs: c.initDurationMs }));
  }

  async stop(): Promise<void> {
    await Promise.all([...this.containers.values()].map((c) => c.stop()));
    await this.recorder.stop();
  }

  /** A client of the harness itself (not a function's): straight to DynamoDB Local (tables, streams) or moto. */
  client<T>(Client: new (config: object) => T, service: 'dynamodb' | 'moto' = 'moto'): T {
    const endpoint = service === 'dynamodb' ? this.options.dynamoEndpoint : this.options.motoEndpoint;
    return new Client({ endpoint, region: REGION, credentials: LOCAL_CREDENTIALS });
  }

  private physicalIds(): PhysicalIds {
    const arnOf = (type: string, id: string): string => {
      switch (type) {
        case 'AWS::Lambda::Function':
          return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${id}`;
        case 'AWS::IAM::Role':
          return `arn:aws:iam::${ACCOUNT}:role/${id}`;
        case 'AWS::DynamoDB::Table':
          return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${this.tableName}`;
        case 'AWS::SQS::Queue':
          return this.queue(id).arn;
        case 'AWS::KMS::Key':
          return need(this.keys.get(id), id).arn;
        case 'AWS::Scheduler::ScheduleGroup':
          return `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule-group/${need(this.groups.get(id), id)}`;
        default:
          return `arn:aws:local:${REGION}:${ACCOUNT}:${id}`;
      }
    };
    return {
      ref: (id) => {
        const type = this.template.Resources[id]!.Type;
        switch (type) {
          case 'AWS::DynamoDB::Table':
            return this.tableName;
          case 'AWS::SQS::Queue':
            return this.queue(id).url;
          case 'AWS::KMS::Key':
            return need(this.keys.get(id), id).id;
          case 'AWS::Scheduler::ScheduleGroup':
            return need(this.groups.get(id), id);
          // Not deployed (no user pool offline, docs/aws-harness.md), but ids of Cognito's shape, which the code checks.
          case 'AWS::Cognito::UserPool':
            return `${REGION}_${localId(id, 9)}`;
          case 'AWS::Cognito::UserPoolClient':
            return localId(id, 26).toLowerCase();
          default:
            return id;
        }
      },
      getAtt: (id, attribute) => {
        const type = this.template.Resources[id]!.Type;
        if (attribute === 'Arn') return arnOf(type, id);
        if (type === 'AWS::DynamoDB::Table' && attribute === 'StreamArn') return this.streamArn;
        if (type === 'AWS::SQS::Queue' && attribute === 'QueueName') return this.queue(id).name;
        if (type === 'AWS::SQS::Queue' && attribute === 'QueueUrl') return this.queue(id).url;
        if (type === 'AWS::KMS::Key' && attribute === 'KeyId') return need(this.keys.get(id), id).id;
        if (type === 'AWS::CloudFront::Distribution' && attribute === 'DomainName') return `${id.toLowerCase().slice(0, 14)}.cloudfront.net`;
        return `${id}.${attribute}`;
      },
      parameter: (name) => {
        const parameter = this.template.Parameters![name]!;
        const value = parameter.Default === undefined ? undefined : this.options.parameterValues(parameter.Default);
        if (value === undefined) throw new Error(`Template parameter ${name} (${parameter.Default}) has no local value`);
        return value;
      },
    };
  }

  private async createTable(): Promise<void> {
    const tables = resourcesOfType(this.template, 'AWS::DynamoDB::Table');
    if (tables.length !== 1) throw new Error(`The harness deploys one table; the template has ${tables.length}`);
    const p = tables[0]![1].Properties;
    const db = this.client(DynamoDBClient, 'dynamodb');
    const input: CreateTableCommandInput = {
      TableName: this.tableName,
      AttributeDefinitions: p.AttributeDefinitions,
      KeySchema: p.KeySchema,
      BillingMode: p.BillingMode ?? 'PAY_PER_REQUEST',
      GlobalSecondaryIndexes: p.GlobalSecondaryIndexes,
      StreamSpecification: p.StreamSpecification ? { StreamEnabled: true, StreamViewType: p.StreamSpecification.StreamViewType } : undefined,
    };
    await db.send(new CreateTableCommand(input));
    const { Table } = await db.send(new DescribeTableCommand({ TableName: this.tableName }));
    this.streamArn = Table?.LatestStreamArn ?? '';
    db.destroy();
  }

  /** Queues with the template's attributes; dead-letter queues first, so a redrive policy can name them. */
  private async createQueues(): Promise<void> {
    const sqs = this.client(SQSClient);
    const all = resourcesOfType(this.template, 'AWS::SQS::Queue');
    for (const [id, { Properties: p }] of all) {
      const name = p.QueueName === undefined ? `${id}-${this.tableName}` : String(resolveValue(p.QueueName, this.ids, this.template));
      const attributes: Record<string, string> = {};
      if (p.VisibilityTimeout !== undefined) attributes.VisibilityTimeout = String(p.VisibilityTimeout);
      if (p.DelaySeconds !== undefined) attributes.DelaySeconds = String(p.DelaySeconds);
      if (p.MessageRetentionPeriod !== undefined) attributes.MessageRetentionPeriod = String(p.MessageRetentionPeriod);
      if (p.ReceiveMessageWaitTimeSeconds !== undefined) attributes.ReceiveMessageWaitTimeSeconds = String(p.ReceiveMessageWaitTimeSeconds);
      const created = await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: attributes }));
      const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }));
      // The SDK sends to a queue URL's own host: the URL names the recording endpoint, which forwards to moto.
      this.queues.set(id, { url: `${this.recorder.url}${new URL(created.QueueUrl!).pathname}`, arn: Attributes!.QueueArn!, name });
    }
    for (const [id, { Properties: p }] of all) {
      if (!p.RedrivePolicy) continue;
      const redrive = resolveValue(p.RedrivePolicy, this.ids, this.template);
      await sqs.send(new SetQueueAttributesCommand({ QueueUrl: this.queue(id).url, Attributes: { RedrivePolicy: JSON.stringify(redrive) } }));
    }
    sqs.destroy();
  }

  private async createKeys(): Promise<void> {
    const kms = this.client(KMSClient);
    for (const [id, { Properties: p }] of resourcesOfType(this.template, 'AWS::KMS::Key')) {
      const { KeyMetadata } = await kms.send(new CreateKeyCommand({ KeySpec: p.KeySpec, KeyUsage: p.KeyUsage, Description: p.Description }));
      this.keys.set(id, { id: KeyMetadata!.KeyId!, arn: KeyMetadata!.Arn! });
    }
    kms.destroy();
  }

  private async createScheduleGroups(): Promise<void> {
    const scheduler = this.client(SchedulerClient);
    for (const [id, { Properties: p }] of resourcesOfType(this.template, 'AWS::Scheduler::ScheduleGroup')) {
      // A name the template gives (with intrinsics: the stack's id in it) is resolved like any other value.
      const name = p.Name === undefined ? `${id}-${randomBytes(3).toString('hex')}` : String(resolveValue(p.Name, this.ids, this.template));
      await scheduler.send(new CreateScheduleGroupCommand({ Name: name }));
      this.groups.set(id, name);
    }
    scheduler.destroy();
  }
}

/** The template's Node.js 22 functions with their cdk.out assets (CDK's own deploy-time providers run on other runtimes). */
export function templateFunctions(template: CfnTemplate, assemblyDir: string, ids: PhysicalIds): TemplateFunction[] {
  return resourcesOfType(template, 'AWS::Lambda::Function')
    .filter(([, r]) => r.Properties.Runtime === 'nodejs22.x')
    .map(([logicalId, r]) => {
      const asset = r.Metadata?.['aws:asset:path'] as string | undefined;
      if (!asset) throw new Error(`${logicalId} has no cdk.out asset`);
      return {
        logicalId,
        arn: `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${logicalId}`,
        roleLogicalId: roleOf(r.Properties.Role),
        assetDir: join(assemblyDir, asset),
        handler: r.Properties.Handler,
        timeoutSeconds: r.Properties.Timeout ?? 3,
        memoryMb: r.Properties.MemorySize ?? 128,
        environment: r.Properties.Environment?.Variables ?? {},
        layers: r.Properties.Layers ?? [],
      };
    });
  function roleOf(role: unknown): string {
    const id = (role as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];
    if (!id) throw new Error(`A function's Role is not a role of the template: ${JSON.stringify(role)} (${ids ? 'resolved locally' : ''})`);
    return id;
  }
}

/** The functions the harness does not run, with why: CDK's custom-resource providers, run by CloudFormation at deploy. */
export function functionsNotRun(template: CfnTemplate): { logicalId: string; runtime: string; path: string }[] {
  return resourcesOfType(template, 'AWS::Lambda::Function')
    .filter(([, r]) => r.Properties.Runtime !== 'nodejs22.x')
    .map(([logicalId, r]) => ({ logicalId, runtime: r.Properties.Runtime, path: String(r.Metadata?.['aws:cdk:path'] ?? '') }));
}

function readOnly(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) readOnly(path);
    chmodSync(path, statSync(path).isDirectory() ? 0o555 : 0o444);
  }
  chmodSync(dir, 0o555);
}

/** A stable id of `length` letters and digits for a resource the harness does not deploy. */
function localId(logicalId: string, length: number): string {
  return createHash('sha256').update(logicalId).digest('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, length);
}

function need<T>(value: T | undefined, id: string): T {
  if (value === undefined) throw new Error(`${id} is not deployed locally`);
  return value;
}
