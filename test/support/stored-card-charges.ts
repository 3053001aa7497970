import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { chargeReference } from '../../functions/charges/create-charge.ts';
import { loadBankCredentials } from '../../shared/admin/bank-credentials.ts';
import { newTransaction, type Transaction } from '../../shared/domain/transaction.ts';
import { requestFingerprint } from '../../shared/http/middlewares/idempotency.ts';
import { routes } from '../../shared/routes.ts';
import { card, checkoutCharge, openSession, TEST_CARDS } from './checkout.ts';
import type { TestResponse, TestSandbox } from './sandbox.ts';

/** A live merchant on the OTP bank (the gateway that charges stored cards without CVV), with its credentials. */
export async function otpMerchant(sandbox: TestSandbox) {
  const created = await sandbox.newMerchant({ changes: { gateways: { VES: 'bank_otp', USD: 'card_processor' } } });
  await loadBankCredentials(sandbox.deps, created.merchant.id, 'bank_otp', JSON.stringify({ apiKey: 'otp-key' }));
  return created;
}

/** The customer pays once in the checkout and confirms the OTP: the card is stored and verified. */
export async function payWithOtp(sandbox: TestSandbox, key: string, customerRef: string, number: string = TEST_CARDS.mastercard) {
  const session = await openSession(sandbox, key, { customerRef });
  const charged = await checkoutCharge(sandbox, session.reference, { card: card(number) });
  const confirmed = await sandbox.request('POST', '/v1/checkout/otp', {
    body: { sessionReference: session.reference, transactionReference: charged.body.transaction.reference, code: '123456' },
  });
  expect(confirmed.body.transaction.status).toBe('approved');
  return session;
}

/** The one card stored for this customer. */
export async function storedCard(sandbox: TestSandbox, key: string, customerRef: string) {
  const list = await sandbox.request('GET', `/v1/cards?customerRef=${customerRef}`, { key });
  expect(list.body).toHaveLength(1);
  return list.body[0];
}

/** POST /v1/charges of 2500 VES unless the body says otherwise; a fresh Idempotency-Key unless given (null: none). */
export const serverCharge = (sandbox: TestSandbox, key: string, body: Record<string, unknown>, idempotencyKey: string | null = randomUUID()): Promise<TestResponse> =>
  sandbox.request('POST', '/v1/charges', { key, body: { amountMinor: 2500, currency: 'VES', ...body }, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });

/**
 * A POST /v1/charges whose process died after claiming its Idempotency-Key and writing its pending transaction,
 * before the bank heard of it (2500 VES of the Mastercard stored by payWithOtp). Returns that transaction.
 */
export async function diedCharge(sandbox: TestSandbox, merchantId: string, svcToken: string, key: string): Promise<Transaction> {
  const body = { amountMinor: 2500, currency: 'VES', svcToken };
  const scope = { merchantId, mode: 'live' as const, operation: 'POST /v1/charges', key };
  await sandbox.deps.idempotency.claim(scope, await requestFingerprint(routes.createCharge, '/v1/charges', body), sandbox.clock.now());
  const died: Transaction = {
    ...newTransaction(
      { reference: chargeReference(scope) },
      { merchantId, mode: 'live', sessionReference: null, gateway: 'bank_otp', amountMinor: 2500, currency: 'VES', now: sandbox.clock.now() },
      { brand: 'mastercard', lastFour: '4444', expMonth: 12, expYear: 2030, holderName: 'Ana Pérez' },
      null,
    ),
    svcToken,
  };
  await sandbox.deps.charges.commit([sandbox.deps.transactions.putItem(died, { isNew: true })]);
  return died;
}
