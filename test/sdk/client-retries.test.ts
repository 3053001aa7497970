import { describe, expect, it } from 'vitest';
import { createSvcClient, SvcApiError } from '../../shared/client/index.ts';

/**
 * The client's retry policy, decided on the answers alone: a scripted fetch answers each attempt in turn and records
 * what was sent. (The real round trip, a lost answer retried against the sandbox, is in sdk-package.test.ts.)
 */
function scripted(answers: (Response | Error)[]) {
  const sent: { method: string; url: string; idempotencyKey: string | undefined; at: number }[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    const headers = init?.headers as Record<string, string>;
    sent.push({ method: init?.method ?? 'GET', url: String(url), idempotencyKey: headers['idempotency-key'], at: Date.now() });
    const answer = answers.shift();
    if (!answer) throw new Error('no more scripted answers');
    if (answer instanceof Error) throw answer;
    return answer;
  };
  return { sent, fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const error = (statusCode: number, code: string) => ({ statusCode, error: 'x', message: code, code, requestId: 'req_1', docUrl: `http://localhost:4010/docs/errors#error-${code}` });
const session = { reference: 'cs_1' };

describe('the client retries only what is safe to send again', () => {
  it('retries a create after a network error, a 5xx and a 409 idempotency_in_progress with one automatic key', async () => {
    const { sent, fetch } = scripted([new TypeError('fetch failed'), json(503, error(503, 'service_unavailable')), json(200, session)]);
    const svc = createSvcClient({ baseUrl: 'http://api.test', secretKey: 'sk_test_x', fetch });
    expect(await svc.sessions.create({ amountMinor: 100, currency: 'VES' })).toEqual(session);
    expect(sent).toHaveLength(3);
    expect(sent[0]!.idempotencyKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(sent.map((s) => s.idempotencyKey)).size).toBe(1);

    const inProgress = scripted([json(409, error(409, 'idempotency_in_progress'), { 'retry-after': '1' }), json(200, session)]);
    const again = createSvcClient({ baseUrl: 'http://api.test', secretKey: 'sk_test_x', fetch: inProgress.fetch });
    expect(await again.charges.create({ svcToken: 'tok', amountMinor: 100, currency: 'VES' }, { idempotencyKey: 'order-1' })).toEqual(session);
    expect(inProgress.sent.map((s) => s.idempotencyKey)).toEqual(['order-1', 'order-1']);
    // Retry-After: 1 is honoured (less a little for timer coarseness).
    expect(inProgress.sent[1]!.at - inProgress.sent[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('honours maxRetries, then throws the last answer', async () => {
    const { sent, fetch } = scripted([json(429, error(429, 'rate_limited'), { 'retry-after': '0' }), json(429, error(429, 'rate_limited'), { 'retry-after': '0' })]);
    const svc = createSvcClient({ baseUrl: 'http://api.test', secretKey: 'sk_test_x', fetch, maxRetries: 1 });
    const thrown = await svc.sessions.list().catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(SvcApiError);
    expect(thrown).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req_1' });
    expect(sent).toHaveLength(2);
  });

  it('never retries another 4xx, nor a POST without an Idempotency-Key', async () => {
    for (const [status, code] of [[400, 'parameter_invalid'], [401, 'invalid_api_key'], [404, 'resource_missing'], [409, 'idempotency_key_reused']] as const) {
      const { sent, fetch } = scripted([json(status, error(status, code)), json(200, session)]);
      const svc = createSvcClient({ baseUrl: 'http://api.test', secretKey: 'sk_test_x', fetch });
      await expect(svc.sessions.create({ amountMinor: 100, currency: 'VES' })).rejects.toMatchObject({ status, code });
      expect(sent).toHaveLength(1);
    }
    // Expiring a session is a POST with no key: a 5xx may have expired it already, so the caller decides.
    const { sent, fetch } = scripted([json(500, error(500, 'internal_error')), json(200, session)]);
    const svc = createSvcClient({ baseUrl: 'http://api.test', secretKey: 'sk_test_x', fetch });
    await expect(svc.sessions.expire('cs_1')).rejects.toMatchObject({ status: 500 });
    expect(sent).toHaveLength(1);
  });
});
