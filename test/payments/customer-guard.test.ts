/**
 * Issue 17 finding 2, the customer guard: a stored card pays only for its own customer, in a cardToken session as in
 * POST /v1/charges.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { card, checkoutCharge, openSession, TEST_CARDS } from '../support/checkout.ts';
import { itemsOfMerchant } from '../support/dynamo.ts';
import { startTestSandbox, type TestSandbox } from '../support/sandbox.ts';

describe('the customer guard of stored cards', () => {
  let sandbox: TestSandbox;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
  });
  afterAll(() => sandbox?.stop());

  /** A merchant whose customer cus_owner paid once: their card is stored. */
  async function storedCardOfOwner() {
    const { merchant, keys } = await sandbox.newMerchant();
    const paying = await openSession(sandbox, keys.secretTest, { customerRef: 'cus_owner' });
    expect((await checkoutCharge(sandbox, paying.reference, { card: card(TEST_CARDS.visa) })).body.transaction.status).toBe('approved');
    const cards = await sandbox.request('GET', '/v1/cards?customerRef=cus_owner', { key: keys.secretTest });
    return { merchant, keys, svcToken: cards.body[0].svcToken as string };
  }

  it("refuses a cardToken session for another customerRef with 409 customer_mismatch and creates nothing", async () => {
    const { merchant, keys, svcToken } = await storedCardOfOwner();
    const sessionsBefore = (await itemsOfMerchant(merchant.id)).filter((i) => i.type === 'session').length;

    const refused = await sandbox.request('POST', '/v1/sessions', { key: keys.secretTest, body: { amountMinor: 900, currency: 'VES', cardToken: svcToken, customerRef: 'someone-else' } });

    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ statusCode: 409, code: 'customer_mismatch' });
    expect((await itemsOfMerchant(merchant.id)).filter((i) => i.type === 'session')).toHaveLength(sessionsBefore);
  });

  it("accepts the card's own customerRef, and inherits it when omitted", async () => {
    const { keys, svcToken } = await storedCardOfOwner();
    const same = await openSession(sandbox, keys.secretTest, { cardToken: svcToken, customerRef: 'cus_owner' });
    const inherited = await openSession(sandbox, keys.secretTest, { cardToken: svcToken });
    expect(same.customerRef).toBe('cus_owner');
    expect(inherited.customerRef).toBe('cus_owner');
  });
});
