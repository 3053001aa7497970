import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
/** A fresh Node.js process compiling TypeScript and loading the tracer: seconds on a loaded machine. */
const CHILD_TIMEOUT_MS = 60_000;
const RESULT = 'RESULT ';
const CARD = '4111111111111111';
const SECRET = 'sk_test_outbound_trace';

const sharedModule = (path: string) => new URL(`../../shared/${path}`, import.meta.url).href;

/**
 * Runs in a fresh process as a Lambda container would: the bank and merchant calls of two invocations, each with its
 * own trace header, as the runtime sets it. `xrayLoaded` records whether the X-Ray SDK was loaded at each point.
 */
const CHILD = `
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const xrayLoaded = () => Object.keys(require.cache).some((file) => file.includes('/aws-xray-sdk-core/'));
const { bankRequest } = await import(${JSON.stringify(sharedModule('gateways/bank-http.ts'))});
const { createHttpPost } = await import(${JSON.stringify(sharedModule('webhooks/http-post.ts'))});
const [bank, closedPort, traceA, traceB] = process.argv.slice(1);
const loaded = { atImport: xrayLoaded() };
const call = (path, url = bank + path) => bankRequest({ connector: 'svc_reference', method: 'POST', url: url + '?card=${CARD}', body: { card: '${CARD}' }, headers: { authorization: 'Bearer ${SECRET}' }, timeoutMs: 5000 })
  .then((reply) => reply.status, (error) => error.name);
const answers = [];
process.env._X_AMZN_TRACE_ID = traceA;
for (const path of ['/ok', '/declined', '/down']) answers.push(await call(path));
answers.push(await call('/refused', closedPort + '/refused'));
loaded.afterCalls = xrayLoaded();
// The runtime's next invocation: a new trace header, on the same container's tracer.
await new Promise((resolve) => setTimeout(resolve, 10));
process.env._X_AMZN_TRACE_ID = traceB;
answers.push(await call('/ok'));
const post = createHttpPost({ allowLoopback: true });
answers.push((await post(bank + '/hooks/secret-token', { headers: {}, body: '{}' })).statusCode);
console.log(${JSON.stringify(RESULT)} + JSON.stringify({ answers, loaded }));
`;

interface Document {
  name: string;
  type?: string;
  trace_id?: string;
  parent_id?: string;
  namespace?: string;
  annotations?: Record<string, string | number>;
  http?: { request?: { method?: string; url?: string }; response?: { status?: number } };
  error?: boolean;
  fault?: boolean;
  throttle?: boolean;
  cause?: { exceptions?: { message?: string }[] };
}

const STATUS: Record<string, number> = { '/ok': 200, '/declined': 402, '/down': 503, '/hooks/secret-token': 204 };
const TRACE_A = { root: '1-6740a1b2-0123456789abcdef01234567', parent: '0123456789abcdef' };
const TRACE_B = { root: '1-6740a1b3-89abcdef0123456789abcdef', parent: 'fedcba9876543210' };
const header = (t: typeof TRACE_A) => `Root=${t.root};Parent=${t.parent};Sampled=1`;

describe('traceOutbound', () => {
  let bank: Server;
  let bankUrl: string;
  let closedPort: string;

  beforeAll(async () => {
    // The bank and the merchant: one local server answering each path with its status.
    bank = createServer((req, res) => res.writeHead(STATUS[new URL(req.url!, 'http://x').pathname] ?? 404, { 'content-type': 'application/json' }).end('{}'));
    await new Promise<void>((resolve) => bank.listen(0, resolve));
    bankUrl = `http://localhost:${(bank.address() as AddressInfo).port}`;
    // A port nobody listens on: the connection is refused.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    closedPort = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
  });
  afterAll(() => new Promise((resolve) => bank.close(resolve)));

  /** Runs CHILD with the environment given, a stand-in X-Ray daemon receiving what the SDK sends; returns both. */
  const runChild = async (environment: Record<string, string>) => {
    const daemon = createSocket('udp4');
    const datagrams: string[] = [];
    daemon.on('message', (message) => datagrams.push(message.toString('utf8')));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', CHILD, bankUrl, closedPort, header(TRACE_A), header(TRACE_B)], {
        env: { PATH: process.env.PATH, AWS_REGION: 'us-east-1', AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`, ...environment },
      });
      // The child has exited, so every datagram is sent; give the loopback a moment to deliver them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      const line = stdout.split('\n').find((l) => l.startsWith(RESULT))!;
      const result = JSON.parse(line.slice(RESULT.length)) as { answers: (number | string)[]; loaded: { atImport: boolean; afterCalls: boolean } };
      // Each datagram is a header line, then the document.
      return { ...result, datagrams, documents: datagrams.map((d) => JSON.parse(d.slice(d.indexOf('\n') + 1)) as Document) };
    } finally {
      daemon.close();
    }
  };

  describe('in Lambda with active tracing', () => {
    let traced: Awaited<ReturnType<typeof runChild>>;
    beforeAll(async () => {
      // What the Lambda runtime sets: the X-Ray SDK and Powertools take these as "in Lambda".
      traced = await runChild({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', LAMBDA_TASK_ROOT: process.cwd(), AWS_LAMBDA_FUNCTION_NAME: 'outbound-trace-test' });
    }, CHILD_TIMEOUT_MS);

    it('answers as untraced calls do', () => {
      expect(traced.answers).toEqual([200, 402, 503, 'GatewayUnavailableError', 200, 204]);
    });

    it('loads the X-Ray SDK on the first outbound call, not when the module is imported', () => {
      expect(traced.loaded).toEqual({ atImport: false, afterCalls: true });
    });

    it("records each bank call as a remote subsegment of the invocation's segment, named by host, annotated with the connector and status", () => {
      const bankCalls = traced.documents.filter((d) => d.annotations?.peer === 'svc_reference');
      expect(bankCalls).toHaveLength(5);
      const host = new URL(bankUrl).host;
      expect(bankCalls[0]).toMatchObject({
        type: 'subsegment',
        name: host,
        namespace: 'remote',
        trace_id: TRACE_A.root,
        parent_id: TRACE_A.parent,
        annotations: { peer: 'svc_reference', status: 200 },
        http: { request: { method: 'POST', url: `${bankUrl}/ok` }, response: { status: 200 } },
      });
      expect(bankCalls[0]).not.toHaveProperty('error');
      expect(bankCalls[0]).not.toHaveProperty('fault');
    });

    it("marks a bank's 4xx an error, never a fault, and a 5xx or a refused connection a fault", () => {
      const byUrl = (path: string) => traced.documents.find((d) => d.http?.request?.url?.endsWith(path))!;
      expect(byUrl('/declined')).toMatchObject({ error: true, annotations: { status: 402 } });
      expect(byUrl('/declined')).not.toHaveProperty('fault');
      expect(byUrl('/down')).toMatchObject({ fault: true, annotations: { status: 503 } });
      const refused = byUrl('/refused');
      expect(refused).toMatchObject({ fault: true, name: new URL(closedPort).host });
      expect(refused.cause?.exceptions?.[0]?.message).toMatch(/could not be reached/);
    });

    it("puts the next invocation's calls in the next invocation's trace", () => {
      const second = traced.documents.filter((d) => d.trace_id === TRACE_B.root);
      expect(second.map((d) => d.annotations)).toEqual([
        { peer: 'svc_reference', status: 200 },
        { peer: 'merchant', status: 204 },
      ]);
      for (const d of second) expect(d.parent_id).toBe(TRACE_B.parent);
    });

    it("records a merchant's webhook URL by its origin only: the path may be the merchant's secret", () => {
      const merchant = traced.documents.find((d) => d.annotations?.peer === 'merchant');
      expect(merchant?.http).toEqual({ request: { method: 'POST', url: bankUrl }, response: { status: 204 } });
    });

    it('records no query string, body or header: no card number, no credential', () => {
      expect(traced.datagrams.length).toBeGreaterThan(0);
      for (const datagram of traced.datagrams) {
        expect(datagram).not.toContain(CARD);
        expect(datagram).not.toContain(SECRET);
        expect(datagram).not.toContain('secret-token');
      }
    });
  });

  it('outside Lambda loads no tracer and sends nothing, and the calls answer alike', async () => {
    const untraced = await runChild({});
    expect(untraced.answers).toEqual([200, 402, 503, 'GatewayUnavailableError', 200, 204]);
    expect(untraced.loaded).toEqual({ atImport: false, afterCalls: false });
    expect(untraced.datagrams).toEqual([]);
  }, CHILD_TIMEOUT_MS);
});
