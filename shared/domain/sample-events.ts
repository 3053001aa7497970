/**
 * Sample events for the test operation of a webhook endpoint: each is made by the same builder as the real event,
 * from obviously false objects (txn_sample..., cs_sample..., tok_svc_sample..., ref_sample...), so it has the real shape and the
 * real nulls, plus data.sample true. A receiver that ships goods on charge.approved must check data.sample.
 * Pure: no I/O.
 */
import { declineReason, PROCESSOR_CODES } from './decline-codes.ts';
import { buildEvent, sessionExpiredEvent, type EventEnvelope, type EventType } from './events.ts';
import type { Mode } from './session-state.ts';
import { authenticationExpiredEvent, authenticationExpiringEvent, cardDeletedEvent, cardStoredEvent, verificationEstimate, type StoredCard } from './stored-card.ts';
import { newRefund, refundEvent, resolveRefund, type RefundResult } from './refund.ts';
import { chargeEvent, newTransaction, resolveTransaction, type TransactionResult } from './transaction.ts';

export const SAMPLE_REFERENCES = {
  transaction: 'txn_sample00000000000000000000',
  session: 'cs_sample00000000000000000000',
  svcToken: 'tok_svc_sample00000000000000000000',
  processor: 'SAMPLE-000000',
  refund: 'ref_sample00000000000000000000',
  refundProcessor: 'SAMPLE-RFD-000000',
  customerRef: 'cus_sample',
} as const;

export interface SampleContext {
  mode: Mode;
  /** Milliseconds since the epoch: the event's createdAt. */
  now: number;
  /** The endpoint the sample is sent to (webhook.test names it). */
  endpointId: string;
}

const rejected = (status: 'declined' | 'failed', code: string): TransactionResult => ({
  status,
  errorCode: code,
  declineReason: declineReason(code, status),
  detail: 'Sample event: nothing was charged.',
});

const CHARGE_RESULTS = {
  'charge.approved': { status: 'approved', processorReference: SAMPLE_REFERENCES.processor },
  'charge.declined': rejected('declined', PROCESSOR_CODES.INSUFFICIENT_FUNDS),
  'charge.failed': rejected('failed', PROCESSOR_CODES.PROCESSOR_ERROR),
} as const satisfies Record<string, TransactionResult>;

function sampleTransaction(type: keyof typeof CHARGE_RESULTS, { mode, now }: SampleContext) {
  const context = { merchantId: 'mer_sample', mode, sessionReference: SAMPLE_REFERENCES.session, gateway: 'bank_direct', amountMinor: 1050, currency: 'VES', now } as const;
  const pending = newTransaction({ reference: SAMPLE_REFERENCES.transaction }, context, { brand: 'visa', lastFour: '1111', expMonth: 12, expYear: 2030, holderName: 'Sample Holder' }, null);
  return resolveTransaction(pending, CHARGE_RESULTS[type], now);
}

const sampleCharge = (type: keyof typeof CHARGE_RESULTS, context: SampleContext, createdAt: string): EventEnvelope => chargeEvent(sampleTransaction(type, context), createdAt);

const REFUND_RESULTS = {
  'charge.refunded': { status: 'succeeded', processorReference: SAMPLE_REFERENCES.refundProcessor },
  'charge.refund_failed': { status: 'failed', errorCode: '0057', detail: 'Sample event: nothing was refunded.' },
} as const satisfies Record<string, RefundResult>;

/** A partial refund (500 of the sample charge's 1050), succeeded or failed. */
function sampleRefund(type: keyof typeof REFUND_RESULTS, context: SampleContext, createdAt: string): EventEnvelope {
  const approved = sampleTransaction('charge.approved', context);
  const pending = newRefund(SAMPLE_REFERENCES.refund, approved, { amountMinor: 500, method: 'refund' }, 'requested_by_customer', context.now);
  return refundEvent(resolveRefund(pending, REFUND_RESULTS[type], context.now), approved, type === 'charge.refunded' ? 500 : 0, createdAt);
}

function sampleCard(mode: Mode, now: number, verification: 'active' | 'requires_authentication'): StoredCard {
  const authenticatedAt = now - 80 * 86_400_000;
  return {
    id: 'card_sample',
    svcToken: SAMPLE_REFERENCES.svcToken,
    merchantId: 'mer_sample',
    mode,
    status: 'active',
    customerRef: SAMPLE_REFERENCES.customerRef,
    gateway: 'bank_otp',
    brand: 'visa',
    lastFour: '1111',
    expMonth: 12,
    expYear: 2030,
    holderName: 'Sample Holder',
    documentType: 'V',
    documentId: '00000000',
    vaultRef: 'sample',
    encryptedNumber: 'sample',
    fingerprint: 'sample',
    createdAt: new Date(authenticatedAt).toISOString(),
    deletedAt: null,
    gatewayAuthStatus: verification,
    gatewayAuthenticatedAt: new Date(authenticatedAt).toISOString(),
    gatewayAuthExpiresAt: new Date(verificationEstimate(authenticatedAt)).toISOString(),
    authNoticesSent: [],
    version: 1,
  };
}

function realShaped(type: EventType, context: SampleContext, createdAt: string): EventEnvelope {
  const { mode, now, endpointId } = context;
  const otp = { sessionReference: SAMPLE_REFERENCES.session, transactionReference: SAMPLE_REFERENCES.transaction };
  switch (type) {
    case 'charge.approved':
    case 'charge.declined':
    case 'charge.failed':
      return sampleCharge(type, context, createdAt);
    case 'charge.refunded':
    case 'charge.refund_failed':
      return sampleRefund(type, context, createdAt);
    case 'card.stored':
      return cardStoredEvent(sampleCard(mode, now, 'active'), createdAt);
    case 'card.deleted':
      return cardDeletedEvent({ ...sampleCard(mode, now, 'active'), status: 'deleted', deletedAt: createdAt }, createdAt);
    case 'card.authentication_expiring':
      return authenticationExpiringEvent(sampleCard(mode, now, 'active'), 7, createdAt);
    case 'card.authentication_expired':
      return authenticationExpiredEvent(sampleCard(mode, now, 'requires_authentication'), SAMPLE_REFERENCES.transaction, createdAt);
    case 'session.otp_requested':
    case 'session.otp_confirmed':
      return buildEvent(type, mode, createdAt, otp);
    case 'session.expired':
      return sessionExpiredEvent({ reference: SAMPLE_REFERENCES.session, mode, failureCount: 0, maxFailures: null }, 'expired', createdAt);
    case 'webhook.test':
      return buildEvent('webhook.test', mode, createdAt, { endpointId, message: 'Test event sent with POST /v1/webhooks/endpoints/{id}/test.' });
  }
}

/**
 * @example
 * sampleEvent('charge.approved', { mode: 'test', now: Date.now(), endpointId: 'we_1' }).data
 * // { transactionReference: 'txn_sample...', status: 'approved', declineReason: null, ..., sample: true }
 */
export function sampleEvent(type: EventType, context: SampleContext): EventEnvelope {
  const event = realShaped(type, context, new Date(context.now).toISOString());
  return { ...event, data: { ...event.data, sample: true } };
}
