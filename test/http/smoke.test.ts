import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('sandbox', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('creates and reads back a session through the HTTP front', async () => {
    const { keys } = await sandbox.newMerchant();
    const created = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 1050, currency: 'VES' } });
    expect(created.status).toBe(201);
    const read = await sandbox.request('GET', `/v1/sessions/${created.body.reference}`, { key: keys.secretTest });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });
});
