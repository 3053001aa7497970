import { App, Stack } from 'aws-cdk-lib';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeOpenApiDocument } from '../../infra/constructs/api.ts';
import { ServiceFunction } from '../../infra/constructs/service-function.ts';
import { readStageConfig } from '../../infra/stage-config.ts';
import { servedOpenApiDocument } from '../../shared/openapi/openapi-document.ts';
import { isPublicRoute } from '../../shared/openapi/operation-descriptions.ts';
import { routeIds, routes } from '../../shared/routes.ts';
import { functionAssetDir, provideRuntimeSdk } from '../support/lambda-runtime.ts';

const run = promisify(execFile);

const INVOKE = `
const [file, event] = process.argv.slice(1);
const { handler } = await import(file);
const result = await handler(JSON.parse(event), { awsRequestId: 'req-1', functionName: 'openapi', getRemainingTimeInMillis: () => 10000 });
console.log('RESULT ' + JSON.stringify(result));
`;

/** The Lambda of GET /v1/openapi.json, built as the stack builds it: its document is written beside the bundle, which holds no handler. */
describe('the OpenAPI document function bundle', () => {
  let bundle: string;
  beforeAll(() => {
    const app = new App();
    const stack = new Stack(app, 'OpenApiBundleTest');
    const { entry } = routes.getOpenApiDocument;
    new ServiceFunction(stack, 'OpenApi', { config: readStageConfig(app.node), entry, description: 'openapi bundle test', environment: {}, afterBundling: writeOpenApiDocument });
    const assembly = app.synth();
    provideRuntimeSdk(assembly.directory);
    bundle = join(functionAssetDir(assembly.directory), 'index.mjs');
  }, 120_000);

  it('holds no other handler: the document ships beside it as JSON', () => {
    expect(readdirSync(join(bundle, '..')).sort()).toEqual(['index.mjs', 'index.mjs.map', 'openapi.json']);
    expect(readFileSync(bundle, 'utf8')).not.toContain('CreateSessionRequest');
    // The size of any route's bundle (test/infra/function-bundle.test.ts); 778 KB when it built the document itself.
    expect(statSync(bundle).size).toBeLessThan(360 * 1024);
  });

  it('answers the whole document on Node.js 22 without the project around it', async () => {
    const event = { resource: '/v1/openapi.json', path: '/v1/openapi.json', httpMethod: 'GET', headers: {}, multiValueHeaders: {}, queryStringParameters: null, multiValueQueryStringParameters: null, pathParameters: null, stageVariables: null, body: null, isBase64Encoded: false, requestContext: { requestId: 'req-1', stage: 'dev', httpMethod: 'GET', path: '/dev/v1/openapi.json', resourcePath: '/v1/openapi.json' } };
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', INVOKE, pathToFileURL(bundle).href, JSON.stringify(event)], {
      cwd: join(bundle, '..'),
      env: { PATH: process.env.PATH, TABLE_NAME: 'unused', CHECKOUT_BASE_URL: 'https://checkout.example.com', POWERTOOLS_LOG_LEVEL: 'ERROR', AWS_REGION: 'us-east-1' },
    });
    const result = JSON.parse(stdout.split('\n').find((l) => l.startsWith('RESULT '))!.slice('RESULT '.length)) as { statusCode: number; body: string };
    expect(result.statusCode).toBe(200);
    const document = JSON.parse(result.body) as { paths: Record<string, Record<string, { operationId: string }>> };
    const operations = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(operations.sort()).toEqual(routeIds.filter(isPublicRoute).sort());
    // The same document the sandbox serves, built from the schemas of this source tree.
    expect(document).toEqual(JSON.parse(JSON.stringify(await servedOpenApiDocument())));
  }, 60_000);
});
