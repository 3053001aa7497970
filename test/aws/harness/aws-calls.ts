import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ACCOUNT, REGION } from './template.ts';

/** One AWS API call a function made, as its credentials (the access key id is its role's logical id) signed it. */
export interface AwsCall {
  role: string;
  /** IAM action, e.g. `dynamodb:GetItem`. */
  action: string;
  /** ARNs the call touches, as IAM evaluates them. */
  resources: string[];
  /** For CreateSchedule: the role handed to Scheduler, which needs iam:PassRole. */
  passedRole?: string;
  /** For ChangeMessageVisibility: the message (its receipt handle) and for how long it is hidden. */
  visibility?: { receiptHandle: string; seconds: number };
  userAgent: string;
}

export const HARNESS_ACCESS_KEY = 'harness';

export interface ResourceArns {
  queueArnOfUrl(url: string): string | undefined;
  keyArnOf(keyId: string): string | undefined;
}

/**
 * The endpoint every function's SDK talks to (AWS_ENDPOINT_URL_*): it forwards DynamoDB calls to DynamoDB Local and
 * the others to moto, and records who called what on which resource, for the IAM comparison (iam-check.ts).
 */
export class RecordingEndpoint {
  readonly calls: AwsCall[] = [];
  private server?: Server;
  url = '';

  constructor(
    private readonly targets: { dynamodb: string; moto: string },
    private readonly arns: ResourceArns,
  ) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const credential = /Credential=([^/]+)\/[^/]+\/[^/]+\/([^/]+)\//.exec(String(req.headers.authorization ?? ''));
        const service = credential?.[2] ?? 'unknown';
        // The harness's own calls (its pollers, its checks) sign as `harness`: not a function's.
        if (credential?.[1] !== HARNESS_ACCESS_KEY) {
          try {
            this.calls.push(...authorizations(this.describe(credential?.[1] ?? 'anonymous', service, req.method!, req.url!, req.headers, body.toString('utf8')), body.toString('utf8')));
          } catch (error) {
            this.calls.push({ role: credential?.[1] ?? 'anonymous', action: `${service}:?`, resources: [], userAgent: String(error) });
          }
        }
        const target = new URL(service === 'dynamodb' ? this.targets.dynamodb : this.targets.moto);
        const forward = httpRequest(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 500, answer.headers);
            answer.pipe(res);
          },
        );
        forward.on('error', (error) => res.writeHead(502).end(String(error)));
        forward.end(body);
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    return new Promise((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private describe(role: string, service: string, method: string, url: string, headers: Record<string, unknown>, body: string): AwsCall {
    const userAgent = String(headers['user-agent'] ?? '') + ' ' + String(headers['x-amz-user-agent'] ?? '');
    const target = String(headers['x-amz-target'] ?? '');
    const json = body.startsWith('{') ? (JSON.parse(body) as Record<string, any>) : {};
    // JSON protocols name the operation in X-Amz-Target; SQS's older query protocol in the form body.
    const operation = target ? target.split('.').pop()! : (new URLSearchParams(body).get('Action') ?? scheduleOperation(method, url));
    const params = target ? json : Object.fromEntries(new URLSearchParams(body));
    const resources: string[] = [];
    let passedRole: string | undefined;
    let visibility: AwsCall['visibility'];
    if (service === 'dynamodb') {
      const tables = new Set<string>();
      if (params.TableName) tables.add(params.IndexName ? `${params.TableName}/index/${params.IndexName}` : params.TableName);
      for (const name of Object.keys(params.RequestItems ?? {})) tables.add(name);
      for (const name of tables) resources.push(`arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`);
    } else if (service === 'sqs') {
      const arn = params.QueueUrl ? this.arns.queueArnOfUrl(params.QueueUrl) : undefined;
      resources.push(arn ?? `unknown-queue:${params.QueueUrl}`);
      if (operation === 'ChangeMessageVisibility') visibility = { receiptHandle: String(params.ReceiptHandle), seconds: Number(params.VisibilityTimeout) };
    } else if (service === 'kms') {
      resources.push(this.arns.keyArnOf(params.KeyId) ?? `unknown-key:${params.KeyId}`);
    } else if (service === 'cognito-idp' && params.UserPoolId) {
      // The admin operations name their pool; IAM authorizes them on its ARN.
      resources.push(`arn:aws:cognito-idp:${REGION}:${ACCOUNT}:userpool/${params.UserPoolId}`);
    } else if (service === 'scheduler') {
      const name = decodeURIComponent(new URL(url, 'http://x').pathname.split('/')[2] ?? '');
      const group = json.GroupName ?? new URL(url, 'http://x').searchParams.get('groupName') ?? 'default';
      resources.push(`arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${group}/${name}`);
      passedRole = json.Target?.RoleArn;
    }
    return { role, action: `${service}:${operation}`, resources, passedRole, visibility, userAgent };
  }
}

/**
 * IAM authorizes DynamoDB transactions item by item: TransactWriteItems needs PutItem, UpdateItem, DeleteItem or
 * ConditionCheckItem on each item's table, TransactGetItems GetItem (there is no Transact* action).
 */
function authorizations(call: AwsCall, body: string): AwsCall[] {
  if (call.action !== 'dynamodb:TransactWriteItems' && call.action !== 'dynamodb:TransactGetItems') return [call];
  const items = (JSON.parse(body) as { TransactItems: Record<string, { TableName: string }>[] }).TransactItems;
  const actions: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
  return items.flatMap((item) =>
    Object.entries(item).map(([kind, part]) => ({ ...call, action: `dynamodb:${actions[kind]}`, resources: [`arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${part.TableName}`] })),
  );
}

/** Scheduler is a REST API: the operation is the method on /schedules/{name}. */
function scheduleOperation(method: string, url: string): string {
  const path = new URL(url, 'http://x').pathname;
  if (path === '/schedules') return 'ListSchedules';
  const verbs: Record<string, string> = { POST: 'CreateSchedule', PUT: 'UpdateSchedule', DELETE: 'DeleteSchedule', GET: 'GetSchedule' };
  return path.startsWith('/schedules/') ? (verbs[method] ?? method) : `${method} ${path}`;
}
