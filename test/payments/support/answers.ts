import { expect } from 'vitest';
import type { TestResponse } from '../../support/sandbox.ts';

/** A refusal in the one JSON error shape, by status and code (the full shape is test/http's concern). */
export function expectRefused(res: TestResponse, status: number, code: string): void {
  expect(res.status, `unexpected status; body: ${res.text}`).toBe(status);
  expect(res.body).toMatchObject({ statusCode: status, code, message: expect.any(String) });
}

/** The spec's 429: its body and a Retry-After in whole seconds, which it returns. */
export function expectRateLimited(res: TestResponse): number {
  expectRefused(res, 429, 'rate_limited');
  expect(res.body).toMatchObject({ error: 'Too Many Requests', message: 'Rate limit exceeded. Please retry later.' });
  const retryAfter = res.headers.get('retry-after');
  expect(retryAfter).toMatch(/^[1-9]\d*$/);
  return Number(retryAfter);
}
