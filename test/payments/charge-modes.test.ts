import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { checkoutCharge, openSession } from '../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('test and live mode at charge time', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it('refuses a live charge without loaded bank credentials with 409, never falling back to the test environment', async () => {
    const { keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretLive);

    const res = await checkoutCharge(sandbox, session.reference);

    expect(res.status).toBe(409);
    expect(res.body.code).toBe('bank_credentials_missing');
    expect(sandbox.bank.calls({ environment: 'test' }).filter((c) => c.reference.startsWith('txn_'))).toEqual([]);
    const read = await sandbox.request('GET', `/v1/sessions/${session.reference}`, { key: keys.secretLive });
    expect(read.body).toMatchObject({ status: 'created', attemptCount: 0 });
  });

  it('sends a live charge to the live environment with the merchant credentials and does not flag it test', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'direct-key' }));
    const session = await openSession(sandbox, keys.secretLive);

    const res = await checkoutCharge(sandbox, session.reference);

    expect(res.body.transaction).toMatchObject({ status: 'approved', test: false });
    expect(sandbox.bank.calls({ reference: res.body.transaction.reference })).toEqual([
      { gateway: 'bank_direct', environment: 'live', operation: 'charge', reference: res.body.transaction.reference },
    ]);
  });

  it('refuses a test charge with 409 once test mode was switched off after the session was created', async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    const session = await openSession(sandbox, keys.secretTest);
    await sandbox.deps.merchants.update(merchant.id, { testMode: { bank_direct: false } });

    const res = await checkoutCharge(sandbox, session.reference);

    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'test_mode_off' });
    expect(res.body.message).toContain('live');
  });
});
