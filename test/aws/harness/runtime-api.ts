import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

const PROJECT_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Node.js 22 from the `node` package, the Lambda runtime's major; the RIC is what Lambda's nodejs22.x image runs. */
export const LAMBDA_NODE = `${PROJECT_ROOT}node_modules/.bin/node`;
const RIC_ENTRY = `${PROJECT_ROOT}node_modules/aws-lambda-ric/index.mjs`;
const API = '/2018-06-01/runtime';
const NOBODY = 65534;

/** What one invocation ended with, as the Runtime API received it. */
export type InvocationOutcome =
  | { ok: true; result: unknown; durationMs: number }
  | { ok: false; errorType: string; errorMessage: string; durationMs: number };

export interface ContainerOptions {
  /** Logical id of the function in the template, for messages. */
  name: string;
  functionArn: string;
  taskRoot: string;
  handler: string;
  /** The function's environment as the template gives it, plus the endpoints of the local services. */
  environment: Record<string, string>;
  timeoutSeconds: number;
  memoryMb: number;
  /** Node.js options of the runtime process itself (the harness's network preload), apart from the function's NODE_OPTIONS. */
  nodeArgs?: string[];
  onLog?: (line: string) => void;
}

interface Pending {
  requestId: string;
  event: unknown;
  startedAt?: number;
  resolve: (outcome: InvocationOutcome) => void;
}

/**
 * One Lambda execution environment: a local Runtime API (the HTTP interface Lambda serves to its runtime) and
 * `aws-lambda-ric` polling it, in a process of its own. Invocations are served one at a time, like one container.
 * The init duration is measured as Lambda's REPORT line does: from the process start to its first /next request.
 */
export class LambdaContainer {
  private server?: Server;
  private child?: ChildProcess;
  private spawnedAt = 0;
  private waitingNext?: ServerResponse;
  private queue: Pending[] = [];
  private current?: Pending;
  private exited?: string;
  private initError?: string;
  private firstNext?: () => void;
  readonly output: string[] = [];
  /** Milliseconds from the process start to its first /next: Lambda's Init Duration. */
  initDurationMs?: number;

  constructor(private readonly options: ContainerOptions) {}

  async start(): Promise<void> {
    this.server = createServer((req, res) => this.route(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    const { options } = this;
    const ready = new Promise<void>((resolve) => (this.firstNext = resolve));
    this.spawnedAt = performance.now();
    this.child = spawn(LAMBDA_NODE, [...(options.nodeArgs ?? []), RIC_ENTRY], {
      cwd: options.taskRoot,
      // Lambda runs the function as an unprivileged user: root would write to the read-only task root regardless.
      ...(process.getuid?.() === 0 ? { uid: NOBODY, gid: NOBODY } : {}),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        // What the Lambda runtime sets (https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime).
        PATH: '/usr/local/bin:/usr/bin:/bin',
        LANG: 'en_US.UTF-8',
        TZ: ':UTC',
        LAMBDA_TASK_ROOT: options.taskRoot,
        LAMBDA_RUNTIME_DIR: `${PROJECT_ROOT}node_modules/aws-lambda-ric`,
        _HANDLER: options.handler,
        AWS_LAMBDA_RUNTIME_API: `127.0.0.1:${port}`,
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        AWS_LAMBDA_FUNCTION_NAME: options.name,
        AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
        AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(options.memoryMb),
        AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${options.name}`,
        AWS_LAMBDA_LOG_STREAM_NAME: `local/[$LATEST]${randomUUID().replaceAll('-', '')}`,
        AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
        ...options.environment,
      },
    });
    const collect = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line) continue;
        // A minified bundle's failing line is a megabyte; keep what a person reads.
        const readable = line.length > 2000 ? `${line.slice(0, 2000)}…` : line;
        this.output.push(readable);
        options.onLog?.(readable);
      }
    };
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    const exited = new Promise<never>((_, reject) =>
      this.child!.once('exit', (code, signal) => {
        this.exited = `exited with ${code ?? signal}`;
        this.failAll();
        reject(new Error(this.describeFailure(`${options.name}: the runtime ${this.exited} before its first /next`)));
      }),
    );
    exited.catch(() => undefined);
    await Promise.race([ready, exited, timeout(30_000, () => this.describeFailure(`${options.name}: no /next within 30 s of the start`))]);
  }

  /** Invokes the function once with `event`; resolves with what the runtime posted back (a response or an error). */
  invoke(event: unknown): Promise<InvocationOutcome> {
    if (this.exited) return Promise.reject(new Error(this.describeFailure(`${this.options.name}: the runtime ${this.exited}`)));
    return new Promise((resolve) => {
      this.queue.push({ requestId: randomUUID(), event, resolve });
      this.dispatch();
    });
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null && this.child.signalCode === null) {
      const gone = new Promise((r) => this.child!.once('exit', r));
      this.child.kill('SIGKILL');
      await gone;
    }
    this.waitingNext?.destroy();
    await new Promise((r) => this.server?.close(r));
  }

  /** The message of a failure, with the runtime's own output (its init error, a stack trace). */
  describeFailure(message: string): string {
    const tail = this.output.slice(-30).join('\n');
    return `${message}${this.initError ? `\ninit error: ${this.initError}` : ''}${tail ? `\n--- runtime output ---\n${tail}` : ''}`;
  }

  private dispatch(): void {
    if (this.current || !this.waitingNext) return;
    const next = this.queue.shift();
    if (!next) return;
    const res = this.waitingNext;
    this.waitingNext = undefined;
    this.current = next;
    next.startedAt = performance.now();
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': next.requestId,
      'lambda-runtime-deadline-ms': String(Date.now() + this.options.timeoutSeconds * 1000),
      'lambda-runtime-invoked-function-arn': this.options.functionArn,
      'lambda-runtime-trace-id': `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replaceAll('-', '').slice(0, 24)};Parent=${randomUUID().replaceAll('-', '').slice(0, 16)};Sampled=0`,
    });
    res.end(JSON.stringify(next.event));
  }

  private route(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = req.url ?? '';
      if (req.method === 'GET' && url === `${API}/invocation/next`) {
        if (this.initDurationMs === undefined) {
          this.initDurationMs = performance.now() - this.spawnedAt;
          this.firstNext?.();
        }
        this.waitingNext = res;
        this.dispatch();
        return;
      }
      const match = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
      const done = this.current;
      if (req.method === 'POST' && match && done && done.requestId === match[1]) {
        this.current = undefined;
        const durationMs = performance.now() - done.startedAt!;
        if (match[2] === 'response') done.resolve({ ok: true, result: body ? JSON.parse(body) : null, durationMs });
        else {
          const error = parseError(body);
          done.resolve({ ok: false, errorType: String(req.headers['lambda-runtime-function-error-type'] ?? error.errorType), errorMessage: error.errorMessage, durationMs });
        }
        res.writeHead(202).end('{"status":"OK"}');
        this.dispatch();
        return;
      }
      if (req.method === 'POST' && url === `${API}/init/error`) {
        this.initError = body;
        res.writeHead(202).end('{"status":"OK"}');
        return;
      }
      res.writeHead(404).end(JSON.stringify({ errorMessage: `Unknown Runtime API request ${req.method} ${url}` }));
    });
  }

  private failAll(): void {
    const message = this.describeFailure(`${this.options.name}: the runtime ${this.exited}`);
    for (const pending of [this.current, ...this.queue]) pending?.resolve({ ok: false, errorType: 'Runtime.Exited', errorMessage: message, durationMs: 0 });
    this.current = undefined;
    this.queue = [];
  }
}

function parseError(body: string): { errorType: string; errorMessage: string } {
  try {
    const parsed = JSON.parse(body) as { errorType?: string; errorMessage?: string };
    return { errorType: parsed.errorType ?? 'Unknown', errorMessage: parsed.errorMessage ?? body };
  } catch {
    return { errorType: 'Unknown', errorMessage: body };
  }
}

function timeout(ms: number, message: () => string): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(message())), ms).unref());
}
