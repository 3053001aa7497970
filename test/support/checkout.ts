import { randomUUID } from 'node:crypto';
import type { TestResponse, TestSandbox } from './sandbox.ts';

export const TEST_CARDS = {
  visa: '4111111111111111',
  mastercard: '5555555555554444',
  insufficientFunds: '4000000000000002',
  wrongCvv: '4000000000000127',
  processorError: '4000000000000119',
  lostCard: '4000000000009961',
  stolenCard: '4000000000009979',
  otp: '4000000000003220',
  timeout: '4000000000009995',
} as const;

export const DOCUMENT = { type: 'V', id: '12.345.678' };

export const card = (number: string, overrides: Record<string, unknown> = {}) => ({
  number,
  expMonth: 12,
  expYear: 2030,
  cvv: '123',
  holderName: 'Ana Pérez',
  ...overrides,
});

/** A session created with the secret key; the body defaults to 1050 VES. */
export async function openSession(sandbox: TestSandbox, key: string, body: Record<string, unknown> = {}): Promise<any> {
  const res = await sandbox.request('POST', '/v1/sessions', { key, body: { amountMinor: 1050, currency: 'VES', ...body } });
  if (res.status !== 201) throw new Error(`session not created: ${res.status} ${res.text}`);
  return res.body;
}

/** POST /v1/checkout/charge as the buyer's browser: no key unless given, a fresh Idempotency-Key unless given. */
export function checkoutCharge(
  sandbox: TestSandbox,
  sessionReference: string,
  payment: { card?: Record<string, unknown>; document?: Record<string, unknown> | null } = {},
  options: { idempotencyKey?: string; key?: string } = {},
): Promise<TestResponse> {
  const body: Record<string, unknown> = { sessionReference, card: payment.card ?? card(TEST_CARDS.visa) };
  if (payment.document !== null) body.document = payment.document ?? DOCUMENT;
  return sandbox.request('POST', '/v1/checkout/charge', {
    key: options.key,
    body,
    headers: { 'idempotency-key': options.idempotencyKey ?? randomUUID() },
  });
}

/**
 * The merchant's events about one session, from the outbox, oldest first. Events written in one transaction share
 * their createdAt and have no order among themselves: compare those as sets.
 */
export async function eventsOf(sandbox: TestSandbox, merchantId: string, mode: 'test' | 'live', sessionReference: string) {
  const events = await sandbox.deps.outbox.listForMerchant(merchantId, mode);
  return events
    .map((e) => e.envelope)
    .filter((e) => (e.data as { sessionReference?: string }).sessionReference === sessionReference)
    .reverse();
}
