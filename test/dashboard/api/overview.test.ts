import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBankCredentials } from '../../../shared/admin/bank-credentials.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../../support/checkout.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser } from './dashboard-users.ts';

describe('dashboard overview', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox.stop());

  it("sums today's and the 30 days' live payments per currency with a daily series and the recent failures; test payments are left out", async () => {
    const { merchant, keys } = await sandbox.newMerchant();
    await loadBankCredentials(sandbox.deps, merchant.id, 'bank_direct', JSON.stringify({ apiKey: 'live-key' }));
    const approved = await openSession(sandbox, keys.secretLive, { amountMinor: 1050 });
    expect((await checkoutCharge(sandbox, approved.reference, { card: card(TEST_CARDS.visa) })).body.transaction.status).toBe('approved');
    const declined = await openSession(sandbox, keys.secretLive, { amountMinor: 700, maxFailures: 0 });
    await checkoutCharge(sandbox, declined.reference, { card: card(TEST_CARDS.insufficientFunds) });
    const testPayment = await openSession(sandbox, keys.secretTest, { amountMinor: 99_999 });
    await checkoutCharge(sandbox, testPayment.reference, { card: card(TEST_CARDS.visa) });

    const reader = await signedInUser(sandbox, merchant.id, 'read_only');
    const res = await reader.request('GET', '/v1/dashboard/overview?tz=America/Caracas', { mode: 'test' });
    expect(res.status, res.text).toBe(200);
    const ves = res.body.currencies.find((c: { currency: string }) => c.currency === 'VES');
    expect(ves.today).toEqual({ approvedAmountMinor: 1050, approvalRate: 0.5, count: 2 });
    expect(ves.last30Days).toEqual({ approvedAmountMinor: 1050, approvalRate: 0.5, count: 2 });
    expect(ves.daily).toHaveLength(30);
    expect(ves.daily.at(-1)).toMatchObject({ approvedAmountMinor: 1050, approved: 1, declined: 1, failed: 0 });
    expect(ves.daily.slice(0, -1).every((d: { approved: number; declined: number }) => d.approved + d.declined === 0)).toBe(true);
    expect(res.body.currencies.find((c: { currency: string }) => c.currency === 'USD').last30Days.count).toBe(0);
    expect(res.body.recentFailures).toHaveLength(1);
    expect(res.body.recentFailures[0]).toMatchObject({ sessionReference: declined.reference, status: 'declined', declineReason: expect.any(String) });

    const bad = await reader.request('GET', '/v1/dashboard/overview?tz=Mars/Olympus');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('tz');
  });
});
