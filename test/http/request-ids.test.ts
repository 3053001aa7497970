import type { APIGatewayProxyEvent } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../infra/sandbox/api-gateway-event.ts';
import { formatRequestLine, RequestLog, type RequestLogEntry } from '../../infra/sandbox/request-log.ts';
import { startSandboxServer } from '../../infra/sandbox/server.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { createLogger } from '../../shared/observability/logger.ts';
import { SessionReferenceParamsSchema } from '../../shared/schemas/session-schemas.ts';
import { expectError, expectRequestId } from '../support/assertions.ts';
import { openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';
import { docsBaseUrlAt, docUrlFor } from '../../shared/http/request-id.ts';

describe('request ids', () => {
  let sandbox: TestSandbox;
  let keys: MerchantKeys;
  let merchantId: string;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ keys, merchant: { id: merchantId } } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  it('puts a Request-Id on every success, different for each request, and on the checkout API', async () => {
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    const read = await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest });
    const checkout = await sandbox.request('GET', `/v1/checkout/sessions/${created.body.reference}`);
    const openapi = await sandbox.request('GET', '/v1/openapi.json');
    const ids = [created, read, checkout, openapi].map((res) => {
      expect(res.status).toBeLessThan(300);
      return expectRequestId(res);
    });
    expect(new Set(ids).size).toBe(4);
    expect(created.body).not.toHaveProperty('requestId');
  });

  it('answers every problem of an invalid input at once, the first also as message, field and code', async () => {
    const res = await sandbox.request('POST', '/v1/sessions', {
      key: keys.secretTest,
      body: { amountMinor: 0, description: 'x'.repeat(141), color: 'red', size: 'L', metadata: { orderId: 42 } },
    });
    const { message } = expectError(res, 400, 'parameter_invalid', 'amountMinor');
    expect(message).toBe('Invalid amountMinor: Too small: expected number to be >=1');
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { param: 'amountMinor', code: 'parameter_invalid', message },
        { param: 'currency', code: 'parameter_missing', message: 'Missing required parameter: currency.' },
        { param: 'description', code: 'parameter_invalid', message: expect.stringContaining('Invalid description') },
        { param: 'color', code: 'parameter_unknown', message: 'Unknown parameter: color.' },
        { param: 'size', code: 'parameter_unknown', message: 'Unknown parameter: size.' },
        { param: 'metadata.orderId', code: 'parameter_invalid', message: expect.stringContaining('Invalid metadata.orderId') },
      ]),
    );
    expect(res.body.errors).toHaveLength(6);
  });

  it('reports the path, query and body problems of one request together', async () => {
    const res = await sandbox.request('PATCH', '/v1/webhooks/endpoints/not_an_id', { key: keys.secretTest, body: { url: 7, colour: 'red' } });
    expectError(res, 400, 'parameter_invalid', 'path.id');
    expect(res.body.errors.map((e: { param: string }) => e.param).sort()).toEqual(['colour', 'path.id', 'url']);
  });

  it("gives every error answer its request id and its code's docUrl: the handlers', and the sandbox's own 404, 405, 413 and clock errors", async () => {
    const answers = [
      [await sandbox.request('GET', '/v1/sessions/cs_missing', { key: keys.secretTest }), 404, 'resource_missing'],
      [await sandbox.request('GET', '/v1/sessions', { key: 'sk_test_nope' }), 401, 'invalid_api_key'],
      [await sandbox.request('GET', '/v1/nothing-here'), 404, 'route_not_found'],
      [await sandbox.request('DELETE', '/v1/sessions', { key: keys.secretTest }), 405, 'method_not_allowed'],
      [await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: 'x'.repeat(1024 * 1024 + 1) }), 413, 'payload_too_large'],
      [await sandbox.request('POST', '/__sandbox/clock', { body: { advanceSeconds: -1 } }), 400, 'parameter_invalid'],
      [await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: '{"amountMinor":' }), 400, 'invalid_json'],
    ] as const;
    for (const [res, status, code] of answers) {
      expect(res.status, code).toBe(status);
      expect(res.body.requestId, code).toBe(expectRequestId(res));
      expect(res.body.docUrl, code).toBe(docUrlFor(docsBaseUrlAt(sandbox.url.replace('127.0.0.1', 'localhost')), code));
    }
  });

  it('keeps the last requests for the activity page, with the merchant each authenticated as', async () => {
    const session = await openSession(sandbox, keys.secretTest);
    const failed = await sandbox.request('POST', `/v1/sessions/${session.reference}/expire`, { key: keys.publishableTest });
    const entries = sandbox.server.requests.recent();
    const ours = entries.find((e) => e.requestId === failed.headers.get('request-id'));
    expect(ours).toMatchObject({ method: 'POST', path: `/v1/sessions/${session.reference}/expire`, status: 401, code: 'invalid_api_key', merchantId: null });
    expect(ours!.durationMs).toBeGreaterThanOrEqual(0);
    const created = entries.find((e) => e.path === '/v1/sessions' && e.status === 201 && e.merchantId === merchantId);
    expect(created).toMatchObject({ method: 'POST', code: null });
    expect(formatRequestLine(ours!)).toBe(`POST /v1/sessions/${session.reference}/expire 401 ${ours!.requestId} invalid_api_key ${ours!.durationMs} ms`);
    expect(formatRequestLine(created!)).toBe(`POST /v1/sessions 201 ${created!.requestId} ${created!.durationMs} ms`);
  });

  it('hands every API request to the onRequest hook once answered (npm start prints each as one line)', async () => {
    const seen: RequestLogEntry[] = [];
    const server = await startSandboxServer({ deps: sandbox.deps, clock: sandbox.clock, onRequest: (entry) => seen.push(entry) });
    try {
      const res = await fetch(`${server.url}/v1/sessions/cs_missing`, { headers: { authorization: `Bearer ${keys.secretTest}` } });
      expect(res.status).toBe(404);
      expect(seen).toEqual([expect.objectContaining({ method: 'GET', path: '/v1/sessions/cs_missing', status: 404, code: 'resource_missing', merchantId, requestId: res.headers.get('request-id') })]);
      expect(formatRequestLine(seen[0]!)).toMatch(/^GET \/v1\/sessions\/cs_missing 404 req_[0-9a-f-]{36} resource_missing \d+ ms$/);
    } finally {
      await server.close();
    }
  });

  it('keeps at most the last 200 requests, newest first', () => {
    const log = new RequestLog();
    for (let i = 0; i < 205; i++) log.add({ at: '', method: 'GET', path: `/v1/sessions?page=${i}`, status: 200, requestId: `req_${i}`, code: null, durationMs: 1, merchantId: null });
    const recent = log.recent();
    expect(recent).toHaveLength(200);
    expect(recent[0]!.requestId).toBe('req_204');
    expect(recent.at(-1)!.requestId).toBe('req_5');
  });

  it('writes the request id into every log line of the request, beside the Lambda request id', async () => {
    const { build } = defineApiHandler(manifest.getSession, { params: SessionReferenceParamsSchema }, async () => {
      throw new Error('boom');
    }, { userTokens: userTokensFromEnvironment });
    const handler = build({ ...sandbox.deps, logger: createLogger({ logLevel: 'INFO' }) });
    // Not a random UUID: its digits can run into a Luhn-valid 13-19 digit number, which the logger then masks as a
    // card number (it did once in CI: req_a71a96b***********2671af30ead889).
    const apiRequestId = 'abcdef01-abcd-4abc-8abc-abcdefabcdef';
    const event = {
      resource: '/v1/sessions/{reference}',
      path: '/v1/sessions/cs_abc',
      httpMethod: 'GET',
      headers: { Authorization: `Bearer ${keys.secretTest}` },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: { reference: 'cs_abc' },
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: apiRequestId },
    } as unknown as APIGatewayProxyEvent;
    const lines: string[] = [];
    const spies = [process.stdout, process.stderr].map((stream) =>
      vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
        lines.push(String(chunk));
        return true;
      }),
    );
    let answer;
    try {
      answer = await handler(event, lambdaContext('getSession', 'lambda-request-1'));
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    expect(answer.statusCode).toBe(500);
    expect(answer.headers?.['Request-Id']).toBe(`req_${apiRequestId}`);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'internal_error', requestId: `req_${apiRequestId}`, docUrl: docUrlFor(docsBaseUrlAt(sandbox.url.replace('127.0.0.1', 'localhost')), 'internal_error') });
    const logged = lines.flatMap((l) => l.split('\n')).filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged.find((l) => l.message === 'Unhandled error')).toMatchObject({ requestId: `req_${apiRequestId}`, function_request_id: 'lambda-request-1', route: 'getSession' });
  });
});
