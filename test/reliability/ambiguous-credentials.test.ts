/**
 * Issue 17 finding 7: two Authorization headers, each another merchant's key, ran as the merchant of the last one.
 * Sent on a raw socket (fetch would join them into one header), as API Gateway would receive them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSession } from '../support/checkout.ts';
import { socketRequest } from '../support/raw-request.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('ambiguous credentials', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  const get = (path: string, authorizations: [string, string][]) =>
    socketRequest(sandbox.url, `GET ${path} HTTP/1.1\r\nHost: sandbox\r\n${authorizations.map(([name, value]) => `${name}: ${value}\r\n`).join('')}Connection: close\r\n\r\n`);

  it('refuses two Authorization headers with 401, whatever their order or spelling, and runs nothing', async () => {
    const first = await sandbox.newMerchant();
    const second = await sandbox.newMerchant();
    const session = await openSession(sandbox, second.keys.secretTest);

    const alone = await get(`/v1/sessions/${session.reference}`, [['Authorization', `Bearer ${second.keys.secretTest}`]]);
    expect(alone.status).toBe(200);

    for (const pair of [
      [['Authorization', `Bearer ${first.keys.secretTest}`], ['Authorization', `Bearer ${second.keys.secretTest}`]],
      [['Authorization', `Bearer ${second.keys.secretTest}`], ['Authorization', `Bearer ${first.keys.secretTest}`]],
      [['authorization', `Bearer ${first.keys.secretTest}`], ['AUTHORIZATION', `Bearer ${second.keys.secretTest}`]],
      [['Authorization', `Bearer ${second.keys.secretTest}`], ['Authorization', `Bearer ${second.keys.secretTest}`]],
    ] as [string, string][][]) {
      const answer = await get(`/v1/sessions/${session.reference}`, pair);
      expect(answer.status, answer.text).toBe(401);
      expect(answer.body).toMatchObject({ statusCode: 401, code: 'invalid_api_key' });
      expect(answer.text).not.toContain(session.reference);
    }
  });

  it('refuses two publishable keys on a checkout read with 401', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    const answer = await get(`/v1/checkout/sessions/${session.reference}`, [
      ['Authorization', `Bearer ${keys.publishableTest}`],
      ['Authorization', `Bearer ${keys.publishableTest}`],
    ]);
    expect(answer.status).toBe(401);
  });
});
