import { expect } from 'vitest';
import { reasonPhrase } from '../../shared/errors.ts';
import { ERRORS_DOC_PATH } from '../../shared/http/request-id.ts';
import type { TestResponse } from './sandbox.ts';

/** Text that only a leaked stack trace or source location would contain. */
const STACK_TRACE = /\n\s+at |\bat [\w.<>]+ \(|\.(ts|js|mjs):\d+:\d+|node_modules|file:\/\//;

/** No answer, success or error, may carry a stack trace or a source path. */
export function expectNoStackTrace(res: TestResponse): void {
  expect(res.text, `stack trace or source path in: ${res.text.slice(0, 300)}`).not.toMatch(STACK_TRACE);
}

/** Every API answer is JSON, never cached, never sniffed. */
export function expectSecurityHeaders(res: TestResponse): void {
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
}

/** The request id of an answer: its Request-Id header, `req_` + API Gateway's (the sandbox's) request id. */
export function expectRequestId(res: TestResponse): string {
  const requestId = res.headers.get('request-id');
  expect(requestId, 'Request-Id header').toMatch(/^req_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  return requestId!;
}

/** An answer's body without its request id, which differs by design between two otherwise identical answers. */
export function withoutRequestId(body: Record<string, unknown>): Record<string, unknown> {
  const { requestId, ...rest } = body;
  expect(requestId).toMatch(/^req_/);
  return rest;
}

/** A test sandbox's docUrl of a code: its own errors page (http://localhost:<its port>/docs/errors), anchored at the code. */
export const expectDocUrl = (code: string) => expect.stringMatching(new RegExp(`^http://localhost:\\d+${ERRORS_DOC_PATH}#error-${code}$`));

/**
 * Asserts the one error shape of the API, in full: exactly `{ statusCode, error, message, code }` plus `field`
 * when one is expected (and no `field` when none is), the request id (body and Request-Id header) and the code's
 * docUrl, and, when the input had problems, `errors` whose first entry is the one in message/field/code; with the
 * security headers and no stack trace. Returns the body for further checks on the message.
 *
 * @example
 * expectError(res, 400, 'parameter_invalid', 'amountMinor');
 */
export function expectError(res: TestResponse, status: number, code: string, field?: string): { message: string } {
  expect(res.status, `unexpected status; body: ${res.text}`).toBe(status);
  const { errors, ...body } = res.body as { errors?: unknown[]; message: string };
  expect(body).toEqual({
    statusCode: status,
    // The table the API renders from: one list of phrases, not two that can drift.
    error: reasonPhrase[status],
    message: expect.any(String),
    code,
    ...(field === undefined ? {} : { field }),
    requestId: expectRequestId(res),
    docUrl: expectDocUrl(code),
  });
  if (errors !== undefined) expect(errors[0]).toEqual({ ...(field === undefined ? {} : { param: field }), code, message: body.message });
  expect((res.body as { message: string }).message.length).toBeGreaterThan(0);
  expectSecurityHeaders(res);
  expectNoStackTrace(res);
  return res.body as { message: string };
}

/** The 429 body exactly as the spec gives it (plus our machine code), with a Retry-After in whole seconds. */
export function expectRateLimited(res: TestResponse): number {
  expect(res.status, `unexpected status; body: ${res.text}`).toBe(429);
  expect(res.body).toEqual({
    statusCode: 429,
    error: 'Too Many Requests',
    message: 'Rate limit exceeded. Please retry later.',
    code: 'rate_limited',
    requestId: expectRequestId(res),
    docUrl: expectDocUrl('rate_limited'),
  });
  expectSecurityHeaders(res);
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}
