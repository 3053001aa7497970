import { App, Stack } from 'aws-cdk-lib';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REQUIRE_BANNER } from '../../infra/constructs/builtin-requires.ts';
import { LAYER_EXTERNALS, powertoolsLayerModules } from '../../infra/constructs/powertools-layer.ts';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { buildFunctionBundles, functionEntries, type FunctionBundle } from '../../infra/function-bundles.ts';
import { readStageConfig } from '../../infra/stage-config.ts';
import { createMerchant, type MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import { errorBody } from '../../shared/http/response.ts';
import { OPERATION_SUMMARIES } from '../../shared/openapi/operation-summaries.ts';
import { routeIds, routes } from '../../shared/routes.ts';
import { QUEUE_SUMMARIES, WORKER_SUMMARIES } from '../../infra/constructs/background-summaries.ts';
import { workers } from '../../shared/workers.ts';
import { createApiKeyStore } from '../../shared/store/api-key-store.ts';
import { createMerchantStore } from '../../shared/store/merchant-store.ts';
import { testConnection, testDb } from '../support/dynamo.ts';
import { functionAssetDir, provideRuntimeSdk } from '../support/lambda-runtime.ts';
import { SYNTH_TIMEOUT_MS } from './stage-context.ts';
import { DEFAULT_DOCS_BASE_URL, docUrlFor } from '../../shared/http/request-id.ts';

const run = promisify(execFile);
/** A fresh Node.js process loading a bundle: a second alone, far more on a loaded CI machine. */
const BUNDLE_RUN_TIMEOUT_MS = 120_000;
const RESULT = 'RESULT ';
/** Issue 22's bound for every function: what Lambda downloads and Node.js parses at each cold start. */
const MAX_BUNDLE_BYTES = 250 * 1024;

/**
 * Imports the bundle in a fresh Node.js process, as the Lambda runtime does, and calls its handler once if given an
 * event. Reports whether the X-Ray SDK (in the layer's tracer module, seen by a load hook) was loaded at init and after.
 */
const INVOKE = `
import { registerHooks } from 'node:module';
const loaded = new Set();
registerHooks({ load(url, context, nextLoad) { loaded.add(url); return nextLoad(url, context); } });
// The layer's tracer module holds the X-Ray SDK (infra/constructs/powertools-layer.ts): loading one loads the other.
const xrayLoaded = () => [...loaded].some((url) => url.includes('/@aws-lambda-powertools/tracer/'));
const [file, event] = process.argv.slice(1);
const { handler } = await import(file);
const xrayAtInit = xrayLoaded();
const context = { awsRequestId: 'req-1', functionName: 'bundle-test', getRemainingTimeInMillis: () => 10000 };
const answer = event ? await handler(JSON.parse(event), context) : null;
console.log(${JSON.stringify(RESULT)} + JSON.stringify({ answer, xrayAtInit, xrayAfter: xrayLoaded() }));
`;

function listSessionsEvent(key?: string) {
  return {
    resource: '/v1/sessions',
    path: '/v1/sessions',
    httpMethod: 'GET',
    headers: key ? { Authorization: `Bearer ${key}` } : {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req-1', stage: 'dev', httpMethod: 'GET', path: '/dev/v1/sessions', resourcePath: '/v1/sessions' },
  };
}

describe('route function bundle', () => {
  let bundleDir: string;
  let keys: MerchantKeys;

  beforeAll(async () => {
    // One route function through the same construct, so CDK runs esbuild with the stack's bundling options.
    const app = new App();
    const stack = new Stack(app, 'BundleTest');
    const { entry } = routes.listSessions;
    new ServiceFunction(stack, 'ListSessions', { config: readStageConfig(app.node), entry, description: 'bundle test', environment: {} });
    const assembly = app.synth();
    bundleDir = functionAssetDir(assembly.directory);
    provideRuntimeSdk(assembly.directory);

    const db = testDb();
    const stores = { merchants: createMerchantStore(db, testConnection().tableName), apiKeys: createApiKeyStore(db, testConnection().tableName) };
    ({ keys } = await createMerchant(stores, { name: 'Bundle test merchant', now: new Date() }));
    db.destroy();
  }, SYNTH_TIMEOUT_MS);

  let allDir: string;
  let all: FunctionBundle[];
  beforeAll(async () => {
    // Every function in one esbuild run with the stack's options: 56 CDK bundlings would take minutes.
    allDir = mkdtempSync(join(tmpdir(), 'function-bundles-'));
    all = await buildFunctionBundles(allDir);
    provideRuntimeSdk(allDir);
  }, SYNTH_TIMEOUT_MS);
  afterAll(() => rmSync(allDir, { recursive: true, force: true }));

  /** Runs the bundle `file` (the listSessions one by default), with its handler called on `event` if one is given. */
  const load = async (event: unknown, runtime: Record<string, string> = {}, file = join(bundleDir, 'index.mjs')) => {
    const { endpoint, tableName } = testConnection();
    const args = ['--input-type=module', '-e', INVOKE, pathToFileURL(file).href, ...(event ? [JSON.stringify(event)] : [])];
    const { stdout } = await run(process.execPath, args, {
      // Only what the stack sets, plus what the Lambda runtime provides (the SDK, the layer); no project on the module path.
      cwd: dirname(file),
      env: {
        PATH: process.env.PATH,
        TABLE_NAME: tableName,
        CHECKOUT_BASE_URL: 'https://checkout.example.com',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        DYNAMODB_ENDPOINT: endpoint,
        AWS_REGION: 'us-east-1',
        // What the runtime sets: code that runs in Lambda only (shared/observability/outbound-trace.ts) runs here too.
        AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
        ...runtime,
      },
    }).catch((error: { stderr?: string }) => {
      // Node prints the failing line of the bundle: one minified line of a megabyte. Keep the readable lines.
      throw new Error(`The bundle failed in Node.js:\n${(error.stderr ?? '').split('\n').filter((l) => l.length < 300).join('\n')}`);
    });
    const line = stdout.split('\n').find((l) => l.startsWith(RESULT));
    type Answer = { statusCode: number; headers: Record<string, string>; body: string };
    return JSON.parse(line!.slice(RESULT.length)) as { answer: Answer; xrayAtInit: boolean; xrayAfter: boolean };
  };
  const invoke = async (event: unknown) => (await load(event)).answer;

  it('is one ES module with its source map', () => {
    expect(readdirSync(bundleDir).sort()).toEqual(['index.mjs', 'index.mjs.map']);
  });

  it('is, byte for byte, the bundle the all-functions build makes of its entry', () => {
    const built = all.find((b) => b.id === 'listSessions')!;
    expect(readFileSync(built.file, 'utf8')).toBe(readFileSync(join(bundleDir, 'index.mjs'), 'utf8'));
  });

  it('keeps every function of the stack, route or worker, within 250 KB', () => {
    expect(all.map((b) => b.id).sort()).toEqual(functionEntries().map((f) => f.id).sort());
    for (const bundle of all) expect(statSync(bundle.file).size).toBe(bundle.bytes);
    const over = all.filter((b) => b.bytes > MAX_BUNDLE_BYTES).map((b) => `${b.id}: ${(b.bytes / 1024).toFixed(1)} KB`);
    expect(over).toEqual([]);
  });

  it('holds no answer schema and none of the OpenAPI texts: they are for the document and the types only', () => {
    // GET /v1/openapi.json's own function serves the built document (served-document.ts); nothing else of openapi/.
    const documentOnly = /shared\/(schemas\/[a-z-]+-responses\.ts|openapi\/(?!served-document\.ts))/;
    for (const bundle of all) expect(Object.keys(bundle.inputs).filter((input) => documentOnly.test(input)), bundle.id).toEqual([]);
  });

  it('holds no summary of a route, worker or queue: they are for the document and the stack only', () => {
    const summaries = [...Object.values(OPERATION_SUMMARIES), ...Object.values(WORKER_SUMMARIES), ...Object.values(QUEUE_SUMMARIES)];
    expect(summaries.length).toBeGreaterThan(routeIds.length);
    for (const bundle of all) {
      const code = readFileSync(bundle.file, 'utf8');
      expect(summaries.filter((summary) => code.includes(summary)), bundle.id).toEqual([]);
    }
  });

  it("leaves the Powertools layer's packages out of every bundle and imports them from the layer", () => {
    const fromLayer = new RegExp(`node_modules/(${LAYER_EXTERNALS.join('|')}|aws-xray-sdk-core|cls-hooked)/`);
    for (const bundle of all) expect(Object.keys(bundle.inputs).filter((input) => fromLayer.test(input)), bundle.id).toEqual([]);
    const code = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');
    expect(code).toMatch(/from\s*"@aws-lambda-powertools\/logger"/);
  });

  it('imports no Node.js built-in as an ES module, in any bundle or the layer: each comes through require', () => {
    // An ES import makes Node read every export of the module, lazy getters included (builtin-requires.ts). The
    // banner's import of node:module, which defines `require`, is the one exception.
    const esImports = (code: string) =>
      [...code.replace(REQUIRE_BANNER, '').matchAll(/(?:from|import)\s*["'](?:node:)?([a-z_/]+)["']/g)].map((m) => m[1]!).filter((name) => isBuiltin(name));
    for (const bundle of all) expect(esImports(readFileSync(bundle.file, 'utf8')), bundle.id).toEqual([]);
    const layer = powertoolsLayerModules();
    const layerFiles = readdirSync(layer, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.mjs'));
    expect(layerFiles.length).toBeGreaterThan(3);
    for (const file of layerFiles) expect(esImports(readFileSync(join(layer, file), 'utf8')), file).toEqual([]);
  });

  it('imports the tracer on first use only, and into every function that calls outside AWS', () => {
    const code = (bundle: FunctionBundle) => readFileSync(bundle.file, 'utf8');
    // A static import (`import … from "…"` or `import "…"`) would load the X-Ray SDK at init.
    for (const bundle of all) expect(code(bundle), bundle.id).not.toMatch(/(from|import)\s*"@aws-lambda-powertools\/tracer"/);
    const needs = new Map<string, readonly string[]>([...Object.entries(routes), ...Object.entries(workers)].map(([id, entry]) => [id, 'needs' in entry ? entry.needs : []]));
    const callers = all.filter((b) => needs.get(b.id)!.some((need) => need === 'gateways' || need === 'outboundHttp'));
    expect(callers.map((b) => b.id)).toEqual(expect.arrayContaining(['createCheckoutCharge', 'sendWebhooks']));
    for (const bundle of callers) expect(code(bundle), bundle.id).toMatch(/import\("@aws-lambda-powertools\/tracer"\)/);
    // Not found in a function that calls nothing outside AWS (matches listed, not the minified bundle, if it is).
    expect(code(all.find((b) => b.id === 'listSessions')!).match(/@aws-lambda-powertools\/tracer/g)).toBeNull();
  });

  it('imports the AWS SDK from the runtime instead of bundling it', () => {
    const code = readFileSync(join(bundleDir, 'index.mjs'), 'utf8');
    expect(code).toMatch(/from\s*"@aws-sdk\/client-dynamodb"/);
    expect(code).toMatch(/from\s*"@aws-sdk\/lib-dynamodb"/);
  });

  it('loads on Node.js 22 without the project and answers a request from the table', async () => {
    const result = await invoke(listSessionsEvent(keys.secretTest));
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ data: [], total: 0, page: 1, pageSize: 10 });
  });

  /** Runs the bundle with Lambda tracing on, a stand-in X-Ray daemon receiving what it sends; also returns what it received. */
  const loadTraced = async (event: unknown, file?: string) => {
    // A stand-in for the X-Ray daemon the Lambda runtime provides: the SDK sends it segment documents over UDP.
    const daemon = createSocket('udp4');
    const datagrams: string[] = [];
    daemon.on('message', (message) => datagrams.push(message.toString('utf8')));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
    try {
      const result = await load(
        event,
        {
          LAMBDA_TASK_ROOT: file ? dirname(file) : bundleDir,
          _HANDLER: 'index.handler',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
          _X_AMZN_TRACE_ID: 'Root=1-6740a1b2-0123456789abcdef01234567;Parent=0123456789abcdef;Sampled=1',
        },
        file,
      );
      // The child process has exited, so every datagram is sent; give the loopback a moment to deliver them.
      await new Promise((resolve) => setTimeout(resolve, 200));
      return { ...result, datagrams };
    } finally {
      daemon.close();
    }
  };

  it('with Lambda tracing on, loads no X-Ray SDK and sends no subsegment for a request that calls nothing outside AWS', async () => {
    // Lambda's active tracing records the invocation itself; the function adds nothing to it.
    const { answer, xrayAtInit, xrayAfter, datagrams } = await loadTraced(listSessionsEvent(keys.secretTest));
    expect(answer.statusCode).toBe(200);
    expect({ xrayAtInit, xrayAfter }).toEqual({ xrayAtInit: false, xrayAfter: false });
    expect(datagrams).toEqual([]);
  }, BUNDLE_RUN_TIMEOUT_MS);

  it("loads a bank-calling function's bundle without the X-Ray SDK: the tracer waits for the first bank call", async () => {
    // Its bank call traced as a subsegment: test/observability/outbound-trace.test.ts.
    const { xrayAtInit } = await loadTraced(null, all.find((b) => b.id === 'createCheckoutCharge')!.file);
    expect(xrayAtInit).toBe(false);
  }, BUNDLE_RUN_TIMEOUT_MS);

  it('answers a request without a key in the API error shape', async () => {
    const result = await invoke(listSessionsEvent());
    expect(result.statusCode).toBe(401);
    const body = JSON.parse(result.body) as { message: string };
    // The Lambda request id of the test event (req-1) stands in for API Gateway's.
    expect(body).toEqual({ ...errorBody(401, 'invalid_api_key', body.message), requestId: 'req_req-1', docUrl: docUrlFor(DEFAULT_DOCS_BASE_URL, 'invalid_api_key') });
  });
});
