/**
 * Issue 17 finding 10: requests Node's HTTP parser refuses (a 20 KB query, a 100 KB path, big headers, a method
 * `FOO`) got an empty 400/431, and bodies over the limit sometimes a reset connection instead of a readable 413.
 * Sent on raw sockets, since fetch refuses to send most of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketRequest, type SocketResponse } from '../support/raw-request.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('transport-level errors in the sandbox', { timeout: 180_000 }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  /** The one JSON error shape, with the request id, and a connection closed after the answer. */
  function expectJsonError(answer: SocketResponse, statusCode: number, code: string) {
    expect(answer.status, answer.text).toBe(statusCode);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.body).toMatchObject({ statusCode, code, message: expect.any(String), error: expect.any(String) });
    expect(answer.body.requestId).toMatch(/^req_/);
    expect(answer.headers['request-id']).toBe(answer.body.requestId);
    expect(answer.ended).toBe('end');
  }

  const get = (target: string, headers = '') => socketRequest(sandbox.url, `GET ${target} HTTP/1.1\r\nHost: sandbox\r\n${headers}Connection: close\r\n\r\n`);

  it('answers a 20 KB query string and a 100 KB path with a JSON 414', async () => {
    expectJsonError(await get(`/v1/sessions?q=${'a'.repeat(20 * 1024)}`), 414, 'invalid_request');
    expectJsonError(await get(`/v1/${'p'.repeat(100 * 1024)}`), 414, 'invalid_request');
    // Under the parser's limit but over the URL limit: the same answer.
    expectJsonError(await get(`/v1/sessions?q=${'a'.repeat(9 * 1024)}`), 414, 'invalid_request');
  });

  it('answers headers over 16 KB with a JSON 431', async () => {
    expectJsonError(await get('/v1/sessions', `X-Padding: ${'h'.repeat(20 * 1024)}\r\n`), 431, 'invalid_request');
  });

  it('answers a method the parser does not know, and a malformed request line, with a JSON 400', async () => {
    expectJsonError(await socketRequest(sandbox.url, 'FOO /v1/sessions HTTP/1.1\r\nHost: sandbox\r\nConnection: close\r\n\r\n'), 400, 'invalid_request');
    expectJsonError(await socketRequest(sandbox.url, 'GET /v1/sessions HTTP/9\r\n\r\n'), 400, 'invalid_request');
    expectJsonError(await socketRequest(sandbox.url, 'GET /v1/sessions HTTP/1.1\r\nBad Header Line\r\n\r\n'), 400, 'invalid_request');
  });

  it('answers bodies over 1 MB with a readable JSON 413, never a reset connection, every time', async () => {
    const { keys } = await sandbox.newMerchant();
    for (const size of [1024 * 1024 + 1, 2 * 1024 * 1024, 5 * 1024 * 1024, 2 * 1024 * 1024, 3 * 1024 * 1024 + 7]) {
      const body = Buffer.alloc(size, 'a');
      const head = `POST /v1/sessions HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${keys.secretTest}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`;
      expectJsonError(await socketRequest(sandbox.url, head, body), 413, 'payload_too_large');
    }
  });

  it('still serves ordinary requests', async () => {
    const { keys } = await sandbox.newMerchant();
    const answer = await get('/v1/sessions', `Authorization: Bearer ${keys.secretTest}\r\n`);
    expect(answer.status).toBe(200);
  });
});
