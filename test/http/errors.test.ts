import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectError, expectNoStackTrace, expectSecurityHeaders } from '../support/assertions.ts';
import { startTestSandbox, type TestResponse, type TestSandbox } from '../support/sandbox.ts';
import type { MerchantKeys } from '../../shared/admin/merchant-admin.ts';

const VALID = { amountMinor: 1050, currency: 'VES' } as const;
const MAX_BODY_BYTES = 64 * 1024;

/** A create-session body of exactly `bytes` bytes (UTF-8), padded in the description. */
function bodyOfBytes(bytes: number): string {
  const skeleton = JSON.stringify({ ...VALID, description: '' });
  return JSON.stringify({ ...VALID, description: 'x'.repeat(bytes - Buffer.byteLength(skeleton)) });
}

describe('Errors', () => {
  let sandbox: TestSandbox;
  let keys: MerchantKeys;

  beforeAll(async () => {
    sandbox = await startTestSandbox();
    ({ keys } = await sandbox.newMerchant());
  });
  afterAll(() => sandbox.stop());

  /** A request sent with fetch itself, for bodies and headers the helper would normalise. */
  async function rawRequest(method: string, path: string, init: { headers?: Record<string, string>; body?: BodyInit }): Promise<TestResponse> {
    const res = await fetch(`${sandbox.url}${path}`, { method, ...init });
    const text = await res.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, body, text };
  }

  describe('404 route_not_found', () => {
    it.each(['/', '/v1', '/v1/nothing', '/v2/sessions', '/v1/sessions/', '/v1/sessions/cs_abc/expire/now', '/v1/Sessions'])(
      'for GET %s',
      async (path) => {
        const { message } = expectError(await sandbox.request('GET', path, { key: keys.secretTest }), 404, 'route_not_found');
        expect(message).toContain(path);
      },
    );
  });

  describe('405 method_not_allowed, with Allow', () => {
    it.each([
      ['DELETE', '/v1/sessions', ['GET', 'POST']],
      ['PUT', '/v1/sessions', ['GET', 'POST']],
      ['PATCH', '/v1/sessions/cs_abc123', ['GET']],
      ['DELETE', '/v1/sessions/cs_abc123', ['GET']],
      ['GET', '/v1/sessions/cs_abc123/expire', ['POST']],
    ])('for %s %s', async (method, path, allowed) => {
      const res = await sandbox.request(method, path, { key: keys.secretTest });
      expectError(res, 405, 'method_not_allowed');
      expect(res.headers.get('allow')?.split(/,\s*/).sort()).toEqual(allowed);
    });
  });

  describe('request bodies', () => {
    it.each([
      ['text/plain', 'text/plain', JSON.stringify(VALID)],
      ['a form encoding', 'application/x-www-form-urlencoded', 'amountMinor=1050&currency=VES'],
      ['XML', 'application/xml', '<session/>'],
    ])('answers 415 unsupported_media_type for a %s body', async (_label, contentType, body) => {
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: body, headers: { 'content-type': contentType } });
      const { message } = expectError(res, 415, 'unsupported_media_type');
      expect(message).toContain('application/json');
    });

    it('answers 415 for a JSON body sent without any Content-Type', async () => {
      const res = await rawRequest('POST', '/v1/sessions', {
        headers: { authorization: `Bearer ${keys.secretTest}` },
        body: new TextEncoder().encode(JSON.stringify(VALID)),
      });
      expectError(res, 415, 'unsupported_media_type');
    });

    it('accepts application/json with a charset', async () => {
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: VALID, headers: { 'content-type': 'application/json; charset=utf-8' } });
      expect(res.status).toBe(201);
    });

    it.each([
      ['truncated JSON', '{"amountMinor": 1050,'],
      ['plain text', 'amountMinor=1050'],
      ['single quotes', "{'amountMinor': 1050}"],
      ['a trailing comma', '{"amountMinor": 1050, "currency": "VES",}'],
    ])('answers 400 invalid_json for %s', async (_label, rawBody) => {
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody });
      const { message } = expectError(res, 400, 'invalid_json');
      expect(message).toBe('The request body is not valid JSON.');
    });

    it('answers 400 invalid_json for a body with a __proto__ key, and creates nothing', async () => {
      const { keys: own } = await sandbox.newMerchant();
      const res = await sandbox.request('POST', '/v1/sessions', { key: own.secretTest, rawBody: '{"amountMinor":1050,"currency":"VES","__proto__":{"admin":true}}' });
      expectError(res, 400, 'invalid_json');
      expect((await sandbox.request('GET', '/v1/sessions', { key: own.secretTest })).body.total).toBe(0);
    });

    it('echoes at most 64 characters of an unknown parameter name: a 10 KB key is not sent back whole (issue 33)', async () => {
      const key = `amount${'k'.repeat(10 * 1024)}`;
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { ...VALID, [key]: 1 } });
      const echoed = `${key.slice(0, 63)}…`;
      expect(expectError(res, 400, 'parameter_unknown', echoed).message).toBe(`Unknown parameter: ${echoed}.`);
      expect(res.body.errors).toHaveLength(1);
      expect(res.text).not.toContain('k'.repeat(64));
      expect(res.text.length).toBeLessThan(2_000);
    });

    it('answers 400 parameter_invalid, with no field, for an empty JSON body', async () => {
      const res = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: '' , headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'parameter_invalid');
    });

    it('accepts a body of exactly 64 KiB (then validates it) and answers 413 payload_too_large one byte over', async () => {
      const atLimit = bodyOfBytes(MAX_BODY_BYTES);
      expect(Buffer.byteLength(atLimit)).toBe(MAX_BODY_BYTES);
      expectError(await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: atLimit }), 400, 'parameter_invalid', 'description');

      const overLimit = bodyOfBytes(MAX_BODY_BYTES + 1);
      const { message } = expectError(await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: overLimit }), 413, 'payload_too_large');
      expect(message).toContain(String(MAX_BODY_BYTES));
    });

    it('counts the limit in bytes, not characters', async () => {
      const body = JSON.stringify({ ...VALID, description: 'é'.repeat(40_000) });
      expect(body.length).toBeLessThan(MAX_BODY_BYTES);
      expectError(await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: body }), 413, 'payload_too_large');
    });

    it('answers 413 for a body over 1 MiB at the HTTP front, before anything else', async () => {
      const res = await sandbox.request('POST', '/v1/sessions', { rawBody: bodyOfBytes(1024 * 1024 + 10) });
      expectError(res, 413, 'payload_too_large');
    });
  });

  describe('500', () => {
    it('answers a generic internal_error that reveals nothing of the failure', async () => {
      const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: VALID });
      const failure = new Error('connect ECONNREFUSED table svc-secret-internal at /srv/app/shared/store/session-store.ts:42:7');
      const spy = vi.spyOn(sandbox.deps.sessions, 'get').mockRejectedValueOnce(failure);
      try {
        const res = await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest });
        const { message } = expectError(res, 500, 'internal_error');
        expect(res.text).not.toContain('ECONNREFUSED');
        expect(res.text).not.toContain('svc-secret-internal');
        expect(message).toBe('An unexpected error occurred. It has been logged; retry later.');
      } finally {
        spy.mockRestore();
      }
      expect((await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest })).status).toBe(200);
    });
  });

  describe('security headers and no stack trace on every kind of answer', () => {
    let reference: string;
    let limited: string;
    beforeAll(async () => {
      reference = (await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: VALID })).body.reference;
      limited = (await sandbox.newMerchant({ changes: { rateLimits: { reads: { perMinute: 1, perDay: 1 } } } })).keys.secretTest;
      await sandbox.request('GET', '/v1/sessions', { key: limited });
    });

    it.each<[string, number, () => Promise<TestResponse>]>([
      ['201 create', 201, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: VALID })],
      ['200 get', 200, () => sandbox.request('GET', `/v1/sessions/${reference}`, { key: keys.secretTest })],
      ['200 list', 200, () => sandbox.request('GET', '/v1/sessions', { key: keys.secretTest })],
      ['400 validation', 400, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: {} })],
      ['401 no key', 401, () => sandbox.request('GET', '/v1/sessions')],
      ['403 read-only key', 403, () => sandbox.request('POST', '/v1/sessions', { key: keys.restrictedTest, body: VALID })],
      ['404 missing session', 404, () => sandbox.request('GET', '/v1/sessions/cs_nothing', { key: keys.secretTest })],
      ['404 no route', 404, () => sandbox.request('GET', '/nowhere')],
      ['405 wrong method', 405, () => sandbox.request('DELETE', '/v1/sessions')],
      ['409 mode mismatch', 409, () => sandbox.request('POST', `/v1/sessions/${reference}/expire`, { key: keys.secretLive })],
      ['413 too large', 413, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: bodyOfBytes(MAX_BODY_BYTES + 1) })],
      ['415 not JSON', 415, () => sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, rawBody: 'x', headers: { 'content-type': 'text/plain' } })],
      ['429 rate limited', 429, () => sandbox.request('GET', '/v1/sessions', { key: limited })],
    ])('%s', async (_label, status, send) => {
      const res = await send();
      expect(res.status, res.text).toBe(status);
      expectSecurityHeaders(res);
      expectNoStackTrace(res);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    });
  });
});
